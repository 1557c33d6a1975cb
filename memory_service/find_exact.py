"""FindExact: the exhaustive read path, the only one that can derive
ABSENCE_STATE_ABSENT_AUTHORITATIVE. Domain code: no gRPC here.

Primary (read path journal.find_exact.v1, source postgresql:journal.events):
exact folded terms (memory_service.exact_terms) over the user and assistant
text of canonical `conversation.turn.completed` events, in one REPEATABLE READ
snapshot: the page and the pre-limit count, from one statement over every
matching turn. Units are distinct contents (content_sha256) of
learning-eligible turns; each match shows the content's latest occurrence in
scope.

Verifier (journal.find_exact.verifier.v1, source postgresql:journal.episodes):
a second connection importing the primary's snapshot (pg_export_snapshot, so a
commit between the two reads cannot fake a disagreement) counts matching rows
of the episode projection with a differently shaped query. The projection has
one row per learning-eligible content, so both count the same units. It runs
only without a time window: the projection keeps first and last sightings, not
every occurrence time, so it cannot count "occurred inside [start, end)".

Both read their candidates from a GIN index over the term keys of the folded
texts (migrations/0007_exact_terms_index.sql: events_exact_terms_idx for the
primary and the accent-variant guard, episodes_exact_terms_idx, keyed by a
second implementation, for the verifier), so the cost grows with the matches,
not with the subject's turns; the patterns confirm every candidate, so the
index narrows and never decides.

Both exclude hidden content: content whose episode, or any of whose turn events
in the subject/workspace, is quarantined. Shared by both paths, and therefore
not checked by the verifier: the PostgreSQL cluster and snapshot, the folding
function journal.exact_fold, the term patterns, the rule (and character
classes) of the term keys and the quarantine rule.

Dimensions: semantic and field COMPLETE (exact-term semantics over both text
fields); temporal PARTIAL with a time window (part of stored time); visibility
PARTIAL with a session filter, or when matching journal content is not exposed
(hidden by quarantine, or only in turns that were not learning-eligible);
normalization COMPLETE only when every term is exactly normalisable
(engram.terms.normalization_is_exact, decided on the terms as written) and the
database folds the terms, and every spelling of their characters, exactly as
engram.terms.fold does (exact_terms.fold_probe, checked in the same snapshot;
a character is folded once per fold definition, server and collation).
So an empty result is ABSENT_AUTHORITATIVE only for an all-time, all-session
search of exactly normalised terms with nothing hidden and an agreeing verifier;
ABSENT_IN_SCOPE otherwise; COVERAGE_DISAGREEMENT when the verifier counts
differently. See docs/find-exact.md.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage
from engram.db import Database, read_snapshot
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


_PAGE_COLUMNS = ("event_id", "session_id", "occurred_at", "user_text", "assistant_text")


def _page_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: row[k] for k in _PAGE_COLUMNS}


@dataclass(frozen=True)
class _Counts:
    matched: int
    matched_anywhere: int


@dataclass(frozen=True)
class _Prepared:
    # The terms as journal.exact_fold folds them (what is searched).
    terms: list[str]
    # Whether the database folds every probed spelling as engram.terms.fold does.
    folds_like_reference: bool
    # What the term indexes must hold for a turn to be a candidate.
    keys: list[str]
    variant_keys: list[str]
    variant_marked_keys: list[str]
    verifier_keys: list[str]
    # The transaction's snapshot, exported for the verifier to import (None: not asked).
    snapshot: str | None


class _FoldChecks:
    """Probe characters the database folds as engram.terms.fold does, under one fold:
    the server version, the database's collation (and its library's version) and
    the definitions of journal.exact_fold and the function it calls, which
    exact_prepare hashes into fold_version. Another fold starts afresh."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version = ""
        self._good: set[str] = set()

    def unchecked(self, probe: list[str]) -> tuple[str, list[str]]:
        with self._lock:
            return self._version, [c for c in probe if c not in self._good]

    def record(self, version: str, chars: list[str]) -> None:
        with self._lock:
            if version != self._version:
                self._version, self._good = version, set()
            self._good.update(chars)


