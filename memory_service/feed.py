"""The change feed: pages of final changes after a cursor, and the notifier
that wakes followers without putting anything on the writers' commit path.

Cursors (memory_service/migrations/0008_commit_order_feed.sql) come from the
writing transaction's id, so writers never wait for each other; a change is
*final* once every transaction that got its id earlier has ended, which a
reader sees in its own snapshot (below journal.feed_frontier()). Followers
deliver final changes only, in cursor order, so a lower cursor that commits
later is never skipped. In a snapshot:

* the watermark is the highest final cursor: every change at or below it can
  be delivered, and a follower may resume from it;
* the head is the highest committed cursor (the journal's GetStatus reports
  it): changes between the two are committed and wait for an older
  transaction to end, usually a matter of milliseconds.

StreamChanges without follow returns every change committed before the call
(it waits for those still waiting, so a read after Quarantine returns sees
its change); with follow it streams final changes as they come.

Wake-ups: a writer calls FeedNotifier.announce() after its commit (never
inside it: a NOTIFY in the writing transaction takes a server-wide lock at
commit). That wakes this process's followers at once and other processes
through one NOTIFY at most every ANNOUNCE_SECONDS, sent from the notifier's
own connection. Followers also look again on their own: soon while a
change they read waits for an older transaction (whose end nobody announces
when it wrote no change), and every POLL_SECONDS regardless, so a lost
notification only delays a change.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg

from engram.db import Database
from engram.errors import Unavailable
from engram.logs import log_retry
from memory_service.store import Q

log = logging.getLogger("engram.journal.feed")

PAGE = 500
CHANNEL = "engram_changes"
# Followers re-check at least this often even without a notification, so a
# lost NOTIFY (listener reconnecting) delays a change by at most this much.
POLL_SECONDS = 0.5
# The cross-process NOTIFY at most this often (this process's followers are
# woken at once).
ANNOUNCE_SECONDS = 0.02
# While committed changes wait for an older transaction, re-read after a
# pause growing from the first to the second.
PENDING_PAUSE_SECONDS = (0.005, 0.05)
# StreamChanges without follow delivers every change committed before the
# call; it waits at most this long for older transactions to end.
CATCH_UP_SECONDS = 5.0
HEARTBEAT_SECONDS = 1.0


class FeedNotifier:
    """One LISTEN connection and one announcing connection per process;
    followers wait on a condition."""

    def __init__(self, url: str, *, announce_seconds: float = ANNOUNCE_SECONDS) -> None:
        self._url = url
        self._announce_seconds = announce_seconds
        self._cond = threading.Condition()
        self._generation = 0
        self._stop = threading.Event()
        self._announced = threading.Event()
        # NOTIFY payload naming this process, so its listener skips its own.
        self._token = uuid.uuid4().hex
        self._started = False
        self._listener = threading.Thread(target=self._listen, name="feed-listener", daemon=True)
        self._announcer = threading.Thread(
            target=self._announce_loop, name="feed-announcer", daemon=True
        )

    def start(self) -> None:
        self._started = True
        self._listener.start()
        self._announcer.start()

    def stop(self) -> None:
        self._stop.set()
        self._announced.set()
        self.wake()
        for thread in (self._listener, self._announcer):
            if thread.is_alive():
                thread.join(timeout=5)

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def wake(self) -> None:
        """Wake this process's followers now."""
        with self._cond:
            self._generation += 1
            self._cond.notify_all()

    def announce(self) -> None:
        """A transaction that appended changes committed: wake followers here
        now and in other processes soon (one NOTIFY for many commits). Never
        raises, never blocks."""
        self.wake()
        if self._started and not self._stop.is_set():
            self._announced.set()

    def wait(self, seen_generation: int, timeout: float = POLL_SECONDS) -> int:
        with self._cond:
            if self._generation == seen_generation and not self._stop.is_set():
                self._cond.wait(timeout)
            return self._generation

    @property
    def generation(self) -> int:
        with self._cond:
            return self._generation

    def _announce_loop(self) -> None:
        conn: psycopg.Connection[Any] | None = None
        failures = 0
        try:
            while not self._stop.is_set():
                self._announced.wait()
                if self._stop.is_set():
                    return
                self._announced.clear()
                try:
                    if conn is None or conn.closed:
                        conn = psycopg.connect(self._url, autocommit=True, connect_timeout=3)
                        # A hint, not a record: no need to wait for its WAL flush.
                        conn.execute("SET synchronous_commit = off")
                    conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, self._token))
                    failures = 0
                except psycopg.Error as exc:
                    failures += 1
                    log_retry(log, "feed announcement failed", exc, failures, level=logging.INFO)
                    if conn is not None:
                        conn.close()
                        conn = None
                    # Other processes still poll; back off before the next try.
                    self._stop.wait(min(1.0, 0.05 * failures))
                self._stop.wait(self._announce_seconds)
        finally:
            if conn is not None:
                conn.close()

    def _listen(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True) as conn:
                    conn.execute("LISTEN engram_changes")  # CHANNEL
                    failures = 0
                    # Short waits keep stop() prompt; the connection is kept.
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=0.2):
                            if notify.payload != self._token:
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


