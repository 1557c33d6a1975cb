"""Writes the published snapshot to disk in the background: at most every
`interval` seconds when it changed, at once after a rebuild or merge was
published, and a last time at shutdown. Persisting reads immutable segments
only, so it never blocks the applier or readers."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from retrieval_service import persist
from retrieval_service.index import ResidentIndex
from retrieval_service.snapshot import Snapshot

log = logging.getLogger("engram.retrieval.persister")

INTERVAL_SECONDS = 5.0


class Persister:
    def __init__(
        self, index: ResidentIndex, root: Path, interval: float = INTERVAL_SECONDS
    ) -> None:
        self._index = index
        self._root = root
        self._interval = interval
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._saving = threading.Lock()
        self._saved_generation = -1
        self._base_uid = ""
        self._thread = threading.Thread(target=self._run, name="index-persist", daemon=True)
        index.on_publish(self._published)

    @property
    def saved_generation(self) -> int:
        return self._saved_generation

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(timeout=120)
        self.save_now()

    def _published(self, snapshot: Snapshot) -> None:
        # A new base (rebuild or merge) is worth saving at once: replaying the
        # feed onto an old base after a crash would cost the whole rebuild again.
        if snapshot.base.uid != self._base_uid:
            self._wake.set()

    def save_now(self) -> None:
        # Read the snapshot under the lock: a save that waited for another must
        # not then write an older snapshot over the newer one just saved.
        with self._saving:
            snapshot = self._index.snapshot
            if snapshot is None or snapshot.generation == self._saved_generation:
                return
            try:
                persist.save(snapshot, self._root, self._index.workspaces)
            except OSError:
                log.exception("persisting the index snapshot failed")
                return
            self._saved_generation = snapshot.generation
            self._base_uid = snapshot.base.uid

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._interval)
            self._wake.clear()
            if self._stop.is_set():
                return
            self.save_now()
