"""A psycopg 3 connection pool with pgvector registered, a health monitor
(engram.db.health) so that callers fail fast while PostgreSQL is down and are
served again as soon as it is back, and its use exported as gauges
(engram_db_pool_connections, engram_db_pool_requests_waiting).

Acquiring a connection:

* up: wait for a pooled connection in slices of ACQUIRE_SLICE_SECONDS, up to
  ACQUIRE_TIMEOUT_SECONDS under load; between slices, stop with Unavailable
  as soon as the monitor has found the server down. A pooled connection idle
  for CHECK_IDLE_SECONDS or more is checked (an empty query, a round trip)
  before it is handed out, so one broken by a restart or an idle timeout is
  replaced, not given to a caller; one returned more recently is handed out
  on its local state alone (open, no transaction), as connection pools
  commonly do (HikariCP's aliveBypassWindowMs): it answered a moment ago, and
  a statement on one lost since fails as Unavailable and marks the pool
  suspect, which is the outage the monitor then confirms.
* down: Unavailable at once, unless an idle pooled connection passes its
  check within DOWN_ATTEMPT_SECONDS (which also ends the outage).

psycopg-pool's own reconnect back-off is capped with a short
reconnect_timeout: its attempts give up after RECONNECT_TIMEOUT_SECONDS and
the monitor takes over, probing every few hundred milliseconds.
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from pgvector.psycopg import register_vector
from psycopg import conninfo
from psycopg.pq import ConnStatus, TransactionStatus
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from engram.db.health import HealthMonitor
from engram.errors import Unavailable
from engram.metrics import DB_POOL_CONNECTIONS, DB_POOL_WAITING

log = logging.getLogger("engram.db")

Conn = psycopg.Connection[dict[str, Any]]

# Longest wait for a pooled connection while the server is up (load).
ACQUIRE_TIMEOUT_SECONDS = 10.0
# How often a waiting caller looks at the monitor's verdict.
ACQUIRE_SLICE_SECONDS = 0.25
# While down: how long a caller may try an idle pooled connection.
DOWN_ATTEMPT_SECONDS = 0.05
# psycopg-pool gives up reconnecting after this; the monitor takes over.
RECONNECT_TIMEOUT_SECONDS = 0.2
# libpq connect_timeout for pooled connections unless the URL sets one.
CONNECT_TIMEOUT_SECONDS = 3
OPEN_TIMEOUT_SECONDS = 30.0
# A pooled connection idle this long is checked with a round trip before it
# is handed out; one used more recently is not (see the module docstring).
CHECK_IDLE_SECONDS = 0.5

DOWN_MESSAGE = "database unavailable"


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
        self.name = name
        kwargs: dict[str, Any] = {"row_factory": dict_row, "autocommit": True}
        if "connect_timeout" not in conninfo.conninfo_to_dict(url):
            kwargs["connect_timeout"] = CONNECT_TIMEOUT_SECONDS
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=1,
            max_size=max_size,
            kwargs=kwargs,
            configure=_configure,
            check=self._check,
            name=name,
            open=False,
            timeout=ACQUIRE_TIMEOUT_SECONDS,
            reconnect_timeout=RECONNECT_TIMEOUT_SECONDS,
            reconnect_failed=self._reconnect_failed,
        )
        self.health = HealthMonitor(url, name, on_recovered=self._pool.check)
        self._untrack: list[Callable[[], None]] = []
        # When each pooled connection was last returned in working order.
        self._returned_at: weakref.WeakKeyDictionary[Conn, float] = weakref.WeakKeyDictionary()
        self._returned_lock = threading.Lock()

    def open(self, wait: bool = True) -> Database:
        try:
            self._pool.open(wait=wait, timeout=OPEN_TIMEOUT_SECONDS)
        except PoolTimeout as exc:
            self._pool.close()
            raise Unavailable(
                f"database unreachable: no connection for pool {self.name!r} "
                f"after {OPEN_TIMEOUT_SECONDS:.0f}s",
                reason="DATABASE_UNREACHABLE",
            ) from exc
        self.health.start()
        self._track_use()
        return self

    def close(self) -> None:
        for untrack in self._untrack:
            untrack()
        self._untrack.clear()
        self.health.close()
        self._pool.close()

    def _track_use(self) -> None:
        stats = self._pool.get_stats

        def in_use() -> float:
            now = stats()
            return now.get("pool_size", 0) - now.get("pool_available", 0)

        self._untrack += [
            DB_POOL_CONNECTIONS.track(in_use, pool=self.name, state="in_use"),
            DB_POOL_CONNECTIONS.track(
                lambda: stats().get("pool_available", 0), pool=self.name, state="idle"
            ),
            DB_POOL_CONNECTIONS.track(lambda: self._pool.max_size, pool=self.name, state="max"),
            DB_POOL_WAITING.track(lambda: stats().get("requests_waiting", 0), pool=self.name),
        ]

    # -- pool callbacks (run in the pool's threads or the caller's) ---------

    def _check(self, conn: Conn) -> None:
        if self._recently_returned(conn):
            return
        try:
            ConnectionPool.check_connection(conn)
        except Exception:
            self.health.suspect(broken=True)
            raise

    def _recently_returned(self, conn: Conn) -> bool:
        """Returned in working order less than CHECK_IDLE_SECONDS ago, and
        still open and idle by its local state. Never while the pool is
        marked down: then only a real check may end the outage."""
        with self._returned_lock:
            returned = self._returned_at.get(conn)
        return (
            returned is not None
            and time.monotonic() - returned < CHECK_IDLE_SECONDS
            and not self.health.down
            and conn.pgconn.status == ConnStatus.OK
            and conn.pgconn.transaction_status == TransactionStatus.IDLE
        )

    def _reconnect_failed(self, _pool: ConnectionPool[Any]) -> None:
        self.health.suspect()

    # -- acquiring ----------------------------------------------------------

    @staticmethod
    def _unavailable() -> Unavailable:
        return Unavailable(DOWN_MESSAGE, reason="DATABASE_UNAVAILABLE")

    def _acquire(self) -> Conn:
        if self.health.down:
            # Only an idle connection can prove the server back; asking the
            # pool for a new one would start its reconnect back-off, which
            # delays the recovery the monitor is about to see.
            if not self._pool.get_stats().get("pool_available", 0):
                raise self._unavailable()
            try:
                conn = self._pool.getconn(timeout=DOWN_ATTEMPT_SECONDS)
            except PoolTimeout as exc:
                raise self._unavailable() from exc
            self.health.alive()
            return conn
        deadline = time.monotonic() + ACQUIRE_TIMEOUT_SECONDS
        while True:
            remaining = deadline - time.monotonic()
            try:
                return self._pool.getconn(timeout=max(0.001, min(ACQUIRE_SLICE_SECONDS, remaining)))
            except PoolTimeout as exc:
                if self.health.down:
                    raise self._unavailable() from exc
                if time.monotonic() >= deadline:
                    raise Unavailable(
                        f"no database connection free after {ACQUIRE_TIMEOUT_SECONDS:.0f}s",
                        reason="DATABASE_POOL_EXHAUSTED",
                    ) from exc
                self.health.suspect()

    @contextmanager
    def connection(self) -> Iterator[Conn]:
        conn = self._acquire()
        try:
            with conn:
                yield conn
        except psycopg.OperationalError as exc:
            if conn.closed:  # lost, not a failed statement
                self.health.suspect(broken=True)
                raise self._unavailable() from exc
            raise
        finally:
            if not conn.closed:
                with self._returned_lock:
                    self._returned_at[conn] = time.monotonic()
            self._pool.putconn(conn)

    @contextmanager
    def transaction(self) -> Iterator[Conn]:
        with self.connection() as conn, conn.transaction():
            yield conn
