"""An immutable segment: a set of episodes with compact metadata, a dense
index and a BM25 index, rows sorted by scope (subject, workspace).

Per-episode metadata is numpy arrays of fixed-width numbers (interned string
ids, microsecond timestamps, the UUID as two uint64). The body Recall returns
is held too: both texts as UTF-8 in one byte array with offsets, the content
hash as 32 bytes and a few BODY_* numbers, so an episode costs its vector, its
texts and about 130 bytes (docs/benchmarks.md has the measured figure).
Whether a request may serve these bodies without reading the journal is
recall.py's visibility fence.
"""

from __future__ import annotations

import array
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from retrieval_service import dense as dense_mod
from retrieval_service import lexical as lexical_mod
from retrieval_service import records as records_mod
from retrieval_service.dense import DenseIndex
from retrieval_service.lexical import LexicalSegment
from retrieval_service.records import EpisodeRecord

U8 = npt.NDArray[np.uint8]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
FloatMatrix = npt.NDArray[np.float32]


def scope_key(subject: int, workspace: int) -> int:
    return (subject << 32) | workspace


@dataclass(frozen=True)
class ThreadIndex:
    """A segment's rows in (thread, first_seen_us) order as one int64 key
    each: the thread id in the high 32 bits, the rank of the time among the
    segment's distinct times in the low 32 (interned ids are below 2**31 and
    a segment has fewer rows than 2**32), so one integer binary search finds
    a (thread, time) position. For the segment's own rows the two positions a
    neighbour lookup needs (before and after the row's equal (thread, time)
    group) are stored, so they need no search (the search would miss the
    cache about twenty times per row in a large segment)."""

    keys: I64  # ascending
    rows: I32  # the row at each position
    times: I64  # the segment's distinct first_seen_us, ascending
    group_start: I32  # per row: the first position of its (thread, time) group
    group_end: I32  # per row: one past the last position of its group

    @classmethod
    def build(cls, thread: I64, seen: I64) -> ThreadIndex:
        order = np.lexsort((seen, thread)).astype(np.int32)
        times = np.unique(seen)
        keys = (thread[order] << 32) | np.searchsorted(times, seen[order]).astype(np.int64)
        n = keys.size
        first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]]) if n else np.empty(0, np.int64)
        group = np.cumsum(np.r_[True, keys[1:] != keys[:-1]]) - 1 if n else first
        ends = np.r_[first[1:], n] if n else first
        group_start = np.empty(n, dtype=np.int32)
        group_end = np.empty(n, dtype=np.int32)
        group_start[order] = first[group]
        group_end[order] = ends[group]
        _freeze(order, times, keys, group_start, group_end)
        return cls(keys, order, times, group_start, group_end)

    def key(self, thread: I64, seen: I64, side: str) -> I64:
        """Keys that sort exactly where (thread, seen) does among ``keys``:
        with side "left" before every equal (thread, time), with "right" after."""
        rank = np.searchsorted(self.times, seen, side=side)  # type: ignore[call-overload]
        result: I64 = (thread << 32) | rank.astype(np.int64)
        return result

    def time_at(self, positions: I64) -> I64:
        """first_seen_us at each position."""
        result: I64 = self.times[self.keys[positions] & 0xFFFFFFFF]
        return result