@dataclass(frozen=True)
class Position:
    """The feed in one snapshot (see the module docstring)."""

    watermark: int
    head: int
    # The highest committed change (of the kinds read) that waits for an
    # older transaction to end; 0 when none does.
    waiting: int = 0


def read_changes(
    db: Database, after: int, kinds: list[str], limit: int = PAGE
) -> tuple[list[dict[str, Any]], Position]:
    """(final changes after `after` in cursor order, the feed's position),
    from one snapshot (one statement)."""
    with db.connection() as conn:
        result = conn.execute(
            Q["changes_page"], {"after": after, "kinds": kinds, "limit": limit}
        ).fetchall()
    first = result[0]
    position = Position(int(first["last_cursor"]), int(first["head"]), int(first["waiting"]))
    rows = [
        {k: v for k, v in r.items() if k not in _POSITION_COLUMNS}
        for r in result
        if r["cursor"] is not None
    ]
    return rows, position


_POSITION_COLUMNS = frozenset({"last_cursor", "head", "waiting"})


def watermark(db: Database) -> int:
    """The highest final cursor."""
    with db.connection() as conn:
        row = conn.execute(Q["feed_watermark"]).fetchone()
    assert row is not None
    return int(row["last_cursor"])


def visibility_fence(db: Database) -> int:
    """The cursor of the latest visibility change (migration 0014)."""
    with db.connection() as conn:
        row = conn.execute(Q["visibility_fence"]).fetchone()
    assert row is not None
    return int(row["cursor"])


def head(db: Database) -> int:
    """The highest committed cursor."""
    with db.connection() as conn:
        row = conn.execute(Q["feed_head"]).fetchone()
    assert row is not None
    return int(row["head"])


def align_cursor_base(db: Database) -> int:
    """Keep new cursors above every stored one (journal.feed_align_base)."""
    with db.connection() as conn:
        row = conn.execute(Q["feed_align_base"]).fetchone()
    assert row is not None
    return int(row["base"])


def follow(
    db: Database,
    notifier: FeedNotifier,
    after: int,
    kinds: list[str],
    *,
    keep_following: bool,
    is_active: Callable[[], bool],
) -> Iterator[tuple[list[dict[str, Any]], int]]:
    """Yield (changes, watermark) batches of final changes.

    Without keep_following: every change (of `kinds`) committed before the
    call, then one empty batch. A change committed before the call may still
    wait for an older transaction; the stream waits for it (Unavailable after
    CATCH_UP_SECONDS without progress rather than end without it). With
    keep_following: block for more and send an empty heartbeat batch at least
    every HEARTBEAT_SECONDS so a follower can tell "nothing new" from
    "stalled"."""
    cursor = after
    last_sent = 0.0
    target: int | None = None  # the last change committed before the call
    caught_up_at: float | None = None
    pause = PENDING_PAUSE_SECONDS[0]
    while is_active() and not notifier.stopped:
        generation = notifier.generation
        rows, position = read_changes(db, cursor, kinds)
        if target is None:
            # The first snapshot sees every change committed before the call:
            # the final ones are read page by page, the rest is waited for.
            target = position.waiting
        if rows:
            cursor = int(rows[-1]["cursor"])
            last_sent = time.monotonic()
            pause = PENDING_PAUSE_SECONDS[0]
            yield rows, position.watermark
            continue
        # Nothing (matching) is final up to the snapshot's watermark: skip ahead.
        cursor = max(cursor, position.watermark)
        if not keep_following:
            if position.watermark >= target:
                yield [], position.watermark
                return
            caught_up_at = caught_up_at or time.monotonic()
            if time.monotonic() - caught_up_at >= CATCH_UP_SECONDS:
                raise Unavailable(
                    f"change {target} committed but an older transaction has not ended "
                    f"after {CATCH_UP_SECONDS:.0f}s",
                    reason="FEED_HELD_BACK",
                )
        elif time.monotonic() - last_sent >= HEARTBEAT_SECONDS:
            last_sent = time.monotonic()
            yield [], position.watermark
        if position.waiting:
            # Nobody may announce the older transaction's end: look again soon.
            notifier.wait(generation, timeout=pause)
            pause = min(pause * 2, PENDING_PAUSE_SECONDS[1])
        else:
            pause = PENDING_PAUSE_SECONDS[0]
            notifier.wait(generation)
