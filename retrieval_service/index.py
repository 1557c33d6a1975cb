"""The resident index: one published Snapshot reference and the single
writer that replaces it.

Readers call :attr:`ResidentIndex.snapshot` once per request and use only
that object. Writers (the feed applier, a background merge, a rebuild) hold
the writer lock only while computing and publishing the next snapshot; a
side build (merge or rebuild, which can take minutes at 1M episodes) runs
without the lock and records nothing itself: while it runs, every batch the
applier publishes is also appended to an op log, and the side build, once
done, replays the logged ops newer than its own cursor onto its result and
publishes that, all under the lock. So there is one writer at a time, no
change is lost, and no reader ever sees a structure being mutated.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from retrieval_service.records import Interner, Op
from retrieval_service.snapshot import Snapshot

log = logging.getLogger("engram.retrieval.index")

# Fold small segments into the base once they hold this many live rows, or
# this share of the base, whichever is larger; or once this share of the
# base is tombstones.
MERGE_MIN_ROWS = 20_000
MERGE_SHARE = 0.10
MERGE_DEAD_SHARE = 0.20

Listener = Callable[[Snapshot], None]


class ResidentIndex:
    def __init__(self, dim: int, model: str, workspaces: frozenset[str] = frozenset()) -> None:
        self.dim = dim
        self.model = model
        # The only workspaces the index holds (empty: every one); filtered at
        # feed ingest (changes.ops_from_changes).
        self.workspaces = workspaces
        self.interner = Interner()
        self._snapshot: Snapshot | None = None
        self._published = threading.Condition()
        self._writer = threading.Lock()
        self._side = threading.Lock()
        self._oplog: list[Op] | None = None
        self._generations = itertools.count(1)
        self._listeners: list[Listener] = []
        self._merge_thread: threading.Thread | None = None
        self.auto_merge = True

    # ------------------------------------------------------------ reading

    @property
    def snapshot(self) -> Snapshot | None:
        return self._snapshot

    @property
    def side_build_running(self) -> bool:
        return self._side.locked()

    def wait_for_cursor(self, cursor: int, timeout: float) -> Snapshot | None:
        """The current snapshot once its applied cursor reaches `cursor`, or
        whatever is current when `timeout` seconds have passed."""
        deadline = time.monotonic() + timeout
        with self._published:
            while True:
                snapshot = self._snapshot
                remaining = deadline - time.monotonic()
                if (snapshot is not None and snapshot.applied_cursor >= cursor) or remaining <= 0:
                    return snapshot
                self._published.wait(remaining)

    def on_publish(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def next_generation(self) -> int:
        return next(self._generations)

    # ------------------------------------------------------------ writing

    def _publish(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot
        with self._published:
            self._published.notify_all()
        for listener in self._listeners:
            try:
                listener(snapshot)
            except Exception:
                log.exception("snapshot listener failed")

    def install(self, snapshot: Snapshot, interner: Interner | None = None) -> None:
        """Publish a complete snapshot (loaded from disk) as the current one."""
        with self._writer:
            if interner is not None:
                self.interner = interner
            self._generations = itertools.count(snapshot.generation + 1)
            self._publish(snapshot)

    def reset(self) -> None:
        """Forget the current snapshot (the journal no longer matches it)."""
        with self._writer:
            self._snapshot = None

    def apply(self, ops: Sequence[Op], cursor: int) -> Snapshot | None:
        """Apply one feed batch as one new snapshot; None when not ready."""
        with self._writer:
            current = self._snapshot
            if current is None:
                return None
            fresh = [op for op in ops if op.cursor > current.applied_cursor]
            if self._oplog is not None:
                self._oplog.extend(fresh)
            following = (
                current.apply(fresh, cursor, self.next_generation())
                if fresh or cursor > current.applied_cursor
                else current
            )
            if following is not current:
                self._publish(following)
        if self.auto_merge and self.needs_merge(following):
            self.merge_async()
        return following

    @contextmanager
    def side_build(self, *, wait: bool) -> Iterator[bool]:
        """Reserve the one side-build slot; yields False when busy and not waiting."""
        acquired = self._side.acquire(blocking=wait)
        if not acquired:
            yield False
            return
        try:
            with self._writer:
                self._oplog = []
            yield True
        finally:
            with self._writer:
                self._oplog = None
            self._side.release()

    def publish_side_build(self, built: Snapshot) -> Snapshot:
        """Replay the ops logged since the side build started (newer than its
        cursor) onto it and publish the result."""
        with self._writer:
            current = self._snapshot
            replay = [op for op in (self._oplog or []) if op.cursor > built.applied_cursor]
            cursor = max(built.applied_cursor, current.applied_cursor if current else 0)
            result = built.apply(replay, cursor, self.next_generation())
            if result is built:
                result = Snapshot(
                    self.next_generation(),
                    built.applied_cursor,
                    built.segments,
                    built.alive,
                    built.dead,
                    built.interner,
                    built.dim,
                    built.model,
                )
            self._oplog = []
            self._publish(result)
            return result

    # ------------------------------------------------------------ merging

    @staticmethod
    def needs_merge(snapshot: Snapshot | None) -> bool:
        if snapshot is None or (len(snapshot.segments) < 2 and not snapshot.dead[0].size):
            return False
        base_rows = snapshot.base.rows
        small = snapshot.small_live
        if small >= max(MERGE_MIN_ROWS, MERGE_SHARE * base_rows):
            return True
        return base_rows > 0 and snapshot.dead[0].size >= max(
            MERGE_MIN_ROWS, MERGE_DEAD_SHARE * base_rows
        )

    def merge_now(self, *, wait: bool = True) -> Snapshot | None:
        """Fold every segment into a new base off to the side, then publish."""
        with self.side_build(wait=wait) as acquired:
            if not acquired:
                return None
            current = self._snapshot
            if current is None:
                return None
            merged = current.merged(self.next_generation())
            return self.publish_side_build(merged)

    def merge_async(self) -> None:
        if self._merge_thread is not None and self._merge_thread.is_alive():
            return
        if self.side_build_running:
            return

        def run() -> None:
            try:
                self.merge_now(wait=False)
            except Exception:
                log.exception("background merge failed")

        self._merge_thread = threading.Thread(target=run, name="index-merge", daemon=True)
        self._merge_thread.start()

    def join_merge(self, timeout: float | None = None) -> None:
        thread = self._merge_thread
        if thread is not None:
            thread.join(timeout)