@dataclass(frozen=True, eq=False)
class Segment:
    uid: str
    key_hi: U64
    key_lo: U64
    lo_sorted: U64  # key_lo ascending, for lookups by episode id
    lo_order: I32  # row of each lo_sorted entry
    scope: I64  # subject << 32 | workspace, ascending
    subject: I32
    workspace: I32
    session: I32
    last_seen_us: I64
    has_vector: BoolArray
    sess_offsets: I64  # (n + 1,): sessions of row r are sess_values[o[r]:o[r+1]]
    sess_values: I32
    # (n, records.META_COLUMNS) ranking metadata (first_seen_us, speakers,
    # thread, text shape, resolved dates).
    rank_meta: I64
    # Bodies: the user and assistant text of row r are text_bytes[o[2r]:o[2r+1]]
    # and text_bytes[o[2r+1]:o[2r+2]] with o = text_offsets (2n + 1,).
    text_offsets: I64
    text_bytes: U8
    sha256: U8  # (n, SHA256_BYTES)
    body: I64  # (n, records.BODY_COLUMNS)
    dense: DenseIndex
    lexical: LexicalSegment
    vectors_missing: int = field(default=0)

    @cached_property
    def thread_index(self) -> ThreadIndex:
        """Rows sorted by (thread, first_seen_us), for vectorised neighbour
        lookups. Derived, so not persisted."""
        meta = self.rank_meta
        return ThreadIndex.build(
            meta[:, records_mod.META_THREAD], meta[:, records_mod.META_FIRST_SEEN]
        )

    def names_of(self, subject: int, workspace: int) -> frozenset[int]:
        """Interned speaker names of a scope's rows (dead rows included)."""
        key = (subject, workspace)
        cache = self._name_cache
        found = cache.get(key)
        if found is None:
            lo, hi = self.scope_range(subject, workspace)
            ids = np.unique(
                self.rank_meta[lo:hi, records_mod.META_USER : records_mod.META_ASSISTANT + 1]
            )
            found = frozenset(int(i) for i in ids)
            cache[key] = found
        return found

    @cached_property
    def _name_cache(self) -> dict[tuple[int, int], frozenset[int]]:
        return {}

    @property
    def rows(self) -> int:
        return int(self.key_hi.shape[0])

    def scope_range(self, subject: int, workspace: int) -> tuple[int, int]:
        key = scope_key(subject, workspace)
        lo = int(np.searchsorted(self.scope, key, "left"))
        hi = int(np.searchsorted(self.scope, key, "right"))
        return lo, hi

    def subject_range(self, subject: int) -> tuple[int, int]:
        lo = int(np.searchsorted(self.scope, scope_key(subject, 0), "left"))
        hi = int(np.searchsorted(self.scope, scope_key(subject + 1, 0), "left"))
        return lo, hi

    def find(self, key_hi: int, key_lo: int) -> int:
        """Row of an episode id, or -1."""
        lo_value = np.uint64(key_lo)
        a = int(np.searchsorted(self.lo_sorted, lo_value, "left"))
        z = int(np.searchsorted(self.lo_sorted, lo_value, "right"))
        for position in range(a, z):
            row = int(self.lo_order[position])
            if int(self.key_hi[row]) == key_hi:
                return row
        return -1

    def episode_id(self, row: int) -> str:
        """The UUID text of a row's episode (str(uuid.UUID(...)), formatted directly)."""
        h = f"{int(self.key_hi[row]):016x}{int(self.key_lo[row]):016x}"
        return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"

    def texts_of(self, row: int) -> tuple[str, str]:
        o = self.text_offsets
        a, b, c = int(o[2 * row]), int(o[2 * row + 1]), int(o[2 * row + 2])
        data = self.text_bytes
        return data[a:b].tobytes().decode("utf-8"), data[b:c].tobytes().decode("utf-8")

    def sessions_of(self, row: int) -> I32:
        return self.sess_values[int(self.sess_offsets[row]) : int(self.sess_offsets[row + 1])]

    def rows_only_in_session(self, lo: int, hi: int, session: int) -> BoolArray:
        """Mask over [lo, hi): rows whose every session is `session`
        (engram.fusion.session_excluded, the shared exclude-session rule)."""
        if hi <= lo:
            return np.zeros(0, dtype=np.bool_)
        offsets = self.sess_offsets[lo : hi + 1]
        start = int(offsets[0])
        equal = (self.sess_values[start : int(offsets[-1])] == session).astype(np.int32)
        counts = np.diff(offsets)
        matched = (
            np.add.reduceat(equal, offsets[:-1] - start)
            if equal.size
            else np.zeros(hi - lo, dtype=np.int32)
        )
        # reduceat yields the element itself for an empty slice; no row has zero sessions.
        result: BoolArray = (matched == counts) & (counts > 0)
        return result

    def approx_bytes(self) -> int:
        arrays = (
            self.key_hi,
            self.key_lo,
            self.lo_sorted,
            self.lo_order,
            self.scope,
            self.subject,
            self.workspace,
            self.session,
            self.last_seen_us,
            self.has_vector,
            self.sess_offsets,
            self.sess_values,
            self.rank_meta,
            self.text_offsets,
            self.text_bytes,
            self.sha256,
            self.body,
        )
        return (
            sum(int(a.nbytes) for a in arrays)
            + self.dense.approx_bytes()
            + self.lexical.approx_bytes()
        )


@dataclass
class SegmentParts:
    """Unsorted columns of a segment under construction."""

    key_hi: U64
    key_lo: U64
    subject: I32
    workspace: I32
    session: I32
    last_seen_us: I64
    has_vector: BoolArray
    sess_offsets: I64
    sess_values: I32
    rank_meta: I64
    text_offsets: I64
    text_bytes: U8
    sha256: U8
    body: I64
    vectors: FloatMatrix
    vocab: list[str]
    term_ids: I32
    posting_rows: I32
    posting_tf: npt.NDArray[np.uint16]


