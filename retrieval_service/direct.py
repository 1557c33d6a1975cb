"""Recall's visibility reads straight from the journal's database.

The resident snapshot may lag a quarantine or purge by a feed batch. Each
resident Recall first reads the visibility fence (one row: the cursor of the
latest quarantine, restore or purge change, migration 0014); a snapshot that
has applied the feed up to it serves its own bodies. Otherwise, and for
context turns, the hits are re-read from committed state: their bodies, their
context turns, and whether they are still visible. Over gRPC that re-read is a
BatchGetEpisodes round trip; here it is the same read
(memory_service.search_rpcs.visible_episodes: the journal's own query and
visibility rule, one place) on a connection of this process. Used whenever the
process knows the database URL.

The fence is read on connections of its own with the statement prepared, and
asynchronously: :meth:`DirectEpisodes.start_fence` sends the read and returns
a call that collects its answer, so the search runs while PostgreSQL answers
(the pool's checkout alone cost about as much as the read itself). Any
failure on such a connection closes it and reads through the pool instead,
whose health checks decide between an answer and Unavailable.
"""

from __future__ import annotations

import logging
import select
import threading
import time
from collections.abc import Callable, Sequence

import psycopg
from psycopg import pq
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from engram.db import Database
from engram.db.pool import CONNECT_TIMEOUT_SECONDS
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from memory_service.feed import visibility_fence
from memory_service.search import EpisodeSearch
from memory_service.search_rpcs import visible_episodes
from memory_service.store import Q

log = logging.getLogger("engram.retrieval.direct")

# A Recall holds one connection for one statement pair; a few cover the
# server's threads without taking much from the database's connection budget.
POOL_MAX_SIZE = 4
# Connections kept for fence reads; a Recall that finds none idle reads
# through the pool.
FENCE_CONNECTIONS = 4
# Longest wait for a fence answer before the connection is given up.
FENCE_TIMEOUT_SECONDS = 5.0
_FENCE_STATEMENT = b"engram_visibility_fence"
# How the fence connections show in pg_stat_activity.
FENCE_APPLICATION_NAME = "engram-retrieval-fence"
# After a fence connection could not be opened, reads go through the pool
# (whose health monitor answers at once while the server is down) this long.
FENCE_RETRY_SECONDS = 1.0

# The answer of a fence read that was started: waits for it and returns it.
FenceRead = Callable[[], int]


class FenceError(Exception):
    """A fence connection failed (the read is retried through the pool)."""


class _FenceConnection:
    """One connection that only reads the fence, its statement prepared;
    used through libpq's asynchronous calls (psycopg.pq)."""

    def __init__(self, url: str) -> None:
        # The URL's connect_timeout when it has one, as for the pool's connections.
        conninfo = make_conninfo(url, application_name=FENCE_APPLICATION_NAME)
        if "connect_timeout" not in conninfo_to_dict(url):
            conninfo = make_conninfo(conninfo, connect_timeout=CONNECT_TIMEOUT_SECONDS)
        self._conn = psycopg.connect(conninfo, autocommit=True)
        result = self._conn.pgconn.prepare(_FENCE_STATEMENT, Q["visibility_fence"].encode())
        if result.status != pq.ExecStatus.COMMAND_OK:
            self.close()
            raise FenceError(result.get_error_message())

    def send(self) -> None:
        pgconn = self._conn.pgconn
        if pgconn.status != pq.ConnStatus.OK:
            raise FenceError("connection lost")
        pgconn.send_query_prepared(_FENCE_STATEMENT, None)
        while pgconn.flush():  # non-blocking connection: flush what is left
            self._wait(write=True)

    def receive(self) -> int:
        pgconn = self._conn.pgconn
        value: int | None = None
        while True:
            pgconn.consume_input()
            while pgconn.is_busy():
                self._wait(write=False)
                pgconn.consume_input()
            result = pgconn.get_result()
            if result is None:
                break
            if result.status != pq.ExecStatus.TUPLES_OK or result.ntuples != 1:
                raise FenceError(result.get_error_message() or "no fence row")
            cell = result.get_value(0, 0)
            if cell is None:
                raise FenceError("fence is null")
            value = int(cell)
        if value is None:
            raise FenceError("no answer")
        return value

    def _wait(self, *, write: bool) -> None:
        poller = select.poll()
        poller.register(self._conn.pgconn.socket, select.POLLOUT if write else select.POLLIN)
        if not poller.poll(FENCE_TIMEOUT_SECONDS * 1000):
            raise FenceError("no answer in time")

    def close(self) -> None:
        self._conn.close()


