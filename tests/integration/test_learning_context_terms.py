"""Stored term sets and SQL candidate selection of the learned context
(migration 0004) over a real PostgreSQL: every revision carries a freshly
computed set (publish, supersede, revoke), a hand-written revision never
inherits an older set, the startup backfill, unindexed learnings still
served, the view's quarantine joins agreeing with learning.source_quarantined,
and a randomised comparison with the full scan the index replaced."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from engram.db import Database
from engram.learning.v1 import learning_pb2 as pb
from learning_service import term_index
from learning_service.context import ContextReader, query_code, select
from learning_service.model import Scope, ScopeKind
from learning_service.store import Q
from tests.integration.test_learning_context import insert_learning
from tests.integration.test_learning_support import (
    SUBJECT,
    WORKSPACE,
    candidate,
    learn,
    publish,
    stubs,
)

pytestmark = pytest.mark.integration


def current_terms(url: str, learning_id: str) -> tuple[list[str] | None, str | None, int]:
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT terms, terms_version, revision FROM learning.learning_state"
            " WHERE learning_id = %s",
            (learning_id,),
        ).fetchone()
    assert row is not None
    return row[0], row[1], int(row[2])


def revision_terms(url: str, learning_id: str) -> list[tuple[int, list[str] | None]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT revision, terms FROM learning.learning_revisions WHERE learning_id = %s"
            " ORDER BY revision",
            (learning_id,),
        ).fetchall()
    return [(int(r[0]), r[1]) for r in rows]


def spoil(url: str, learning_id: str) -> None:
    """Overwrite the current set, so only a recomputation can restore it."""
    with psycopg.connect(url) as conn:
        conn.execute(
            "UPDATE learning.learning_state SET terms = '{spoiled}' WHERE learning_id = %s",
            (learning_id,),
        )


def test_every_revision_recomputes_the_term_set(start_services: Any, channel_to: Any) -> None:
    suite = start_services(["journal", "learning"], workers_enabled=False)
    url = suite.database_url
    learning = stubs(channel_to(suite)).learning
    content = "The deploy window is Tuesday mornings in Zürich"
    expected = term_index.stored_terms(content)
    assert "zürich" in expected and "the" not in expected

    first = learn(learning, content, scope=WORKSPACE)
    assert current_terms(url, first.learning_id) == (expected, term_index.TERMS_VERSION, 1)
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT scoped_terms FROM learning.learning_state WHERE learning_id = %s",
            (first.learning_id,),
        ).fetchone()
    assert row is not None and row[0] == [f"workspace:default\x1f{t}" for t in expected]
    assert revision_terms(url, first.learning_id) == [(1, expected)]

    # Supersede (a revision of the replaced record, and the replacement's first).
    spoil(url, first.learning_id)
    revised = "The deploy window is Thursday evenings"
    replacement = publish(
        learning,
        candidate(learning, revised, scope=WORKSPACE).candidate_id,
        supersedes=first.learning_id,
    )
    assert current_terms(url, first.learning_id) == (expected, term_index.TERMS_VERSION, 2)
    assert revision_terms(url, first.learning_id) == [(1, expected), (2, expected)]
    assert current_terms(url, replacement.learning_id)[0] == term_index.stored_terms(revised)

    # Revoke.
    spoil(url, replacement.learning_id)
    learning.RevokeLearning(
        pb.RevokeLearningRequest(learning_id=replacement.learning_id, reason="wrong")
    )
    assert current_terms(url, replacement.learning_id) == (
        term_index.stored_terms(revised),
        term_index.TERMS_VERSION,
        2,
    )

    # A revision written without a set leaves the learning unindexed, never
    # with the previous revision's set.
    third = learn(learning, "Reports are due on Fridays", scope=WORKSPACE)
    with psycopg.connect(url) as conn:
        conn.execute(
            "INSERT INTO learning.learning_revisions (learning_id, revision, status,"
            " publish_tier, action, actor) VALUES (%s, 2, 'active', 'active', 'published', 't')",
            (third.learning_id,),
        )
    assert current_terms(url, third.learning_id) == (None, None, 2)


def test_backfill_and_unindexed_learnings(db: Database, database_url: str) -> None:
    reader = ContextReader(db)
    scopes = [Scope(ScopeKind.WORKSPACE, "default")]
    missing = insert_learning(database_url, "Invoices go to the finance inbox", WORKSPACE_KEY)
    stale = insert_learning(database_url, "Finance closes the books monthly", WORKSPACE_KEY)
    giant = insert_learning(database_url, "finance " + "x" * 1500, WORKSPACE_KEY)
    with psycopg.connect(database_url) as conn:
        conn.execute(
            "UPDATE learning.learning_state SET terms = '{wrong}', terms_version = 'v0'"
            " WHERE learning_id = %s",
            (stale,),
        )

    def found() -> list[str]:
        context = reader.learned_context(
            scopes, "Where does finance stuff go?", 8, subject=SUBJECT, workspace=""
        )
        return sorted(str(e.row["learning_id"]) for e in context.entries)

    everything = sorted([missing, stale, giant])
    assert found() == everything  # scored from content while unindexed
    assert term_index.backfill(db, batch=2) == 3
    assert current_terms(database_url, missing)[:2] == (
        term_index.stored_terms("Invoices go to the finance inbox"),
        term_index.TERMS_VERSION,
    )
    assert current_terms(database_url, stale)[0] == term_index.stored_terms(
        "Finance closes the books monthly"
    )
    assert current_terms(database_url, giant)[:2] == (None, None)  # too long a term
    assert found() == everything
    assert term_index.backfill(db) == 1  # only the one that cannot be indexed


WORKSPACE_KEY = ("workspace", "default")


def rewrite_sources(conn: psycopg.Connection[Any], learning_id: str, **columns: Any) -> None:
    """Sources no API call produces. learnings is append-only and the state
    row keeps a copy of them (migration 0005): both are rewritten, under the
    replica role (no triggers), in the caller's transaction."""
    conn.execute("SET LOCAL session_replication_role = replica")
    sets = ", ".join(f"{name} = %({name})s" for name in columns)
    for table in ("learnings", "learning_state"):
        conn.execute(
            f"UPDATE learning.{table} SET {sets} WHERE learning_id = %(learning_id)s",
            {**columns, "learning_id": learning_id},
        )


