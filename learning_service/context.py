"""Read paths: the learned context for a pending input, the operator search
and the status counts. Prompt visibility comes only from the SQL gate
(learning.learning_current.prompt_eligible, which includes "not withheld by
quarantine"; the caller syncs the quarantine state first, see
learning_service.quarantine; the learned context's own gate, context_gate
in queries.sql, reads the journal's quarantine tables instead when this
database is the journal's), and a session scope is the reading
subject/workspace's only (learning.session_visible, in the same queries);
this module scores and packs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage
from engram.db import Database, read_snapshot, snapshot
from engram.metrics import count_plane_event
from engram.pending_counters import PendingCounters
from learning_service.model import SCOPE_ORDER, Scope, ScopeKind
from learning_service.quarantine import (
    QUARANTINE_SOURCES,
    SourceQuarantine,
    journal_state_unavailable,
)
from learning_service.store import Q, Row, counters
from learning_service.term_index import TERMS_VERSION
from learning_service.text import asks_for_durable_memory, overlap_score, sha256_hex, term_set

LEARNED_CONTEXT_PATH = "learning.learned_context.v1"
LEARNINGS_SOURCE = "postgresql:learning.learnings"
DEFAULT_MAX_ENTRIES = 8
MAX_ENTRIES = 50
PLANE = "learning"


@dataclass(frozen=True)
class ScoredLearning:
    row: Row
    score: float


@dataclass
class LearnedContext:
    entries: list[ScoredLearning]
    scope_keys: list[str]
    coverage: cpb.Coverage
    omitted_zero_score: int = 0
    omitted_by_limit: int = 0
    recency_fallback: bool = False


def _scope_rank(row: Row) -> int:
    return SCOPE_ORDER[ScopeKind(row["scope_kind"])]


def _recency(row: Row) -> float:
    created: datetime = row["created_at"]
    return created.timestamp()


@dataclass
class Selection:
    chosen: list[ScoredLearning]
    matched: int
    omitted_zero_score: int = 0
    omitted_by_limit: int = 0
    recency_fallback: bool = False
    notes: list[str] = field(default_factory=list)


def select(eligible: Sequence[Row], pending_input: str, max_entries: int) -> Selection:
    """Score eligible learnings against the input.

    Anything scoring > 0: only those, best first (narrower scope, then newer,
    breaks ties); zero scorers are omitted and counted. Nothing scores: empty,
    unless the input explicitly asks to use durable memory, which keeps the
    recency-and-scope fallback (newest first, narrower scope first on ties).
    """
    query = term_set(pending_input)
    scored = [ScoredLearning(r, overlap_score(query, term_set(r["content"]))) for r in eligible]
    hits = [s for s in scored if s.score > 0]
    if hits:
        hits.sort(key=lambda s: (-s.score, _scope_rank(s.row), -_recency(s.row)))
        return Selection(
            hits[:max_entries],
            matched=len(hits),
            omitted_zero_score=len(scored) - len(hits),
            omitted_by_limit=max(0, len(hits) - max_entries),
        )
    if scored and asks_for_durable_memory(pending_input):
        scored.sort(key=lambda s: (-_recency(s.row), _scope_rank(s.row)))
        return Selection(
            scored[:max_entries],
            matched=len(scored),
            recency_fallback=True,
            omitted_by_limit=max(0, len(scored) - max_entries),
        )
    return Selection([], matched=0, omitted_zero_score=len(scored))


def snapshot_version(watermark: Row | None) -> str:
    """The latest revision, then the latest erasure once there has been one,
    then the latest applied quarantine change once there has been one:
    "<revision>", "<revision>.<purge_id>", "<revision>.<purge_id>.<cursor>"."""
    if watermark is None:
        return "0"
    purge_id = int(watermark["purge_id"])
    quarantine_cursor = int(watermark["quarantine_cursor"])
    revision = str(watermark["revision_seq"])
    if quarantine_cursor:
        return f"{revision}.{purge_id}.{quarantine_cursor}"
    return f"{revision}.{purge_id}" if purge_id else revision


SCOPE_KINDS_NARROWEST_FIRST = [k.value for k in sorted(SCOPE_ORDER, key=SCOPE_ORDER.__getitem__)]


def _rank_key(s: ScoredLearning) -> tuple[float, int, float, str]:
    """select()'s ranking, with the id as the last tie-break (as the SQL has it)."""
    return (-s.score, _scope_rank(s.row), -_recency(s.row), str(s.row["learning_id"]))


