"""Wires LearningService for the server bootstrap: the servicer, the
counter flusher, and the capture and review workers when
settings.workers_enabled. Before it serves, the stored term sets of
learnings are brought up to date (learning_service.term_index.backfill: the
migration 0004 backfill, and a normaliser version change)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engram.background import BackgroundLoop
from engram.db import Database
from engram.downstream import deadline_seconds
from engram.learning.v1 import learning_pb2_grpc as pb_grpc
from engram.pending_counters import FLUSH_SECONDS, PendingCounters
from engram.server import BuildContext, ServiceBinding
from learning_service import term_index
from learning_service.candidates import CandidateBook
from learning_service.capture import CaptureWorker
from learning_service.context import ContextReader
from learning_service.journal_client import JournalClient
from learning_service.learnings import LearningBook
from learning_service.plugins import ExtractorClient, JudgeClients
from learning_service.policy_store import PolicyStore
from learning_service.quarantine import SourceQuarantine, quarantine_source
from learning_service.review import Reviewer
from learning_service.servicer import SERVICE, LearningServicer
from learning_service.skills import SkillBook
from learning_service.store import Q

MIGRATIONS = Path(__file__).with_name("migrations")


def build(ctx: BuildContext) -> ServiceBinding:
    settings = ctx.settings
    db = Database(ctx.database_url, max_size=settings.pool_max_size, name="learning").open()
    journal = JournalClient(ctx.journal_addr, settings.service_token, deadline_seconds(settings))
    # The learned context reads the journal's quarantine tables when they are
    # in this database (learning_service.quarantine).
    source = quarantine_source(db, settings.learning_quarantine_state)
    quarantine = SourceQuarantine(db, journal, source)
    term_index.backfill(db)
    counters = PendingCounters(db, Q["counter_add"])
    counter_loop = BackgroundLoop("learning-counters", counters.step, idle_seconds=FLUSH_SECONDS)
    judges = JudgeClients(settings.service_token)
    extractor = (
        ExtractorClient(settings.extractor_addr, settings.service_token)
        if settings.extractor_addr
        else None
    )

    start_hooks: list[Callable[[], None]] = []
    drain_hooks: list[Callable[[], None]] = []
    stop_hooks: list[Callable[[], None]] = []
    wake_reviewer: Callable[[], None] = lambda: None  # noqa: E731 - no reviewer to wake

    if settings.workers_enabled:
        reviewer = Reviewer(db, judges, journal, quarantine)
        review_loop = BackgroundLoop("learning-review", reviewer.step)
        capture = CaptureWorker(db, journal, extractor, review_loop.wake)
        capture_loop = BackgroundLoop("learning-capture", capture.step, on_stop=capture.cancel)
        wake_reviewer = review_loop.wake
        start_hooks += [review_loop.start, capture_loop.start]
        drain_hooks += [capture_loop.stop, review_loop.stop]

    start_hooks.append(counter_loop.start)
    # After in-flight reads have drained, so the last flush has their counts.
    stop_hooks += [counter_loop.stop, counters.flush, journal.close, judges.close]
    if extractor is not None:
        stop_hooks.append(extractor.close)
    stop_hooks.append(db.close)

    servicer = LearningServicer(
        candidates=CandidateBook(db),
        learnings=LearningBook(db),
        policies=PolicyStore(db),
        reader=ContextReader(db, counters, quarantine),
        skills=SkillBook(db, journal),
        quarantine=quarantine,
        on_new_candidate=wake_reviewer,
    )

    def start() -> None:
        for hook in start_hooks:
            hook()

    def drain() -> None:
        for hook in drain_hooks:
            hook()

    def stop() -> None:
        for hook in stop_hooks:
            hook()

    return ServiceBinding(
        name="learning",
        service_full_name=SERVICE,
        servicer=servicer,
        add_to_server=pb_grpc.add_LearningServiceServicer_to_server,  # type: ignore[arg-type]
        start=start,
        drain=drain,
        stop=stop,
    )
