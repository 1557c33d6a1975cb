"""Recall: which path serves, and what its coverage says.

Path choice, first match wins:

1. resident serving disabled (workers off: nothing keeps the index fresh)
   -> fallback, reason DISABLED;
2. shadow mode -> fallback, reason SHADOW (the resident result is computed
   in the background and compared);
3. no snapshot yet (first build running) -> fallback, NOT_READY;
4. the snapshot lags the journal watermark beyond index_staleness_seconds
   -> fallback, STALE;
5. the snapshot is older than the request's min_snapshot_version (a
   read-your-writes floor: a snapshot version the caller saw elsewhere) and
   the follower does not reach it within index_floor_wait_seconds ->
   fallback, BELOW_MIN_SNAPSHOT (the journal is always current);
6. otherwise the resident index; if its search raises -> fallback,
   INDEX_ERROR.

Visibility: the follower may lag a quarantine or purge by up to a batch, but
a quarantined or purged episode must never be served once the ledger call
returned. When this process knows the journal's database URL, a resident
Recall starts by sending a read of the visibility fence (one row, migration
0014: the cursor of the latest quarantine, restore or purge change, raised in
that change's own transaction) and collects the answer after its search
(retrieval_service.direct). A call acknowledged before the Recall started has
committed and PostgreSQL executes the read after it was sent, so the fence
read is >= its change's cursor, whenever the snapshot was taken; a snapshot whose
applied cursor is >= the fence has applied that change (the feed delivers
every change below an applied cursor), so it serves its hits from the bodies
it holds (retrieval_service.bodies), with no other read. Otherwise (the
snapshot is behind the fence, context turns were asked for, a row holds no
body, or there is no database URL) the resident path re-reads the episodes it
is about to return (one read, <= limit + a small margin ids) from committed
state, which drops quarantined and purged ones (and ones whose content a
quarantined turn event hides): straight from the journal's database when it
can (retrieval_service.direct: the journal's own query, no gRPC hop), else
with JournalService.BatchGetEpisodes. The re-read body also supplies the
returned text and is re-checked against the request's session and time
filters (an episode may have re-occurred since the snapshot). If the
database or the journal cannot be reached for the fence or the re-read,
nothing is served: coverage UNAVAILABLE.

Coverage: the resident path seals its own (read path retrieval.resident.v1,
ranked: semantic UNKNOWN, exactness UNKNOWN); the fallback's coverage is the
journal's, validated here and passed on unchanged, or replaced by FAILED
coverage when the seal or the hit count does not hold. A journal that
cannot be reached yields UNAVAILABLE coverage, never an empty SEARCHED.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, overload

import numpy as np
import numpy.typing as npt

from engram import coverage as cov
from engram import ranking
from engram.common.v1 import common_pb2 as cpb
from engram.embedding import Embedder
from engram.errors import Unavailable
from engram.fusion import session_excluded
from engram.journal.v1 import journal_pb2 as jpb
from engram.metrics import count_plane_event
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.timeutil import to_timestamp
from retrieval_service import bodies
from retrieval_service.changes import timestamp_us
from retrieval_service.direct import FenceRead
from retrieval_service.follower import Freshness
from retrieval_service.index import ResidentIndex
from retrieval_service.journal_client import JournalClient, JournalFailed
from retrieval_service.snapshot import EpisodeIds, SearchRequest, Snapshot

log = logging.getLogger("engram.retrieval.recall")

RESIDENT_READ_PATH = "retrieval.resident.v1"
RECALL_READ_PATH = "retrieval.recall.v1"
JOURNAL_SOURCE = "grpc:engram.journal.v1.JournalService"
LEXICAL_SOURCE = "bm25:memory"
# Extra ids re-read beyond the limit, so a hit dropped by the visibility
# check is usually replaced within the same journal call.
CONFIRM_MARGIN = 5

SERVED_RESIDENT = "resident"
SERVED_FALLBACK = "fallback"
SERVED_NONE = "none"

REASON_NONE = "none"
REASON_STALE = "stale"
REASON_NOT_READY = "not_ready"
REASON_INDEX_ERROR = "index_error"
REASON_SHADOW = "shadow"
REASON_DISABLED = "disabled"
REASON_BELOW_MIN_SNAPSHOT = "below_min_snapshot"

VISIBILITY_SNAPSHOT = "snapshot"
VISIBILITY_REREAD = "reread"


class EpisodeReader(Protocol):
    def batch_get(self, episode_ids: Sequence[str], context_turns: int = 0) -> list[jpb.Episode]:
        """Visible episodes in request order (BatchGetEpisodes' contract)."""
        ...


@dataclass(frozen=True)
class RecallQuery:
    query_text: str
    subject: str
    workspace: str
    exclude_session_id: str
    limit: int
    start: datetime | None
    end: datetime | None
    # Given by the caller (unit norm), else embedded here.
    vector: npt.NDArray[np.float32] | None
    # Neighbouring turns returned with each hit (0..5).
    context_turns: int = 0
    # Serve from a snapshot at least this new (0: any); not part of the
    # query's digest: it says how fresh, not what was searched.
    min_snapshot_version: int = 0

    def digest_fields(self) -> dict[str, object]:
        return {
            "query_text": self.query_text,
            "subject": self.subject,
            "workspace": self.workspace,
            "exclude_session_id": self.exclude_session_id,
            "limit": self.limit,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "query_embedding": self.vector is not None,
            "context_turns": self.context_turns,
        }

    @property
    def start_us(self) -> int | None:
        return None if self.start is None else timestamp_us(to_timestamp(self.start))

    @property
    def end_us(self) -> int | None:
        return None if self.end is None else timestamp_us(to_timestamp(self.end))


@dataclass(frozen=True)
class Ranked:
    """One fused candidate; its id is read from the candidates only when needed
    (the resident index ranks on integer keys)."""

    ids: EpisodeIds | Sequence[str]
    position: int
    score: float
    dense_rank: int
    lexical_rank: int

    @property
    def id(self) -> str:
        return self.ids[self.position]


class RankedList(Sequence[Ranked]):
    """The ranked candidates, each made into a :class:`Ranked` only when read
    (a request reads its limit, the ranking orders them all)."""

    def __init__(self, ids: EpisodeIds | Sequence[str], ranked: ranking.Ranked) -> None:
        self._ids = ids
        self._ranked = ranked

    def __len__(self) -> int:
        return len(self._ranked.order)

    @overload
    def __getitem__(self, index: int) -> Ranked: ...

    @overload
    def __getitem__(self, index: slice) -> list[Ranked]: ...

    def __getitem__(self, index: int | slice) -> Ranked | list[Ranked]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        ranked = self._ranked
        position = ranked.order[index]
        return Ranked(
            self._ids,
            position,
            ranked.scores[index],
            ranked.dense_rank[position],
            ranked.lexical_rank[position],
        )


@dataclass(frozen=True)
class Hit:
    """A hit whose episode was read (the re-read or the fallback)."""

    episode: jpb.Episode
    score: float
    dense_rank: int
    lexical_rank: int

    def message(self) -> rpb.RecallHit:
        return bodies.hit_from_episode(self.episode, self.score, self.dense_rank, self.lexical_rank)


@dataclass(frozen=True)
class HeldHit:
    """A hit served from a row the snapshot holds, made into its RecallHit
    straight from the row; the episode is made only when asked for."""

    snapshot: Snapshot
    segment: int
    row: int
    hit: rpb.RecallHit

    @property
    def episode(self) -> jpb.Episode:
        episode = bodies.episode(self.snapshot, self.segment, self.row)
        assert episode is not None  # held: recall_hit made the hit
        return episode

    @property
    def score(self) -> float:
        return self.hit.score

    def message(self) -> rpb.RecallHit:
        return self.hit


@dataclass(frozen=True)
class RecallResult:
    hits: Sequence[Hit | HeldHit]
    coverage: cpb.Coverage
    served_by: str
    fallback_reason: str
    embed_micros: int = 0
    search_micros: int = 0


@dataclass
class ShadowStats:
    comparisons: int = 0
    overlap_sum: float = 0.0
    top1_agreements: int = 0
    failures: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, resident: Sequence[str], fallback: Sequence[str]) -> None:
        k = max(len(resident), len(fallback))
        if k == 0:
            overlap, top1 = 1.0, True
        else:
            overlap = len(set(resident[:k]) & set(fallback[:k])) / k
            top1 = bool(resident) and bool(fallback) and resident[0] == fallback[0]
        with self.lock:
            self.comparisons += 1
            self.overlap_sum += overlap
            self.top1_agreements += int(top1)

    def view(self) -> tuple[int, float, float]:
        with self.lock:
            n = self.comparisons
            return n, (self.overlap_sum / n if n else 0.0), (self.top1_agreements / n if n else 0.0)