def test_view_quarantine_joins_agree_with_the_function(database_url: str) -> None:
    ids = [insert_learning(database_url, f"fact number {i}", WORKSPACE_KEY) for i in range(8)]
    with psycopg.connect(database_url) as conn, conn.transaction():
        conn.execute(
            "INSERT INTO learning.source_quarantine (record_kind, record_id, quarantined,"
            " change_cursor) VALUES ('run_record', 'run-1', true, 1),"
            " ('run_record', 'run-3', false, 2), ('event', '2', true, 3), ('event', '3', false, 4),"
            " ('run_record', '', true, 5), ('event', '0', true, 6)"
        )
        for i, learning_id in enumerate(ids):
            rewrite_sources(
                conn, learning_id, source_run_id=f"run-{i}" if i % 2 else "", source_event_id=i % 4
            )
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT withheld_by_quarantine,"
            " learning.source_quarantined(source_run_id, source_event_id)"
            " FROM learning.learning_current"
        ).fetchall()
    assert len(rows) == 8 and {bool(a) for a, _ in rows} == {True, False}
    assert all(a == b for a, b in rows)


ELIGIBLE_NOT_QUARANTINED = """
SELECT learning_id FROM learning.learning_state s
WHERE s.status = 'active' AND s.publish_tier = 'active'
  AND learning.is_prompt_eligible(s.kind, s.sensitivity, s.status, s.publish_tier,
                                  s.verification_status, s.policy_decision, s.expires_at, now())
  AND NOT learning.source_quarantined(s.source_run_id, s.source_event_id)
"""


@pytest.mark.parametrize("source", ["copy", "journal"])
def test_the_context_gate_withholds_what_the_function_does(database_url: str, source: str) -> None:
    """context_gate's NOT IN over withheld_sources keeps and withholds the same
    learnings as learning.source_quarantined: restored entries, an empty run
    id and event 0 (never withheld, even with such a record quarantined), an
    empty withheld set of a kind, by the plane's copy or the journal's table."""
    ids = [insert_learning(database_url, f"fact number {i}", WORKSPACE_KEY) for i in range(8)]
    quarantine = [
        ("run_record", "run-1", True),
        ("run_record", "run-3", False),
        ("event", "2", True),
        ("event", "3", False),
        ("run_record", "", True),
        ("event", "0", True),
    ]
    with psycopg.connect(database_url) as conn, conn.transaction():
        for cursor, (kind, record_id, quarantined) in enumerate(quarantine, start=1):
            conn.execute(
                "INSERT INTO learning.source_quarantine (record_kind, record_id, quarantined,"
                " change_cursor) VALUES (%s, %s, %s, %s)",
                (kind, record_id, quarantined, cursor),
            )
            if quarantined:
                conn.execute(
                    "INSERT INTO journal.quarantined (record_kind, record_id, entry_id, since)"
                    " VALUES (%s, %s, %s, now())",
                    (kind, record_id, cursor),
                )
        for i, learning_id in enumerate(ids):
            rewrite_sources(
                conn, learning_id, source_run_id=f"run-{i}" if i % 2 else "", source_event_id=i % 4
            )
    gate = (
        f"WITH withheld_sources AS ({query_code(f'withheld_sources_{source}')}),"
        f" context_gate AS ({query_code('context_gate')})"
        " SELECT learning_id FROM context_gate"
    )
    with psycopg.connect(database_url) as conn:
        kept = {r[0] for r in conn.execute(gate).fetchall()}
        expected = {r[0] for r in conn.execute(ELIGIBLE_NOT_QUARANTINED).fetchall()}
        assert expected and kept == expected and len(kept) < len(ids)
        # Nothing of a kind withheld: NOT IN over an empty set keeps everything.
        conn.execute("DELETE FROM learning.source_quarantine WHERE record_kind = 'event'")
        conn.execute("DELETE FROM journal.quarantined WHERE record_kind = 'event'")
        kept = {r[0] for r in conn.execute(gate).fetchall()}
        expected = {r[0] for r in conn.execute(ELIGIBLE_NOT_QUARANTINED).fetchall()}
        assert kept == expected and len(kept) > len(ids) // 2


