"""Stored term sets of learnings (migration 0004): what every learning
revision carries so the learned-context read selects candidates by a GIN
index instead of re-tokenising the plane on every call.

The set is the distinct index terms of the content (learning_service.text,
i.e. engram.terms), sorted, with the normaliser version that produced it.
Every writer of a revision passes :func:`revision_terms`; the projection
trigger makes it the learning's current set. A row whose set is missing or
of another version is unindexed: the read scores it from its content, and
:func:`backfill` (run at startup, before the service serves) recomputes it.
"""

from __future__ import annotations

import logging
from typing import Any

from engram import terms as term_rules
from engram.db import Database
from learning_service.store import Q
from learning_service.text import term_set

log = logging.getLogger("engram.learning.term_index")

TERMS_VERSION = term_rules.VERSION
BACKFILL_BATCH = 1000
# Longer terms do not fit a GIN key or a tsvector lexeme (2 KiB); a learning
# with one stays unindexed (scored from its content on every read).
MAX_TERM_BYTES = 1000


def stored_terms(content: str) -> list[str]:
    """The term set as stored: distinct, sorted (so a re-computation compares equal)."""
    return sorted(term_set(content))


def revision_terms(content: str) -> dict[str, Any]:
    """The insert_revision parameters for a revision of a learning with this content."""
    terms = stored_terms(content)
    if any(len(t.encode()) > MAX_TERM_BYTES for t in terms):
        return {"terms": None, "terms_version": None}
    return {"terms": terms, "terms_version": TERMS_VERSION}


def backfill(db: Database, batch: int = BACKFILL_BATCH) -> int:
    """Recompute the current term set of every learning whose stored set is
    missing or of another normaliser version; returns how many were written.
    Each batch is its own transaction; a row is only written at the revision
    it was read at, so a concurrent new revision (which carries its own set)
    is never overwritten."""
    written = 0
    after = "00000000-0000-0000-0000-000000000000"
    while True:
        with db.transaction() as conn:
            rows = conn.execute(
                Q["terms_stale"],
                {"terms_version": TERMS_VERSION, "after": after, "limit": batch},
            ).fetchall()
            for row in rows:
                conn.execute(
                    Q["terms_put"],
                    {
                        "learning_id": row["learning_id"],
                        "revision": row["revision"],
                        **revision_terms(row["content"]),
                    },
                )
        written += len(rows)
        if rows:
            after = str(rows[-1]["learning_id"])
        if len(rows) < batch:
            break
    if written:
        log.info("stored term sets of %d learnings (%s)", written, TERMS_VERSION)
    return written