class DirectEpisodes:
    def __init__(self, database_url: str, embedder_name: str) -> None:
        # Not waiting for the first connection: Recall answers UNAVAILABLE
        # while the database is down, and this process starts without it.
        self._db = Database(database_url, max_size=POOL_MAX_SIZE, name="retrieval").open(wait=False)
        self._search = EpisodeSearch(self._db, embedder_name)
        self._url = database_url
        self._idle: list[_FenceConnection] = []
        self._fence_connections = 0
        self._fence_lock = threading.Lock()
        self._retry_at = 0.0
        self._closed = False

    def batch_get(self, episode_ids: Sequence[str], context_turns: int = 0) -> list[jpb.Episode]:
        """Visible episodes in request order (BatchGetEpisodes' contract)."""
        try:
            return visible_episodes(self._search, list(dict.fromkeys(episode_ids)), context_turns)
        except psycopg.OperationalError as error:
            raise Unavailable(
                f"database unavailable: {error}", reason="DATABASE_UNAVAILABLE"
            ) from error

    def fence(self) -> int:
        """The visibility fence: the cursor a snapshot must have applied to
        serve without a re-read (read through the pool)."""
        try:
            return visibility_fence(self._db)
        except psycopg.OperationalError as error:
            raise Unavailable(
                f"database unavailable: {error}", reason="DATABASE_UNAVAILABLE"
            ) from error

    def start_fence(self) -> FenceRead:
        """Send a fence read now; the returned call waits for its answer.
        The answer is read by PostgreSQL after this call began, so it is at
        least the cursor of every visibility change acknowledged before."""
        connection = self._fence_connection()
        if connection is None:
            value = self.fence()
            return lambda: value
        try:
            connection.send()
        except (FenceError, psycopg.Error) as error:
            self._discard(connection, error)
            value = self.fence()
            return lambda: value

        def receive() -> int:
            try:
                value = connection.receive()
            except (FenceError, psycopg.Error) as error:
                self._discard(connection, error)
                return self.fence()  # later than the read that was sent: as safe
            self._release(connection)
            return value

        return receive

    @property
    def fence_connections(self) -> tuple[int, int]:
        """(open, idle) connections kept for fence reads."""
        with self._fence_lock:
            return self._fence_connections, len(self._idle)

    def _fence_connection(self) -> _FenceConnection | None:
        """An idle fence connection, a new one while fewer than
        FENCE_CONNECTIONS exist, or None (then the pool serves the read)."""
        with self._fence_lock:
            if self._idle:
                return self._idle.pop()
            if self._closed or self._fence_connections >= FENCE_CONNECTIONS:
                return None
            if self._db.health.down or time.monotonic() < self._retry_at:
                return None  # the pool answers at once while the server is down
            self._fence_connections += 1
        try:
            return _FenceConnection(self._url)
        except (FenceError, psycopg.Error) as error:
            with self._fence_lock:
                self._fence_connections -= 1
                self._retry_at = time.monotonic() + FENCE_RETRY_SECONDS
            log.warning("cannot open a fence connection: %s", error)
            return None

    def _release(self, connection: _FenceConnection) -> None:
        with self._fence_lock:
            if not self._closed:
                self._idle.append(connection)
                return
        connection.close()

    def _discard(self, connection: _FenceConnection, error: Exception) -> None:
        log.info("fence connection dropped: %s", error)
        connection.close()
        with self._fence_lock:
            self._fence_connections -= 1

    def close(self) -> None:
        with self._fence_lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()
        self._db.close()
