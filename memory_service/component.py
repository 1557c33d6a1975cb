"""Wires JournalService for the server bootstrap."""

from __future__ import annotations

from pathlib import Path

from engram.db import Database
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.server import BuildContext, ServiceBinding
from memory_service.feed import FeedNotifier
from memory_service.journal import Journal
from memory_service.servicer import METHOD_ROLES, SERVICE, FoundationRpcs

MIGRATIONS = Path(__file__).with_name("migrations")


class JournalServicer(FoundationRpcs):
    """Every JournalService RPC; each plane contributes a mixin."""


def build(ctx: BuildContext) -> ServiceBinding:
    db = Database(ctx.database_url, max_size=ctx.settings.pool_max_size, name="journal").open()
    notifier = FeedNotifier(ctx.database_url)
    servicer = JournalServicer(db, Journal(db), notifier)

    def stop() -> None:
        notifier.stop()
        db.close()

    return ServiceBinding(
        name="journal",
        service_full_name=SERVICE,
        servicer=servicer,
        add_to_server=pb_grpc.add_JournalServiceServicer_to_server,  # type: ignore[arg-type]
        method_roles=METHOD_ROLES,
        start=notifier.start,
        stop=stop,
    )
