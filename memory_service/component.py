"""Wires JournalService for the server bootstrap."""

from __future__ import annotations

from pathlib import Path

from engram.background import BackgroundLoop
from engram.db import Database
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.metrics import EMBEDDING_BACKLOG
from engram.pending_counters import FLUSH_SECONDS, PendingCounters
from engram.server import BuildContext, ServiceBinding
from memory_service import feed, receipt_rpcs, run_memory_rpcs, search_rpcs, transcript_rpcs
from memory_service.feed import FeedNotifier
from memory_service.journal import Journal
from memory_service.planes import Lifecycle, PlaneContext
from memory_service.read_replica import ReadRouter
from memory_service.receipt_rpcs import ReceiptRpcs
from memory_service.run_memory_rpcs import RunMemoryRpcs
from memory_service.search_rpcs import SearchRpcs
from memory_service.servicer import SERVICE, FoundationRpcs
from memory_service.store import Q
from memory_service.transcript_rpcs import TranscriptRpcs

MIGRATIONS = Path(__file__).with_name("migrations")


class JournalServicer(TranscriptRpcs, RunMemoryRpcs, SearchRpcs, ReceiptRpcs, FoundationRpcs):
    """Every JournalService RPC; each plane contributes a mixin. Mixins read
    self.plane (PlaneContext) and chain extend_status() through super()."""

    def __init__(self, plane: PlaneContext) -> None:
        FoundationRpcs.__init__(
            self, plane.db, plane.journal, plane.notifier, plane.reads, plane.counters
        )
        self.plane = plane


def embedding_backlog(db: Database) -> int:
    """Episodes waiting for their vector (read when /metrics is scraped)."""
    with db.connection() as conn:
        row = conn.execute(Q["embedding_backlog"]).fetchone()
    return int(row["n"]) if row is not None else 0


def _standby(ctx: BuildContext) -> Database | None:
    """The read replica's pool, when one is configured. Opened without
    waiting: a standby that is down at start is read from once it is up, and
    the primary serves meanwhile (memory_service/read_replica.py)."""
    url = ctx.settings.read_database_url
    if not url:
        return None
    return Database(url, max_size=ctx.settings.pool_max_size, name="journal_standby").open(
        wait=False
    )


def build(ctx: BuildContext) -> ServiceBinding:
    db = Database(ctx.database_url, max_size=ctx.settings.pool_max_size, name="journal").open()
    notifier = FeedNotifier(ctx.database_url)
    # Before anything appends: new cursors stay above every stored one.
    feed.align_cursor_base(db)
    journal = Journal(db, announce=notifier.announce)
    reads = ReadRouter(db, _standby(ctx))
    counters = PendingCounters(db, Q["counter_add"])
    counter_loop = BackgroundLoop("journal-counters", counters.step, idle_seconds=FLUSH_SECONDS)
    plane = PlaneContext(
        ctx=ctx, db=db, journal=journal, notifier=notifier, reads=reads, counters=counters
    )
    # The notifier is stopped at drain: that ends every following
    # StreamChanges, so shutdown does not wait out the grace period.
    lifecycle = Lifecycle(start=[notifier.start, counter_loop.start], stop=[])
    if reads.standby is not None:
        lifecycle.stop += [reads.track_lag(), reads.standby.close]
    for module in (run_memory_rpcs, search_rpcs, receipt_rpcs, transcript_rpcs):
        module.attach(plane, lifecycle)
    lifecycle.stop.insert(0, EMBEDDING_BACKLOG.track(lambda: embedding_backlog(db)))
    # After in-flight calls have drained, so the last flush has their counts.
    lifecycle.stop += [counter_loop.stop, counters.flush, db.close]

    def start() -> None:
        for hook in lifecycle.start:
            hook()

    def stop() -> None:
        for hook in lifecycle.stop:
            hook()

    return ServiceBinding(
        name="journal",
        service_full_name=SERVICE,
        servicer=JournalServicer(plane),
        add_to_server=pb_grpc.add_JournalServiceServicer_to_server,  # type: ignore[arg-type]
        start=start,
        drain=notifier.stop,
        stop=stop,
    )
