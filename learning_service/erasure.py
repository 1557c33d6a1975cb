"""Erasure: a subject purged from the journal is purged from the learning
plane. Domain code: no gRPC here.

The capture worker follows CHANGE_KIND_SUBJECT_PURGED on the same change
feed (and the same durable cursor) as run.completed, so a run captured
before its subject's purge is always erased after it. One purge change, in
one transaction:

1. finds the candidates whose source subject matches (and, when the purge
   named a workspace, whose source workspace is that one or unknown),
   whatever their origin: an API candidate that supplied source.subject is
   the subject's data too; one without a subject is untouched;
2. locks them and everything derived from them: their learnings and the
   skill versions promoted from those learnings;
3. writes the learning purge ledger entry (keyed by the journal change
   cursor, so a replayed change purges nothing twice), then sets
   engram.audited_purge and deletes candidates with their events and
   reviews, learnings with their revisions and state, skill versions with
   their lifecycle events, and the idempotency records naming them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from psycopg.types.json import Jsonb

from engram.db.queries import Queries
from learning_service.store import Conn, lock_key

EQ = Queries(Path(__file__).with_name("erasure.sql"))

ACTOR = "journal-purge"

# Children before parents; skill state is re-projected once the versions go.
DELETES = (
    "delete_skill_events",
    "delete_skill_versions",
    "reproject_skill_state",
    "delete_orphan_skill_state",
    "delete_learning_state",
    "delete_learning_revisions",
    "delete_learnings",
    "delete_candidate_reviews",
    "delete_candidate_events",
    "delete_candidate_state",
    "delete_candidates",
    "delete_idempotency",
)


@dataclass(frozen=True)
class SubjectPurge:
    """A journal SUBJECT_PURGED change."""

    change_cursor: int
    subject: str
    workspace: str = ""  # every workspace of the subject


@dataclass(frozen=True)
class Erasure:
    purge_id: int
    counts: dict[str, int]


def _ids(conn: Conn, query: str, column: str, params: dict[str, Any]) -> list[str]:
    return [str(row[column]) for row in conn.execute(EQ[query], params).fetchall()]


def _lock_skills(conn: Conn, learning_ids: list[str], locked: set[str]) -> list[str]:
    """Take the per-skill lock of every skill with a version promoted from
    these learnings (sorted, so two purges never wait on each other)."""
    names = _ids(conn, "skills_from_learnings", "skill_name", {"learning_ids": learning_ids})
    for name in names:
        if name not in locked:
            lock_key(conn, f"skill:{name}")
            locked.add(name)
    return names


def erase_subject(conn: Conn, purge: SubjectPurge, *, actor: str = ACTOR) -> Erasure | None:
    """Erase what the learning plane derived from a purged subject, inside
    the caller's transaction; None when this change was already erased."""
    if conn.execute(
        EQ["ledger_entry_for_change"], {"change_cursor": purge.change_cursor}
    ).fetchone():
        return None
    scope = {"subject": purge.subject, "workspace": purge.workspace}
    candidate_ids = _ids(conn, "subject_candidates", "candidate_id", scope)
    # Publication locks the candidate state first: once held, no learning
    # can appear for these candidates.
    conn.execute(EQ["lock_candidate_states"], {"candidate_ids": candidate_ids})
    learning_ids = _ids(
        conn, "candidate_learnings", "learning_id", {"candidate_ids": candidate_ids}
    )
    by_learning = {"learning_ids": learning_ids}
    conn.execute(EQ["lock_learning_states"], by_learning)
    locked: set[str] = set()
    _lock_skills(conn, learning_ids, locked)
    # With the learning rows locked no promotion from them can commit; one
    # that committed while we waited is visible now.
    conn.execute(EQ["lock_learnings"], by_learning)
    skill_names = _lock_skills(conn, learning_ids, locked)

    ids = {"candidate_ids": candidate_ids, "learning_ids": learning_ids, "skill_names": skill_names}
    row = conn.execute(EQ["erasure_counts"], ids).fetchone()
    assert row is not None
    counts = {
        "candidates": len(candidate_ids),
        "learnings": len(learning_ids),
        **{name: int(value or 0) for name, value in row.items()},
    }
    entry = conn.execute(
        EQ["insert_ledger_entry"],
        {
            "change_cursor": purge.change_cursor,
            **scope,
            "actor": actor,
            "counts": Jsonb(counts),
        },
    ).fetchone()
    assert entry is not None
    # The ledger entry exists first; only now may append-only rows go.
    conn.execute(EQ["enable_audited_purge"])
    for statement in DELETES:
        conn.execute(EQ[statement], ids)
    return Erasure(int(entry["purge_id"]), counts)
