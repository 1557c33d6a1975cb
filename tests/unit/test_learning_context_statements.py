"""The learned-context statements as composed for each quarantine source
(learning_service.context.composed): the same statement but for where the
withheld records come from, and short enough for psycopg's conversion
cache (a longer statement is re-parsed in Python on every call)."""

from __future__ import annotations

from psycopg import _queries

from learning_service.context import CONTEXT_READ, CONTEXT_UNINDEXED, query_code
from learning_service.quarantine import QUARANTINE_SOURCES


def test_each_source_reads_only_its_own_quarantine_state() -> None:
    for statements in (CONTEXT_READ, CONTEXT_UNINDEXED):
        assert set(statements) == set(QUARANTINE_SOURCES)
        assert "journal." not in statements["copy"]
        assert "learning.source_quarantine" not in statements["journal"]
        assert "journal.quarantined" in statements["journal"]
    assert "journal.quarantine_ledger" in CONTEXT_READ["journal"]
    # Apart from those two relations the statements are the same text.
    for statements in (CONTEXT_READ, CONTEXT_UNINDEXED):
        copy, journal = statements["copy"], statements["journal"]
        for source in QUARANTINE_SOURCES:
            for part in (f"withheld_sources_{source}", f"quarantine_version_{source}"):
                body = query_code(part)
                copy, journal = copy.replace(body, "<source>"), journal.replace(body, "<source>")
        assert copy == journal


def test_the_statements_fit_psycopgs_conversion_cache() -> None:
    for statements in (CONTEXT_READ, CONTEXT_UNINDEXED):
        for text in statements.values():
            assert len(text) <= _queries.MAX_CACHED_STATEMENT_LENGTH
            assert "--" not in text
