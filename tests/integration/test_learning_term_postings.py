"""Term postings (learning migration 0005) over a real PostgreSQL: the
postings always equal the current term set of an active learning and nothing
else (publish, supersede, revoke, backfill, erasure), the state row's copy
of the gate inputs equals the learning's, a revoked or
superseded learning is never served nor counted, the read that overlaps the
quarantine sync re-reads when the journal reports a change and fails closed
without it, the sync writes its stored cursor only with changes or after
CURSOR_WRITE_EVERY, and operator search over the stored sets agrees with
search by re-tokenising every learning."""

from __future__ import annotations

import random
from typing import Any

import psycopg
import pytest

from engram.db import Database
from engram.errors import Unavailable
from engram.learning.v1 import learning_pb2 as pb
from learning_service import term_index
from learning_service.context import ContextReader
from learning_service.model import Scope, ScopeKind
from learning_service.quarantine import (
    CURSOR,
    CURSOR_WRITE_EVERY,
    QuarantineChange,
    SourceQuarantine,
)
from learning_service.store import Q, cursor_position
from learning_service.text import overlap_score, term_set
from tests.integration.test_learning_context import insert_learning
from tests.integration.test_learning_context_terms import random_plane, rewrite_sources
from tests.integration.test_learning_support import (
    SUBJECT,
    WORKSPACE,
    candidate,
    learn,
    publish,
    stubs,
)

pytestmark = pytest.mark.integration

WORKSPACE_SCOPES = [Scope(ScopeKind.WORKSPACE, "default")]


def postings(url: str) -> set[tuple[str, str, str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT learning_id::text, scope_key, term FROM learning.learning_terms"
        ).fetchall()
    return {(r[0], r[1], r[2]) for r in rows}


def expected_postings(url: str) -> set[tuple[str, str, str]]:
    """What the postings must be: every term of every active learning's current set."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT learning_id::text, scope_key, terms FROM learning.learning_state"
            " WHERE status = 'active' AND terms IS NOT NULL"
        ).fetchall()
    return {(r[0], r[1], t) for r in rows for t in r[2]}


GATE_COPIES = (
    "scope_kind, kind, sensitivity, verification_status, policy_decision, expires_at,"
    " source_subject, source_workspace, source_run_id, source_event_id, created_at"
)


def gate_copies_differ(url: str) -> int:
    """State rows whose copy of the learning's gate inputs (0005) differs from it."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            f"SELECT count(*) FROM learning.learning_state s JOIN learning.learnings l"
            f" USING (learning_id) WHERE (SELECT ROW({GATE_COPIES}) FROM learning.learning_state"
            f" WHERE learning_id = s.learning_id) IS DISTINCT FROM"
            f" (SELECT ROW({GATE_COPIES}) FROM learning.learnings"
            f" WHERE learning_id = l.learning_id)"
        ).fetchone()
    assert row is not None
    return int(row[0])


def served(learning: Any, text: str) -> pb.GetLearnedContextResponse:
    response: pb.GetLearnedContextResponse = learning.GetLearnedContext(
        pb.GetLearnedContextRequest(
            subject=SUBJECT, workspace="default", session_id="s-postings", pending_input=text
        )
    )
    return response


