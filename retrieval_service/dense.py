"""Dense vectors of one segment: unit vectors, inner product (== cosine).

Three kinds, chosen by segment size:

* ``exact``: a plain numpy matrix, for the small segments the change feed
  produces (a few hundred rows; a matrix-vector product is the fastest search).
* ``flat``: ``faiss.IndexFlatIP``, exact, for bases below HNSW_THRESHOLD rows.
* ``hnsw``: ``faiss.IndexHNSWFlat`` (M=32), for larger bases.

Rows are sorted by scope (subject, workspace), so a subject's rows are one
contiguous range [lo, hi): small ranges are searched exactly over a zero-copy
view of the stored vectors; large ones go through HNSW restricted to the range
with an IDSelectorRange, or to an IDSelectorBitmap when tombstones or request
filters apply. A segment is never mutated after construction, so concurrent
searches need no lock (FAISS search is thread-safe, mutation is not).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import faiss as _faiss_module
import numpy as np
import numpy.typing as npt

# faiss ships partial stubs; its SWIG classes are used dynamically here.
faiss: Any = _faiss_module

HNSW_THRESHOLD = 50_000
HNSW_M = 32
# Build quality buys recall: at 1M clustered vectors (docs/benchmarks.md,
# "Retrieval") efConstruction 80 with efSearch 128 gave recall@10 0.977
# against exact search (efSearch 64: 0.937), where the default
# efConstruction 40 gives ~0.92 at efSearch 128.
HNSW_EF_CONSTRUCTION = 80
# A search uses max(HNSW_EF_SEARCH, k); Recall's dense list is k = 100
# (engram.ranking.WINDOW) long. At 1M, the top 10 of that list had recall@10
# 0.9805 at efSearch 100 and 0.9865 at 128, for 0.42 against 0.47 ms of FAISS
# (docs/benchmarks.md, "Retrieval: Recall without the loopback re-read"), so
# the floor is the window itself.
HNSW_EF_SEARCH = 100
# Ranges (or filtered row sets) at most this large are searched exactly.
EXACT_RANGE = 20_000
# Up to this many tombstones in a range are skipped by fetching extra neighbours.
OVERFETCH_MAX = 256
# Search parameters kept per segment for this many (range, efSearch) pairs.
RANGE_PARAMS_CACHED = 1024

KIND_EXACT = "exact"
KIND_FLAT = "flat"
KIND_HNSW = "hnsw"
TYPE_NAMES = {KIND_EXACT: "numpy-exact-ip", KIND_FLAT: "faiss-flat-ip", KIND_HNSW: "faiss-hnsw"}

FloatMatrix = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
# Given (lo, hi), the boolean mask of rows in the range a search may return.
MaskFn = Callable[[int, int], BoolArray]


def choose_kind(rows: int, *, small: bool) -> str:
    if small:
        return KIND_EXACT
    return KIND_HNSW if rows >= HNSW_THRESHOLD else KIND_FLAT


def score_slack(dim: int) -> float:
    """Twice the rounding bound of a float32 inner product of two unit vectors
    (about dim * 2**-24 each way): a row within this of the k-th best float32
    score may rank above it once scored exactly."""
    return 2.0 * dim * float(np.finfo(np.float32).eps)


def _top_k(scores: npt.NDArray[np.float32], k: int, slack: float = 0.0) -> IntArray:
    """Positions of the k highest finite scores, best first, plus every row
    within ``slack`` of the k-th (exact_scores then decides among them)."""
    finite = np.flatnonzero(np.isfinite(scores))
    if finite.size == 0:
        return np.empty(0, dtype=np.int64)
    if finite.size > k:
        values = scores[finite]
        kth = np.partition(values, finite.size - k)[finite.size - k]
        finite = finite[values >= kth - slack]
    order = np.argsort(-scores[finite], kind="stable")
    return finite[order].astype(np.int64)


def exact_scores(
    vectors: FloatMatrix, rows: IntArray, query: FloatMatrix
) -> npt.NDArray[np.float64]:
    """Inner products of `rows` with `query` in float64, each row reduced by
    numpy's pairwise sum on its own: a row's score is the same bits wherever it
    is stored and however many rows are scored with it (BLAS blocking is not),
    so replicas with different segment layouts rank alike."""
    q = np.asarray(query, dtype=np.float64).reshape(-1)
    # float32 x float64 products are exact in float64: the same values as
    # converting the rows first, without the converted copy.
    result: npt.NDArray[np.float64] = np.multiply(vectors[rows], q).sum(axis=1)
    return result


@dataclass(frozen=True, eq=False)
class DenseIndex:
    kind: str
    dim: int
    vectors: FloatMatrix  # read-only (n, dim); a view of FAISS storage when FAISS owns it
    faiss_index: Any = None
    ef_search: int = HNSW_EF_SEARCH

    @property
    def rows(self) -> int:
        return int(self.vectors.shape[0])

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.kind]

    def approx_bytes(self) -> int:
        total = int(self.vectors.nbytes)
        if self.kind == KIND_HNSW:
            hnsw = self.faiss_index.hnsw
            total += int(hnsw.neighbors.size()) * 4 + int(hnsw.levels.size()) * 4
            total += int(hnsw.offsets.size()) * 8
        return total

    def search(
        self,
        query: FloatMatrix,
        lo: int,
        hi: int,
        k: int,
        mask_fn: MaskFn | None,
        *,
        alive: BoolArray | None = None,
        dead_in_range: int = -1,
    ) -> tuple[IntArray, npt.NDArray[np.float32]]:
        """(rows, scores) of the best k rows in [lo, hi) allowed by mask_fn;
        an exact search also returns the rows within float32 rounding of the
        k-th (re-score them with exact_scores before cutting to k).

        When the only filter is a few tombstones (``dead_in_range`` of them,
        ``alive`` the segment's alive mask), HNSW fetches that many extra
        neighbours and drops the dead ones instead of building a bitmap."""
        if hi <= lo or k <= 0:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
        q = query.reshape(-1)
        if self.kind != KIND_HNSW or hi - lo <= EXACT_RANGE:
            return self._exact_range(q, lo, hi, k, mask_fn)
        if mask_fn is None:
            return self._hnsw(query, k, (lo, hi))
        if alive is not None and 0 < dead_in_range <= OVERFETCH_MAX:
            rows, scores = self._hnsw(query, k + dead_in_range, (lo, hi))
            keep = alive[rows]
            return rows[keep][:k], scores[keep][:k]
        mask = mask_fn(lo, hi)
        allowed = np.flatnonzero(mask)
        if allowed.size <= EXACT_RANGE:
            rows = allowed + lo
            scores = self.vectors[rows] @ q
            top = _top_k(scores, k, score_slack(self.dim))
            return rows[top].astype(np.int64), scores[top]
        bits = np.zeros(self.rows, dtype=np.bool_)
        bits[lo:hi] = mask
        packed = np.packbits(bits, bitorder="little")
        selector = faiss.IDSelectorBitmap(self.rows, faiss.swig_ptr(packed))
        rows, scores = self._hnsw(query, k, selector)
        del packed  # kept alive through the search above
        return rows, scores

    def _exact_range(
        self, q: FloatMatrix, lo: int, hi: int, k: int, mask_fn: MaskFn | None
    ) -> tuple[IntArray, npt.NDArray[np.float32]]:
        scores = self.vectors[lo:hi] @ q
        if mask_fn is not None:
            scores[~mask_fn(lo, hi)] = -np.inf
        top = _top_k(scores, k, score_slack(self.dim))
        return (top + lo).astype(np.int64), scores[top]

    @cached_property
    def _range_params(self) -> dict[tuple[int, int, int], Any]:
        return {}

    def _params_for_range(self, lo: int, hi: int, ef: int) -> Any:
        """Search parameters restricted to [lo, hi), kept per range (making
        the two SWIG objects costs about as much as a sixth of the search);
        FAISS only reads them, so concurrent searches may share them."""
        cache = self._range_params
        key = (lo, hi, ef)
        params = cache.get(key)
        if params is None:
            if len(cache) >= RANGE_PARAMS_CACHED:
                cache.clear()
            # faiss's wrapper keeps the selector alive with its params.
            params = faiss.SearchParametersHNSW(sel=faiss.IDSelectorRange(lo, hi), efSearch=ef)
            cache[key] = params
        return params

    def _hnsw(
        self, query: FloatMatrix, k: int, selector: Any
    ) -> tuple[IntArray, npt.NDArray[np.float32]]:
        ef = max(self.ef_search, k)
        if isinstance(selector, tuple):
            params = self._params_for_range(selector[0], selector[1], ef)
        else:
            params = faiss.SearchParametersHNSW(sel=selector, efSearch=ef)
        distances, labels = self.faiss_index.search(query.reshape(1, -1), k, params=params)
        keep = labels[0] >= 0
        return labels[0][keep].astype(np.int64), distances[0][keep].astype(np.float32)


def _faiss_vectors(index: Any, rows: int, dim: int) -> FloatMatrix:
    """Zero-copy read-only view of a flat FAISS storage (lives as long as the index)."""
    flat = faiss.downcast_index(index.storage if hasattr(index, "storage") else index)
    if rows == 0:
        return np.empty((0, dim), dtype=np.float32)
    view = faiss.rev_swig_ptr(flat.get_xb(), rows * dim)
    array: FloatMatrix = np.asarray(view).reshape(rows, dim)
    array.flags.writeable = False
    return array


def build_dense(kind: str, vectors: FloatMatrix, dim: int) -> DenseIndex:
    """Build a dense index over `vectors` (rows without a vector are zero rows)."""
    vectors = np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1, dim)
    if kind == KIND_EXACT:
        vectors.flags.writeable = False
        return DenseIndex(KIND_EXACT, dim, vectors)
    index: Any
    if kind == KIND_FLAT:
        index = faiss.IndexFlatIP(dim)
    else:
        index = faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        index.hnsw.efSearch = HNSW_EF_SEARCH
    if len(vectors):
        index.add(vectors)
    return DenseIndex(kind, dim, _faiss_vectors(index, len(vectors), dim), index)


def save_dense(dense: DenseIndex, directory: str) -> None:
    if dense.kind == KIND_EXACT:
        np.save(os.path.join(directory, "vectors.npy"), dense.vectors)
    else:
        faiss.write_index(dense.faiss_index, os.path.join(directory, "dense.faiss"))


def load_dense(kind: str, dim: int, rows: int, directory: str) -> DenseIndex:
    if kind == KIND_EXACT:
        vectors = np.load(os.path.join(directory, "vectors.npy"))
        vectors.flags.writeable = False
        return DenseIndex(KIND_EXACT, dim, vectors)
    index = faiss.read_index(os.path.join(directory, "dense.faiss"))
    if kind == KIND_HNSW:
        index.hnsw.efSearch = HNSW_EF_SEARCH
    if int(index.ntotal) != rows:
        raise ValueError(f"dense index has {index.ntotal} rows, expected {rows}")
    return DenseIndex(kind, dim, _faiss_vectors(index, rows, dim), index)
