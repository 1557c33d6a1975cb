"""Reciprocal rank fusion and the episode-recall rules every read path shares.

JournalService's PostgreSQL path (pgvector + full-text) and RetrievalService's
resident index (FAISS + in-memory lexical) must rank and filter identically, so
that a fallback or a shadow comparison differs only in the candidates each side
found, never in how they were combined. Both import from here.

RRF (Cormack et al.): ``score(d) = sum over lists of 1 / (k + rank_in_list(d))``
with 1-based ranks; a list that does not contain ``d`` adds nothing. Ties are
broken by the best (smallest) rank ``d`` reached in any list, then by ``str(id)``
ascending, so the order is total and reproducible in any process. Scores are
summed in list order, so identical inputs give bit-identical floats.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = [
    "MIN_CANDIDATE_WINDOW",
    "RRF_K",
    "Fused",
    "candidate_window",
    "rrf",
    "session_excluded",
]

RRF_K = 60
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


def rrf(ranked_lists: Sequence[Sequence[K]], k: int = RRF_K) -> list[Fused[K]]:
    """Fuse best-first id lists. A repeated id within one list keeps its first rank."""
    if k < 1:
        raise ValueError("k must be >= 1")
    ranks: dict[K, list[int]] = {}
    for position, ids in enumerate(ranked_lists):
        for rank, item in enumerate(ids, start=1):
            slots = ranks.setdefault(item, [0] * len(ranked_lists))
            if slots[position] == 0:
                slots[position] = rank
    fused = [
        Fused(item, sum(1.0 / (k + r) for r in slots if r), tuple(slots))
        for item, slots in ranks.items()
    ]
    fused.sort(key=lambda f: (-f.score, min(r for r in f.ranks if r), str(f.id)))
    return fused


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