def in_window(ts_us: int, start_us: int | None, end_us: int | None) -> bool:
    return (start_us is None or ts_us >= start_us) and (end_us is None or ts_us < end_us)


class _Fence:
    """A fence read that was sent: its answer is collected once, when the
    resident path needs it, or by :meth:`settle` when nothing did (which
    frees its connection)."""

    def __init__(self, read: FenceRead) -> None:
        self._read: FenceRead | None = read
        self._value = 0

    def value(self) -> int:
        if self._read is not None:
            read, self._read = self._read, None
            self._value = read()
        return self._value

    def settle(self) -> None:
        if self._read is None:
            return
        try:
            self.value()
        except (Unavailable, JournalFailed) as error:
            log.info("an unused fence read failed: %s", error)


class Recaller:
    def __init__(
        self,
        index: ResidentIndex,
        freshness: Freshness,
        client: JournalClient,
        embedder: Embedder,
        *,
        staleness_limit: float,
        shadow_mode: bool,
        serving_enabled: bool,
        resident_guard: Callable[[], None] | None = None,
        ranker: ranking.Ranker | None = None,
        episodes: EpisodeReader | None = None,
        floor_wait: float = 0.5,
        fence: Callable[[], FenceRead] | None = None,
    ) -> None:
        self._index = index
        self._freshness = freshness
        self._client = client
        # The visibility re-read (direct database read, or the journal's RPC).
        self._episodes: EpisodeReader = episodes if episodes is not None else client
        # Starts a read of the visibility fence, answered later (None: every
        # resident hit is re-read).
        self.fence = fence
        self._visibility = {VISIBILITY_SNAPSHOT: 0, VISIBILITY_REREAD: 0}
        self._embedder = embedder
        self.staleness_limit = staleness_limit
        self.shadow_mode = shadow_mode
        self.serving_enabled = serving_enabled
        self.floor_wait = floor_wait
        # Test/ops hook run before a resident search (e.g. fault injection).
        self._resident_guard = resident_guard
        # engram.ranking's second stage (None: first stage only; settings.recall_ranker).
        self.ranker = ranker
        self.shadow = ShadowStats()
        self._shadow_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="shadow")
        self._shadow_slots = threading.BoundedSemaphore(8)
        self._fallbacks = 0
        self._fallback_lock = threading.Lock()

    @property
    def visibility_counts(self) -> dict[str, int]:
        """Resident answers served from the snapshot's bodies / re-read."""
        with self._fallback_lock:
            return dict(self._visibility)

    def _count_visibility(self, how: str) -> None:
        with self._fallback_lock:
            self._visibility[how] += 1
        count_plane_event("retrieval", f"resident_{how}")

    @property
    def fallbacks_total(self) -> int:
        with self._fallback_lock:
            return self._fallbacks

    def close(self) -> None:
        self._shadow_pool.shutdown(wait=True, cancel_futures=True)

    # --------------------------------------------------------------- routing

    def _blocker(self, floor: int) -> tuple[str | None, Snapshot | None]:
        snapshot = self._index.snapshot
        if not self.serving_enabled:
            return REASON_DISABLED, snapshot
        if self.shadow_mode:
            return REASON_SHADOW, snapshot
        if snapshot is None:
            return REASON_NOT_READY, None
        if self._freshness.staleness() > self.staleness_limit:
            return REASON_STALE, snapshot
        if snapshot.applied_cursor < floor:
            snapshot = self._index.wait_for_cursor(floor, self.floor_wait)
            if snapshot is None:
                return REASON_NOT_READY, None
            if snapshot.applied_cursor < floor:
                return REASON_BELOW_MIN_SNAPSHOT, snapshot
        return None, snapshot

    def recall(self, query: RecallQuery) -> RecallResult:
        # Sent before the snapshot is chosen (any snapshot taken afterwards is
        # at least as new as one this fence would accept) and answered while
        # the search runs: what makes the fence safe is only that PostgreSQL
        # reads it after this Recall began (module docstring).
        try:
            fence = self._start_fence(query)
        except (Unavailable, JournalFailed) as error:
            return self._unserved(query, error)
        try:
            return self._recall(query, fence)
        finally:
            if fence is not None:
                fence.settle()

    def _recall(self, query: RecallQuery, fence: _Fence | None) -> RecallResult:
        reason, snapshot = self._blocker(query.min_snapshot_version)
        # Embed once when the resident index will use the vector (serving or
        # shadowing); the fallback then sends it along instead of the journal
        # embedding the same text again.
        vector: npt.NDArray[np.float32] | None = None
        embed_micros = 0
        prepared = self._prepare(query, snapshot)
        if reason in (None, REASON_SHADOW) and snapshot is not None:
            try:
                vector, embed_micros = self._vector(query, prepared)
            except Exception:
                log.exception("query embedding failed; serving the fallback")
                reason = reason or REASON_INDEX_ERROR
        if reason is None and snapshot is not None and vector is not None:
            try:
                return self._resident(query, snapshot, vector, embed_micros, prepared, fence)
            except (Unavailable, JournalFailed) as error:
                return self._unserved(query, error)
            except Exception:
                log.exception("resident recall failed; serving the fallback")
                reason = REASON_INDEX_ERROR
        assert reason is not None
        result = self._fallback(query, reason, vector)
        if (
            reason == REASON_SHADOW
            and snapshot is not None
            and vector is not None
            and result.served_by == SERVED_FALLBACK
        ):
            self._shadow_compare(
                query, snapshot, vector, prepared, [h.episode.episode_id for h in result.hits]
            )
        return result

    # -------------------------------------------------------------- resident

    def _start_fence(self, query: RecallQuery) -> _Fence | None:
        """A read of the visibility fence, sent, when the resident path could
        use it, else None."""
        fence = self.fence
        if (
            fence is None
            or query.context_turns
            or not self.serving_enabled
            or self.shadow_mode
            or self._index.snapshot is None
        ):
            return None
        return _Fence(fence())

    @staticmethod
    def _prepare(query: RecallQuery, snapshot: Snapshot | None) -> ranking.Query:
        """The question without the scope's speaker names (engram.ranking)."""
        names = [] if snapshot is None else snapshot.speaker_names(query.subject, query.workspace)
        return ranking.prepare_query(query.query_text, names)

    def _vector(
        self, query: RecallQuery, prepared: ranking.Query
    ) -> tuple[npt.NDArray[np.float32], int]:
        if query.vector is not None:
            return query.vector, 0
        started = time.perf_counter_ns()
        vector = self._embedder.embed_one(prepared.text)
        return vector, (time.perf_counter_ns() - started) // 1000

    def _search(
        self,
        query: RecallQuery,
        snapshot: Snapshot,
        vector: npt.NDArray[np.float32],
        prepared: ranking.Query,
    ) -> Sequence[Ranked]:
        """The whole ranked candidate list (engram.ranking; independent of limit)."""
        if self._resident_guard is not None:
            self._resident_guard()
        candidates = snapshot.candidates(
            SearchRequest(
                subject=query.subject,
                workspace=query.workspace,
                exclude_session_id=query.exclude_session_id,
                start_us=query.start_us,
                end_us=query.end_us,
                vector=vector,
                query_text=prepared.text,
                dense_window=ranking.WINDOW,
                lexical_window=ranking.WINDOW,
            ),
            prepared,
        )
        return RankedList(candidates.ids, ranking.rank(candidates, prepared, self.ranker))

    def _resident(
        self,
        query: RecallQuery,
        snapshot: Snapshot,
        vector: npt.NDArray[np.float32],
        embed_micros: int,
        prepared: ranking.Query,
        fence: _Fence | None = None,
    ) -> RecallResult:
        started = time.perf_counter_ns()
        fused = self._search(query, snapshot, vector, prepared)
        held: list[HeldHit] | None = None
        hits: Sequence[Hit | HeldHit]
        if fence is not None and snapshot.applied_cursor >= fence.value():
            held = self._from_snapshot(query, snapshot, fused)
        if held is None:
            self._count_visibility(VISIBILITY_REREAD)
            hits = self._confirm(query, fused)
        else:
            self._count_visibility(VISIBILITY_SNAPSHOT)
            hits = held
        search_micros = (time.perf_counter_ns() - started) // 1000
        windowed = query.start is not None or query.end is not None
        # Quarantine and purge: the fence or a re-read of every hit (module docstring).
        coverage = cov.ranked_recall_coverage(
            read_path=RESIDENT_READ_PATH,
            source_systems=[f"faiss:{snapshot.dense_type}", LEXICAL_SOURCE],
            query=query.digest_fields(),
            returned=len(hits),
            limit=query.limit,
            windowed=windowed,
            excludes_session=bool(query.exclude_session_id),
            snapshot_version=str(snapshot.applied_cursor),
        )
        return RecallResult(
            hits, coverage, SERVED_RESIDENT, REASON_NONE, embed_micros, search_micros
        )

    @staticmethod
    def _from_snapshot(
        query: RecallQuery, snapshot: Snapshot, fused: Sequence[Ranked]
    ) -> list[HeldHit] | None:
        """The top hits from the bodies the snapshot holds (every candidate is
        a live row that passed the request's filters), or None when one of them
        holds no body."""
        hits: list[HeldHit] = []
        for item in fused[: query.limit]:
            if not isinstance(item.ids, EpisodeIds):
                return None
            segment, row = item.ids.location(item.position)
            hit = bodies.recall_hit(
                snapshot, segment, row, item.score, item.dense_rank, item.lexical_rank
            )
            if hit is None:
                return None
            hits.append(HeldHit(snapshot, segment, row, hit))
        return hits

    def _confirm(self, query: RecallQuery, fused: Sequence[Ranked]) -> list[Hit]:
        """Keep the fused candidates the journal still shows, in fused order."""
        hits: list[Hit] = []
        position = 0
        dropped = 0
        start_us, end_us = query.start_us, query.end_us
        while len(hits) < query.limit and position < len(fused):
            chunk = fused[position : position + query.limit - len(hits) + CONFIRM_MARGIN]
            position += len(chunk)
            bodies = {
                e.episode_id: e
                for e in self._episodes.batch_get([f.id for f in chunk], query.context_turns)
            }
            for item in chunk:
                episode = bodies.get(item.id)
                if (
                    episode is None
                    or episode.subject != query.subject
                    or episode.workspace != query.workspace
                    or session_excluded(
                        list(episode.session_ids) or [episode.session_id], query.exclude_session_id
                    )
                    or not in_window(timestamp_us(episode.last_seen_at), start_us, end_us)
                ):
                    dropped += 1
                    continue
                hits.append(Hit(episode, item.score, item.dense_rank, item.lexical_rank))
                if len(hits) == query.limit:
                    break
        if dropped:
            count_plane_event("retrieval", "resident_hit_withheld", dropped)
        return hits

    # -------------------------------------------------------------- fallback

    def _count_fallback(self) -> None:
        with self._fallback_lock:
            self._fallbacks += 1
        count_plane_event("retrieval", "fallback")

    def _fallback(
        self, query: RecallQuery, reason: str, vector: npt.NDArray[np.float32] | None = None
    ) -> RecallResult:
        self._count_fallback()
        request = jpb.SearchEpisodesRequest(
            query_text=query.query_text,
            subject=query.subject,
            workspace=query.workspace,
            exclude_session_id=query.exclude_session_id,
            limit=query.limit,
            context_turns=query.context_turns,
        )
        vector = query.vector if query.vector is not None else vector
        if vector is not None:
            request.query_embedding.extend(vector.tolist())
        if query.start is not None:
            request.time_window.start_time.CopyFrom(to_timestamp(query.start))
        if query.end is not None:
            request.time_window.end_time.CopyFrom(to_timestamp(query.end))
        started = time.perf_counter_ns()
        try:
            response = self._client.search_episodes(request)
        except (Unavailable, JournalFailed) as error:
            result = self._unserved(query, error)
            return RecallResult(result.hits, result.coverage, SERVED_NONE, reason)
        search_micros = (time.perf_counter_ns() - started) // 1000
        try:
            cov.validate(response.coverage)
            if response.coverage.cardinality.returned != len(response.hits):
                raise cov.CoverageContractError(
                    f"coverage says {response.coverage.cardinality.returned} returned, "
                    f"response carries {len(response.hits)}"
                )
        except cov.CoverageContractError as error:
            log.warning("fallback coverage rejected: %s", error)
            count_plane_event("retrieval", "fallback_coverage_invalid")
            failed = cov.unavailable_coverage(
                RECALL_READ_PATH, [JOURNAL_SOURCE], query.digest_fields(), failed=True
            )
            return RecallResult([], failed, SERVED_NONE, reason, 0, search_micros)
        hits = [Hit(h.episode, h.score, h.dense_rank, h.lexical_rank) for h in response.hits]
        return RecallResult(hits, response.coverage, SERVED_FALLBACK, reason, 0, search_micros)

    def _unserved(self, query: RecallQuery, error: Exception) -> RecallResult:
        failed = isinstance(error, JournalFailed)
        log.warning("recall not served: %s", error)
        coverage = cov.unavailable_coverage(
            RECALL_READ_PATH, [JOURNAL_SOURCE], query.digest_fields(), failed=failed
        )
        return RecallResult([], coverage, SERVED_NONE, REASON_NONE)

    # ---------------------------------------------------------------- shadow

    def _shadow_compare(
        self,
        query: RecallQuery,
        snapshot: Snapshot,
        vector: npt.NDArray[np.float32],
        prepared: ranking.Query,
        fallback_ids: list[str],
    ) -> None:
        if not self._shadow_slots.acquire(blocking=False):
            count_plane_event("retrieval", "shadow_skipped")
            return

        def compare() -> None:
            try:
                fused = self._search(query, snapshot, vector, prepared)
                self.shadow.record([f.id for f in fused[: query.limit]], fallback_ids)
            except Exception:
                log.exception("shadow comparison failed")
                with self.shadow.lock:
                    self.shadow.failures += 1
            finally:
                self._shadow_slots.release()

        try:
            self._shadow_pool.submit(compare)
        except RuntimeError:  # shutting down
            self._shadow_slots.release()
