"""Operator memory search: merging learnings, skills and recovered runs. Pure functions.

Scores of different planes are not comparable (a learning's relevance score and a run
record's lexical score come from different scorers), so a query is merged by reciprocal
rank fusion over each source's own order: ``1 / (RRF_K + rank)``, ties broken by time
(newest first), kind and id. An empty query browses: newest first across sources. Each
hit keeps its source's own score.

Visibility is enforced by the planes (the learning plane never returns sensitive
records; the journal applies the run-memory search_visibility policy). The gateway
re-checks what it can: a learning outside the session's visible scopes and a run record
that is neither the session's own nor tagged with a visible scope are dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb

RRF_K = 60
# The merged list is materialised up to this depth; deeper pages are empty.
MAX_DEPTH = 1000
EXCERPT_CHARS = 300


@dataclass(frozen=True)
class Hit:
    kind: str
    id: str
    title: str
    excerpt: str
    scope_key: str
    score: float
    prompt_eligible: bool
    # Epoch seconds.
    time: float
    # 0-based rank in its source's order.
    source_rank: int


def _seconds(ts: object) -> float:
    seconds = getattr(ts, "seconds", 0)
    nanos = getattr(ts, "nanos", 0)
    return float(seconds) + float(nanos) / 1e9


def _excerpt(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1] + "\u2026"


def learning_hits(hits: Sequence[lpb.LearningSearchHit], visible: set[str]) -> list[Hit]:
    out = []
    for rank, hit in enumerate(hits):
        if hit.hit_kind == "learning" and hit.scope_key not in visible:
            continue
        out.append(
            Hit(
                kind=hit.hit_kind or "learning",
                id=hit.id,
                title=hit.title,
                excerpt=_excerpt(hit.excerpt),
                scope_key=hit.scope_key,
                score=hit.score,
                prompt_eligible=hit.prompt_eligible,
                time=_seconds(hit.updated_at),
                source_rank=rank,
            )
        )
    return out


def run_hits(
    records: Sequence[jpb.RankedRunRecord], session_id: str, visible: set[str]
) -> list[Hit]:
    out = []
    for rank, ranked in enumerate(records):
        record = ranked.record
        own = record.session_id == session_id
        if not own and not visible.intersection(record.scope_keys):
            continue
        status = jpb.RunStatus.Name(record.status).removeprefix("RUN_STATUS_").lower()
        out.append(
            Hit(
                kind="recovered_run",
                id=record.run_id,
                title=f"run {record.run_id} ({status})",
                excerpt=_excerpt(record.summary),
                scope_key=f"session:{record.session_id}",
                score=ranked.score,
                # Recovered memory is injected into its own session only.
                prompt_eligible=own,
                time=_seconds(record.recorded_at),
                source_rank=rank,
            )
        )
    return out


def merge(sources: Iterable[Sequence[Hit]], *, browse: bool) -> list[Hit]:
    hits = [hit for source in sources for hit in source]
    if browse:
        return sorted(hits, key=lambda h: (-h.time, h.kind, h.id))
    return sorted(hits, key=lambda h: (-1.0 / (RRF_K + h.source_rank + 1), -h.time, h.kind, h.id))
