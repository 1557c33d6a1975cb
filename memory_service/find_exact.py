"""FindExact: the exhaustive read path, the only one that can derive
ABSENCE_STATE_ABSENT_AUTHORITATIVE. Domain code: no gRPC here.

Primary (read path journal.find_exact.v1, source postgresql:journal.events):
exact folded terms (memory_service.exact_terms) over the user and assistant
text of canonical `conversation.turn.completed` events, in one REPEATABLE READ
snapshot: the page, and a separate pre-limit count. Units are distinct
contents (content_sha256) of learning-eligible turns; each match shows the
content's latest occurrence in scope.

Verifier (journal.find_exact.verifier.v1, source postgresql:journal.episodes):
a second connection importing the primary's snapshot (pg_export_snapshot, so a
commit between the two reads cannot fake a disagreement) counts matching rows
of the episode projection with a differently shaped query. The projection has
one row per learning-eligible content, so both count the same units. It runs
only without a time window: the projection keeps first and last sightings, not
every occurrence time, so it cannot count "occurred inside [start, end)".

Both exclude hidden content: content whose episode, or any of whose turn events
in the subject/workspace, is quarantined. Shared by both paths, and therefore
not checked by the verifier: the PostgreSQL cluster and snapshot, the folding
function journal.exact_fold, the term patterns and the quarantine rule.

Dimensions: semantic and field COMPLETE (exact-term semantics over both text
fields); temporal PARTIAL with a time window (part of stored time); visibility
PARTIAL with a session filter, or when matching journal content is not exposed
(hidden by quarantine, or only in turns that were not learning-eligible);
normalization COMPLETE only when every term is exactly normalisable
(engram.terms.normalization_is_exact, decided on the terms as written) and the
database folds the terms, and every spelling of their characters, exactly as
engram.terms.fold does (exact_terms.fold_probe, checked in the same snapshot).
So an empty result is ABSENT_AUTHORITATIVE only for an all-time, all-session
search of exactly normalised terms with nothing hidden and an agreeing verifier;
ABSENT_IN_SCOPE otherwise; COVERAGE_DISAGREEMENT when the verifier counts
differently. See docs/find-exact.md.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage
from engram.db import Database
from engram.errors import EngramError, InvalidArgument
from engram.metrics import count_plane_event
from memory_service.exact_terms import fold, fold_probe, strip_marks, term_pattern
from memory_service.search_queries import SQ
from memory_service.store import Conn, Q, add_counter

log = logging.getLogger("engram.journal.find_exact")

PRIMARY_PATH = "journal.find_exact.v1"
PRIMARY_SOURCE = "postgresql:journal.events"
VERIFIER_PATH = "journal.find_exact.verifier.v1"
VERIFIER_SOURCE = "postgresql:journal.episodes"
DISAGREEMENT_COUNTER = "find_exact.verifier_disagreement_total"

_COMPLETE = cpb.DIMENSION_STATE_COMPLETE
_PARTIAL = cpb.DIMENSION_STATE_PARTIAL


@dataclass(frozen=True)
class ExactQuery:
    subject: str
    workspace: str
    # Already validated and folded by exact_terms.normalize_terms.
    terms: list[str]
    # exact_terms.terms_are_exact of the terms as written (before folding).
    normalization_exact: bool
    session_id: str
    start: datetime | None
    end: datetime | None
    limit: int


@dataclass(frozen=True)
class ExactResult:
    matches: list[dict[str, Any]]
    # The folded terms as the database folded them (what was searched).
    terms: list[str]
    coverage: cpb.Coverage


@dataclass(frozen=True)
class _Counts:
    matched: int
    matched_anywhere: int


class FindExact:
    def __init__(self, db: Database) -> None:
        self.db = db

    def find(self, query: ExactQuery) -> ExactResult:
        windowed = query.start is not None or query.end is not None
        with self.db.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            snapshot = conn.execute("SELECT pg_export_snapshot() AS id").fetchone()
            assert snapshot is not None
            terms = self._fold_in_database(conn, query.terms)
            exact = (
                query.normalization_exact
                and terms == query.terms
                and self._folds_like_reference(conn, terms)
            )
            params = {
                "subject": query.subject,
                "workspace": query.workspace,
                "session_id": query.session_id,
                "start": query.start,
                "end": query.end,
                "patterns": [term_pattern(t) for t in terms],
                "limit": query.limit,
            }
            rows = conn.execute(SQ["exact_page"], params).fetchall()
            count_row = conn.execute(SQ["exact_count"], params).fetchone()
            mark = conn.execute(Q["feed_watermark"]).fetchone()
            assert count_row is not None and mark is not None
            counts = _Counts(int(count_row["matched"]), int(count_row["matched_anywhere"]))
            if exact and counts.matched_anywhere == 0 and self._variant_exists(conn, terms, params):
                exact = False  # "zurich" searched, "Zürich" said: not an authoritative absence
            # The exported snapshot lives as long as this transaction: verify now.
            verifier = (
                cpb.Verifier(ran=False)
                if windowed
                else self._verify(str(snapshot["id"]), params, counts.matched)
            )
        if verifier.ran and not verifier.agrees:
            self._report_disagreement(query, counts.matched, verifier.count)
        matches = [{**r, "matched_terms": terms} for r in rows]
        coverage = self._coverage(
            query, terms, exact, len(rows), counts, verifier, int(mark["last_cursor"])
        )
        return ExactResult(matches, terms, coverage)

    @staticmethod
    def _variant_exists(conn: Conn, terms: list[str], params: dict[str, Any]) -> bool:
        """Whether the terms match some turn once accents are stripped on both sides."""
        stripped = [strip_marks(t) for t in terms]
        row = conn.execute(
            SQ["exact_variant_exists"],
            {**params, "patterns": [term_pattern(t) for t in stripped]},
        ).fetchone()
        return bool(row and row["found"])

    @staticmethod
    def _fold_in_database(conn: Conn, terms: list[str]) -> list[str]:
        """Fold the terms with the same SQL function that folds the text, so a
        term and the text it should match can never be folded differently."""
        rows = conn.execute(SQ["exact_fold_terms"], {"terms": terms}).fetchall()
        folded: list[str] = []
        for i, row in enumerate(rows):
            value = str(row["folded"] or "")
            if not value:
                raise InvalidArgument("terms", f"term {i} normalises to nothing")
            if value not in folded:
                folded.append(value)
        return folded

    @staticmethod
    def _folds_like_reference(conn: Conn, terms: list[str]) -> bool:
        """Whether the database folds every spelling of the terms' characters as
        engram.terms.fold does (a server without casefold(), or with another Unicode
        version or locale, may not): otherwise the search is not exact."""
        probe = fold_probe(terms)
        row = conn.execute(
            SQ["exact_fold_check"], {"chars": probe, "expected": [fold(c) for c in probe]}
        ).fetchone()
        assert row is not None
        agrees = bool(row["agrees"])
        if not agrees:
            log.warning("the database folds some spelling of the terms differently")
        return agrees

    def _verify(self, snapshot: str, params: dict[str, Any], primary: int) -> cpb.Verifier:
        try:
            with self.db.connection() as conn, conn.transaction():
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                conn.execute(sql.SQL("SET TRANSACTION SNAPSHOT {}").format(sql.Literal(snapshot)))
                row = conn.execute(SQ["exact_verifier_count"], params).fetchone()
        except (psycopg.Error, EngramError):
            # A verifier that did not run can never upgrade the result.
            log.exception("find_exact verifier failed")
            count_plane_event("journal", "find_exact_verifier_failed")
            return cpb.Verifier(ran=False, read_path=VERIFIER_PATH, source_system=VERIFIER_SOURCE)
        assert row is not None
        count = int(row["n"])
        return cpb.Verifier(
            ran=True,
            read_path=VERIFIER_PATH,
            source_system=VERIFIER_SOURCE,
            count=count,
            agrees=count == primary,
        )

    def _report_disagreement(self, query: ExactQuery, primary: int, verifier: int) -> None:
        log.error(
            "find_exact: the episode projection disagrees with the canonical journal",
            extra={
                "subject": query.subject,
                "workspace": query.workspace,
                "primary_count": primary,
                "verifier_count": verifier,
            },
        )
        count_plane_event("journal", "find_exact_disagreement")
        try:
            with self.db.connection() as conn:
                add_counter(conn, DISAGREEMENT_COUNTER)
        except (psycopg.Error, EngramError):
            log.exception("could not count a find_exact disagreement")

    @staticmethod
    def _coverage(
        query: ExactQuery,
        terms: list[str],
        exact: bool,
        returned: int,
        counts: _Counts,
        verifier: cpb.Verifier,
        watermark: int,
    ) -> cpb.Coverage:
        windowed = query.start is not None or query.end is not None
        hidden_matches = counts.matched_anywhere > counts.matched
        return build_coverage(
            read_path=PRIMARY_PATH,
            source_systems=[PRIMARY_SOURCE],
            query={
                "terms": terms,
                "subject": query.subject,
                "workspace": query.workspace,
                "session_id": query.session_id,
                "start": query.start,
                "end": query.end,
                "limit": query.limit,
            },
            returned=returned,
            limit=query.limit,
            matched_before_limit=counts.matched,
            exactness=cpb.EXACTNESS_EXACT,
            semantic=_COMPLETE,
            field=_COMPLETE,
            temporal=_PARTIAL if windowed else _COMPLETE,
            visibility=_PARTIAL if query.session_id or hidden_matches else _COMPLETE,
            normalization=_COMPLETE if exact else _PARTIAL,
            verifier=verifier,
            snapshot_version=str(watermark),
        )
