"""SearchEpisodes, BatchGetEpisodes and FindExact (validate -> domain ->
convert), and the embedding worker's place in the service lifecycle."""

from __future__ import annotations

import logging
import math
from datetime import datetime
from functools import cached_property
from uuid import UUID

import grpc
import numpy as np

from engram.common.v1 import common_pb2 as cpb
from engram.db import Database
from engram.embedder_cache import shared_embedder
from engram.errors import InvalidArgument
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.timeutil import from_timestamp, to_timestamp
from engram.validation import (
    context_turns,
    optional_id,
    page_size,
    require_id,
    workspace_or_default,
)
from memory_service import convert
from memory_service.embed_worker import EmbeddingWorker
from memory_service.exact_terms import normalize_terms, terms_are_exact
from memory_service.find_exact import ExactQuery, FindExact
from memory_service.planes import Lifecycle, PlaneContext
from memory_service.search import EMBEDDING_DIMENSION, EpisodeSearch, SearchQuery, Vector

log = logging.getLogger("engram.journal.search")

MAX_QUERY_TEXT = 4096
MAX_BATCH_IDS = 1000


def add_context_turns(
    search: EpisodeSearch, episodes: list[pb.Episode], turns: int, db: Database | None = None
) -> None:
    around = search.neighbours([e.episode_id for e in episodes], turns, db)
    for episode in episodes:
        episode.context_turns.extend(
            convert.context_turn(row) for row in around.get(episode.episode_id, [])
        )


def visible_episodes(
    search: EpisodeSearch, ids: list[str], turns: int, include_embeddings: bool = False
) -> list[pb.Episode]:
    """BatchGetEpisodes' answer for canonical, distinct ids: the visible ones in
    request order (unknown, purged and quarantined ones omitted, as is an episode
    whose content a quarantined turn event hides), each with its context turns.
    RetrievalService reads it directly from the database too (no gRPC hop)."""
    rows = search.batch_get(ids, include_embeddings) if ids else []
    episodes = [convert.episode(r) for r in rows]
    add_context_turns(search, episodes, turns)
    return episodes


