"""Where every table lives on a Citus cluster: the one declaration.

Each table of the journal and learning schemas is one of

- DISTRIBUTED by a column: its rows are sharded by that column's hash, and
  all distributed tables are co-located (one subject's rows share a shard);
- REFERENCE: small, global, copied to every node so that sharded reads join
  it locally;
- COORDINATOR: stays an ordinary table on the coordinator, because it must
  be one node's (the feed clock) or because sharding it buys nothing.

On plain PostgreSQL, or on a managed PostgreSQL, nothing here applies: the
schema is the same. tests/integration/test_citus_ready.py holds the schema
to Citus's rules for these declarations (the distribution column in every
primary key, unique index and foreign key; a new table must be declared
here), and `python -m engram.db.distribution` writes
deploy/citus/distribute.sql, the script that distributes an existing
database when, and only when, the citus extension is installed.
"""

from __future__ import annotations

import enum
import sys
from dataclasses import dataclass
from typing import Final


class Placement(enum.Enum):
    DISTRIBUTED = "distributed"
    REFERENCE = "reference"
    COORDINATOR = "coordinator"


@dataclass(frozen=True)
class Table:
    schema: str
    name: str
    placement: Placement
    why: str
    column: str = ""

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"


# Citus shards on one column. (workspace, subject) is how the journal scopes
# rows; `subject` is the column: every per-subject row has it, a subject's
# reads (session, search, FindExact, recall fallback) and its purge then stay
# on one shard, and a subject's workspaces are never split from each other.
DISTRIBUTION_COLUMN: Final = "subject"
# The table the others are co-located with.
COLOCATION_ANCHOR: Final = "journal.events"


def _distributed(schema: str, name: str, why: str) -> Table:
    return Table(schema, name, Placement.DISTRIBUTED, why, DISTRIBUTION_COLUMN)


def _reference(schema: str, name: str, why: str) -> Table:
    return Table(schema, name, Placement.REFERENCE, why)


def _coordinator(schema: str, name: str, why: str) -> Table:
    return Table(schema, name, Placement.COORDINATOR, why)


_LEARNING_WHY = (
    "learning rows are keyed by learning scope (session, persona, project, workspace), "
    "not by subject: a project or workspace learning serves every subject, so sharding "
    "by subject would fan every context read out; the schema is review-sized and its "
    "foreign keys stay whole on one node"
)

TABLES: Final[tuple[Table, ...]] = (
    # -- journal: the per-subject rows
    _distributed("journal", "events", "the canonical journal; every read names a subject"),
    _distributed("journal", "episodes", "the projection of a subject's turns"),
    _distributed("journal", "idempotency", "written with the subject's rows it replays"),
    _distributed("journal", "receipts", "a subject's context receipts"),
    _distributed("journal", "run_records", "a subject's recovered runs"),
    _distributed("journal", "session_checkpoints", "one row per subject, workspace and session"),
    _distributed(
        "journal", "session_verified_prefixes", "one row per subject, workspace and session"
    ),
    # -- journal: small and global, joined by sharded reads
    _reference("journal", "quarantined", "every read of every shard excludes what it lists"),
    _reference("journal", "quarantine_ledger", "operator actions: rare writes, audit reads"),
    _reference("journal", "purge_ledger", "operator actions: rare writes, audit reads"),
    _reference("journal", "run_memory_policy", "one row of settings"),
    _reference("journal", "compaction_policy", "one row of settings"),
    # -- journal: one node's
    _coordinator(
        "journal",
        "changes",
        "the change feed: cursors are the coordinator's transaction ids and final below its "
        "snapshot's xmin, which holds only for rows in the coordinator's own tables",
    ),
    _coordinator("journal", "feed_cursor_base", "the feed clock's per-database constant"),
    _coordinator(
        "journal",
        "visibility_fence",
        "one row holding a change cursor, raised in the transaction that appends the change",
    ),
    _coordinator(
        "journal",
        "counters",
        "a few hot rows; as a reference table every increment would be a two-phase "
        "commit on every node",
    ),
    _coordinator("journal", "maintenance_reports", "the maintenance log, written by one node"),
    # -- learning: on the coordinator (or its own PostgreSQL)
    *(
        _coordinator("learning", name, _LEARNING_WHY)
        for name in (
            "candidates",
            "candidate_events",
            "candidate_reviews",
            "candidate_state",
            "learnings",
            "learning_revisions",
            "learning_state",
            "learning_terms",
            "policy_versions",
            "skill_versions",
            "skill_events",
            "skill_state",
            "worker_cursors",
            "counters",
            "idempotency",
            "purge_ledger",
            "source_quarantine",
        )
    ),
)