def _recent_key(s: ScoredLearning) -> tuple[float, int, str]:
    """select()'s recency-and-scope fallback order, with the id last (as the SQL has it)."""
    return (-_recency(s.row), _scope_rank(s.row), str(s.row["learning_id"]))


def composed(statement: str, source: str) -> str:
    """A learned-context statement (context_read, context_unindexed) over
    context_gate, with the quarantine state of `source`: "copy" (the plane's
    copy, learning.source_quarantine) or "journal" (the journal's own tables,
    in this database)."""
    body = query_code(statement)
    tail = f",\n{body.removeprefix('WITH ')}" if body.startswith("WITH ") else f"\n{body}"
    text = (
        f"WITH withheld_sources AS NOT MATERIALIZED ({query_code(f'withheld_sources_{source}')}),\n"
        f"quarantine_version AS ({query_code(f'quarantine_version_{source}')}),\n"
        f"context_gate AS NOT MATERIALIZED ({query_code('context_gate')}){tail}"
    )
    # The normaliser version is this process's constant: as a literal, the
    # generic plan can estimate the rows of another version (almost none)
    # and find them through learning_state_terms_version_idx instead of
    # scanning every active row in scope.
    literal = sql.Literal(TERMS_VERSION).as_string(None).replace("%", "%%")
    return text.replace("%(terms_version)s", literal)


def query_code(name: str) -> str:
    """A named query without its comment lines and indentation: psycopg
    caches the conversion of statements up to 4096 characters only."""
    lines = (line.strip() for line in Q[name].splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("--"))


CONTEXT_READ = {source: composed("context_read", source) for source in QUARANTINE_SOURCES}
CONTEXT_UNINDEXED = {source: composed("context_unindexed", source) for source in QUARANTINE_SOURCES}


@dataclass
class IndexedRead:
    """What one context_read statement answered."""

    eligible: int
    unindexed: bool
    matched: int
    watermark: Row
    hits: list[ScoredLearning]
    recent: list[ScoredLearning]


def select_indexed(
    db: Database,
    params: Mapping[str, Any],
    pending_input: str,
    max_entries: int,
    quarantine_source: str = "copy",
) -> tuple[Selection, Row]:
    """select() over every eligible learning in scope, without reading them
    all: one statement (context_read) counts them, finds and ranks the
    indexed hits through their postings and, when nothing can score and the
    input asks for durable memory, picks the newest. Learnings without a
    current term set (none once the startup backfill ran) are scored here
    from their content, read in the same snapshot. Same entries, scores and
    counts as select() over eligible_in_scopes; returns the revision
    watermark of the snapshot too. `quarantine_source`: whose quarantine
    state withholds (composed()); the journal's tables unreadable is
    Unavailable (QUARANTINE_STATE_UNAVAILABLE)."""
    query = term_set(pending_input)
    args = {
        **params,
        "terms": sorted(query),
        "scope_order": SCOPE_KINDS_NARROWEST_FIRST,
        "limit": max_entries,
        "fallback": asks_for_durable_memory(pending_input),
    }
    statement = CONTEXT_READ[quarantine_source]
    try:
        # One statement is one snapshot; with its plan setting, one round
        # trip. No BEGIN/COMMIT: the two statements of a pipeline up to its
        # sync are one implicit transaction, which SET LOCAL applies to
        # (an explicit one costs two more round trips).
        with db.connection() as conn:
            with conn.pipeline():
                conn.execute(Q["generic_plan"])
                found = conn.execute(statement, args, prepare=True)
            read = _indexed_from(found.fetchall())
            unindexed: list[Row] = []
            if read.unindexed:
                # Rare (rows older than their normaliser): both reads in one snapshot.
                with snapshot(conn, pipeline=True):
                    conn.execute(Q["generic_plan"])
                    again = conn.execute(statement, args, prepare=True)
                    extra = conn.execute(CONTEXT_UNINDEXED[quarantine_source], args)
                    rows = again.fetchall()
                    unindexed = extra.fetchall()
                read = _indexed_from(rows)
    except (psycopg.errors.UndefinedTable, psycopg.errors.InsufficientPrivilege) as exc:
        if quarantine_source == "copy":
            raise
        # Fail closed: without the journal's quarantine state nothing is served.
        raise journal_state_unavailable(exc) from exc
    return _merge(read, unindexed, query, max_entries), read.watermark


