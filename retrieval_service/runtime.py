"""Everything one RetrievalService instance runs: the index, its follower,
rebuilder and persister, and the recall logic, wired from Settings."""

from __future__ import annotations

import logging
import math
from pathlib import Path

import grpc

from engram import ranking
from engram.config import Settings
from engram.downstream import deadline_seconds
from engram.embedding import Embedder
from engram.metrics import FEED_LAG, INDEX_EPISODES, INDEX_STALENESS
from retrieval_service.direct import DirectEpisodes
from retrieval_service.follower import Follower, Freshness
from retrieval_service.index import ResidentIndex
from retrieval_service.journal_client import JournalClient
from retrieval_service.persister import Persister
from retrieval_service.rebuild import Rebuilder
from retrieval_service.recall import Recaller

log = logging.getLogger("engram.retrieval")

# Cap for the staleness gauge: Prometheus accepts +Inf, dashboards often do not.
_STALENESS_GAUGE_CAP = 1e9


class RetrievalRuntime:
    def __init__(
        self,
        settings: Settings,
        channel: grpc.Channel,
        embedder: Embedder,
        database_url: str = "",
    ) -> None:
        self.settings = settings
        self.channel = channel
        self.embedder = embedder
        self.client = JournalClient(channel, deadline_seconds(settings))
        self.index = ResidentIndex(embedder.dimension, embedder.name, settings.served_workspaces())
        self.freshness = Freshness()
        self.rebuilder = Rebuilder(self.index, self.client, self.freshness.observe)
        self.persist_root: Path | None = (
            settings.data_path / "index" if settings.index_persist else None
        )
        self.persister = (
            Persister(self.index, self.persist_root) if self.persist_root is not None else None
        )
        self.follower = Follower(
            self.index, self.client, self.rebuilder, self.freshness, self.persist_root
        )
        # Recall's visibility re-read goes straight to the journal's database
        # when this process knows it (retrieval_service.direct).
        self.direct = DirectEpisodes(database_url, embedder.name) if database_url else None
        self.recaller = Recaller(
            self.index,
            self.freshness,
            self.client,
            embedder,
            staleness_limit=settings.index_staleness_seconds,
            shadow_mode=settings.index_shadow_mode,
            serving_enabled=settings.workers_enabled,
            ranker=ranking.shared_ranker(settings.recall_ranker),
            episodes=self.direct,
            fence=None if self.direct is None else self.direct.start_fence,
            floor_wait=settings.index_floor_wait_seconds,
        )
        self._started = False
        self._untrack = [
            INDEX_EPISODES.track(self._episodes),
            FEED_LAG.track(self._feed_lag, consumer="retrieval_index"),
        ]

    def _episodes(self) -> float:
        snapshot = self.index.snapshot
        return float("nan") if snapshot is None else snapshot.live

    def _feed_lag(self) -> float:
        snapshot = self.index.snapshot
        if snapshot is None:
            return float("nan")
        return max(0, self.freshness.watermark - snapshot.applied_cursor)

    def staleness(self) -> float:
        return self.freshness.staleness()

    def start(self) -> None:
        INDEX_STALENESS.set_function(lambda: min(self.staleness(), _STALENESS_GAUGE_CAP))
        if not self.settings.workers_enabled:
            log.info("retrieval workers disabled: Recall serves the journal fallback")
            return
        if self.persist_root is not None:
            self.persist_root.mkdir(parents=True, exist_ok=True)
        self.follower.start()
        if self.persister is not None:
            self.persister.start()
        self._started = True

    def drain(self) -> None:
        """Stop following the feed (and persist) when shutdown begins."""
        if self._started:
            self._started = False
            self.follower.stop()
            self.index.join_merge(timeout=60)
            if self.persister is not None:
                self.persister.stop()

    def stop(self) -> None:
        for untrack in self._untrack:
            untrack()
        self.drain()
        self.recaller.close()
        if self.direct is not None:
            self.direct.close()
        self.channel.close()

    def staleness_for_status(self) -> float:
        value = self.staleness()
        return value if math.isfinite(value) else -1.0
