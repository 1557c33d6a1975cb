"""The learning plane's copy of the journal's quarantine state
(learning_service.quarantine): changes apply in any order without going
back, the cursor only moves forward, and a read that cannot reach the
journal fails closed. The reach of quarantine itself, path by path, is
tests/e2e/test_quarantine_reach.py."""

from __future__ import annotations

import socket
from typing import Any

import grpc
import pytest

from engram.db import Database
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import learning_pb2_grpc as pb_grpc
from learning_service.quarantine import CURSOR, QuarantineChange, SourceQuarantine
from learning_service.store import cursor_position
from tests.integration.test_learning_support import error_info, fails

pytestmark = pytest.mark.integration


class FakeFeed:
    def __init__(self) -> None:
        self.changes: list[QuarantineChange] = []
        self.watermark = 0
        self.asked: list[int] = []

    def begin_quarantine_changes(self, after_cursor: int) -> FakePending:
        self.asked.append(after_cursor)
        return FakePending([c for c in self.changes if c.cursor > after_cursor], self.watermark)


class FakePending:
    def __init__(self, changes: list[QuarantineChange], watermark: int) -> None:
        self.answer = (changes, watermark)

    def result(self) -> tuple[list[QuarantineChange], int]:
        return self.answer

    def cancel(self) -> None:
        pass


def withheld(db: Database, run_id: str = "", event_id: int = 0) -> bool:
    with db.connection() as conn:
        row = conn.execute(
            "SELECT learning.source_quarantined(%s, %s) AS q", (run_id, event_id)
        ).fetchone()
    assert row is not None
    return bool(row["q"])


def cursor(db: Database) -> int:
    with db.connection() as conn:
        return cursor_position(conn, CURSOR)


def test_sync_applies_the_feed_and_never_goes_back(db: Database) -> None:
    feed = FakeFeed()
    plane = SourceQuarantine(db, feed)
    feed.changes = [
        QuarantineChange(3, "run_record", "r1", True),
        QuarantineChange(4, "event", "42", True),
    ]
    feed.watermark = 9
    assert plane.sync() == 9
    assert withheld(db, run_id="r1") and withheld(db, event_id=42)
    assert withheld(db, run_id="r1", event_id=7)  # either source id withholds
    assert not withheld(db, run_id="r2") and not withheld(db, event_id=43)
    assert not withheld(db)  # no source at all
    assert cursor(db) == 9

    # The next sync asks only for what came after.
    feed.changes.append(QuarantineChange(10, "run_record", "r1", False))
    feed.watermark = 12
    plane.sync()
    assert feed.asked[-1] == 9
    assert not withheld(db, run_id="r1") and withheld(db, event_id=42)

    # A concurrent, slower sync delivering older changes changes nothing: the
    # newer restore stands and the cursor does not move back.
    plane.apply([QuarantineChange(3, "run_record", "r1", True)], 9)
    assert not withheld(db, run_id="r1")
    assert cursor(db) == 12

    # Nothing new: no write, the same cursor.
    assert plane.sync() == 12 and cursor(db) == 12


def dead_address() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"127.0.0.1:{port}"


def _reads(learning: pb_grpc.LearningServiceStub) -> dict[str, Any]:
    return {
        "GetLearnedContext": lambda: learning.GetLearnedContext(
            pb.GetLearnedContextRequest(subject="u1", session_id="s1", pending_input="x")
        ),
        "SearchLearnings": lambda: learning.SearchLearnings(pb.SearchLearningsRequest()),
        "ListActiveSkills": lambda: learning.ListActiveSkills(pb.ListActiveSkillsRequest()),
        "ListSkills": lambda: learning.ListSkills(pb.ListSkillsRequest()),
        "ListLearnings": lambda: learning.ListLearnings(pb.ListLearningsRequest()),
        "ListCandidates": lambda: learning.ListCandidates(pb.ListCandidatesRequest()),
    }


def test_reads_fail_closed_without_the_journal(start_services: Any, channel_to: Any) -> None:
    suite = start_services(
        ["learning"],
        journal_addr=dead_address(),
        workers_enabled=False,
        learning_quarantine_state="feed",
    )
    learning = pb_grpc.LearningServiceStub(channel_to(suite))
    for name, read in _reads(learning).items():
        err = fails(read)
        assert err.code() == grpc.StatusCode.UNAVAILABLE, name
        assert error_info(err).reason == "QUARANTINE_STATE_UNAVAILABLE", name
    # Bad input is still INVALID_ARGUMENT, found before the journal is asked.
    err = fails(lambda: learning.GetLearnedContext(pb.GetLearnedContextRequest(session_id="s1")))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(err).metadata["field"] == "subject"
    # Status does not read records: it still answers.
    assert learning.GetLearningStatus(pb.GetLearningStatusRequest()).quarantine_cursor == 0


def test_the_learned_context_reads_the_journals_tables_when_they_are_here(
    start_services: Any, channel_to: Any
) -> None:
    """On the journal's database the learned context needs no journal RPC
    (its statement reads the journal's quarantine tables); the other read
    paths still sync the copy and fail closed."""
    suite = start_services(["learning"], journal_addr=dead_address(), workers_enabled=False)
    learning = pb_grpc.LearningServiceStub(channel_to(suite))
    reads = _reads(learning)
    assert not reads.pop("GetLearnedContext")().entries
    for name, read in reads.items():
        err = fails(read)
        assert err.code() == grpc.StatusCode.UNAVAILABLE, name
        assert error_info(err).reason == "QUARANTINE_STATE_UNAVAILABLE", name


def test_the_journal_path_fails_closed_without_the_journals_tables(db: Database) -> None:
    """The journal's tables gone (or unreadable) after start: UNAVAILABLE,
    never an answer without the quarantine state."""
    from engram.errors import Unavailable
    from learning_service.context import select_indexed

    params = {"scope_keys": ["session:s1"], "subject": "u1", "workspace": "default"}
    with db.connection() as conn:
        conn.execute("ALTER TABLE journal.quarantined RENAME TO quarantined_elsewhere")
    try:
        with pytest.raises(Unavailable) as raised:
            select_indexed(db, params, "anything at all", 8, "journal")
        assert raised.value.reason == "QUARANTINE_STATE_UNAVAILABLE"
        assert select_indexed(db, params, "anything at all", 8, "copy")[0].chosen == []
    finally:
        with db.connection() as conn:
            conn.execute("ALTER TABLE journal.quarantined_elsewhere RENAME TO quarantined")
