"""engram.db.snapshot: one repeatable-read, read-only transaction begun by
its one BEGIN (no SET TRANSACTION round trip), in or out of a pipeline, with
an imported snapshot as its first statement; a pooled connection that gets
its defaults back; and the reads that use it, counted in round trips from
libpq's protocol trace (a ReadyForQuery answers each one)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from psycopg import pq

from engram.db import Database, read_snapshot, snapshot
from engram.db.pool import Conn
from memory_service.find_exact import ExactQuery, FindExact
from memory_service.journal import Journal

pytestmark = pytest.mark.integration

BEGIN = 'Query\t "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"'


class Trace:
    """The frontend/backend messages of every connection handed out while
    on, one list per checkout (in the order they were given back)."""

    def __init__(self) -> None:
        self.sessions: list[list[str]] = []

    @contextmanager
    def on(self, conn: Conn) -> Iterator[None]:
        with tempfile.TemporaryFile("w+") as file:
            conn.pgconn.trace(file.fileno())
            conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
            try:
                yield
            finally:
                conn.pgconn.untrace()  # flushes
                file.seek(0)
                self.sessions.append(file.read().splitlines())

    @property
    def lines(self) -> list[str]:
        return [line for session in self.sessions for line in session]

    @property
    def round_trips(self) -> int:
        return sum(line.startswith("B\t") and "ReadyForQuery" in line for line in self.lines)

    @property
    def sent(self) -> list[str]:
        return sent(self.lines)


def sent(lines: list[str]) -> list[str]:
    """What the client sent: simple queries and parsed statements."""
    return [
        line.split("\t", 2)[2]
        for line in lines
        if line.startswith("F\t") and ("\tQuery\t" in line or "\tParse\t" in line)
    ]


class TracedDatabase:
    """A Database whose every connection is traced into one Trace."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.trace = Trace()

    @contextmanager
    def connection(self) -> Iterator[Conn]:
        with self.db.connection() as conn, self.trace.on(conn):
            yield conn


@pytest.fixture
def one(database_url: str) -> Iterator[Database]:
    db = Database(database_url, max_size=2, name="snapshot-test").open()
    try:
        yield db
    finally:
        db.close()


def settings(conn: Conn) -> Any:
    return conn.execute(
        "SELECT current_setting('transaction_isolation') AS iso,"
        " current_setting('transaction_read_only') AS ro"
    ).fetchone()


def test_snapshot_is_repeatable_read_only_and_the_connection_is_restored(one: Database) -> None:
    with read_snapshot(one) as conn:
        assert settings(conn) == {"iso": "repeatable read", "ro": "on"}
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("CREATE TEMP TABLE refused (x int)")
    # The pooled connection again (the last returned): read-write, default isolation.
    with one.transaction() as conn:
        assert settings(conn) == {"iso": "read committed", "ro": "off"}
        conn.execute("CREATE TEMP TABLE allowed (x int)")


def test_the_begin_carries_the_characteristics_one_round_trip_fewer(one: Database) -> None:
    traced = TracedDatabase(one)
    with read_snapshot(traced) as conn:  # type: ignore[arg-type]
        conn.execute("SELECT 1").fetchone()
    assert traced.trace.round_trips == 3  # BEGIN ..., SELECT, COMMIT
    assert traced.trace.sent[0] == BEGIN
    assert not [s for s in traced.trace.sent if "SET TRANSACTION" in s]
    # What the reads did before: BEGIN, then SET TRANSACTION.
    before = TracedDatabase(one)
    with before.connection() as conn, conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        conn.execute("SELECT 1").fetchone()
    assert before.trace.round_trips == 4


def test_in_a_pipeline_the_begin_is_queued_with_the_statements(one: Database) -> None:
    traced = TracedDatabase(one)
    with read_snapshot(traced, pipeline=True) as conn:  # type: ignore[arg-type]
        first = conn.execute("SELECT current_setting('transaction_isolation') AS iso")
        second = conn.execute("SELECT current_setting('transaction_read_only') AS ro")
        assert (first.fetchone(), second.fetchone()) == ({"iso": "repeatable read"}, {"ro": "on"})
    # Parsed, in the extended protocol of a pipeline.
    assert traced.trace.sent[0] == 'Parse\t "" "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" 0'
    assert not [s for s in traced.trace.sent if "SET TRANSACTION" in s]
    # psycopg syncs after a pipeline's BEGIN and its COMMIT: BEGIN, the two
    # statements, COMMIT, the pipeline's close. As many as BEGIN, then SET
    # TRANSACTION queued with the statements, but one statement fewer.
    assert traced.trace.round_trips == 4
    assert len(traced.trace.sent) == 4
    with one.connection() as conn:
        assert settings(conn) == {"iso": "read committed", "ro": "off"}
        assert conn.isolation_level is None and conn.read_only is None


