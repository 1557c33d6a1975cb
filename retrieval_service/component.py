"""Wires RetrievalService for the server bootstrap. It owns no durable
tables (MIGRATIONS = None): its state is the resident index, rebuilt from or
persisted beside the journal, which it follows over gRPC; Recall's visibility
re-read goes straight to the journal's database when the URL is known
(retrieval_service.direct)."""

from __future__ import annotations

from engram.channels import open_channel
from engram.embedder_cache import shared_embedder
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import BuildContext, ServiceBinding
from retrieval_service.runtime import RetrievalRuntime
from retrieval_service.servicer import SERVICE, RetrievalServicer

MIGRATIONS = None


def build(ctx: BuildContext) -> ServiceBinding:
    settings = ctx.settings
    channel = open_channel(ctx.journal_addr, settings.service_token)
    runtime = RetrievalRuntime(
        settings, channel, shared_embedder(settings.embedder), ctx.database_url
    )
    return ServiceBinding(
        name="retrieval",
        service_full_name=SERVICE,
        servicer=RetrievalServicer(runtime),
        add_to_server=rgrpc.add_RetrievalServiceServicer_to_server,  # type: ignore[arg-type]
        start=runtime.start,
        drain=runtime.drain,
        stop=runtime.stop,
    )
