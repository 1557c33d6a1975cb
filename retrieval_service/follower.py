"""Keeps the resident index fresh from JournalService.StreamChanges.

One thread: load the persisted snapshot (or rebuild from the journal when
there is none), then follow the feed from the snapshot's applied cursor,
applying each streamed batch as one snapshot swap. Stream errors reconnect
with exponential backoff; a cursor the journal no longer knows
(OUT_OF_RANGE: a different or restored database) discards the snapshot and
rebuilds.

Freshness: the stream reports the journal's watermark with every batch and
sends an empty heartbeat about once a second when idle, so "caught up" is
observed at least that often while the stream is healthy. Staleness is the
time since the applied cursor last equalled the watermark.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from pathlib import Path

from engram.downstream import DownstreamError
from engram.errors import OutOfRange, Unavailable
from engram.logs import log_retry
from retrieval_service import persist
from retrieval_service.changes import ops_from_changes
from retrieval_service.index import ResidentIndex
from retrieval_service.journal_client import ChangeStream, JournalClient
from retrieval_service.rebuild import Rebuilder

log = logging.getLogger("engram.retrieval.follower")

BACKOFF_MIN = 0.2
BACKOFF_MAX = 5.0


class Freshness:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.watermark = 0
        self._caught_up_at: float | None = None
        self.connected = False

    def observe(self, applied_cursor: int, watermark: int) -> None:
        with self._lock:
            self.watermark = max(self.watermark, watermark)
            self.connected = True
            if applied_cursor >= watermark:
                self._caught_up_at = time.monotonic()

    def disconnected(self) -> None:
        with self._lock:
            self.connected = False

    def reset(self) -> None:
        with self._lock:
            self._caught_up_at = None

    def staleness(self) -> float:
        """Seconds since the index last matched the journal watermark (inf: never)."""
        with self._lock:
            if self._caught_up_at is None:
                return math.inf
            return time.monotonic() - self._caught_up_at


class Follower:
    def __init__(
        self,
        index: ResidentIndex,
        client: JournalClient,
        rebuilder: Rebuilder,
        freshness: Freshness,
        persist_root: Path | None,
    ) -> None:
        self._index = index
        self._client = client
        self._rebuilder = rebuilder
        self._freshness = freshness
        self._persist_root = persist_root
        self._stop = threading.Event()
        self._paused = threading.Event()
        self._stream: ChangeStream | None = None
        self._thread = threading.Thread(target=self._run, name="index-follower", daemon=True)
        self.batches_applied = 0
        self.reconnects = 0

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._rebuilder.cancel()
        self._cancel_stream()
        self._thread.join(timeout)

    def pause(self) -> None:
        """Stop applying changes (the index goes stale); for operations and tests."""
        self._paused.set()
        self._cancel_stream()

    def resume(self) -> None:
        self._paused.clear()

    @property
    def paused(self) -> bool:
        return self._paused.is_set()

    def _cancel_stream(self) -> None:
        stream = self._stream
        if stream is not None:
            stream.cancel()

    def _run(self) -> None:
        self._load_persisted()
        backoff = BACKOFF_MIN
        failures = 0
        while not self._stop.is_set():
            if self._paused.is_set():
                self._freshness.disconnected()
                self._stop.wait(0.1)
                continue
            try:
                if self._index.snapshot is None:
                    self._initial_build()
                else:
                    self._follow()
                backoff = BACKOFF_MIN
                failures = 0
            except OutOfRange as error:
                log.warning("journal does not know the index cursor (%s); rebuilding", error)
                self._index.reset()
                self._freshness.reset()
                if self._persist_root is not None:
                    persist.discard(self._persist_root)
            except (Unavailable, DownstreamError) as error:  # the journal, not the index
                self._freshness.disconnected()
                if self._stop.is_set() or self._paused.is_set():
                    continue
                failures += 1
                log_retry(
                    log,
                    "change feed unavailable; retrying in %.1fs",
                    error,
                    failures,
                    backoff,
                    level=logging.INFO,
                )
                self.reconnects += 1
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
            except Exception as exc:
                self._freshness.disconnected()
                failures += 1
                log_retry(
                    log, "change feed follower failed; retrying in %.1fs", exc, failures, backoff
                )
                self._stop.wait(backoff)
                backoff = min(backoff * 2, BACKOFF_MAX)
        self._freshness.disconnected()

    def _load_persisted(self) -> None:
        if self._persist_root is None:
            return
        index = self._index
        loaded = persist.load(self._persist_root, index.dim, index.model, index.workspaces)
        if loaded is not None:
            snapshot, interner = loaded
            self._index.install(snapshot, interner)
            log.info(
                "loaded index snapshot at cursor %d (%d episodes)",
                snapshot.applied_cursor,
                snapshot.live,
            )

    def _initial_build(self) -> None:
        job = self._rebuilder.ensure_running()
        while not job.wait(0.2):
            if self._stop.is_set():
                return
        error = job.progress.last_error
        if error and self._index.snapshot is None:
            raise Unavailable(f"initial index build failed: {error}")

    def _follow(self) -> None:
        snapshot = self._index.snapshot
        if snapshot is None:
            return
        stream = self._client.stream_changes(snapshot.applied_cursor, follow=True)
        self._stream = stream
        try:
            for message in stream:
                if self._stop.is_set() or self._paused.is_set():
                    return
                index = self._index
                ops = ops_from_changes(
                    message.changes, index.interner, index.dim, index.model, index.workspaces
                )
                cursor = (
                    int(message.changes[-1].cursor) if message.changes else int(message.watermark)
                )
                applied = index.apply(ops, cursor)
                if applied is None:  # reset underneath us: rebuild
                    return
                if message.changes:
                    self.batches_applied += 1
                self._freshness.observe(applied.applied_cursor, int(message.watermark))
        finally:
            self._stream = None
            stream.cancel()
        # The journal ended the stream (shutting down): reconnect after a pause.
        self._freshness.disconnected()
        raise Unavailable("change feed ended")