class FindExact:
    def __init__(self, db: Database) -> None:
        self.db = db
        self._fold_checks = _FoldChecks()

    def find(self, query: ExactQuery, db: Database | None = None) -> ExactResult:
        """``db``: where the primary read and the verifier read (a read
        replica's pool; the snapshot is exported and imported there); the
        primary by default. The disagreement counter is always written to the
        primary."""
        db = db or self.db
        windowed = query.start is not None or query.end is not None
        # The variant guard's terms: the searched terms with accents stripped. They
        # are only used when the database folded the terms to query.terms (exact).
        stripped = [strip_marks(t) for t in query.terms]
        with read_snapshot(db) as conn:
            # The verifier runs only without a time window: only then is the
            # snapshot exported (by the first statement, which takes it).
            prepared = self._prepare(conn, query, stripped, export=not windowed)
            terms = prepared.terms
            exact = (
                query.normalization_exact and terms == query.terms and prepared.folds_like_reference
            )
            params = {
                "subject": query.subject,
                "workspace": query.workspace,
                "session_id": query.session_id,
                "start": query.start,
                "end": query.end,
                "patterns": [term_pattern(t) for t in terms],
                "keys": prepared.keys,
                "verifier_keys": prepared.verifier_keys,
                "limit": query.limit,
            }
            rows = conn.execute(SQ["exact_matches"], params).fetchall()
            mark = conn.execute(Q["feed_watermark"]).fetchone()
            assert rows and mark is not None
            counts = _Counts(int(rows[0]["matched"]), int(rows[0]["matched_anywhere"]))
            page = [_page_row(r) for r in rows if r["event_id"] is not None]
            if (
                exact
                and counts.matched_anywhere == 0
                and self._variant_exists(conn, stripped, prepared, params)
            ):
                exact = False  # "zurich" searched, "Zürich" said: not an authoritative absence
            # The exported snapshot lives as long as this transaction: verify now.
            verifier = (
                cpb.Verifier(ran=False)
                if prepared.snapshot is None
                else self._verify(db, prepared.snapshot, params, counts.matched)
            )
        if verifier.ran and not verifier.agrees:
            self._report_disagreement(query, counts.matched, verifier.count)
        matches = [{**r, "matched_terms": terms} for r in page]
        coverage = self._coverage(
            query, terms, exact, len(page), counts, verifier, int(mark["last_cursor"])
        )
        return ExactResult(matches, terms, coverage)

    def _prepare(
        self, conn: Conn, query: ExactQuery, stripped: list[str], *, export: bool = False
    ) -> _Prepared:
        """One round trip: fold the terms with the same SQL function that folds the
        text (so a term and the text it should match can never be folded
        differently), check that the database folds every spelling of the terms'
        characters as engram.terms.fold does (a server without casefold(), or with
        another Unicode version or locale, may not: the search is then not exact),
        and compute the index keys of what is searched.

        The fold check probes query.terms; it only counts when the database folded
        the terms to exactly query.terms, so it probes the terms searched. Characters
        already found to fold like the reference under the same fold (_FoldChecks)
        are not folded again."""
        probe = fold_probe(query.terms) if query.normalization_exact else []
        version, unchecked = self._fold_checks.unchecked(probe)
        row = conn.execute(
            SQ["exact_prepare"],
            {
                "terms": query.terms,
                "stripped": stripped,
                "chars": unchecked,
                "expected": [fold(c) for c in unchecked],
                "export": export,
            },
        ).fetchone()
        assert row is not None
        terms: list[str] = []
        for i, value in enumerate(row["folded"]):
            if not value:
                raise InvalidArgument("terms", f"term {i} normalises to nothing")
            if value not in terms:
                terms.append(str(value))
        agrees = bool(row["agrees"])
        current = str(row["fold_version"])
        if current != version and len(unchecked) < len(probe):
            # The fold changed since the skipped characters were checked.
            check = conn.execute(
                SQ["exact_fold_check"], {"chars": probe, "expected": [fold(c) for c in probe]}
            ).fetchone()
            assert check is not None
            agrees = bool(check["agrees"])
        if agrees:
            self._fold_checks.record(current, probe)
        elif terms == query.terms:
            log.warning("the database folds some spelling of the terms differently")
        return _Prepared(
            terms=terms,
            folds_like_reference=agrees,
            keys=list(row["keys"]),
            variant_keys=list(row["variant_keys"]),
            variant_marked_keys=list(row["variant_marked_keys"]),
            verifier_keys=list(row["verifier_keys"]),
            snapshot=str(row["snapshot_id"]) if export else None,
        )

    @staticmethod
    def _variant_exists(
        conn: Conn, stripped: list[str], prepared: _Prepared, params: dict[str, Any]
    ) -> bool:
        """Whether the terms match some turn once accents are stripped on both sides."""
        row = conn.execute(
            SQ["exact_variant_exists"],
            {
                **params,
                "variant_patterns": [term_pattern(t) for t in stripped],
                "variant_keys": prepared.variant_keys,
                "variant_marked_keys": prepared.variant_marked_keys,
            },
        ).fetchone()
        return bool(row and row["found"])

    def _verify(
        self, db: Database, snapshot: str, params: dict[str, Any], primary: int
    ) -> cpb.Verifier:
        try:
            with read_snapshot(db, imported=snapshot) as conn:
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
