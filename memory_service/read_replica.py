"""Read-only RPCs on a streaming standby (settings.read_database_url).

Routed here: SearchEpisodes, FindExact (its primary read and its verifier),
ReadSessionJournal and ListReceipts. Everything else stays on the primary:
writes, idempotent replays, quarantine, purge, the change feed,
BatchGetEpisodes (the resident index reads what the feed just announced),
transcripts and status. Without a standby every read goes to the primary and
nothing else changes.

One request (ReadRouter.read):

1. The primary's position P (read_replica.sql primary_position): its flushed
   WAL position, which every commit acknowledged before the request is at or
   below, and the feed watermark.
2. The standby's replay position R (standby_replay), read before the read's
   snapshot is taken, so the snapshot holds at least what R says. While R is
   below P, look again every CATCH_UP_POLL_SECONDS for up to
   CATCH_UP_SECONDS, unless replay is paused or more than
   CATCH_UP_MAX_BYTES behind. P over-approximates: the flushed position
   also counts WAL that no commit needs (hint-bit page images written by
   reads, the first part of a record the WAL writer flushes at a page end
   and completes within wal_writer_delay, 200 ms by default), which a
   standby replays a moment later; hence the wait.
3. The read, on the standby. It is **caught up** when R >= P and the
   watermark its snapshot observed (coverage.snapshot_version) is at least
   P's: it then saw everything the primary had committed when the request
   started, and its coverage is the read path's own plus the standby named
   as a source. Otherwise (still behind, the watermarks disagree, or P
   unknown because the primary is unreachable) temporal coverage is PARTIAL
   (engram.coverage.replica_coverage) and the standby source says through
   when it is complete: the commit time of the last transaction it replayed.
   So a lagging standby never reports a span it has not replayed as complete
   and FindExact on it is never ABSENT_AUTHORITATIVE.

ReadSessionJournal and ListReceipts read the standby only when it has
replayed everything (caught_up_only), and the primary otherwise: ListReceipts
carries no coverage to say it was stale, and ReadSessionJournal's callers
read what they were just told of (learning capture reads the run.completed
event the feed announced, the gateway recovers the context it journaled) and
take a missing event for an unreadable one. Their coverage still names the
standby when it served, and is PARTIAL if its watermark was behind.

A standby that is down (its pool's health monitor), not in recovery (promoted,
or not a standby at all) or that fails during the read (connection lost, a
recovery conflict cancelling the query): the same read runs on the primary,
logged at most once per FALLBACK_LOG_SECONDS per reason and counted
(engram_plane_events_total{plane="journal",event="read_replica_fallback"}).
Reads never fail because of the standby alone.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import replica_coverage
from engram.db import Database
from engram.db.queries import Queries
from engram.errors import Unavailable
from engram.metrics import READ_REPLICA_LAG_BYTES, READ_REPLICA_LAG_SECONDS, count_plane_event

log = logging.getLogger("engram.journal.read_replica")

RQ = Queries(Path(__file__).with_name("read_replica.sql"))

STANDBY_SOURCE = "postgresql-standby"
# How long a request waits for the standby to replay what the primary had
# flushed when it started, and how often it looks.
CATCH_UP_SECONDS = 0.25
CATCH_UP_POLL_SECONDS = 0.005
# Further behind than this, waiting a quarter of a second will not help.
CATCH_UP_MAX_BYTES = 16 * 1024 * 1024
FALLBACK_LOG_SECONDS = 10.0
# The lag gauges measure at most this often (scrapes in between reuse it).
LAG_CACHE_SECONDS = 1.0

T = TypeVar("T")


def format_lsn(lsn: int) -> str:
    """PostgreSQL's text form of a WAL position (e.g. 0/3001F28)."""
    return f"{lsn >> 32:X}/{lsn & 0xFFFFFFFF:X}"


@dataclass(frozen=True)
class PrimaryPosition:
    lsn: int
    watermark: int
    at: datetime


@dataclass(frozen=True)
class Replay:
    lsn: int
    replayed_at: datetime | None
    now: datetime
    paused: bool = False


@dataclass(frozen=True)
class Served:
    """Where one read ran and, on the standby, what it had replayed."""

    standby: bool
    primary: PrimaryPosition | None = None
    replay: Replay | None = None

    @property
    def replayed_all(self) -> bool:
        """The standby had replayed every commit acknowledged before the request."""
        return (
            self.primary is not None
            and self.replay is not None
            and self.replay.lsn >= self.primary.lsn
        )

    def coverage(self, coverage: cpb.Coverage) -> cpb.Coverage:
        """The read path's coverage as served: unchanged from the primary; from
        the standby with the standby named and, unless it was caught up,
        temporal coverage PARTIAL (module docstring)."""
        if not self.standby:
            return coverage
        watermark = int(coverage.snapshot_version) if coverage.snapshot_version.isdigit() else -1
        reason = self._behind_reason(watermark)
        if reason:
            count_plane_event("journal", "read_replica_behind")
        return replica_coverage(
            coverage, standby_source=self._source(reason, watermark), caught_up=not reason
        )

    def _behind_reason(self, watermark: int) -> str:
        if self.primary is None:
            return "primary_unreachable"
        if not self.replayed_all:
            return "replay_behind"
        if watermark < self.primary.watermark:
            return "watermark_behind"
        return ""

    def _source(self, reason: str, watermark: int) -> str:
        replay = self.replay
        assert replay is not None
        parts = [f"replay_lsn={format_lsn(replay.lsn)}"]
        if reason:
            through = replay.replayed_at
            parts.insert(0, f"behind reason={reason}")
        else:
            assert self.primary is not None
            through = self.primary.at
            parts.insert(0, "caught_up")
        if self.primary is not None:
            parts += [
                f"primary_lsn={format_lsn(self.primary.lsn)}",
                f"watermark={watermark}",
                f"primary_watermark={self.primary.watermark}",
            ]
        parts.append(f"complete_through={through.isoformat() if through else 'unknown'}")
        return f"{STANDBY_SOURCE}:{' '.join(parts)}"


