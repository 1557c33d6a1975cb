"""A psycopg 3 connection pool with pgvector registered and connection-only retries."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import psycopg
from pgvector.psycopg import register_vector
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from engram.errors import Unavailable

log = logging.getLogger("engram.db")

T = TypeVar("T")

# Retry only failures to reach the server; a failed statement is never
# replayed blindly, since it may have committed.
RETRYABLE = (psycopg.OperationalError, PoolTimeout)


def _has_vector(conn: psycopg.Connection[object]) -> bool:
    row = conn.execute("SELECT 1 FROM pg_type WHERE typname = 'vector'").fetchone()
    return row is not None


def _configure(conn: psycopg.Connection[object]) -> None:
    conn.autocommit = True
    if _has_vector(conn):
        register_vector(conn)


class Database:
    """Owns a pool; hands out autocommit connections with dict rows."""

    def __init__(self, url: str, *, max_size: int = 16, name: str = "engram") -> None:
        self.url = url
        self._pool: ConnectionPool[psycopg.Connection[dict[str, Any]]] = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs={"row_factory": dict_row, "autocommit": True},
            configure=_configure,
            name=name,
            open=False,
            timeout=10.0,
        )

    def open(self, wait: bool = True) -> Database:
        self._pool.open(wait=wait, timeout=30.0)
        return self

    def close(self) -> None:
        self._pool.close()

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        try:
            with self._pool.connection() as conn:
                yield conn
        except PoolTimeout as exc:
            raise Unavailable("database connection pool exhausted or server down") from exc

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        with self.connection() as conn, conn.transaction():
            yield conn

    def retrying(self, fn: Callable[[], T], attempts: int = 3, backoff: float = 0.2) -> T:
        """Run an idempotent unit of work, retrying only connection failures."""
        for attempt in range(1, attempts + 1):
            try:
                return fn()
            except RETRYABLE:
                if attempt == attempts:
                    raise
                log.warning("database connection failed; retrying", extra={"attempt": attempt})
                time.sleep(backoff * attempt)
        raise AssertionError("unreachable")