def test_postings_follow_every_revision_and_governance_holds(
    start_services: Any, channel_to: Any
) -> None:
    suite = start_services(["journal", "learning"], workers_enabled=False)
    url = suite.database_url
    learning = stubs(channel_to(suite)).learning
    first = learn(learning, "The deploy window is Tuesday mornings in Zürich", scope=WORKSPACE)
    other = learn(learning, "Invoices go to the finance inbox", scope=WORKSPACE)
    assert postings(url) == expected_postings(url)
    assert ("workspace:default", "zürich") in {(k, t) for i, k, t in postings(url)}
    assert gate_copies_differ(url) == 0
    assert [e.learning.learning_id for e in served(learning, "deploy in Zürich?").entries] == [
        first.learning_id
    ]

    # Superseded: the old record has no postings, is never served nor counted.
    replacement = publish(
        learning,
        candidate(learning, "The deploy window is Thursday evenings", scope=WORKSPACE).candidate_id,
        supersedes=first.learning_id,
    )
    assert postings(url) == expected_postings(url)
    assert not {p for p in postings(url) if p[0] == first.learning_id}
    answer = served(learning, "When is the deploy window in Zürich?")
    assert [e.learning.learning_id for e in answer.entries] == [replacement.learning_id]
    assert answer.omitted_zero_score == 1  # the invoice learning; not the superseded one

    # Revoked: neither served nor counted, and its postings are gone.
    learning.RevokeLearning(
        pb.RevokeLearningRequest(learning_id=replacement.learning_id, reason="wrong")
    )
    assert postings(url) == expected_postings(url)
    answer = served(learning, "When is the deploy window in Zürich?")
    assert list(answer.entries) == []
    assert answer.omitted_zero_score == 1
    assert answer.coverage.cardinality.matched_before_limit == 0
    # The durable-memory fallback picks from eligible learnings only.
    answer = served(learning, "Use durable memory: anything?")
    assert [e.learning.learning_id for e in answer.entries] == [other.learning_id]
    assert answer.recency_fallback

    # The backfill rewrites a stale set, and the postings follow it.
    with psycopg.connect(url) as conn:
        conn.execute(
            "UPDATE learning.learning_state SET terms = '{wrong}', terms_version = 'v0'"
            " WHERE learning_id = %s",
            (other.learning_id,),
        )
    assert postings(url) == expected_postings(url)
    assert ("workspace:default", "wrong") in {(k, t) for _i, k, t in postings(url)}
    db = Database(url, max_size=2).open()
    try:
        assert term_index.backfill(db) == 1
    finally:
        db.close()
    assert postings(url) == expected_postings(url)
    assert [e.learning.learning_id for e in served(learning, "finance inbox?").entries] == [
        other.learning_id
    ]

    assert gate_copies_differ(url) == 0
    # Erasure: deleting the state row takes its postings.
    with psycopg.connect(url) as conn:
        conn.execute(
            "DELETE FROM learning.learning_state WHERE learning_id = %s", (other.learning_id,)
        )
    assert not {p for p in postings(url) if p[0] == other.learning_id}


class ChangingFeed:
    """A journal that reports, once, a quarantine committed while the read ran."""

    def __init__(self) -> None:
        self.pending: list[QuarantineChange] = []
        self.watermark = 0
        self.fail = False

    def begin_quarantine_changes(self, after_cursor: int) -> Answer:
        changes = [c for c in self.pending if c.cursor > after_cursor]
        return Answer(changes, max(self.watermark, after_cursor), self.fail)


class Answer:
    def __init__(self, changes: list[QuarantineChange], watermark: int, fail: bool) -> None:
        self.changes, self.watermark, self.fail = changes, watermark, fail
        self.cancelled = False

    def result(self) -> tuple[list[QuarantineChange], int]:
        if self.fail:
            raise Unavailable("journal down", reason="QUARANTINE_STATE_UNAVAILABLE")
        return self.changes, self.watermark

    def cancel(self) -> None:
        self.cancelled = True