_GATHER_SPANS = 1 << 16


def take_texts(offsets: I64, data: U8, rows: I64) -> tuple[I64, U8]:
    """The (user, assistant) text spans of `rows`, in that order, as new
    offsets and bytes (gathered in bounded chunks: a 1M-row base would
    otherwise need an index array eight times its text)."""
    spans = np.empty(rows.size * 2, dtype=np.int64)
    spans[0::2] = rows * 2
    spans[1::2] = rows * 2 + 1
    starts = offsets[:-1][spans]
    lengths = offsets[1:][spans] - starts
    out_offsets = np.zeros(spans.size + 1, dtype=np.int64)
    np.cumsum(lengths, out=out_offsets[1:])
    out = np.empty(int(out_offsets[-1]), dtype=np.uint8)
    for a in range(0, spans.size, _GATHER_SPANS):
        z = min(a + _GATHER_SPANS, spans.size)
        lo, hi = int(out_offsets[a]), int(out_offsets[z])
        if hi > lo:
            gather = np.repeat(starts[a:z] - out_offsets[a:z], lengths[a:z]) + np.arange(
                lo, hi, dtype=np.int64
            )
            out[lo:hi] = data[gather]
    return out_offsets, out


def _freeze(*arrays: npt.NDArray[Any]) -> None:
    for a in arrays:
        a.flags.writeable = False


def assemble(parts: SegmentParts, kind: str, dim: int) -> Segment:
    """Sort rows by (scope, key) and build the indexes."""
    n = int(parts.key_hi.shape[0])
    scope = (parts.subject.astype(np.int64) << 32) | parts.workspace.astype(np.int64)
    order = np.lexsort((parts.key_lo, parts.key_hi, scope)) if n else np.empty(0, np.int64)
    new_row = np.empty(n, dtype=np.int64)
    new_row[order] = np.arange(n, dtype=np.int64)

    counts = np.diff(parts.sess_offsets)[order]
    sess_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=sess_offsets[1:])
    if parts.sess_values.size:
        starts = parts.sess_offsets[:-1][order]
        gather = np.repeat(starts - sess_offsets[:-1], counts) + np.arange(
            int(sess_offsets[-1]), dtype=np.int64
        )
        sess_values = np.ascontiguousarray(parts.sess_values[gather], dtype=np.int32)
    else:
        sess_values = np.empty(0, dtype=np.int32)

    text_offsets, text_bytes = take_texts(parts.text_offsets, parts.text_bytes, order)
    key_hi = np.ascontiguousarray(parts.key_hi[order])
    key_lo = np.ascontiguousarray(parts.key_lo[order])
    lo_order = np.argsort(key_lo, kind="stable").astype(np.int32)
    lo_sorted = np.ascontiguousarray(key_lo[lo_order])
    has_vector = np.ascontiguousarray(parts.has_vector[order])
    vectors = parts.vectors[order] if n else parts.vectors.reshape(0, dim)
    parts.vectors = vectors[:0]  # drop the unsorted copy early (large bases)
    dense = dense_mod.build_dense(kind, vectors, dim)
    lexical = lexical_mod.build_lexical(
        n,
        parts.vocab,
        parts.term_ids,
        new_row[parts.posting_rows].astype(np.int32)
        if parts.posting_rows.size
        else parts.posting_rows,
        parts.posting_tf,
    )
    segment = Segment(
        uid=uuid.uuid4().hex,
        key_hi=key_hi,
        key_lo=key_lo,
        lo_sorted=lo_sorted,
        lo_order=lo_order,
        scope=np.ascontiguousarray(scope[order]),
        subject=np.ascontiguousarray(parts.subject[order]),
        workspace=np.ascontiguousarray(parts.workspace[order]),
        session=np.ascontiguousarray(parts.session[order]),
        last_seen_us=np.ascontiguousarray(parts.last_seen_us[order]),
        has_vector=has_vector,
        sess_offsets=sess_offsets,
        sess_values=sess_values,
        rank_meta=np.ascontiguousarray(
            parts.rank_meta.reshape(-1, records_mod.META_COLUMNS)[order], dtype=np.int64
        ),
        text_offsets=text_offsets,
        text_bytes=text_bytes,
        sha256=np.ascontiguousarray(
            parts.sha256.reshape(-1, records_mod.SHA256_BYTES)[order], dtype=np.uint8
        ),
        body=np.ascontiguousarray(
            parts.body.reshape(-1, records_mod.BODY_COLUMNS)[order], dtype=np.int64
        ),
        dense=dense,
        lexical=lexical,
        vectors_missing=int(n - int(has_vector.sum())),
    )
    _freeze(
        segment.key_hi,
        segment.key_lo,
        segment.lo_sorted,
        segment.lo_order,
        segment.scope,
        segment.subject,
        segment.workspace,
        segment.session,
        segment.last_seen_us,
        segment.has_vector,
        segment.sess_offsets,
        segment.sess_values,
        segment.rank_meta,
        segment.text_offsets,
        segment.text_bytes,
        segment.sha256,
        segment.body,
    )
    return segment


