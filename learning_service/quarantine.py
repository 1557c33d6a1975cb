"""Journal quarantine on the learning plane: the read-time sync.

A candidate, learning or skill is withheld by quarantine while a journal
record it was derived from is quarantined: its source run's record
(source_run_id) or the event source_event_id names (the run.completed event
capture read); a skill follows its source learning. The SQL decides it
(learning.source_quarantined over learning.source_quarantine, the plane's
copy of the journal's quarantine state; prompt_eligible requires it false),
so every read path filters withheld records in its query.

The copy is brought up to date by the read itself, never by a background
consumer: before a read path queries, :meth:`SourceQuarantine.sync` asks the
journal for the quarantines and restores committed after the plane's
'quarantine' cursor (JournalService.StreamChanges, follow = false, which ends
at the journal's watermark) and applies them; a process keeps the cursor it
last reached, so only its first sync reads the stored one, and writes the
stored one only with changes or every CURSOR_WRITE_EVERY journal changes (no
commit per read). The learned-context read asks the journal while its query
runs (:meth:`SourceQuarantine.read_current`) and runs the query again only
when there were changes. Quarantine returns only after
its change is committed, so the first read after it returns sees it, and the
first read after Restore sees the record again. Concurrent syncs are safe:
each change is applied only over an older one for the same record, and the
cursor only moves forward. When the journal cannot be read, the sync raises
Unavailable (reason QUARANTINE_STATE_UNAVAILABLE) and the read fails closed.

When this database is the journal's (the single-database deployment: the
journal's quarantine tables are here), the learned-context read needs no
sync at all: its one statement reads the journal's own quarantine
projection (journal.quarantined) in its snapshot, so a quarantine or
restore committed before the read began is always seen, whatever the change
feed is doing, and nothing is asked over gRPC (`source` "journal", chosen at
start by :func:`quarantine_source`). The other read paths keep the copy.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from engram.db import Database
from engram.errors import Unavailable
from learning_service.store import Q, cursor_position

CURSOR = "quarantine"
CURSOR_WRITE_EVERY = 1000
T = TypeVar("T")
# Where a learned-context read finds what quarantine withholds: the plane's
# copy ("copy"), or the journal's own tables in this database ("journal").
QUARANTINE_SOURCES = ("copy", "journal")


def journal_state_unavailable(error: BaseException) -> Unavailable:
    """Fail closed: without the quarantine state nothing derived is served."""
    return Unavailable(
        f"cannot read the journal's quarantine state: {error}",
        reason="QUARANTINE_STATE_UNAVAILABLE",
    )


def quarantine_source(db: Database, setting: str = "auto") -> str:
    """The source for the setting learning_quarantine_state: with "auto",
    "journal" when this database holds the journal's quarantine tables
    readable by this role, else "copy"; with "feed", "copy"."""
    if setting == "feed":
        return "copy"
    with db.connection() as conn:
        row = conn.execute(Q["journal_quarantine_readable"]).fetchone()
    return "journal" if row is not None and row["readable"] else "copy"


@dataclass(frozen=True)
class QuarantineChange:
    """A journal quarantine or restore of a record kind learnings are derived
    from: "run_record" (record_id = run id) or "event" (record_id = event id)."""

    cursor: int
    record_kind: str
    record_id: str
    quarantined: bool


class PendingChanges(Protocol):
    def result(self) -> tuple[list[QuarantineChange], int]:
        """(run-record and event quarantines/restores after the cursor, the
        journal watermark they are complete up to)."""
        ...

    def cancel(self) -> None: ...


class QuarantineFeed(Protocol):
    def begin_quarantine_changes(self, after_cursor: int) -> PendingChanges:
        """Start asking the journal; the answer is collected while the caller works."""
        ...


class SourceQuarantine:
    def __init__(self, db: Database, feed: QuarantineFeed, source: str = "copy") -> None:
        assert source in QUARANTINE_SOURCES
        self.db = db
        self.feed = feed
        # What the learned-context read withholds by (see the module docstring).
        self.source = source
        # The cursor this process last brought the copy to. Asking the
        # journal from it rather than from the stored cursor saves a database
        # read per sync and keeps the guarantee: the journal is still asked
        # on every read, and a stored cursor another process moved further
        # only means changes already applied are applied again, which never
        # overwrites a newer one (source_quarantine_put).
        self._known = -1
        # The stored cursor as this process last wrote or read it: moving it
        # is a commit, so a sync that finds nothing new writes it only once
        # the journal has moved CURSOR_WRITE_EVERY past it (what a restarted
        # process re-reads is bounded by that).
        self._stored = -1
        self._lock = threading.Lock()

    @property
    def known(self) -> int:
        """The journal cursor this process has brought the copy to (0 before its first sync)."""
        with self._lock:
            return max(0, self._known)

    def _cursor(self) -> int:
        with self._lock:
            cursor = self._known
        if cursor < 0:
            with self.db.connection() as conn:
                cursor = cursor_position(conn, CURSOR)
            with self._lock:
                self._stored = max(self._stored, cursor)
        return cursor

    def _caught_up(self, cursor: int, changes: Sequence[QuarantineChange], watermark: int) -> int:
        with self._lock:
            stored = self._stored
        if changes or watermark - stored >= CURSOR_WRITE_EVERY:
            self.apply(changes, watermark)
        current = max(cursor, watermark)
        with self._lock:
            self._known = max(self._known, current)
        return current

    def sync(self) -> int:
        """Catch the plane's quarantine state up with the journal; returns the
        journal cursor it is now current to."""
        cursor = self._cursor()
        changes, watermark = self.feed.begin_quarantine_changes(cursor).result()
        return self._caught_up(cursor, changes, watermark)

    def read_current(self, read: Callable[[], T]) -> T:
        """read() as after sync(), with the journal asked while it runs. A
        read sees every quarantine change up to the cursor this process had
        applied when it began (applied and committed first); if the journal
        reports none after that cursor, nothing committed before this call
        began is missing, so its answer stands; otherwise the changes are
        applied and read() runs again. A journal that cannot be read fails
        the call (Unavailable) whatever read() found."""
        cursor = self._cursor()
        pending = self.feed.begin_quarantine_changes(cursor)
        try:
            answer = read()
        except BaseException:
            pending.cancel()
            raise
        changes, watermark = pending.result()
        self._caught_up(cursor, changes, watermark)
        return read() if changes else answer

    def apply(self, changes: Sequence[QuarantineChange], watermark: int) -> None:
        with self.db.transaction() as conn:
            for change in changes:
                conn.execute(
                    Q["source_quarantine_put"],
                    {
                        "record_kind": change.record_kind,
                        "record_id": change.record_id,
                        "quarantined": change.quarantined,
                        "change_cursor": change.cursor,
                    },
                )
            conn.execute(Q["cursor_advance_to"], {"name": CURSOR, "position": watermark})
        with self._lock:
            self._stored = max(self._stored, watermark)