def test_overlapped_sync_rereads_after_a_change_and_fails_closed(
    db: Database, database_url: str
) -> None:
    content = "Finance closes the books monthly"
    learning_id = insert_learning(database_url, content, WS_KEY)
    with psycopg.connect(database_url) as conn, conn.transaction():
        conn.execute(
            Q["terms_put"],
            {"learning_id": learning_id, "revision": 1, **term_index.revision_terms(content)},
        )
        rewrite_sources(conn, learning_id, source_run_id="run-7")
    feed = ChangingFeed()
    quarantine = SourceQuarantine(db, feed)
    reader = ContextReader(db, quarantine=quarantine)

    def read() -> list[str]:
        context = reader.learned_context(
            WORKSPACE_SCOPES, "When does finance close?", 8, subject=SUBJECT, workspace=""
        )
        return [str(e.row["learning_id"]) for e in context.entries]

    assert read() == [learning_id]
    # The journal quarantined the source run; the first answer (computed
    # before the change was applied) is discarded.
    feed.pending = [QuarantineChange(5, "run_record", "run-7", True)]
    feed.watermark = 5
    assert read() == []
    with db.connection() as conn:
        assert cursor_position(conn, CURSOR) == 5
    feed.pending.append(QuarantineChange(6, "run_record", "run-7", False))
    feed.watermark = 6
    assert read() == [learning_id]
    # Without the journal nothing is served, whatever the database said.
    feed.fail = True
    with pytest.raises(Unavailable):
        read()


def test_sync_writes_its_cursor_only_with_changes_or_far_behind(db: Database) -> None:
    feed = ChangingFeed()
    quarantine = SourceQuarantine(db, feed)

    def stored() -> int:
        with db.connection() as conn:
            return cursor_position(conn, CURSOR)

    feed.watermark = CURSOR_WRITE_EVERY - 1  # the journal moved, no quarantine
    assert quarantine.sync() == CURSOR_WRITE_EVERY - 1
    assert stored() == 0
    feed.watermark = CURSOR_WRITE_EVERY + 5
    assert quarantine.sync() == CURSOR_WRITE_EVERY + 5
    assert stored() == CURSOR_WRITE_EVERY + 5
    feed.pending = [QuarantineChange(CURSOR_WRITE_EVERY + 7, "event", "9", True)]
    feed.watermark = CURSOR_WRITE_EVERY + 8
    quarantine.sync()
    assert stored() == CURSOR_WRITE_EVERY + 8
    # A new process starts from the stored cursor.
    assert SourceQuarantine(db, feed).sync() == CURSOR_WRITE_EVERY + 8


WS_KEY = ("workspace", "default")


def search_by_tokenising(
    db: Database, scope_keys: list[str], query: str, subject: str
) -> list[tuple[str, float]]:
    """Operator search before 0005: every searchable learning re-tokenised."""
    terms = term_set(query)
    with db.connection() as conn:
        rows = conn.execute(
            Q["searchable_learnings"],
            {"scope_keys": scope_keys, "subject": subject, "workspace": ""},
        ).fetchall()
    scored = [
        (str(r["learning_id"]), overlap_score(terms, term_set(r["content"])) if terms else 0.0, r)
        for r in rows
    ]
    if terms:
        scored = [x for x in scored if x[1] > 0]
    scored.sort(key=lambda x: (-x[1], -x[2]["updated_at"].timestamp(), x[0]))
    return [(i, s) for i, s, _ in scored]


@pytest.mark.parametrize("seed", [4, 5])
def test_search_over_stored_sets_matches_retokenising(
    db: Database, database_url: str, seed: int
) -> None:
    rng = random.Random(seed)
    random_plane(database_url, rng, 120)
    assert postings(database_url) == expected_postings(database_url)
    reader = ContextReader(db)
    words = ["deploy", "finance", "zürich", "москва", "北京大学", "report", "the", "unknown"]
    for _ in range(30):
        scope_keys = rng.choice(
            [[], ["session:s1"], ["persona:ana", "project:p1"], ["project:p2", "project:p3"]]
        )
        query = " ".join(rng.choices(words, k=rng.randint(0, 4)))
        subject = rng.choice(["", SUBJECT])
        hits = [
            (h["id"], h["score"])
            for h in reader.search(scope_keys, query, subject=subject)
            if h["hit_kind"] == "learning"
        ]
        old = search_by_tokenising(db, scope_keys, query, subject)
        assert hits == old, (scope_keys, query)