class SegmentBuilder:
    """Stages records (deduplicated by episode id, last write wins) in
    growable buffers, then assembles one segment. Used for feed batches, for
    rebuilds that replay the whole feed, and nothing else holds it."""

    _CHUNK = 4096

    def __init__(self, dim: int) -> None:
        self.dim = dim
        self._row_of: dict[tuple[int, int], int] = {}
        self._dead: set[int] = set()
        self._hi = array.array("Q")
        self._lo = array.array("Q")
        self._subject = array.array("i")
        self._workspace = array.array("i")
        self._session = array.array("i")
        self._last_seen = array.array("q")
        self._has_vector = array.array("b")
        self._sess_counts = array.array("q")
        self._sess_values = array.array("i")
        self._meta = array.array("q")
        self._text = bytearray()
        self._text_lengths = array.array("q")
        self._sha256 = bytearray()
        self._body = array.array("q")
        self._chunks: list[FloatMatrix] = []
        self._vocab: dict[str, int] = {}
        self._term_ids = array.array("i")
        self._posting_rows = array.array("i")
        self._posting_tf = array.array("H")

    @property
    def live(self) -> int:
        return len(self._row_of)

    def add(self, record: EpisodeRecord) -> None:
        key = (record.key_hi, record.key_lo)
        previous = self._row_of.get(key)
        if previous is not None:
            self._dead.add(previous)
        row = len(self._hi)
        self._row_of[key] = row
        self._hi.append(record.key_hi)
        self._lo.append(record.key_lo)
        self._subject.append(record.subject)
        self._workspace.append(record.workspace)
        self._session.append(record.session)
        self._last_seen.append(record.last_seen_us)
        self._sess_counts.append(len(record.sessions))
        self._sess_values.extend(record.sessions)
        self._meta.extend(record.meta)
        self._text += record.user_text
        self._text += record.assistant_text
        self._text_lengths.append(len(record.user_text))
        self._text_lengths.append(len(record.assistant_text))
        self._sha256 += record.sha256
        self._body.extend(record.body)
        if row % self._CHUNK == 0:
            self._chunks.append(np.zeros((self._CHUNK, self.dim), dtype=np.float32))
        if record.vector is not None:
            self._chunks[-1][row % self._CHUNK] = record.vector
            self._has_vector.append(1)
        else:
            self._has_vector.append(0)
        vocab = self._vocab
        for term, count in record.terms.items():
            term_id = vocab.get(term)
            if term_id is None:
                term_id = vocab[term] = len(vocab)
            self._term_ids.append(term_id)
            self._posting_rows.append(row)
            self._posting_tf.append(min(count, 65535))

    def remove(self, key_hi: int, key_lo: int) -> None:
        row = self._row_of.pop((key_hi, key_lo), None)
        if row is not None:
            self._dead.add(row)

    def remove_scope(self, subject: int, workspace: int) -> None:
        """Drop staged rows of a subject (one workspace, or all when workspace < 0)."""
        for key, row in list(self._row_of.items()):
            if self._subject[row] == subject and (
                workspace < 0 or self._workspace[row] == workspace
            ):
                del self._row_of[key]
                self._dead.add(row)

    def parts(self) -> SegmentParts:
        n_all = len(self._hi)
        keep = np.ones(n_all, dtype=np.bool_)
        if self._dead:
            keep[np.fromiter(self._dead, dtype=np.int64, count=len(self._dead))] = False
        rows = np.flatnonzero(keep)
        new_row = np.full(n_all, -1, dtype=np.int64)
        new_row[rows] = np.arange(rows.size)
        counts = (
            np.frombuffer(self._sess_counts, dtype=np.int64) if n_all else np.empty(0, np.int64)
        )
        offsets = np.zeros(n_all + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        sess_values = (
            np.frombuffer(self._sess_values, dtype=np.int32)
            if len(self._sess_values)
            else np.empty(0, np.int32)
        )
        kept_counts = counts[rows]
        kept_offsets = np.zeros(rows.size + 1, dtype=np.int64)
        np.cumsum(kept_counts, out=kept_offsets[1:])
        gather = np.repeat(offsets[:-1][rows] - kept_offsets[:-1], kept_counts) + np.arange(
            int(kept_offsets[-1]), dtype=np.int64
        )
        vectors = np.empty((rows.size, self.dim), dtype=np.float32)
        bounds = np.searchsorted(rows, np.arange(len(self._chunks) + 1) * self._CHUNK)
        for index, chunk in enumerate(self._chunks):
            a, z = int(bounds[index]), int(bounds[index + 1])
            if z > a:
                vectors[a:z] = chunk[rows[a:z] - index * self._CHUNK]
        posting_rows = _buffer(self._posting_rows, np.int32)
        term_ids = _buffer(self._term_ids, np.int32)
        posting_tf = _buffer(self._posting_tf, np.uint16)
        live_postings = keep[posting_rows] if posting_rows.size else np.empty(0, np.bool_)
        vocab = [""] * len(self._vocab)
        for term, term_id in self._vocab.items():
            vocab[term_id] = term
        text_offsets = np.zeros(2 * n_all + 1, dtype=np.int64)
        np.cumsum(_buffer(self._text_lengths, np.int64), out=text_offsets[1:])
        text_offsets, text_bytes = take_texts(
            text_offsets, np.frombuffer(bytes(self._text), dtype=np.uint8), rows
        )
        return SegmentParts(
            key_hi=_buffer(self._hi, np.uint64)[rows],
            key_lo=_buffer(self._lo, np.uint64)[rows],
            subject=_buffer(self._subject, np.int32)[rows],
            workspace=_buffer(self._workspace, np.int32)[rows],
            session=_buffer(self._session, np.int32)[rows],
            last_seen_us=_buffer(self._last_seen, np.int64)[rows],
            has_vector=_buffer(self._has_vector, np.int8)[rows].astype(np.bool_),
            sess_offsets=kept_offsets,
            sess_values=np.ascontiguousarray(sess_values[gather], dtype=np.int32),
            rank_meta=_buffer(self._meta, np.int64).reshape(-1, records_mod.META_COLUMNS)[rows],
            text_offsets=text_offsets,
            text_bytes=text_bytes,
            sha256=np.frombuffer(bytes(self._sha256), dtype=np.uint8).reshape(
                -1, records_mod.SHA256_BYTES
            )[rows],
            body=_buffer(self._body, np.int64).reshape(-1, records_mod.BODY_COLUMNS)[rows],
            vectors=vectors,
            vocab=vocab,
            term_ids=term_ids[live_postings],
            posting_rows=new_row[posting_rows[live_postings]].astype(np.int32),
            posting_tf=posting_tf[live_postings],
        )

    def build(self, kind: str | None = None, *, small: bool = False) -> Segment:
        parts = self.parts()
        self._chunks = []  # staging vectors are copied into parts; free them before indexing
        chosen = kind or dense_mod.choose_kind(int(parts.key_hi.shape[0]), small=small)
        return assemble(parts, chosen, self.dim)


def _buffer(buf: array.array, dtype: type) -> Any:  # type: ignore[type-arg]
    if len(buf) == 0:
        return np.empty(0, dtype=dtype)
    return np.frombuffer(buf, dtype=dtype).copy()


def merge(
    segments: Sequence[Segment], alive: Sequence[BoolArray], kind: str | None, dim: int
) -> Segment:
    """One segment holding the live rows of `segments` (dead rows dropped)."""
    vocab_index: dict[str, int] = {}
    columns: dict[str, list[npt.NDArray[Any]]] = {
        name: []
        for name in (
            "hi",
            "lo",
            "subject",
            "workspace",
            "session",
            "seen",
            "has",
            "sess_counts",
            "sess_values",
            "meta",
            "text_lengths",
            "text",
            "sha256",
            "body",
            "vectors",
            "terms",
            "prow",
            "tf",
        )
    }
    base_row = 0
    for segment, mask in zip(segments, alive, strict=True):
        rows = np.flatnonzero(mask)
        new_row = np.full(segment.rows, -1, dtype=np.int64)
        new_row[rows] = np.arange(rows.size) + base_row
        base_row += rows.size
        columns["hi"].append(segment.key_hi[rows])
        columns["lo"].append(segment.key_lo[rows])
        columns["subject"].append(segment.subject[rows])
        columns["workspace"].append(segment.workspace[rows])
        columns["session"].append(segment.session[rows])
        columns["seen"].append(segment.last_seen_us[rows])
        columns["has"].append(segment.has_vector[rows])
        counts = np.diff(segment.sess_offsets)[rows]
        columns["sess_counts"].append(counts)
        out_offsets = np.zeros(rows.size + 1, dtype=np.int64)
        np.cumsum(counts, out=out_offsets[1:])
        gather = np.repeat(segment.sess_offsets[:-1][rows] - out_offsets[:-1], counts) + np.arange(
            int(out_offsets[-1]), dtype=np.int64
        )
        columns["sess_values"].append(segment.sess_values[gather])
        columns["meta"].append(segment.rank_meta[rows])
        text_offsets, text_bytes = take_texts(segment.text_offsets, segment.text_bytes, rows)
        columns["text_lengths"].append(np.diff(text_offsets))
        columns["text"].append(text_bytes)
        columns["sha256"].append(segment.sha256[rows])
        columns["body"].append(segment.body[rows])
        columns["vectors"].append(segment.dense.vectors[rows])
        vocab, term_ids, prow, tf = lexical_mod.expand(segment.lexical)
        remap = np.fromiter(
            (vocab_index.setdefault(t, len(vocab_index)) for t in vocab),
            dtype=np.int32,
            count=len(vocab),
        )
        live = mask[prow] if prow.size else np.empty(0, np.bool_)
        columns["terms"].append(remap[term_ids[live]] if term_ids.size else term_ids)
        columns["prow"].append(new_row[prow[live]].astype(np.int32))
        columns["tf"].append(tf[live])

    def cat(name: str, dtype: type) -> Any:
        items = columns[name]
        return (
            np.concatenate(items).astype(dtype, copy=False) if items else np.empty(0, dtype=dtype)
        )

    sess_counts = cat("sess_counts", np.int64)
    offsets = np.zeros(sess_counts.size + 1, dtype=np.int64)
    np.cumsum(sess_counts, out=offsets[1:])
    text_lengths = cat("text_lengths", np.int64)
    text_offsets = np.zeros(text_lengths.size + 1, dtype=np.int64)
    np.cumsum(text_lengths, out=text_offsets[1:])
    vocab_list = [""] * len(vocab_index)
    for term, term_id in vocab_index.items():
        vocab_list[term_id] = term
    parts = SegmentParts(
        key_hi=cat("hi", np.uint64),
        key_lo=cat("lo", np.uint64),
        subject=cat("subject", np.int32),
        workspace=cat("workspace", np.int32),
        session=cat("session", np.int32),
        last_seen_us=cat("seen", np.int64),
        has_vector=cat("has", np.bool_),
        sess_offsets=offsets,
        sess_values=cat("sess_values", np.int32),
        rank_meta=np.concatenate(columns["meta"]).astype(np.int64, copy=False)
        if columns["meta"]
        else np.zeros((0, records_mod.META_COLUMNS), dtype=np.int64),
        text_offsets=text_offsets,
        text_bytes=cat("text", np.uint8),
        sha256=np.concatenate(columns["sha256"]).astype(np.uint8, copy=False)
        if columns["sha256"]
        else np.zeros((0, records_mod.SHA256_BYTES), dtype=np.uint8),
        body=np.concatenate(columns["body"]).astype(np.int64, copy=False)
        if columns["body"]
        else np.zeros((0, records_mod.BODY_COLUMNS), dtype=np.int64),
        vectors=np.concatenate(columns.pop("vectors"))
        if base_row
        else np.zeros((0, dim), dtype=np.float32),
        vocab=vocab_list,
        term_ids=cat("terms", np.int32),
        posting_rows=cat("prow", np.int32),
        posting_tf=cat("tf", np.uint16),
    )
    chosen = kind or dense_mod.choose_kind(base_row, small=False)
    return assemble(parts, chosen, dim)


def build_segment(
    records: Iterable[EpisodeRecord], dim: int, kind: str | None = None, *, small: bool = False
) -> Segment:
    builder = SegmentBuilder(dim)
    for record in records:
        builder.add(record)
    return builder.build(kind, small=small)
