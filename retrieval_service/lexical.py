"""In-memory BM25 over one segment (pure numpy).

Postings are one CSR structure: for term t, ``rows[offsets[t]:offsets[t+1]]``
are the segment rows containing it (ascending) and ``tf`` the term
frequencies. Because rows are sorted by scope, a subject's postings are found
by binary search inside each posting list. Segments are immutable; the index
grows by adding segments and shrinks by tombstones (see snapshot.py), and
corpus statistics (N, average length, document frequencies) are summed over
the live rows of every segment of a snapshot (tombstoned rows are subtracted,
see :meth:`LexicalSegment.df_among`): a score then depends only on which
episodes a snapshot holds, never on how they are split into segments, so two
replicas (or one replica before and after a restart or merge) that applied
the same feed cursor score alike.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

K1 = 1.2
B = 0.75

IntArray = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True, eq=False)
class LexicalSegment:
    terms: dict[str, int]  # term -> index into offsets
    offsets: IntArray  # (T + 1,)
    rows: Int32Array  # (P,) ascending within each term
    tf: npt.NDArray[np.uint16]  # (P,)
    doc_len: FloatArray  # (n,)

    @cached_property
    def total_len(self) -> float:
        # Read on every query for the average document length; computed once.
        return float(self.doc_len.sum(dtype=np.float64))

    def df(self, term: str) -> int:
        index = self.terms.get(term)
        if index is None:
            return 0
        return int(self.offsets[index + 1] - self.offsets[index])

    def df_among(self, term: str, rows: IntArray) -> int:
        """How many of `rows` (sorted ascending) contain `term`; costs
        O(len(rows) * log(df)), so tombstones are subtracted cheaply."""
        index = self.terms.get(term)
        if index is None or rows.size == 0:
            return 0
        plist = self.rows[int(self.offsets[index]) : int(self.offsets[index + 1])]
        if plist.size == 0:
            return 0
        pos = np.minimum(np.searchsorted(plist, rows), plist.size - 1)
        return int(np.count_nonzero(plist[pos] == rows))

    def len_among(self, rows: IntArray) -> float:
        """Total length of `rows` (exact: lengths are small integers)."""
        return float(self.doc_len[rows].sum(dtype=np.float64))

    def approx_bytes(self) -> int:
        arrays = self.offsets.nbytes + self.rows.nbytes + self.tf.nbytes + self.doc_len.nbytes
        return int(arrays) + sum(49 + len(t) + 40 for t in self.terms)

    def term_list(self) -> list[str]:
        ordered = [""] * len(self.terms)
        for term, index in self.terms.items():
            ordered[index] = term
        return ordered

    def score_range(
        self,
        weighted_terms: Sequence[tuple[str, float]],
        lo: int,
        hi: int,
        avgdl: float,
    ) -> tuple[IntArray, npt.NDArray[np.float64]]:
        """(rows, BM25 scores) of every row in [lo, hi) matching any term,
        rows ascending (Snapshot.candidates relies on it).

        ``weighted_terms`` pairs each distinct query term with its idf (times
        its query frequency)."""
        found_rows: list[Int32Array] = []
        found_scores: list[npt.NDArray[np.float64]] = []
        for term, weight in weighted_terms:
            index = self.terms.get(term)
            if index is None:
                continue
            start, end = int(self.offsets[index]), int(self.offsets[index + 1])
            plist = self.rows[start:end]
            a = start + int(np.searchsorted(plist, lo, "left"))
            z = start + int(np.searchsorted(plist, hi, "left"))
            if z <= a:
                continue
            rows = self.rows[a:z]
            tf = self.tf[a:z].astype(np.float64)
            norm = K1 * (1.0 - B + B * self.doc_len[rows].astype(np.float64) / avgdl)
            found_rows.append(rows)
            found_scores.append(weight * tf * (K1 + 1.0) / (tf + norm))
        if not found_rows:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64)
        if len(found_rows) == 1:
            return found_rows[0].astype(np.int64), found_scores[0]
        rows_all = np.concatenate(found_rows)
        scores_all = np.concatenate(found_scores)
        order = np.argsort(rows_all, kind="stable")
        rows_sorted = rows_all[order]
        starts = np.flatnonzero(np.r_[True, rows_sorted[1:] != rows_sorted[:-1]])
        summed = np.add.reduceat(scores_all[order], starts)
        return rows_sorted[starts].astype(np.int64), summed


def idf(df: int, n_docs: int) -> float:
    """BM25+ style non-negative idf."""
    return math.log(1.0 + (n_docs - df + 0.5) / (df + 0.5))


def build_lexical(
    n_rows: int,
    vocab: Sequence[str],
    term_ids: Int32Array,
    rows: Int32Array,
    tf: npt.NDArray[np.uint16],
) -> LexicalSegment:
    """Build from postings triplets (term id into `vocab`, row, tf), any order.

    Terms that no longer occur (their rows were dropped) are left out."""
    doc_len = np.zeros(n_rows, dtype=np.float32)
    if rows.size:
        np.add.at(doc_len, rows, tf.astype(np.float32))
    if term_ids.size == 0:
        return LexicalSegment(
            {},
            np.zeros(1, dtype=np.int64),
            np.empty(0, dtype=np.int32),
            np.empty(0, dtype=np.uint16),
            doc_len,
        )
    order = np.lexsort((rows, term_ids))
    term_sorted = term_ids[order]
    used, counts = np.unique(term_sorted, return_counts=True)
    offsets = np.zeros(used.size + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    terms = {vocab[int(t)]: i for i, t in enumerate(used)}
    postings_rows = np.ascontiguousarray(rows[order], dtype=np.int32)
    postings_tf = np.ascontiguousarray(tf[order], dtype=np.uint16)
    for array in (offsets, postings_rows, postings_tf, doc_len):
        array.flags.writeable = False
    return LexicalSegment(terms, offsets, postings_rows, postings_tf, doc_len)


def expand(
    segment: LexicalSegment,
) -> tuple[list[str], Int32Array, Int32Array, npt.NDArray[np.uint16]]:
    """Back to triplets (vocab, term ids, rows, tf), for merging segments."""
    vocab = segment.term_list()
    counts = np.diff(segment.offsets)
    term_ids = np.repeat(np.arange(len(vocab), dtype=np.int32), counts)
    return vocab, term_ids, segment.rows.copy(), segment.tf.copy()
