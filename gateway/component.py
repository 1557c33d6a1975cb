"""Wires GatewayService for the server bootstrap. The gateway owns no schema: what it
must keep (assembled contexts, verdicts) goes to JournalService."""

from __future__ import annotations

import logging
import threading

from engram.downstream import ContextThreadPool
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.server import BuildContext, ServiceBinding
from gateway import claim_model
from gateway.claims import find_claims
from gateway.downstream import Planes
from gateway.service import GatewayService
from gateway.servicer import SERVICE, GatewayServicer

MIGRATIONS = None
log = logging.getLogger("engram.gateway")


def _load_the_gate() -> None:
    """The classifier, its engine and the rules' tables, loaded once per process before
    the first ReleaseResponse needs them (off the serving threads)."""
    try:
        claim_model.load()
        find_claims("You never told me about it, and I found nothing.")
    except Exception:  # the first request loads them then, and reports what fails
        log.exception("loading the release gate's classifier failed")


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
    threading.Thread(target=_load_the_gate, name="gateway-gate-load", daemon=True).start()

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