class SearchRpcs(pb_grpc.JournalServiceServicer):
    plane: PlaneContext

    @cached_property
    def episode_search(self) -> EpisodeSearch:
        settings = self.plane.ctx.settings
        return EpisodeSearch(self.plane.db, settings.embedder, settings.recall_ranker)

    @cached_property
    def exact_search(self) -> FindExact:
        return FindExact(self.plane.db)

    def SearchEpisodes(
        self, request: pb.SearchEpisodesRequest, context: grpc.ServicerContext
    ) -> pb.SearchEpisodesResponse:
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        if len(request.query_text) > MAX_QUERY_TEXT:
            raise InvalidArgument("query_text", f"is longer than {MAX_QUERY_TEXT} chars")
        if "\x00" in request.query_text:
            raise InvalidArgument("query_text", "must not contain NUL characters")
        vector = _query_vector(list(request.query_embedding))
        if vector is None and not request.query_text.strip():
            raise InvalidArgument("query_text", "set query_text or query_embedding")
        start, end = _window(request)
        turns = context_turns("context_turns", request.context_turns)
        query = SearchQuery(
            subject=subject,
            workspace=workspace,
            query_text=request.query_text,
            query_embedding=vector,
            exclude_session_id=optional_id("exclude_session_id", request.exclude_session_id),
            start=start,
            end=end,
            limit=page_size("limit", request.limit, default=10, maximum=100),
        )

        def search(db: Database) -> pb.SearchEpisodesResponse:
            result = self.episode_search.search(query, db)
            response = pb.SearchEpisodesResponse(
                hits=[
                    pb.EpisodeHit(
                        episode=convert.episode(h.episode),
                        score=h.score,
                        dense_rank=h.dense_rank,
                        lexical_rank=h.lexical_rank,
                    )
                    for h in result.hits
                ],
                coverage=result.coverage,
            )
            # From the same server as the hits.
            add_context_turns(self.episode_search, [h.episode for h in response.hits], turns, db)
            return response

        response, served = self.plane.reads.read(search)
        response.coverage.CopyFrom(served.coverage(response.coverage))
        return response

    def BatchGetEpisodes(
        self, request: pb.BatchGetEpisodesRequest, context: grpc.ServicerContext
    ) -> pb.BatchGetEpisodesResponse:
        if len(request.episode_ids) > MAX_BATCH_IDS:
            raise InvalidArgument("episode_ids", f"at most {MAX_BATCH_IDS} ids")
        ids: list[str] = []
        for value in request.episode_ids:
            try:
                episode_id = str(UUID(value))
            except ValueError:
                raise InvalidArgument("episode_ids", f"{value[:40]!r} is not a UUID") from None
            if episode_id not in ids:
                ids.append(episode_id)
        turns = context_turns("context_turns", request.context_turns)
        return pb.BatchGetEpisodesResponse(
            episodes=visible_episodes(self.episode_search, ids, turns, request.include_embeddings)
        )

    def FindExact(
        self, request: pb.FindExactRequest, context: grpc.ServicerContext
    ) -> pb.FindExactResponse:
        terms = normalize_terms(list(request.terms))
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        session_id = optional_id("session_id", request.session_id)
        start, end = _window(request)
        limit = page_size("limit", request.limit, default=20, maximum=100)
        query = ExactQuery(
            subject=subject,
            workspace=workspace,
            terms=terms,
            normalization_exact=terms_are_exact(request.terms),
            session_id=session_id,
            start=start,
            end=end,
            limit=limit,
        )
        # On a standby that had not replayed everything, or whose watermark is
        # below the primary's, temporal coverage is PARTIAL: never
        # ABSENT_AUTHORITATIVE (memory_service/read_replica.py).
        result, served = self.plane.reads.read(lambda db: self.exact_search.find(query, db))
        coverage = served.coverage(result.coverage)
        return pb.FindExactResponse(
            matches=[
                pb.ExactMatch(
                    event_id=int(m["event_id"]),
                    session_id=str(m["session_id"]),
                    occurred_at=to_timestamp(m["occurred_at"]),
                    user_text=str(m["user_text"]),
                    assistant_text=str(m["assistant_text"]),
                    matched_terms=list(m["matched_terms"]),
                )
                for m in result.matches
            ],
            normalized_terms=result.terms,
            coverage=coverage,
        )

    def extend_status(self, response: pb.GetStatusResponse) -> None:
        parent = getattr(super(), "extend_status", None)
        if parent is not None:
            parent(response)
        try:
            response.embedding_model = shared_embedder(self.plane.ctx.settings.embedder).name
        except Exception:  # a model that cannot load must not take the status down
            log.exception("embedder unavailable for status")


def _query_vector(values: list[float]) -> Vector | None:
    if not values:
        return None
    if len(values) != EMBEDDING_DIMENSION:
        raise InvalidArgument(
            "query_embedding", f"has {len(values)} dimensions; expected {EMBEDDING_DIMENSION}"
        )
    if not all(math.isfinite(v) for v in values):
        raise InvalidArgument("query_embedding", "contains a non-finite value")
    vector = np.asarray(values, dtype=np.float32)
    if not np.any(vector):
        raise InvalidArgument("query_embedding", "is the zero vector")
    return vector


def _window(
    request: pb.SearchEpisodesRequest | pb.FindExactRequest,
) -> tuple[datetime | None, datetime | None]:
    if not request.HasField("time_window"):
        return None, None
    window: cpb.TimeWindow = request.time_window
    start = from_timestamp(window.start_time, "time_window.start_time")
    end = from_timestamp(window.end_time, "time_window.end_time")
    if start is not None and end is not None and end <= start:
        raise InvalidArgument("time_window", "end_time must be after start_time")
    return start, end


def attach(plane: PlaneContext, lifecycle: Lifecycle) -> None:
    """Run the embedding worker in this process when background workers are on."""
    settings = plane.ctx.settings
    if not settings.workers_enabled:
        return
    worker = EmbeddingWorker(plane.db, plane.notifier, settings.embedder, settings.embed_batch_size)
    lifecycle.start.append(worker.start)
    # Before the notifier and the pool go away.
    lifecycle.stop.insert(0, worker.stop)