PRIMARY = Served(standby=False)


def _server_failed(exc: Exception) -> bool:
    """Errors that say the server (not the request) failed: a lost or refused
    connection, a query cancelled (on a standby: by a recovery conflict), a
    pool that is down."""
    if isinstance(exc, psycopg.OperationalError):
        return True
    return isinstance(exc, Unavailable) and exc.reason.startswith("DATABASE_")


class ReadRouter:
    """Runs read-only domain calls on the standby when there is one (see the
    module docstring); the call receives the Database to read."""

    def __init__(
        self,
        primary: Database,
        standby: Database | None = None,
        *,
        catch_up_seconds: float = CATCH_UP_SECONDS,
    ) -> None:
        self.primary = primary
        self.standby = standby
        self.catch_up_seconds = catch_up_seconds
        self._lock = threading.Lock()
        self._logged: dict[str, float] = {}
        self._lag: tuple[float, float, float] | None = None  # (measured at, seconds, bytes)

    def read(
        self, read: Callable[[Database], T], *, caught_up_only: bool = False
    ) -> tuple[T, Served]:
        """(result, where it was served). With ``caught_up_only`` the standby
        serves only when it had replayed everything (reads without coverage)."""
        standby = self.standby
        if standby is None:
            return read(self.primary), PRIMARY
        if standby.health.down:
            return self._fallback(read, "standby_down")
        position = self._primary_position()
        try:
            replay = self._catch_up(standby, position)
        except Exception as exc:
            if not _server_failed(exc):
                raise
            return self._fallback(read, "standby_failed", exc)
        if replay is None:
            return self._fallback(read, "not_in_recovery")
        served = Served(standby=True, primary=position, replay=replay)
        if caught_up_only and not served.replayed_all:
            count_plane_event("journal", "read_replica_behind")
            return read(self.primary), PRIMARY
        try:
            return read(standby), served
        except Exception as exc:
            if not _server_failed(exc):
                raise
            return self._fallback(read, "standby_failed", exc)

    def _fallback(
        self, read: Callable[[Database], T], reason: str, exc: Exception | None = None
    ) -> tuple[T, Served]:
        count_plane_event("journal", "read_replica_fallback")
        now = time.monotonic()
        with self._lock:
            due = now - self._logged.get(reason, -math.inf) >= FALLBACK_LOG_SECONDS
            if due:
                self._logged[reason] = now
        if due:
            log.warning(
                "read replica not used; reading the primary",
                extra={"reason": reason, "error": str(exc).strip()[:300] if exc else ""},
            )
        return read(self.primary), PRIMARY

    def _primary_position(self) -> PrimaryPosition | None:
        """None while the primary is unreachable (the standby then serves, behind)."""
        try:
            with self.primary.connection() as conn:
                row = conn.execute(RQ["primary_position"]).fetchone()
        except Exception as exc:
            if not _server_failed(exc):
                raise
            return None
        assert row is not None
        return PrimaryPosition(int(row["lsn"]), int(row["watermark"]), row["at"])

    def _catch_up(self, standby: Database, position: PrimaryPosition | None) -> Replay | None:
        deadline = time.monotonic() + self.catch_up_seconds
        with standby.connection() as conn:
            while True:
                replay = self._replay(conn)
                if (
                    replay is None
                    or position is None
                    or replay.lsn >= position.lsn
                    or replay.paused
                    or position.lsn - replay.lsn > CATCH_UP_MAX_BYTES
                    or time.monotonic() >= deadline
                ):
                    return replay
                time.sleep(CATCH_UP_POLL_SECONDS)

    @staticmethod
    def _replay(conn: psycopg.Connection[dict[str, Any]]) -> Replay | None:
        row = conn.execute(RQ["standby_replay"]).fetchone()
        assert row is not None
        if not row["in_recovery"]:
            return None
        return Replay(int(row["lsn"] or 0), row["replayed_at"], row["now"], bool(row["paused"]))

    # -- lag gauges -----------------------------------------------------------

    def track_lag(self) -> Callable[[], None]:
        """Export the standby's lag (engram_read_replica_lag_seconds / _bytes,
        measured when scraped); returns the function that stops it."""
        untrack = [
            READ_REPLICA_LAG_SECONDS.track(lambda: self.lag()[0]),
            READ_REPLICA_LAG_BYTES.track(lambda: self.lag()[1]),
        ]

        def stop() -> None:
            for fn in untrack:
                fn()

        return stop

    def lag(self) -> tuple[float, float]:
        """(seconds, bytes) the standby is behind the primary; raises while
        either is unreachable (the gauges then leave it out)."""
        with self._lock:
            cached = self._lag
        if cached is not None and time.monotonic() - cached[0] < LAG_CACHE_SECONDS:
            return cached[1], cached[2]
        if self.standby is None:
            raise Unavailable("no read replica configured")
        position = self._primary_position()
        if position is None:
            raise Unavailable("primary unreachable")
        with self.standby.connection() as conn:
            replay = self._replay(conn)
        if replay is None:
            raise Unavailable("the read replica is not in recovery")
        behind = max(0, position.lsn - replay.lsn)
        seconds = 0.0
        if behind:
            seconds = (
                max(0.0, (replay.now - replay.replayed_at).total_seconds())
                if replay.replayed_at is not None
                else math.nan
            )
        with self._lock:
            self._lag = (time.monotonic(), seconds, float(behind))
        return seconds, float(behind)
