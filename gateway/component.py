"""Wires GatewayService for the server bootstrap. The gateway owns no schema: what it
must keep (assembled contexts, verdicts) goes to JournalService."""

from __future__ import annotations

from engram.downstream import ContextThreadPool
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.server import BuildContext, ServiceBinding
from gateway.downstream import Planes
from gateway.service import GatewayService
from gateway.servicer import SERVICE, GatewayServicer

MIGRATIONS = None


def build(ctx: BuildContext) -> ServiceBinding:
    settings = ctx.settings
    planes = Planes(
        ctx.journal_addr,
        ctx.learning_addr,
        ctx.retrieval_addr,
        settings.service_token,
        settings.downstream_timeout_ms,
        settings.retrieval_routes(),
    )
    # Downstream fan-out runs here, not on the RPC threads, in the caller's context.
    executor = ContextThreadPool(
        max_workers=max(8, settings.max_workers), thread_name_prefix="gateway-fanout"
    )
    service = GatewayService(planes, executor, settings.service_token)

    def stop() -> None:
        executor.shutdown(wait=False, cancel_futures=True)
        planes.close()

    return ServiceBinding(
        name="gateway",
        service_full_name=SERVICE,
        servicer=GatewayServicer(service),
        add_to_server=gpb_grpc.add_GatewayServiceServicer_to_server,  # type: ignore[arg-type]
        stop=stop,
    )
