"""Full rebuilds: replay the journal's change feed from cursor 0 (follow =
false, with embeddings) into a new base segment off to the side, then publish
it by one reference swap while the old snapshot keeps serving.

The feed carries each episode's current body with every episode change, so
replaying it and keeping the last state per episode id yields exactly the
visible episodes as of the feed's final watermark (quarantined and purged
ones arrive without a body and are dropped).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

from engram.errors import FailedPrecondition
from retrieval_service.changes import ops_from_changes
from retrieval_service.index import ResidentIndex
from retrieval_service.journal_client import ChangeStream, JournalClient
from retrieval_service.records import Remove, RemoveScope, Upsert
from retrieval_service.segment import SegmentBuilder
from retrieval_service.snapshot import Snapshot

log = logging.getLogger("engram.retrieval.rebuild")

_REMEMBERED_REQUESTS = 64


class RebuildCancelled(Exception):
    pass


@dataclass(frozen=True)
class Progress:
    running: bool = False
    done: int = 0
    total: int = 0
    started_at: float | None = None
    finished_at: float | None = None
    last_error: str = ""
    published: bool = False
    generation: int = 0
    episodes: int = 0
    # The published snapshot's change-feed cursor (its snapshot_version).
    applied_cursor: int = 0


CaughtUp = Callable[[int, int], None]


class RebuildJob:
    def __init__(
        self,
        index: ResidentIndex,
        client: JournalClient,
        request_id: str,
        on_caught_up: CaughtUp | None = None,
    ) -> None:
        self.request_id = request_id
        self._index = index
        self._client = client
        self._on_caught_up = on_caught_up
        self._progress = Progress(running=True, started_at=time.time())
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._cancel = threading.Event()
        self._stream: ChangeStream | None = None
        self._thread = threading.Thread(target=self._run, name="index-rebuild", daemon=True)

    @property
    def progress(self) -> Progress:
        with self._lock:
            return self._progress

    def _update(self, **changes: object) -> None:
        with self._lock:
            self._progress = replace(self._progress, **changes)  # type: ignore[arg-type]

    def start(self) -> RebuildJob:
        self._thread.start()
        return self

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)

    @property
    def finished(self) -> bool:
        return self._done.is_set()

    def cancel(self) -> None:
        self._cancel.set()
        stream = self._stream
        if stream is not None:
            stream.cancel()

    def _run(self) -> None:
        try:
            snapshot = self._build()
            self._update(
                running=False,
                finished_at=time.time(),
                published=True,
                generation=snapshot.generation,
                episodes=snapshot.live,
                applied_cursor=snapshot.applied_cursor,
            )
        except Exception as error:
            if not isinstance(error, RebuildCancelled):
                log.warning("index rebuild failed: %s", error)
            self._update(
                running=False,
                finished_at=time.time(),
                last_error=str(error) or type(error).__name__,
            )
        finally:
            self._done.set()

    def _build(self) -> Snapshot:
        index = self._index
        with index.side_build(wait=True):
            builder = SegmentBuilder(index.dim)
            interner = index.interner
            watermark = 0
            self._stream = self._client.stream_changes(0, follow=False)
            for message in self._stream:
                if self._cancel.is_set():
                    raise RebuildCancelled("rebuild cancelled")
                watermark = max(watermark, int(message.watermark))
                ops = ops_from_changes(
                    message.changes, interner, index.dim, index.model, index.workspaces
                )
                for op in ops:
                    if isinstance(op, Upsert):
                        builder.add(op.record)
                    elif isinstance(op, Remove):
                        builder.remove(op.key_hi, op.key_lo)
                    elif isinstance(op, RemoveScope):
                        builder.remove_scope(op.subject, op.workspace)
                done = int(message.changes[-1].cursor) if message.changes else watermark
                self._update(done=done, total=max(watermark, done), episodes=builder.live)
            if self._cancel.is_set():
                raise RebuildCancelled("rebuild cancelled")
            base = builder.build()
            del builder
            built = Snapshot.from_base(
                base, interner, index.dim, index.model, watermark, index.next_generation()
            )
            published = index.publish_side_build(built)
            # The replay ended with the journal saying nothing lies beyond
            # `watermark`: at this moment the index was caught up.
            if self._on_caught_up is not None:
                self._on_caught_up(published.applied_cursor, watermark)
            return published


class Rebuilder:
    """At most one rebuild at a time; replays of a request id attach to its job."""

    def __init__(
        self, index: ResidentIndex, client: JournalClient, on_caught_up: CaughtUp | None = None
    ) -> None:
        self._index = index
        self._client = client
        self._on_caught_up = on_caught_up
        self._lock = threading.Lock()
        self._current: RebuildJob | None = None
        self._by_request: OrderedDict[str, RebuildJob] = OrderedDict()

    def start(self, request_id: str = "") -> RebuildJob:
        with self._lock:
            if request_id and request_id in self._by_request:
                return self._by_request[request_id]
            if self._current is not None and not self._current.finished:
                raise FailedPrecondition(
                    "an index rebuild is already running", reason="REBUILD_IN_PROGRESS"
                )
            job = RebuildJob(self._index, self._client, request_id, self._on_caught_up)
            self._current = job
            if request_id:
                self._by_request[request_id] = job
                while len(self._by_request) > _REMEMBERED_REQUESTS:
                    self._by_request.popitem(last=False)
            return job.start()

    def ensure_running(self) -> RebuildJob:
        """The running job, or a new one (used for the initial build)."""
        with self._lock:
            if self._current is not None and not self._current.finished:
                return self._current
        try:
            return self.start()
        except FailedPrecondition:
            with self._lock:
                assert self._current is not None
                return self._current

    @property
    def progress(self) -> Progress:
        with self._lock:
            job = self._current
        return job.progress if job is not None else Progress()

    def cancel(self) -> None:
        with self._lock:
            job = self._current
        if job is not None:
            job.cancel()
