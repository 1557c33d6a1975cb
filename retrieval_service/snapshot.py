"""The frozen snapshot a request reads, and copy-on-write application of
change-feed batches.

A snapshot is a tuple of immutable segments (segment 0 is the large base;
the rest are small segments produced from feed batches) plus one alive mask
per segment. Applying a batch never touches what a reader may hold: it copies
the alive masks it changes, builds one new small segment from the batch's
upserts and returns a new Snapshot, which the single writer publishes by
swapping one reference. Small segments are merged with each other inline
(size-tiered, so the cost is logarithmic); folding them into the base is a
background merge (index.py).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cached_property
from typing import overload

import numpy as np
import numpy.typing as npt

from engram import dates as dates_mod
from engram import ranking
from engram.terms import index_terms
from retrieval_service import dense as dense_mod
from retrieval_service import records as records_mod
from retrieval_service import segment as segment_mod
from retrieval_service.lexical import idf
from retrieval_service.records import EpisodeRecord, Interner, Op, Remove, RemoveScope, Upsert
from retrieval_service.segment import Segment

BoolArray = npt.NDArray[np.bool_]
I64 = npt.NDArray[np.int64]
# Hits of one list: (scores, segment of each, row of each).
Hits = tuple[npt.NDArray[np.float64], I64, I64]
# (segment << _ROW_BITS | row): one sortable integer per (segment, row).
_ROW_BITS = 40
_ROW_MASK = (1 << _ROW_BITS) - 1
Positions = npt.NDArray[np.intp] | slice


def _by_segment(segs: I64) -> list[tuple[int, Positions]]:
    """(segment, positions in ``segs``) for each segment present; one slice
    when every entry is of one segment (a base-only snapshot's case)."""
    if segs.size and (segs == segs[0]).all():
        return [(int(segs[0]), slice(None))]
    return [(int(index), np.flatnonzero(segs == index)) for index in np.unique(segs)]


_NO_HITS: Hits = (np.empty(0, np.float64), np.empty(0, np.int64), np.empty(0, np.int64))

# Inline merging of small segments: at most this many, and never larger than
# SMALL_MAX_ROWS live rows (beyond that the background merge folds them into
# the base).
MAX_SMALL_SEGMENTS = 8
SMALL_MAX_ROWS = 50_000
# Scopes whose speaker names a snapshot keeps (it lives until the next feed batch).
SPEAKER_SCOPES_CACHED = 4096


@dataclass(frozen=True)
class SearchRequest:
    subject: str
    workspace: str
    exclude_session_id: str
    start_us: int | None
    end_us: int | None
    vector: npt.NDArray[np.float32] | None
    query_text: str
    dense_window: int
    lexical_window: int


@dataclass(frozen=True)
class Ranked:
    """One list of a search: episode ids best first, with their scores."""

    ids: list[str]
    scores: list[float]


@dataclass(frozen=True)
class SearchResult:
    dense: Ranked
    lexical: Ranked


EMPTY = Ranked([], [])


class EpisodeIds(Sequence[str]):
    """The episode ids of (segment, row) pairs, made UUID text only when read:
    ranking orders on the rows' integer keys, and only the hits a request
    returns need their text."""

    def __init__(self, segments: Sequence[Segment], segs: I64, rows: I64) -> None:
        self._segments = segments
        self._segs = segs
        self._rows = rows
        self._text: dict[int, str] = {}

    def keys(self) -> npt.NDArray[np.uint64]:
        """Each row's UUID as (high, low) 64-bit halves, one row per candidate:
        ordered lexicographically, exactly as the UUID text."""
        keys = np.empty((self._rows.size, 2), dtype=np.uint64)
        for index, at in _by_segment(self._segs):
            segment = self._segments[index]
            keys[at, 0] = segment.key_hi[self._rows[at]]
            keys[at, 1] = segment.key_lo[self._rows[at]]
        return keys

    def __len__(self) -> int:
        return int(self._rows.size)

    def location(self, position: int) -> tuple[int, int]:
        """(segment, row) of a candidate."""
        return int(self._segs[position]), int(self._rows[position])

    @overload
    def __getitem__(self, position: int) -> str: ...

    @overload
    def __getitem__(self, position: slice) -> list[str]: ...

    def __getitem__(self, position: int | slice) -> str | list[str]:
        if isinstance(position, slice):
            return [self[i] for i in range(*position.indices(len(self)))]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(position)
        text = self._text.get(position)
        if text is None:
            segment = self._segments[int(self._segs[position])]
            text = self._text[position] = segment.episode_id(int(self._rows[position]))
        return text


def _freeze(array: BoolArray) -> BoolArray:
    array.flags.writeable = False
    return array


def _all_alive(rows: int) -> BoolArray:
    return _freeze(np.ones(rows, dtype=np.bool_))


@dataclass(frozen=True, eq=False)
class Snapshot:
    generation: int
    applied_cursor: int
    segments: tuple[Segment, ...]
    alive: tuple[BoolArray, ...]
    dead: tuple[I64, ...]  # sorted dead rows per segment
    interner: Interner
    dim: int
    model: str
    published_at: float = field(default_factory=time.time)

    # ----------------------------------------------------------- construction

    @classmethod
    def empty(cls, interner: Interner, dim: int, model: str, cursor: int = 0) -> Snapshot:
        base = segment_mod.build_segment([], dim, dense_mod.KIND_FLAT)
        return cls(
            0, cursor, (base,), (_all_alive(0),), (np.empty(0, np.int64),), interner, dim, model
        )

    @classmethod
    def from_base(
        cls, base: Segment, interner: Interner, dim: int, model: str, cursor: int, generation: int
    ) -> Snapshot:
        return cls(
            generation,
            cursor,
            (base,),
            (_all_alive(base.rows),),
            (np.empty(0, np.int64),),
            interner,
            dim,
            model,
        )

    # ------------------------------------------------------------------ stats

    @property
    def base(self) -> Segment:
        return self.segments[0]

    @property
    def live(self) -> int:
        return sum(s.rows for s in self.segments) - self.tombstones

    @property
    def tombstones(self) -> int:
        return sum(int(d.size) for d in self.dead)

    @property
    def small_live(self) -> int:
        return sum(
            s.rows - int(d.size) for s, d in zip(self.segments[1:], self.dead[1:], strict=True)
        )

    @property
    def dense_type(self) -> str:
        return (
            self.base.dense.type_name
            if self.base.rows
            else dense_mod.TYPE_NAMES[dense_mod.KIND_FLAT]
        )

    def approx_bytes(self) -> int:
        total = sum(s.approx_bytes() for s in self.segments)
        total += sum(
            int(a.nbytes) + int(d.nbytes) for a, d in zip(self.alive, self.dead, strict=True)
        )
        return total + self.interner.approx_bytes()

    # ----------------------------------------------------------------- search

    @cached_property
    def _speaker_cache(self) -> dict[tuple[str, str], list[str]]:
        return {}

    def speaker_names(self, subject: str, workspace: str) -> list[str]:
        """The speaker names the scope's episodes carry (for engram.ranking.prepare_query);
        kept per scope for the snapshot's life (read twice by each Recall)."""
        cache = self._speaker_cache
        key = (subject, workspace)
        found = cache.get(key)
        if found is None:
            if len(cache) >= SPEAKER_SCOPES_CACHED:
                cache.clear()
            found = cache[key] = self._scope_speakers(subject, workspace)
        return list(found)

    def _scope_speakers(self, subject: str, workspace: str) -> list[str]:
        s, w = self.interner.lookup(subject), self.interner.lookup(workspace)
        if s < 0 or w < 0:
            return []
        ids: set[int] = set()
        for segment in self.segments:
            ids |= segment.names_of(s, w)
        return sorted(n for n in (self.interner.value(i) for i in ids) if n)

    def candidates(self, request: SearchRequest, query: ranking.Query) -> ranking.Candidates:
        """engram.ranking candidates: each list's top ``request.dense_window`` /
        ``lexical_window`` under the request's filters, their union, with the
        neighbours' scores (neighbours are looked up among live rows, without
        the request's filters)."""
        subject = self.interner.lookup(request.subject)
        workspace = self.interner.lookup(request.workspace)
        if subject < 0 or workspace < 0:
            return ranking.empty_candidates()
        exclude = (
            self.interner.lookup(request.exclude_session_id) if request.exclude_session_id else -1
        )
        weighted, avgdl = self._weighted_terms(request.query_text)
        vector = (
            None
            if request.vector is None
            else np.ascontiguousarray(request.vector, dtype=np.float32).reshape(1, -1)
        )
        dense_hits: list[Hits] = []
        lexical_hits: list[Hits] = []
        # Unfiltered lexical scores per segment (rows ascending), for neighbours.
        lex_all: dict[int, tuple[I64, npt.NDArray[np.float64]]] = {}
        for index, segment in enumerate(self.segments):
            lo, hi = segment.scope_range(subject, workspace)
            if hi <= lo:
                continue
            allowed = self._mask_fn(index, request, exclude, lo, hi)
            if vector is not None:
                dense_hits.append(
                    self._dense_hits(index, segment, request, vector, allowed, exclude, lo, hi)
                )
            if weighted:
                # Rows ascending (LexicalSegment.score_range).
                rows, scores = segment.lexical.score_range(weighted, lo, hi, avgdl)
                if rows.size and self.dead[index].size:
                    alive = self.alive[index][rows]
                    lex_all[index] = (rows[alive], scores[alive])
                elif rows.size:
                    lex_all[index] = (rows, scores)
                if rows.size and allowed is not None:
                    keep = allowed(lo, hi)[rows - lo]
                    rows, scores = rows[keep], scores[keep]
                rows, scores = _segment_top(rows, scores, request.lexical_window)
                lexical_hits.append(
                    (
                        scores.astype(np.float64, copy=False),
                        np.full(rows.size, index, dtype=np.int64),
                        rows.astype(np.int64, copy=False),
                    )
                )
        dense_top = self._top_hits(dense_hits, request.dense_window)
        lexical_top = self._top_hits(lexical_hits, request.lexical_window)
        # The union, each candidate where it first appears (dense list first).
        all_segs = np.concatenate((dense_top[1], lexical_top[1]))
        all_rows = np.concatenate((dense_top[2], lexical_top[2]))
        if not all_rows.size:
            return ranking.empty_candidates()
        _unique, first = np.unique(all_segs << _ROW_BITS | all_rows, return_index=True)
        first.sort()
        segs, rows_c = all_segs[first], all_rows[first]
        n = int(segs.size)
        meta = np.empty((n, records_mod.META_COLUMNS), dtype=np.int64)
        for index, at in _by_segment(segs):
            meta[at] = self.segments[index].rank_meta[rows_c[at]]
        prev_s, prev_r, next_s, next_r = self._neighbours(segs, rows_c, meta)
        # One pass for the candidates and both neighbours (a row's score is
        # the same bits however many rows are scored with it).
        around_s = np.concatenate((segs, prev_s, next_s))
        around_r = np.concatenate((rows_c, prev_r, next_r))
        cosines = self._cosines(around_s, around_r, vector, dense_top)
        cos, cos_prev, cos_next = cosines[:n], cosines[n : 2 * n], cosines[2 * n :]
        lexes = self._lex_scores(around_s, around_r, lex_all)
        lex, lex_prev, lex_next = lexes[:n], lexes[n : 2 * n], lexes[2 * n :]
        named = (
            {
                i
                for i in (
                    self.interner.lookup(n)
                    for n in self.speaker_names(request.subject, request.workspace)
                )
                if i >= 0 and self.interner.value(i).casefold() in query.named
            }
            if query.named
            else set()
        )
        speaker = (
            np.isin(meta[:, records_mod.META_USER], list(named))
            | np.isin(meta[:, records_mod.META_ASSISTANT], list(named))
            if named
            else np.zeros(n, dtype=np.bool_)
        )
        dates = meta[:, records_mod.META_DATES :]
        time = np.zeros(n)
        if query.dates:
            for j in range(n):
                day = dates_mod.day_code(_utc_day(int(meta[j, records_mod.META_FIRST_SEEN])))
                time[j] = dates_mod.time_match(
                    list(query.dates), day, [int(c) for c in dates[j] if c]
                )
        length = np.log1p(meta[:, records_mod.META_LENGTH].astype(np.float64))
        flags = meta[:, records_mod.META_FLAGS]
        ids = EpisodeIds(self.segments, segs, rows_c)
        dense_scores = dense_top[0]
        return ranking.Candidates(
            ids,
            cos,
            cos_prev,
            cos_next,
            lex,
            lex_prev,
            lex_next,
            speaker.astype(np.float64),
            time,
            length,
            (flags & 1).astype(np.float64),
            ((flags >> 1) & 1).astype(np.float64),
            (dates[:, 0] != 0).astype(np.float64),
            dense_hi=float(dense_scores.max()) if dense_scores.size else 0.0,
            dense_lo=float(dense_scores.min()) if dense_scores.size else 0.0,
            in_dense=int(dense_scores.size),
            keys=ids.keys(),
            session=meta[:, records_mod.META_THREAD].copy(),
        )

    @cached_property
    def _live_lengths(self) -> tuple[int, float]:
        """BM25's N and total document length over live rows only (lexical.py):
        the same for every layout of the same episodes."""
        total = sum(
            s.lexical.total_len - s.lexical.len_among(d)
            for s, d in zip(self.segments, self.dead, strict=True)
        )
        return self.live, total

    def _live_df(self, term: str) -> int:
        return sum(
            s.lexical.df(term) - s.lexical.df_among(term, d)
            for s, d in zip(self.segments, self.dead, strict=True)
        )

    def _weighted_terms(self, text: str) -> tuple[list[tuple[str, float]], float]:
        query_terms = index_terms(text)
        terms = sorted(set(query_terms))
        query_tf = {t: 0 for t in terms}
        for t in query_terms:
            query_tf[t] += 1
        n_docs, total_len = self._live_lengths
        avgdl = max(total_len / n_docs, 1.0) if n_docs else 1.0
        weighted = [(t, idf(self._live_df(t), n_docs) * query_tf[t]) for t in terms]
        return weighted, avgdl

    def _dense_hits(
        self,
        index: int,
        segment: Segment,
        request: SearchRequest,
        vector: npt.NDArray[np.float32],
        allowed: dense_mod.MaskFn | None,
        exclude: int,
        lo: int,
        hi: int,
    ) -> Hits:
        mask_fn = allowed
        if segment.vectors_missing:
            has_vector = self._vector_mask(index)
            mask_fn = has_vector if mask_fn is None else _both(mask_fn, has_vector)
        only_tombstones = (
            mask_fn is not None
            and not segment.vectors_missing
            and request.start_us is None
            and request.end_us is None
            and exclude < 0
        )
        dead = self.dead[index]
        dense_rows, _approximate = segment.dense.search(
            vector,
            lo,
            hi,
            request.dense_window,
            mask_fn,
            alive=self.alive[index] if only_tombstones else None,
            dead_in_range=int(np.searchsorted(dead, hi)) - int(np.searchsorted(dead, lo)),
        )
        # Re-scored the one layout-independent way (dense.exact_scores); the
        # search kept every row within float32 rounding of its k-th best.
        dense_scores = dense_mod.exact_scores(segment.dense.vectors, dense_rows, vector)
        return dense_scores, np.full(dense_rows.size, index, dtype=np.int64), dense_rows

    def _top_hits(self, hits: list[Hits], window: int) -> Hits:
        """The best ``window`` hits, best first; ties by episode id (a UUID's
        text orders as its (high, low) 64-bit halves), as in _rank."""
        if not hits:
            return _NO_HITS
        scores = np.concatenate([h[0] for h in hits])
        segs = np.concatenate([h[1] for h in hits])
        rows = np.concatenate([h[2] for h in hits])
        if not rows.size:
            return _NO_HITS
        key_hi = np.empty(rows.size, dtype=np.uint64)
        key_lo = np.empty(rows.size, dtype=np.uint64)
        for index, at in _by_segment(segs):
            segment = self.segments[index]
            key_hi[at] = segment.key_hi[rows[at]]
            key_lo[at] = segment.key_lo[rows[at]]
        order = np.lexsort((key_lo, key_hi, -scores))[:window]
        return scores[order], segs[order], rows[order]

    def _neighbours(self, segs: I64, rows: I64, meta: I64) -> tuple[I64, I64, I64, I64]:
        """(segment, row) of the previous and next live episode of each
        candidate (at ``segs``, ``rows``, with ``meta``) in its thread (first
        session) in first-occurrence order; -1 none."""
        n = meta.shape[0]
        thread = np.ascontiguousarray(meta[:, records_mod.META_THREAD])
        seen = np.ascontiguousarray(meta[:, records_mod.META_FIRST_SEEN])
        none = np.iinfo(np.int64)
        best_prev = np.full(n, none.min, dtype=np.int64)
        best_next = np.full(n, none.max, dtype=np.int64)
        prev_s = np.full(n, -1, dtype=np.int64)
        prev_r = np.full(n, -1, dtype=np.int64)
        next_s = np.full(n, -1, dtype=np.int64)
        next_r = np.full(n, -1, dtype=np.int64)
        for index, segment in enumerate(self.segments):
            threads = segment.thread_index
            m = threads.keys.size
            if m == 0:
                continue
            alive = self.alive[index]
            has_dead = bool(self.dead[index].size)
            own = np.flatnonzero(segs == index)
            other = np.flatnonzero(segs != index)
            own_rows = rows[own]
            for step, side in ((-1, "left"), (1, "right")):
                # The last position before (thread, time), or the first after it.
                pos = np.empty(n, dtype=np.int64)
                pos[own] = (threads.group_start if step < 0 else threads.group_end)[own_rows]
                if other.size:
                    pos[other] = np.searchsorted(
                        threads.keys, threads.key(thread[other], seen[other], side), "left"
                    )
                pos = pos - 1 if step < 0 else pos
                ok = (pos >= 0) & (pos < m)
                # Skip dead rows (replaced or removed episodes), however many:
                # a bounded skip would make a neighbour depend on the layout.
                for _ in range(m if has_dead else 0):
                    clipped = np.clip(pos, 0, m - 1)
                    dead = ok & ~alive[threads.rows[clipped]]
                    if not dead.any():
                        break
                    pos = np.where(dead, pos + step, pos)
                    ok &= (pos >= 0) & (pos < m)
                clipped = np.clip(pos, 0, m - 1)
                found_rows = threads.rows[clipped]
                ok &= threads.keys[clipped] >> 32 == thread
                if has_dead:
                    ok &= alive[found_rows]
                t = threads.time_at(clipped)
                if step < 0:
                    better = ok & (t > best_prev)
                    best_prev = np.where(better, t, best_prev)
                    prev_s = np.where(better, index, prev_s)
                    prev_r = np.where(better, found_rows, prev_r)
                else:
                    better = ok & (t < best_next)
                    best_next = np.where(better, t, best_next)
                    next_s = np.where(better, index, next_s)
                    next_r = np.where(better, found_rows, next_r)
        return prev_s, prev_r, next_s, next_r

    def _cosines(
        self, segs: I64, rows: I64, vector: npt.NDArray[np.float32] | None, known: Hits
    ) -> npt.NDArray[np.float64]:
        """Cosines of (segment, row) pairs (segment -1: none, nan), each
        distinct row scored once; the ``known`` dense hits' scores are reused
        (dense.exact_scores gives a row the same bits in any batch)."""
        out = np.full(segs.size, np.nan)
        if vector is None:
            return out
        q = vector.reshape(-1)
        valid = np.flatnonzero(segs >= 0)
        wanted, inverse = np.unique(segs[valid] << _ROW_BITS | rows[valid], return_inverse=True)
        scores = np.full(wanted.size, np.nan)
        todo = np.ones(wanted.size, dtype=np.bool_)
        known_scores, known_segs, known_rows = known
        if known_rows.size and wanted.size:
            at = np.searchsorted(wanted, known_segs << _ROW_BITS | known_rows)
            hit = at < wanted.size
            hit[hit] = wanted[at[hit]] == (known_segs[hit] << _ROW_BITS | known_rows[hit])
            scores[at[hit]] = known_scores[hit]
            todo[at[hit]] = False
        pending = np.flatnonzero(todo)
        pending_segs = wanted[pending] >> _ROW_BITS
        for index, where in _by_segment(pending_segs):
            segment = self.segments[index]
            at = pending[where]
            r = wanted[at] & _ROW_MASK
            values = dense_mod.exact_scores(segment.dense.vectors, r, q)
            scores[at] = np.where(segment.has_vector[r], values, np.nan)
        out[valid] = scores[inverse]
        return out

    def _lex_scores(
        self, segs: I64, rows: I64, lex_all: dict[int, tuple[I64, npt.NDArray[np.float64]]]
    ) -> npt.NDArray[np.float64]:
        out = np.zeros(segs.size)
        valid = np.flatnonzero(segs >= 0)
        for index, where in _by_segment(segs[valid]):
            found = lex_all.get(index)
            if found is None:
                continue
            at = valid[where]
            hit_rows, hit_scores = found
            if hit_rows.size == 0:
                continue
            pos = np.clip(np.searchsorted(hit_rows, rows[at]), 0, hit_rows.size - 1)
            match = hit_rows[pos] == rows[at]
            out[at] = np.where(match, hit_scores[pos], 0.0)
        return out

    def search(self, request: SearchRequest) -> SearchResult:
        subject = self.interner.lookup(request.subject)
        workspace = self.interner.lookup(request.workspace)
        if subject < 0 or workspace < 0:
            return SearchResult(EMPTY, EMPTY)
        exclude = (
            self.interner.lookup(request.exclude_session_id) if request.exclude_session_id else -1
        )
        weighted, avgdl = self._weighted_terms(request.query_text)
        vector = (
            None
            if request.vector is None
            else np.ascontiguousarray(request.vector, dtype=np.float32).reshape(1, -1)
        )

        dense_hits: list[tuple[float, int, int]] = []
        lexical_hits: list[tuple[float, int, int]] = []
        for index, segment in enumerate(self.segments):
            lo, hi = segment.scope_range(subject, workspace)
            if hi <= lo:
                continue
            allowed = self._mask_fn(index, request, exclude, lo, hi)
            if vector is not None:
                found = self._dense_hits(index, segment, request, vector, allowed, exclude, lo, hi)
                dense_hits.extend(
                    zip(found[0].tolist(), found[1].tolist(), found[2].tolist(), strict=True)
                )
            if weighted:
                rows, scores = segment.lexical.score_range(weighted, lo, hi, avgdl)
                if rows.size and allowed is not None:
                    keep = allowed(lo, hi)[rows - lo]
                    rows, scores = rows[keep], scores[keep]
                rows, scores = _segment_top(rows, scores, request.lexical_window)
                lexical_hits.extend(
                    (float(s), index, int(r)) for s, r in zip(scores, rows, strict=True)
                )
        return SearchResult(
            self._rank(dense_hits, request.dense_window),
            self._rank(lexical_hits, request.lexical_window),
        )

    def _rank(self, hits: list[tuple[float, int, int]], window: int) -> Ranked:
        # Ties break on episode id so both lists (and repeated runs) are deterministic.
        keyed = [(-score, self.segments[i].episode_id(r)) for score, i, r in hits]
        keyed.sort()
        keyed = keyed[:window]
        return Ranked([k[1] for k in keyed], [-k[0] for k in keyed])

    def _vector_mask(self, index: int) -> dense_mod.MaskFn:
        segment = self.segments[index]

        def mask(lo: int, hi: int) -> BoolArray:
            return segment.has_vector[lo:hi]

        return mask

    def _mask_fn(
        self, index: int, request: SearchRequest, exclude: int, lo: int, hi: int
    ) -> dense_mod.MaskFn | None:
        """Row filter for [lo, hi) of segment `index`, or None when every row passes."""
        segment = self.segments[index]
        alive = self.alive[index]
        dead = self.dead[index]
        window = request.start_us is not None or request.end_us is not None
        dead_in_range = int(np.searchsorted(dead, hi)) - int(np.searchsorted(dead, lo))
        if not dead_in_range and not window and exclude < 0:
            return None

        def mask(lo: int, hi: int) -> BoolArray:
            result = alive[lo:hi].copy()
            seen = segment.last_seen_us[lo:hi]
            if request.start_us is not None:
                result &= seen >= request.start_us
            if request.end_us is not None:
                result &= seen < request.end_us
            if exclude >= 0:
                result &= ~segment.rows_only_in_session(lo, hi, exclude)
            return result

        return mask

    def locate(self, key_hi: int, key_lo: int) -> tuple[int, int] | None:
        """(segment, row) of the live row of an episode, newest segment first."""
        for index in range(len(self.segments) - 1, -1, -1):
            row = self.segments[index].find(key_hi, key_lo)
            if row >= 0 and self.alive[index][row]:
                return index, row
        return None

    # ------------------------------------------------------------------ apply

    def apply(self, ops: Sequence[Op], cursor: int, generation: int) -> Snapshot:
        """A new snapshot with `ops` applied (ops at or below the applied
        cursor are already reflected and skipped)."""
        pending: dict[tuple[int, int], EpisodeRecord | None] = {}
        kills: list[tuple[int, int]] = []
        for op in ops:
            if op.cursor <= self.applied_cursor:
                continue
            if isinstance(op, Upsert):
                pending[(op.record.key_hi, op.record.key_lo)] = op.record
            elif isinstance(op, Remove):
                pending[(op.key_hi, op.key_lo)] = None
            elif isinstance(op, RemoveScope):
                for key, record in pending.items():
                    if (
                        record is not None
                        and record.subject == op.subject
                        and (op.workspace < 0 or record.workspace == op.workspace)
                    ):
                        pending[key] = None
                kills.append((op.subject, op.workspace))
        new_cursor = max(cursor, self.applied_cursor)
        if not pending and not kills:
            if new_cursor == self.applied_cursor:
                return self
            return Snapshot(
                generation,
                new_cursor,
                self.segments,
                self.alive,
                self.dead,
                self.interner,
                self.dim,
                self.model,
            )

        alive = list(self.alive)
        copied: set[int] = set()
        newly_dead: dict[int, list[int]] = {}

        def kill(index: int, rows: I64 | list[int]) -> None:
            if index not in copied:
                alive[index] = alive[index].copy()
                copied.add(index)
            alive[index][rows] = False
            newly_dead.setdefault(index, []).extend(int(r) for r in np.atleast_1d(rows))

        for key_hi, key_lo in pending:
            found = self.locate(key_hi, key_lo)
            if found is not None:
                kill(found[0], [found[1]])
        for subject, workspace in kills:
            for index, segment in enumerate(self.segments):
                lo, hi = (
                    segment.subject_range(subject)
                    if workspace < 0
                    else segment.scope_range(subject, workspace)
                )
                if hi > lo:
                    rows = np.arange(lo, hi, dtype=np.int64)
                    rows = rows[alive[index][lo:hi]]
                    if rows.size:
                        kill(index, rows)
        dead = list(self.dead)
        for index, rows_list in newly_dead.items():
            dead[index] = np.union1d(dead[index], np.asarray(rows_list, dtype=np.int64))
            _freeze(alive[index])

        segments = list(self.segments)
        records = [r for r in pending.values() if r is not None]
        if records:
            segments.append(segment_mod.build_segment(records, self.dim, small=True))
            alive.append(_all_alive(segments[-1].rows))
            dead.append(np.empty(0, np.int64))
        _compact_small(segments, alive, dead, self.dim)
        return Snapshot(
            generation,
            new_cursor,
            tuple(segments),
            tuple(alive),
            tuple(dead),
            self.interner,
            self.dim,
            self.model,
        )

    def merged(self, generation: int) -> Snapshot:
        """Every live row in one new base (run off to the side: may take minutes)."""
        base = segment_mod.merge(self.segments, self.alive, None, self.dim)
        return Snapshot.from_base(
            base, self.interner, self.dim, self.model, self.applied_cursor, generation
        )


def _segment_top(
    rows: I64, scores: npt.NDArray[np.float64], window: int
) -> tuple[I64, npt.NDArray[np.float64]]:
    """The rows scoring at least a segment's ``window``-th best score. Ties at
    the edge are all kept: which of them make the window is decided across
    segments by episode id (Snapshot._top), never by where a row is stored."""
    if rows.size <= window:
        return rows, scores
    kth = np.partition(scores, rows.size - window)[rows.size - window]
    keep = scores >= kth
    return rows[keep], scores[keep]


def _utc_day(us: int) -> date:
    return datetime.fromtimestamp(us / 1_000_000, tz=UTC).date()


def _both(first: dense_mod.MaskFn, second: dense_mod.MaskFn) -> dense_mod.MaskFn:
    def mask(lo: int, hi: int) -> BoolArray:
        return first(lo, hi) & second(lo, hi)

    return mask


def _live(segment: Segment, dead: I64) -> int:
    return segment.rows - int(dead.size)


def _compact_small(
    segments: list[Segment], alive: list[BoolArray], dead: list[I64], dim: int
) -> None:
    """Size-tiered inline merge of the trailing small segments."""
    while len(segments) > 2:
        last, prev = _live(segments[-1], dead[-1]), _live(segments[-2], dead[-2])
        if len(segments) - 1 <= MAX_SMALL_SEGMENTS and (
            last * 2 < prev or last + prev > SMALL_MAX_ROWS
        ):
            break
        merged = segment_mod.merge(segments[-2:], alive[-2:], dense_mod.KIND_EXACT, dim)
        del segments[-2:], alive[-2:], dead[-2:]
        segments.append(merged)
        alive.append(_all_alive(merged.rows))
        dead.append(np.empty(0, np.int64))