def _indexed_from(rows: Sequence[Row]) -> IndexedRead:
    first = rows[0]  # the statement always answers at least one row
    picked: dict[str, list[ScoredLearning]] = {"hit": [], "recent": []}
    for row in rows:
        if row["part"] is not None:
            picked[row["part"]].append(ScoredLearning(row, float(row["score"])))
    return IndexedRead(
        eligible=int(first["eligible"]),
        unindexed=bool(first["unindexed"]),
        matched=int(first["matched"]),
        watermark=first,
        hits=sorted(picked["hit"], key=_rank_key),
        recent=sorted(picked["recent"], key=_recent_key),
    )


def _merge(
    read: IndexedRead, unindexed: Sequence[Row], query: frozenset[str], max_entries: int
) -> Selection:
    """The indexed answer with the unindexed learnings scored in: an
    unindexed hit competes with the indexed top k (enough: no indexed
    learning outside it can reach the merged top k)."""
    eligible = read.eligible
    if not eligible:
        return Selection([], matched=0)
    hits = list(read.hits)
    matched = read.matched
    for row in unindexed:
        score = overlap_score(query, term_set(row["content"]))
        if score > 0:
            hits.append(ScoredLearning(row, score))
            matched += 1
    if hits:
        hits.sort(key=_rank_key)
        return Selection(
            hits[:max_entries],
            matched=matched,
            omitted_zero_score=eligible - matched,
            omitted_by_limit=max(0, matched - max_entries),
        )
    if read.recent:
        return Selection(
            read.recent,
            matched=eligible,
            recency_fallback=True,
            omitted_by_limit=max(0, eligible - max_entries),
        )
    return Selection([], matched=0, omitted_zero_score=eligible)


