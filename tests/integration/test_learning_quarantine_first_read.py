"""A quarantine acknowledged before a learned-context read starts is honoured
by that read, on both ways the read learns the journal's quarantine state,
while the change feed cannot deliver the quarantine (held back by an older
open transaction, the frontier of memory_service/feed.py):

* "journal": the learning service shares the journal's database and its one
  statement reads the journal's quarantine tables (no StreamChanges call);
* "copy" (learning_quarantine_state = feed): the plane's copy, brought up to
  date over StreamChanges; with the feed held back the read fails closed
  (UNAVAILABLE) rather than answer from a stale copy.

And the first read after Restore sees the learning again, on both."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as pb
from learning_service.context import ContextReader
from learning_service.model import Scope, ScopeKind
from learning_service.quarantine import PendingChanges, SourceQuarantine, quarantine_source
from tests.integration.test_learning_support import (
    candidate,
    complete_run,
    error_info,
    fails,
    publish,
    stubs,
)

pytestmark = pytest.mark.integration

SUBJECT = "u1"
SESSION = "s1"
WORD = "wombatlighthouse"


class UnusableFeed:
    """A change feed that must not be needed: asking it fails the test."""

    def begin_quarantine_changes(self, after_cursor: int) -> PendingChanges:
        raise AssertionError("the journal's change feed was asked")


@contextmanager
def feed_held_back(database_url: str) -> Iterator[None]:
    """An open transaction with an id: the feed's frontier stays below every
    change committed while it is open."""
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("BEGIN")
        conn.execute("SELECT pg_current_xact_id()")
        try:
            yield
        finally:
            conn.execute("ROLLBACK")


def seed(suite: Any, channel: grpc.Channel, mark: str) -> tuple[str, str, int]:
    """A published learning whose source is a completed run: (learning id,
    run id, run.completed event id)."""
    s = stubs(channel)
    run_id = f"run-{uuid.uuid4().hex[:8]}"
    done = complete_run(s.journal, run_id, f"file the {WORD} {mark}", session_id=SESSION)
    created = candidate(
        s.learning,
        f"The {WORD} {mark} report is filed on Fridays.",
        scope=cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id=SESSION),
        source=pb.Source(
            run_id=run_id, session_id=SESSION, subject=SUBJECT, event_id=done.event_id
        ),
    )
    learning = publish(s.learning, created.candidate_id)
    return learning.learning_id, run_id, done.event_id


def served(channel: grpc.Channel, mark: str) -> list[str]:
    response = stubs(channel).learning.GetLearnedContext(
        pb.GetLearnedContextRequest(
            subject=SUBJECT, session_id=SESSION, pending_input=f"When is the {WORD} {mark} filed?"
        )
    )
    return [e.learning.learning_id for e in response.entries]


def quarantine(channel: grpc.Channel, kind: jpb.RecordKind.ValueType, record_id: str) -> None:
    stubs(channel).journal.Quarantine(
        jpb.QuarantineRequest(record_kind=kind, record_id=record_id, reason="test")
    )


def restore(channel: grpc.Channel, kind: jpb.RecordKind.ValueType, record_id: str) -> None:
    stubs(channel).journal.Restore(
        jpb.RestoreRequest(record_kind=kind, record_id=record_id, reason="test")
    )


KINDS = [("run_record", jpb.RECORD_KIND_RUN_RECORD), ("event", jpb.RECORD_KIND_EVENT)]


@pytest.mark.parametrize(("name", "kind"), KINDS, ids=[k[0] for k in KINDS])
def test_journal_tables_honour_a_quarantine_the_feed_holds_back(
    start_services: Any,
    channel_to: Any,
    database_url: str,
    name: str,
    kind: jpb.RecordKind.ValueType,
) -> None:
    suite = start_services(["journal", "learning"], workers_enabled=False)
    channel = channel_to(suite)
    learning_id, run_id, event_id = seed(suite, channel, name)
    record_id = run_id if name == "run_record" else str(event_id)
    assert served(channel, name) == [learning_id]

    with feed_held_back(database_url):
        quarantine(channel, kind, record_id)
        # The feed cannot deliver the quarantine yet; the read needs no feed.
        assert served(channel, name) == []
        restore(channel, kind, record_id)
        assert served(channel, name) == [learning_id]
        quarantine(channel, kind, record_id)
        assert served(channel, name) == []
    assert served(channel, name) == []


def test_the_journal_path_never_asks_the_feed(
    start_services: Any, channel_to: Any, database_url: str
) -> None:
    """In process: the reader with a feed that fails if asked, against a
    quarantine committed through the journal's RPC."""
    suite = start_services(["journal", "learning"], workers_enabled=False)
    channel = channel_to(suite)
    learning_id, run_id, _ = seed(suite, channel, "inproc")
    binding = next(b for b in suite.bindings if b.name == "learning")
    db = binding.servicer.reader.db
    assert quarantine_source(db) == "journal"
    assert quarantine_source(db, "feed") == "copy"
    reader = ContextReader(db, quarantine=SourceQuarantine(db, UnusableFeed(), "journal"))

    def ids() -> list[str]:
        context = reader.learned_context(
            [Scope(ScopeKind.SESSION, SESSION)],
            f"When is the {WORD} inproc filed?",
            8,
            subject=SUBJECT,
            workspace="default",
        )
        return [str(e.row["learning_id"]) for e in context.entries]

    assert ids() == [learning_id]
    with feed_held_back(database_url):
        quarantine(channel, jpb.RECORD_KIND_RUN_RECORD, run_id)
        assert ids() == []
        restore(channel, jpb.RECORD_KIND_RUN_RECORD, run_id)
        assert ids() == [learning_id]


def test_the_copy_fails_closed_while_the_feed_holds_a_quarantine_back(
    start_services: Any, channel_to: Any, database_url: str
) -> None:
    suite = start_services(
        ["journal", "learning"],
        workers_enabled=False,
        learning_quarantine_state="feed",
        downstream_timeout_ms=500,
    )
    channel = channel_to(suite)
    learning_id, run_id, _ = seed(suite, channel, "copy")
    assert served(channel, "copy") == [learning_id]

    with feed_held_back(database_url):
        quarantine(channel, jpb.RECORD_KIND_RUN_RECORD, run_id)
        err = fails(lambda: served(channel, "copy"))
        assert err.code() == grpc.StatusCode.UNAVAILABLE
        assert error_info(err).reason == "QUARANTINE_STATE_UNAVAILABLE"
    assert served(channel, "copy") == []
    restore(channel, jpb.RECORD_KIND_RUN_RECORD, run_id)
    assert served(channel, "copy") == [learning_id]
