"""The change feed: pages of committed changes after a cursor, and a
notifier that wakes followers on NOTIFY instead of having each one poll hard."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg

from engram.db import Database
from engram.logs import log_retry
from memory_service.store import Q

log = logging.getLogger("engram.journal.feed")

PAGE = 500
# Followers re-check at least this often even without a notification, so a
# lost NOTIFY (listener reconnecting) delays a change by at most this much.
POLL_SECONDS = 0.5


class FeedNotifier:
    """One LISTEN connection per process; followers wait on a condition."""

    def __init__(self, url: str) -> None:
        self._url = url
        self._cond = threading.Condition()
        self._generation = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="feed-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.wake()
        self._thread.join(timeout=5)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def wake(self) -> None:
        with self._cond:
            self._generation += 1
            self._cond.notify_all()

    def wait(self, seen_generation: int, timeout: float = POLL_SECONDS) -> int:
        with self._cond:
            if self._generation == seen_generation and not self._stop.is_set():
                self._cond.wait(timeout)
            return self._generation

    @property
    def generation(self) -> int:
        with self._cond:
            return self._generation

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True) as conn:
                    conn.execute("LISTEN engram_changes")
                    failures = 0
                    # Short waits keep stop() prompt; the connection is kept.
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=0.2):
                            self.wake()
            except psycopg.OperationalError as exc:
                if self._stop.wait(1.0):
                    return
                failures += 1
                log_retry(log, "feed listener reconnecting", exc, failures, level=logging.WARNING)
            except Exception as exc:
                failures += 1
                log_retry(log, "feed listener failed; retrying", exc, failures)
                if self._stop.wait(1.0):
                    return


def read_changes(
    db: Database, after: int, kinds: list[str], limit: int = PAGE
) -> tuple[list[dict[str, Any]], int]:
    """(changes after `after` in cursor order, watermark) from one snapshot."""
    with db.connection() as conn, conn.transaction():
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        rows = conn.execute(
            Q["changes_after"], {"after": after, "kinds": kinds, "limit": limit}
        ).fetchall()
        watermark = conn.execute(Q["feed_watermark"]).fetchone()
    assert watermark is not None
    return rows, int(watermark["last_cursor"])


def watermark(db: Database) -> int:
    with db.connection() as conn:
        row = conn.execute(Q["feed_watermark"]).fetchone()
    assert row is not None
    return int(row["last_cursor"])


HEARTBEAT_SECONDS = 1.0


def follow(
    db: Database,
    notifier: FeedNotifier,
    after: int,
    kinds: list[str],
    *,
    keep_following: bool,
    is_active: Callable[[], bool],
) -> Iterator[tuple[list[dict[str, Any]], int]]:
    """Yield (changes, watermark) batches. Once caught up: without
    keep_following yield one empty batch and stop; with it, block for more and
    send an empty heartbeat batch at least every HEARTBEAT_SECONDS so a
    follower can tell "nothing new" from "stalled"."""
    cursor = after
    last_sent = 0.0
    while is_active() and not notifier.stopped:
        generation = notifier.generation
        rows, mark = read_changes(db, cursor, kinds)
        if rows:
            cursor = int(rows[-1]["cursor"])
            last_sent = time.monotonic()
            yield rows, mark
            continue
        # Nothing (matching) up to the snapshot's watermark: skip ahead.
        cursor = max(cursor, mark)
        if not keep_following:
            yield [], mark
            return
        if time.monotonic() - last_sent >= HEARTBEAT_SECONDS:
            last_sent = time.monotonic()
            yield [], mark
        notifier.wait(generation)
