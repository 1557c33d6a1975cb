"""Rank fusion functions and the episode-recall rules every read path shares.

Both read paths (JournalService's PostgreSQL SearchEpisodes and
RetrievalService's resident index) now rank through ``engram.ranking``
(window min-max score fusion with neighbours, speaker and time bonuses and a
learned second stage; prefix-stable). This module keeps the shared
exclude-session rule (``session_excluded``) and the previous default,
``fuse`` (reciprocal rank fusion with k = 60 over the top ``limit`` of each
list, each list gathering ``candidate_window(limit)`` first), which
bench/locomo_recall.py reports as the "old default" it compares against;
no read path calls it any more. ``score_fusion`` is kept for evaluation.

``rrf`` (Cormack et al.): ``score(d) = sum over lists of w_list / (k + rank(d))``
with 1-based ranks and per-list weights (all 1.0 unless given).

In both, ties are broken by the best (smallest) rank ``d`` reached in any list,
then by ``str(id)`` ascending, so the order is total and reproducible in any
process. Scores are summed in list order, so identical inputs give
bit-identical floats.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = [
    "DENSE_WEIGHT",
    "LEXICAL_WEIGHT",
    "MIN_CANDIDATE_WINDOW",
    "RRF_K",
    "Fused",
    "candidate_window",
    "fuse",
    "rrf",
    "score_fusion",
    "session_excluded",
]

RRF_K = 60
# Weights of the dense and the lexical list in ``fuse`` (both read paths).
# Equal: each list's best candidate is worth the same.
DENSE_WEIGHT = 1.0
LEXICAL_WEIGHT = 1.0
# Each list contributes up to max(4 * limit, 40) candidates before fusion.
CANDIDATE_FACTOR = 4
MIN_CANDIDATE_WINDOW = 40

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Fused(Generic[K]):
    id: K
    score: float
    # 1-based rank in each input list, in input order; 0 when absent from it.
    ranks: tuple[int, ...]


def rrf(
    ranked_lists: Sequence[Sequence[K]],
    k: int = RRF_K,
    weights: Sequence[float] | None = None,
) -> list[Fused[K]]:
    """Fuse best-first id lists. A repeated id within one list keeps its first rank.

    ``weights`` gives one non-negative weight per list (default: 1.0 each).
    """
    if k < 1:
        raise ValueError("k must be >= 1")
    if weights is None:
        weights = [1.0] * len(ranked_lists)
    elif len(weights) != len(ranked_lists) or any(not w >= 0 for w in weights):
        raise ValueError("weights must be one non-negative number per list")
    ranks: dict[K, list[int]] = {}
    for position, ids in enumerate(ranked_lists):
        for rank, item in enumerate(ids, start=1):
            slots = ranks.setdefault(item, [0] * len(ranked_lists))
            if slots[position] == 0:
                slots[position] = rank
    fused = [
        Fused(
            item,
            sum(w / (k + r) for w, r in zip(weights, slots, strict=True) if r),
            tuple(slots),
        )
        for item, slots in ranks.items()
    ]
    fused.sort(key=lambda f: (-f.score, min(r for r in f.ranks if r), str(f.id)))
    return fused


def score_fusion(
    scored_lists: Sequence[tuple[Sequence[K], Sequence[float]]],
    weights: Sequence[float] | None = None,
) -> list[Fused[K]]:
    """Fuse best-first (ids, scores) lists, higher score better, by the weighted
    sum of min-max normalised scores. A repeated id within one list keeps its
    first rank and score; normalisation is over the list as given (the window).
    """
    if weights is None:
        weights = [1.0] * len(scored_lists)
    elif len(weights) != len(scored_lists) or any(not w >= 0 for w in weights):
        raise ValueError("weights must be one non-negative number per list")
    n = len(scored_lists)
    ranks: dict[K, list[int]] = {}
    normalised: dict[K, list[float]] = {}
    for position, (ids, scores) in enumerate(scored_lists):
        if len(ids) != len(scores):
            raise ValueError("each list needs one score per id")
        if not ids:
            continue
        lo, hi = min(scores), max(scores)
        for rank, (item, score) in enumerate(zip(ids, scores, strict=True), start=1):
            slots = ranks.setdefault(item, [0] * n)
            if slots[position] == 0:
                slots[position] = rank
                normalised.setdefault(item, [0.0] * n)[position] = (
                    (score - lo) / (hi - lo) if hi > lo else 1.0
                )
    fused = [
        Fused(
            item,
            sum(w * x for w, x in zip(weights, normalised[item], strict=True)),
            tuple(slots),
        )
        for item, slots in ranks.items()
    ]
    fused.sort(key=lambda f: (-f.score, min(r for r in f.ranks if r), str(f.id)))
    return fused


def fuse(
    dense: tuple[Sequence[K], Sequence[float]],
    lexical: tuple[Sequence[K], Sequence[float]],
    limit: int,
) -> list[Fused[K]]:
    """The fusion of both read paths: RRF over the best ``limit`` ids of the
    dense list and of the lexical list (each given best-first as (ids,
    scores); the scores only order them). ``Fused.ranks`` is (dense rank,
    lexical rank)."""
    if limit < 1:
        raise ValueError("limit must be >= 1")
    return rrf(
        [list(dense[0][:limit]), list(lexical[0][:limit])],
        k=RRF_K,
        weights=(DENSE_WEIGHT, LEXICAL_WEIGHT),
    )


def candidate_window(limit: int) -> int:
    """How many candidates each ranked list contributes for a result of ``limit``."""
    return max(CANDIDATE_FACTOR * limit, MIN_CANDIDATE_WINDOW)


def session_excluded(session_ids: Sequence[str], exclude_session_id: str) -> bool:
    """The exclude-session rule of episodic recall.

    An episode is excluded when every session it occurred in is the excluded one
    (its content was only ever said in the active session, which the caller
    already holds as its transcript). Content that also occurred in another
    session is memory from elsewhere and stays visible.
    """
    if not exclude_session_id:
        return False
    return all(s == exclude_session_id for s in session_ids)
