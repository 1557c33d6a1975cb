"""RetrievalService transport: validate, call the domain, convert.

Thin on purpose: path choice and coverage live in recall.py, FindExact in
exact.py, the index in index.py/snapshot.py. Errors are domain exceptions
mapped to status codes by the shared interceptor.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from datetime import datetime

import grpc
import numpy as np
import numpy.typing as npt

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import derive_absence
from engram.errors import FailedPrecondition, Internal, InvalidArgument, Unavailable
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.timeutil import from_timestamp
from engram.validation import (
    context_turns,
    optional_id,
    page_size,
    require_id,
    require_request_id,
    require_text,
    workspace_or_default,
)
from retrieval_service.exact import ExactQuery, find_exact
from retrieval_service.rebuild import Progress
from retrieval_service.recall import RecallQuery
from retrieval_service.runtime import RetrievalRuntime

SERVICE = rpb.DESCRIPTOR.services_by_name["RetrievalService"].full_name

MAX_QUERY_CHARS = 4096
MAX_TERMS = 16
PROGRESS_INTERVAL_SECONDS = 0.25

SERVED_BY = {
    "resident": rpb.SERVED_BY_RESIDENT,
    "fallback": rpb.SERVED_BY_FALLBACK,
    "none": rpb.SERVED_BY_NONE,
}
FALLBACK_REASON = {
    "none": rpb.FALLBACK_REASON_NONE,
    "stale": rpb.FALLBACK_REASON_STALE,
    "not_ready": rpb.FALLBACK_REASON_NOT_READY,
    "index_error": rpb.FALLBACK_REASON_INDEX_ERROR,
    "shadow": rpb.FALLBACK_REASON_SHADOW,
    "disabled": rpb.FALLBACK_REASON_DISABLED,
    "below_min_snapshot": rpb.FALLBACK_REASON_BELOW_MIN_SNAPSHOT,
}


def _window(window: cpb.TimeWindow) -> tuple[datetime | None, datetime | None]:
    start = from_timestamp(window.start_time, "time_window.start_time")
    end = from_timestamp(window.end_time, "time_window.end_time")
    if start is not None and end is not None and start >= end:
        raise InvalidArgument("time_window", "start_time must be before end_time")
    return start, end


def _query_vector(values: Sequence[float], dimension: int) -> npt.NDArray[np.float32] | None:
    if not values:
        return None
    if len(values) != dimension:
        raise InvalidArgument(
            "query_embedding", f"has {len(values)} dimensions; the embedder has {dimension}"
        )
    # float64: float32 squares of large components overflow to inf.
    vector = np.asarray(values, dtype=np.float64)
    norm = float(np.linalg.norm(vector))
    if not math.isfinite(norm) or norm == 0.0:
        raise InvalidArgument("query_embedding", "must be finite and non-zero")
    result: npt.NDArray[np.float32] = (vector / norm).astype(np.float32)
    return result


def _floor(value: int) -> int:
    if value < 0:
        raise InvalidArgument("min_snapshot_version", "must not be negative")
    return value


def _progress(progress: Progress) -> rpb.RebuildProgress:
    message = rpb.RebuildProgress(
        running=progress.running,
        done=progress.done,
        total=progress.total,
        last_error=progress.last_error,
        episodes=progress.episodes,
    )
    if progress.started_at is not None:
        message.started_at.FromNanoseconds(int(progress.started_at * 1e9))
    return message


class RetrievalServicer(rgrpc.RetrievalServiceServicer):
    def __init__(self, runtime: RetrievalRuntime) -> None:
        self.runtime = runtime

    def _served(self, field: str, value: str) -> str:
        """The request's workspace, refused when this replica does not serve it
        (never answered with an empty or absent result)."""
        workspace = workspace_or_default(field, value)
        served = self.runtime.index.workspaces
        if served and workspace not in served:
            listed = ",".join(sorted(served))
            raise FailedPrecondition(
                f"this retrieval replica serves workspaces {listed}, not {workspace!r}",
                reason="WORKSPACE_NOT_SERVED",
                metadata={"workspace": workspace, "served_workspaces": listed},
            )
        return workspace

    def Recall(
        self, request: rpb.RecallRequest, context: grpc.ServicerContext
    ) -> rpb.RecallResponse:
        limit = page_size("limit", request.limit, default=10, maximum=100)
        start, end = _window(request.time_window)
        query = RecallQuery(
            query_text=require_text("query_text", request.query_text, max_chars=MAX_QUERY_CHARS),
            subject=require_id("subject", request.subject),
            workspace=self._served("workspace", request.workspace),
            exclude_session_id=optional_id("exclude_session_id", request.exclude_session_id),
            limit=limit,
            start=start,
            end=end,
            vector=_query_vector(request.query_embedding, self.runtime.embedder.dimension),
            context_turns=context_turns("context_turns", request.context_turns),
            min_snapshot_version=_floor(request.min_snapshot_version),
        )
        result = self.runtime.recaller.recall(query)
        return rpb.RecallResponse(
            hits=[h.message() for h in result.hits],
            coverage=result.coverage,
            absence_state=derive_absence(result.coverage, len(result.hits)),
            served_by=SERVED_BY[result.served_by],
            fallback_reason=FALLBACK_REASON[result.fallback_reason],
            embed_micros=result.embed_micros,
            search_micros=result.search_micros,
        )

    def FindExact(
        self, request: rpb.FindExactRequest, context: grpc.ServicerContext
    ) -> rpb.FindExactResponse:
        terms = [t for t in request.terms if t.strip()]
        if not terms:
            raise InvalidArgument("terms", "at least one non-blank term is required")
        if len(terms) > MAX_TERMS:
            raise InvalidArgument("terms", f"at most {MAX_TERMS} terms")
        for term in terms:
            require_text("terms", term, max_chars=MAX_QUERY_CHARS)
        start, end = _window(request.time_window)
        query = ExactQuery(
            terms=terms,
            subject=require_id("subject", request.subject),
            workspace=self._served("workspace", request.workspace),
            session_id=optional_id("session_id", request.session_id),
            start=start,
            end=end,
            limit=page_size("limit", request.limit, default=0, maximum=100),
        )
        result = find_exact(self.runtime.client, query)
        return rpb.FindExactResponse(
            hits=[
                rpb.ExactHit(
                    event_id=m.event_id,
                    session_id=m.session_id,
                    occurred_at=m.occurred_at,
                    user_text=m.user_text,
                    assistant_text=m.assistant_text,
                    matched_terms=list(m.matched_terms),
                )
                for m in result.matches
            ],
            normalized_terms=result.normalized_terms,
            coverage=result.coverage,
            absence_state=derive_absence(result.coverage, len(result.matches)),
            scope_description=result.scope_description,
        )

    def GetIndexStatus(
        self, request: rpb.GetIndexStatusRequest, context: grpc.ServicerContext
    ) -> rpb.GetIndexStatusResponse:
        runtime = self.runtime
        snapshot = runtime.index.snapshot
        comparisons, overlap, top1 = runtime.recaller.shadow.view()
        response = rpb.GetIndexStatusResponse(
            journal_watermark=runtime.freshness.watermark,
            staleness_seconds=runtime.staleness_for_status(),
            ready=snapshot is not None,
            shadow_mode=runtime.settings.index_shadow_mode,
            shadow=rpb.ShadowTelemetry(
                comparisons=comparisons, mean_overlap_at_k=overlap, top1_agreement=top1
            ),
            rebuild=_progress(runtime.rebuilder.progress),
            fallbacks_total=runtime.recaller.fallbacks_total,
            embedding_model=runtime.embedder.name,
            served_workspaces=sorted(runtime.index.workspaces),
        )
        if snapshot is not None:
            response.dense_index_type = snapshot.dense_type
            response.episodes = snapshot.live
            response.tombstones = snapshot.tombstones
            response.applied_cursor = snapshot.applied_cursor
            response.snapshot_version = snapshot.applied_cursor
            response.resident_bytes = snapshot.approx_bytes()
        return response

    def RebuildIndex(
        self, request: rpb.RebuildIndexRequest, context: grpc.ServicerContext
    ) -> Iterator[rpb.RebuildIndexResponse]:
        request_id = require_request_id("request_id", request.request_id, required=False)
        job = self.runtime.rebuilder.start(str(request_id) if request_id else "")
        last: Progress | None = None
        while True:
            finished = job.wait(PROGRESS_INTERVAL_SECONDS)
            progress = job.progress
            if finished:
                if progress.last_error:
                    if "UNAVAILABLE" in progress.last_error or "DEADLINE" in progress.last_error:
                        raise Unavailable(
                            f"index rebuild failed: {progress.last_error}",
                            reason="JOURNAL_UNAVAILABLE",
                        )
                    raise Internal(
                        f"index rebuild failed: {progress.last_error}", reason="REBUILD_FAILED"
                    )
                yield rpb.RebuildIndexResponse(
                    progress=_progress(progress),
                    published=True,
                    snapshot_version=progress.applied_cursor,
                )
                return
            if progress != last:
                last = progress
                yield rpb.RebuildIndexResponse(progress=_progress(progress))
            if not context.is_active():
                return  # the rebuild goes on; GetIndexStatus reports it