# ------------------------------------------------------------ randomised

WORDS = [
    "deploy", "deploys", "window", "tuesday", "zürich", "finance", "invoice", "report",
    "gigabytes", "sizes", "codename", "atlas", "borealis", "北京大学", "москва", "coffee",
    "morning", "review", "release", "budget",
]  # fmt: skip
KINDS = ["session", "persona", "project", "workspace"]


@pytest.fixture
def plane(db: Database, database_url: str) -> Iterator[tuple[ContextReader, str]]:
    yield ContextReader(db), database_url


def random_plane(url: str, rng: random.Random, n: int) -> None:
    past = datetime.now(UTC) - timedelta(days=1)
    for i in range(n):
        kind = rng.choice(KINDS)
        scope_id = {
            "session": rng.choice(["s1", "s2"]),
            "persona": rng.choice(["ana", "bob"]),
            "project": rng.choice(["p1", "p2", "p3"]),
            "workspace": "default",
        }[kind]
        content = " ".join([*rng.choices(WORDS, k=rng.randint(1, 6)), f"n{i}"])
        overrides: dict[str, Any] = {}
        roll = rng.random()
        if roll < 0.1:
            overrides["tier"] = "provisional"
        elif roll < 0.15:
            overrides["status"] = "revoked"
        elif roll < 0.2:
            overrides["expires_at"] = past
        elif roll < 0.25:
            overrides["sensitivity"] = "sensitive"
        learning_id = insert_learning(url, content, (kind, scope_id), **overrides)
        other_subject = kind == "session" and rng.random() < 0.3
        indexed = rng.random() < 0.8  # the rest stay unindexed
        quarantined = rng.random() < 0.05
        with psycopg.connect(url) as conn, conn.transaction():
            # First: the replica role below also silences the postings trigger.
            if indexed:
                conn.execute(
                    Q["terms_put"],
                    {
                        "learning_id": learning_id,
                        "revision": 2 if "status" in overrides else 1,
                        **term_index.revision_terms(content),
                    },
                )
            if other_subject:
                rewrite_sources(conn, learning_id, source_subject="someone-else")
            if quarantined:
                rewrite_sources(conn, learning_id, source_run_id=f"run-{i}")
                conn.execute(
                    "INSERT INTO learning.source_quarantine (record_kind, record_id,"
                    " quarantined, change_cursor) VALUES ('run_record', %s, true, %s)",
                    (f"run-{i}", i + 1),
                )


def full_scan(db: Database, scopes: list[Scope], text: str, limit: int) -> Any:
    """The read path before migration 0004: every eligible row, scored here."""
    with db.connection() as conn:
        eligible = conn.execute(
            Q["eligible_in_scopes"],
            {"scope_keys": [s.key for s in scopes], "subject": SUBJECT, "workspace": ""},
        ).fetchall()
    return select(eligible, text, limit)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sql_selection_matches_the_full_scan(
    plane: tuple[ContextReader, str], db: Database, seed: int
) -> None:
    reader, url = plane
    rng = random.Random(seed)
    random_plane(url, rng, 120)
    for _ in range(40):
        scopes = [Scope(ScopeKind.SESSION, rng.choice(["s1", "s2"]))]
        if rng.random() < 0.7:
            scopes.append(Scope(ScopeKind.PERSONA, rng.choice(["ana", "bob"])))
        scopes += [Scope(ScopeKind.PROJECT, p) for p in rng.sample(["p1", "p2", "p3"], 2)]
        scopes.append(Scope(ScopeKind.WORKSPACE, "default"))
        words = rng.choices([*WORDS, "unknown", "the", "what"], k=rng.randint(0, 5))
        text = " ".join(words)
        if rng.random() < 0.15:
            text = "use durable memory " + text
        limit = rng.choice([1, 3, 8, 50])
        old = full_scan(db, scopes, text, limit)
        new = reader.learned_context(scopes, text, limit, subject=SUBJECT, workspace="")
        assert [(str(s.row["learning_id"]), s.score) for s in new.entries] == [
            (str(s.row["learning_id"]), s.score) for s in old.chosen
        ], text
        assert (new.omitted_zero_score, new.omitted_by_limit, new.recency_fallback) == (
            old.omitted_zero_score,
            old.omitted_by_limit,
            old.recency_fallback,
        ), text