def test_an_imported_snapshot_is_the_first_statement_and_sees_the_exporters_data(
    one: Database, database_url: str
) -> None:
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("CREATE TABLE seen (x int)")
        with read_snapshot(one) as exporter:
            exported = exporter.execute("SELECT pg_export_snapshot() AS id").fetchone()
            assert exported is not None
            admin.execute("INSERT INTO seen VALUES (1)")  # committed after the export
            traced = TracedDatabase(one)
            with read_snapshot(traced, imported=exported["id"]) as conn:  # type: ignore[arg-type]
                row = conn.execute("SELECT count(*) AS n FROM seen").fetchone()
            assert row == {"n": 0}
            assert traced.trace.sent[:2] == [
                BEGIN,
                f"Query\t \"SET TRANSACTION SNAPSHOT '{exported['id']}'\"",
            ]
        # Not imported: the row is there.
        with read_snapshot(one) as conn:
            assert conn.execute("SELECT count(*) AS n FROM seen").fetchone() == {"n": 1}


def test_a_connection_held_already_can_take_a_snapshot(one: Database) -> None:
    with one.connection() as conn:
        conn.execute("SELECT 1")
        with snapshot(conn):
            assert settings(conn) == {"iso": "repeatable read", "ro": "on"}
        assert settings(conn) == {"iso": "read committed", "ro": "off"}


def test_a_session_read_is_one_begin_three_statements_and_a_commit(one: Database) -> None:
    traced = TracedDatabase(one)
    rows, count, _ = Journal(one).read_session(
        "alice",
        "default",
        "s1",
        0,
        10,
        [],
        db=traced,  # type: ignore[arg-type]
    )
    assert (rows, count) == ([], 0)
    assert traced.trace.sent[0] == BEGIN
    assert not [s for s in traced.trace.sent if "SET TRANSACTION ISOLATION" in s]
    assert traced.trace.round_trips == 5  # was 6: BEGIN and SET TRANSACTION apart


def test_find_exact_exports_and_its_verifier_imports_the_snapshot(one: Database) -> None:
    traced = TracedDatabase(one)
    query = ExactQuery(
        subject="alice",
        workspace="default",
        terms=["zurich"],
        normalization_exact=True,
        session_id="",
        start=None,
        end=None,
        limit=5,
    )
    result = FindExact(one).find(query, db=traced)  # type: ignore[arg-type]
    assert result.coverage.verifier.ran and result.coverage.verifier.agrees
    # The verifier's checkout ends first, inside the primary's.
    verifier, primary = (sent(lines) for lines in traced.trace.sessions)
    # The export rides on the first statement (exact_prepare, whose text spans
    # lines of the trace), which takes the snapshot: no statement of its own.
    assert primary[0] == BEGIN and "exact_fold" in primary[1]
    primary_text = "\n".join(traced.trace.sessions[1])
    assert primary_text.count("pg_export_snapshot()") == 1
    assert "SELECT pg_export_snapshot()" not in primary_text
    ready = [line for line in traced.trace.sessions[1] if "\tReadyForQuery\t" in line]
    # BEGIN, prepare and export, matches, watermark, the accent-variant guard,
    # COMMIT: was 7 (the export, or before that SET TRANSACTION, on its own).
    assert len(ready) == 6
    assert verifier[0] == BEGIN
    assert verifier[1].startswith('Query\t "SET TRANSACTION SNAPSHOT ')
    assert not [s for s in primary + verifier if "SET TRANSACTION ISOLATION" in s]


def test_a_windowed_find_exact_exports_nothing(one: Database) -> None:
    """No verifier runs with a time window: no snapshot is exported for one."""
    traced = TracedDatabase(one)
    query = ExactQuery(
        subject="alice",
        workspace="default",
        terms=["zurich"],
        normalization_exact=True,
        session_id="",
        start=datetime(2020, 1, 1, tzinfo=UTC),
        end=None,
        limit=5,
    )
    result = FindExact(one).find(query, db=traced)  # type: ignore[arg-type]
    assert not result.coverage.verifier.ran
    assert len(traced.trace.sessions) == 1  # the primary's connection only
    find = FindExact(one)
    with read_snapshot(one) as conn:
        assert find._prepare(conn, query, ["zurich"]).snapshot is None
    with read_snapshot(one) as conn:
        exported = find._prepare(conn, query, ["zurich"], export=True).snapshot
        assert exported
        with read_snapshot(one, imported=exported) as other:  # importable while open
            assert other.execute("SELECT 1 AS one").fetchone() == {"one": 1}
