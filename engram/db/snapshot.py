"""Read-only snapshots: one REPEATABLE READ READ ONLY transaction for reads
whose statements must all see the same data, begun by its one BEGIN.

psycopg puts a connection's transaction characteristics (isolation_level,
read_only) into the BEGIN that Connection.transaction() sends, so the
snapshot costs no SET TRANSACTION round trip after it. An imported snapshot
(SET TRANSACTION SNAPSHOT, from another session's pg_export_snapshot) has
no place in BEGIN, in PostgreSQL's grammar or in psycopg's characteristics:
it is sent as the transaction's first statement, which PostgreSQL requires
(before any query) and the isolation level set by BEGIN allows.

Every service uses these; the rule lives here only."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import psycopg
from psycopg import sql

from engram.db.pool import Conn, Database


@contextmanager
def snapshot(conn: Conn, *, pipeline: bool = False, imported: str | None = None) -> Iterator[Conn]:
    """A read-only snapshot transaction on a connection already held (idle,
    autocommit). `pipeline`: in psycopg's pipeline mode, the BEGIN queued
    with the statements that follow instead of sent alone (the
    characteristics are set before the pipeline starts: changing them inside
    one makes psycopg sync it). `imported`: a snapshot id to read in. The
    connection gets its default characteristics back afterwards."""
    conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    conn.read_only = True
    try:
        with ExitStack() as stack:
            if pipeline:
                stack.enter_context(conn.pipeline())
            stack.enter_context(conn.transaction())
            if imported is not None:
                conn.execute(sql.SQL("SET TRANSACTION SNAPSHOT {}").format(sql.Literal(imported)))
            yield conn
    finally:
        if not conn.closed:
            conn.isolation_level = None
            conn.read_only = None


@contextmanager
def read_snapshot(
    db: Database, *, pipeline: bool = False, imported: str | None = None
) -> Iterator[Conn]:
    """snapshot() on a pooled connection of `db`: errors are mapped as
    Database.connection() maps them (a lost connection is Unavailable)."""
    with db.connection() as conn, snapshot(conn, pipeline=pipeline, imported=imported):
        yield conn