class ContextReader:
    """`quarantine`: the journal's quarantine state as the read sees it:
    when quarantine.source is "journal" the read's own statement reads the
    journal's tables; otherwise the plane's copy, made current for every
    read (SourceQuarantine.read_current). None only where nothing can change
    it (tests, benchmarks): the copy as it stands."""

    def __init__(
        self,
        db: Database,
        counters: PendingCounters | None = None,
        quarantine: SourceQuarantine | None = None,
    ) -> None:
        self.db = db
        self.counters = counters or PendingCounters(db, Q["counter_add"])
        self.quarantine = quarantine

    def learned_context(
        self,
        scopes: Sequence[Scope],
        pending_input: str,
        max_entries: int,
        *,
        subject: str,
        workspace: str,
    ) -> LearnedContext:
        """`subject`/`workspace`: whose session it is; session-scoped learnings
        of others are neither returned nor counted. Read-only: the counters
        are added to the pending sums (PendingCounters), not committed here."""
        keys = [s.key for s in scopes]
        params = {"scope_keys": keys, "subject": subject, "workspace": workspace}

        source = self.quarantine.source if self.quarantine else "copy"

        # The count, the hits and the version come from one snapshot.
        def read() -> tuple[Selection, Row]:
            return select_indexed(self.db, params, pending_input, max_entries, source)

        if self.quarantine is None or source == "journal":
            # The journal's quarantine state is in the statement's snapshot.
            picked, watermark = read()
        else:
            picked, watermark = self.quarantine.read_current(read)
        metrics = {
            "context_omitted_zero_score_total": picked.omitted_zero_score,
            "context_omitted_by_limit_total": picked.omitted_by_limit,
            "context_recency_fallback_total": int(picked.recency_fallback),
            "context_entries_returned_total": len(picked.chosen),
        }
        self.counters.add(metrics)
        for name, amount in metrics.items():
            count_plane_event(PLANE, name.removesuffix("_total"), amount)
        coverage = build_coverage(
            read_path=LEARNED_CONTEXT_PATH,
            source_systems=[LEARNINGS_SOURCE],
            query={
                "scope_keys": keys,
                "subject": subject,
                "workspace": workspace,
                "input_sha256": sha256_hex(pending_input),
                "max_entries": max_entries,
                "scoring": "lexical_terms",
            },
            returned=len(picked.chosen),
            limit=max_entries,
            matched_before_limit=picked.matched,
            exactness=cpb.EXACTNESS_EXACT,
            # Lexical term overlap cannot see meaning-equivalent wording.
            semantic=cpb.DIMENSION_STATE_UNKNOWN,
            field=cpb.DIMENSION_STATE_COMPLETE,
            temporal=cpb.DIMENSION_STATE_COMPLETE,
            visibility=cpb.DIMENSION_STATE_COMPLETE,
            normalization=cpb.DIMENSION_STATE_PARTIAL,
            snapshot_version=snapshot_version(watermark),
        )
        return LearnedContext(
            entries=picked.chosen,
            scope_keys=keys,
            coverage=coverage,
            omitted_zero_score=picked.omitted_zero_score,
            omitted_by_limit=picked.omitted_by_limit,
            recency_fallback=picked.recency_fallback,
        )

    def search(
        self, scope_keys: Sequence[str], query: str, *, subject: str = "", workspace: str = ""
    ) -> list[dict[str, Any]]:
        """Operator search over current (non-sensitive, not withheld) learnings
        and skills; with a subject, session scopes are that subject/workspace's.

        Returns every hit, ranked: by score when the query has terms (zero
        scorers dropped), newest first for an empty query (a browse)."""
        terms = term_set(query)
        args = {
            "scope_keys": list(scope_keys),
            "subject": subject,
            "workspace": workspace,
            "terms": sorted(terms),
            "terms_version": TERMS_VERSION,
        }
        with read_snapshot(self.db, pipeline=True) as conn:
            # With terms, only the learnings sharing one (their stored sets).
            found = conn.execute(
                Q["searchable_learning_hits" if terms else "searchable_learnings"], args
            )
            listed = conn.execute(Q["searchable_skills"])
            learnings = found.fetchall()
            skills = listed.fetchall()
        hits: list[dict[str, Any]] = []
        for row in learnings:
            if not terms:
                score = 0.0
            elif row["score"] is None:  # no current term set: from its content
                score = overlap_score(terms, term_set(row["content"]))
            else:
                score = float(row["score"])
            hits.append(
                {
                    "hit_kind": "learning",
                    "id": str(row["learning_id"]),
                    "title": f"{row['kind']} · {row['scope_key']}",
                    "excerpt": row["content"][:280],
                    "scope_key": row["scope_key"],
                    "prompt_eligible": bool(row["prompt_eligible"]),
                    "updated_at": row["updated_at"],
                    "kind": row["kind"],
                    "score": score,
                }
            )
        if not scope_keys or "workspace:default" in scope_keys:
            for row in skills:
                text = f"{row['skill_name']} {row['instructions']}"
                hits.append(
                    {
                        "hit_kind": "skill",
                        "id": row["skill_name"],
                        "title": f"skill {row['skill_name']} ({row['state']})",
                        "excerpt": row["instructions"][:280],
                        "scope_key": "workspace:default",
                        "prompt_eligible": False,
                        "updated_at": row["updated_at"],
                        "kind": "procedure",
                        "score": overlap_score(terms, term_set(text)) if terms else 0.0,
                    }
                )
        if terms:
            hits = [h for h in hits if h["score"] > 0]
            hits.sort(key=lambda h: (-h["score"], -h["updated_at"].timestamp(), h["id"]))
        else:
            hits.sort(key=lambda h: (-h["updated_at"].timestamp(), h["id"]))
        return hits

    def status(self) -> tuple[Row, dict[str, int]]:
        self.counters.flush()
        with self.db.connection() as conn:
            counts = conn.execute(Q["status_counts"]).fetchone()
            assert counts is not None
            return counts, counters(conn)
