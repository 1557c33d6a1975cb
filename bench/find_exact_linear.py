"""FindExact as it read the journal before the term indexes: every turn of the
subject folded and matched, for the page, the count, the variant guard and the
verifier (the queries in find_exact_linear.sql, verbatim from before
memory_service/migrations/0007_exact_terms_index.sql).

The same-run baseline of bench/find_exact_bench.py, and the reference the
indexed path must equal (tests/integration/test_find_exact_index.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engram.common.v1 import common_pb2 as cpb
from engram.db import Database, read_snapshot
from engram.db.queries import Queries
from engram.errors import InvalidArgument
from memory_service.exact_terms import fold, fold_probe, strip_marks, term_pattern
from memory_service.find_exact import (
    VERIFIER_PATH,
    VERIFIER_SOURCE,
    ExactQuery,
    ExactResult,
    FindExact,
    _Counts,
)
from memory_service.store import Conn

LQ = Queries(Path(__file__).with_name("find_exact_linear.sql"))


class LinearFindExact(FindExact):
    """FindExact's old read path: the same steps and coverage, linear queries."""

    def find(self, query: ExactQuery, db: Database | None = None) -> ExactResult:
        db = db or self.db
        windowed = query.start is not None or query.end is not None
        with read_snapshot(db) as conn:
            snapshot = conn.execute("SELECT pg_export_snapshot() AS id").fetchone()
            assert snapshot is not None
            terms = self._fold_in_database(conn, query.terms)
            exact = (
                query.normalization_exact
                and terms == query.terms
                and self._folds_like_reference(conn, terms)
            )
            params: dict[str, Any] = {
                "subject": query.subject,
                "workspace": query.workspace,
                "session_id": query.session_id,
                "start": query.start,
                "end": query.end,
                "patterns": [term_pattern(t) for t in terms],
                "limit": query.limit,
            }
            rows = conn.execute(LQ["exact_page"], params).fetchall()
            count_row = conn.execute(LQ["exact_count"], params).fetchone()
            mark = conn.execute(LQ["linear_feed_watermark"]).fetchone()
            assert count_row is not None and mark is not None
            counts = _Counts(int(count_row["matched"]), int(count_row["matched_anywhere"]))
            if exact and counts.matched_anywhere == 0 and self._linear_variant(conn, terms, params):
                exact = False
            verifier = (
                cpb.Verifier(ran=False)
                if windowed
                else self._verify(db, str(snapshot["id"]), params, counts.matched)
            )
        if verifier.ran and not verifier.agrees:
            self._report_disagreement(query, counts.matched, verifier.count)
        matches = [{**r, "matched_terms": terms} for r in rows]
        coverage = self._coverage(
            query, terms, exact, len(rows), counts, verifier, int(mark["last_cursor"])
        )
        return ExactResult(matches, terms, coverage)

    @staticmethod
    def _fold_in_database(conn: Conn, terms: list[str]) -> list[str]:
        rows = conn.execute(LQ["exact_fold_terms"], {"terms": terms}).fetchall()
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
        probe = fold_probe(terms)
        row = conn.execute(
            LQ["exact_fold_check"], {"chars": probe, "expected": [fold(c) for c in probe]}
        ).fetchone()
        assert row is not None
        return bool(row["agrees"])

    def _verify(
        self, db: Database, snapshot: str, params: dict[str, Any], primary: int
    ) -> cpb.Verifier:
        with read_snapshot(db, imported=snapshot) as conn:
            row = conn.execute(LQ["exact_verifier_count"], params).fetchone()
        assert row is not None
        count = int(row["n"])
        return cpb.Verifier(
            ran=True,
            read_path=VERIFIER_PATH,
            source_system=VERIFIER_SOURCE,
            count=count,
            agrees=count == primary,
        )

    @staticmethod
    def _linear_variant(conn: Conn, terms: list[str], params: dict[str, Any]) -> bool:
        patterns = [term_pattern(strip_marks(t)) for t in terms]
        row = conn.execute(LQ["exact_variant_exists"], {**params, "patterns": patterns}).fetchone()
        return bool(row and row["found"])