SCHEMAS: Final = ("journal", "learning")

# Functions whose bodies read or write a distributed table. On Citus a
# function runs where its statement runs. The journal sends these to the
# coordinator as statements of their own (SELECT journal.commit_turn(...)),
# so their queries are ordinary distributed queries:
COORDINATOR_STATEMENTS: Final = (
    "journal.commit_turn",
    "journal.record_context_receipts",
    "journal.stored_response",
)
# These run inside a statement on a distributed or reference table (a
# per-row predicate, a trigger), so on Citus they would run on a worker's
# shard, where a query of another distributed table is refused. Each must
# become part of its callers' statements before a Citus cluster serves what
# they guard (docs/deploy.md, "Running on Citus or a managed PostgreSQL").
SHARD_REWRITES: Final = {
    "journal.turn_withheld": "the withheld-turn rule of session reads, FindExact and "
    "neighbouring turns: inline it as a join of the subject's co-located rows",
    "journal.invalidate_checkpoints_on_quarantine": "trigger on journal.quarantined: drop "
    "the subject's checkpoints and verified prefixes in the quarantine and restore "
    "statements instead",
    "journal.invalidate_checkpoints_on_purge": "trigger on journal.events: drop the "
    "subject's checkpoints and verified prefixes in the purge transaction instead",
}


def by_name() -> dict[str, Table]:
    return {t.qualified: t for t in TABLES}


def distribute_sql() -> str:
    """The script that places every table on a Citus cluster, or skips without citus."""
    reference = [t for t in TABLES if t.placement is Placement.REFERENCE]
    distributed = [t for t in TABLES if t.placement is Placement.DISTRIBUTED]
    anchor = next(t for t in distributed if t.qualified == COLOCATION_ANCHOR)
    rows = [f"            ('{t.qualified}', 'reference', '')" for t in reference]
    rows += [
        f"            ('{t.qualified}', '{t.column}', "
        f"'{'none' if t is anchor else COLOCATION_ANCHOR}')"
        for t in (anchor, *(t for t in distributed if t is not anchor))
    ]
    coordinator = [t.qualified for t in TABLES if t.placement is Placement.COORDINATOR]
    return _SCRIPT.format(
        placements=",\n".join(rows),
        coordinator="\n".join(f"--   {name}" for name in coordinator),
        rewrites=", ".join(SHARD_REWRITES),
    )


_SCRIPT = """\
-- Generated by `python -m engram.db.distribution > deploy/citus/distribute.sql`
-- from engram/db/distribution.py; do not edit (a test compares the two).
--
-- Places engram's tables on a Citus cluster (docs/deploy.md, "Running on
-- Citus or a managed PostgreSQL"). Run it once on the coordinator, after
-- `engram db migrate`, as the database owner:
--
--     psql "$ENGRAM_DATABASE_URL" -v ON_ERROR_STOP=1 -f deploy/citus/distribute.sql
--
-- Without the citus extension (plain or managed PostgreSQL) it changes
-- nothing and says so. Run again, it skips the tables already placed. One
-- transaction: a table that cannot be placed leaves every table as it was.
--
-- These stay ordinary tables on the coordinator:
{coordinator}

DO $distribute$
DECLARE
    placement record;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RAISE NOTICE 'engram: the citus extension is not installed; skipped, nothing distributed';
        RETURN;
    END IF;
    -- The tables' row triggers (append-only, projections) run on their shards.
    SET LOCAL citus.enable_unsafe_triggers = on;
    -- Several tables are placed in one transaction: one connection per node,
    -- so each step sees what the previous ones created.
    SET LOCAL citus.multi_shard_modify_mode = 'sequential';
    FOR placement IN
        SELECT * FROM (VALUES
{placements}
        ) AS p(rel, how, colocate)
    LOOP
        IF EXISTS (SELECT 1 FROM pg_dist_partition
                   WHERE logicalrelid = placement.rel::regclass) THEN
            RAISE NOTICE 'engram: % is already placed', placement.rel;
        ELSIF placement.how = 'reference' THEN
            PERFORM create_reference_table(placement.rel::regclass);
            RAISE NOTICE 'engram: % is a reference table', placement.rel;
        ELSE
            PERFORM create_distributed_table(placement.rel::regclass, placement.how,
                                             colocate_with => placement.colocate);
            RAISE NOTICE 'engram: % is distributed by %', placement.rel, placement.how;
        END IF;
    END LOOP;
    RAISE WARNING 'engram: these functions would run on shards and must be rewritten '
        'before the cluster serves quarantines, purges and session reads: {rewrites}';
END
$distribute$;
"""


def main() -> int:
    sys.stdout.write(distribute_sql())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
