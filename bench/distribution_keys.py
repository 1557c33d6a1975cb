"""Journal migration 0013 (subject in every key of the distributed tables) on
a filled database: how long it takes, and whether any named query of the
journal plans differently after it.

    PYTHONPATH=. .venv/bin/python bench/distribution_keys.py [--turns 200000]

Fills a throwaway embedded PostgreSQL migrated to 0012 with `turns` turn
events and their episodes, idempotency rows and receipts, and one run
(run.completed event and run record) per 10 turns; then takes the generic
plan (EXPLAIN (GENERIC_PLAN), PostgreSQL 16+) of every named query in
memory_service/*.sql, applies 0013 (timed) to it and not to a copy, and plans
them again. Reports the migration's time, every query whose scans (node type,
relation, index) changed (the queries whose parameters cannot be typed
without values are counted as not planned), and the median time of the
queries whose plans 0013 can change on the copy (baseline) and on the
migrated database, runs interleaved.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engram.db import migrations  # noqa: E402
from engram.db.embedded import start_embedded  # noqa: E402
from engram.db.queries import Queries  # noqa: E402
from engram.db.urls import with_database  # noqa: E402

KEYS_MIGRATION = 13
REPEATS = 21
WARM_UP = 3
# Sample parameters of the named queries whose plans 0013 can change (their
# filters name a key column 0013 extends, or `subject` alone).
_SCOPE = {"subject": "subject-7", "workspace": "ws-1", "session_id": "session-1507"}
_RUN_SEARCH = {
    **_SCOPE,
    "terms": ["summary"],
    "widen": False,
    "scope_keys": [],
    "has_query": False,
    "after_score": None,
    "after_at": None,
    "after_run": None,
    "limit": 20,
}
TIMED: dict[str, dict[str, Any]] = {
    "queries.sql:episodes_by_id": {"ids": [], "include_embeddings": False},
    "queries.sql:turn_event_episode": {"id": 1507},
    "queries.sql:purge_run_record_count": {"subject": "subject-7", "workspace": ""},
    "queries.sql:purge_counts": {"subject": "subject-7", "workspace": ""},
    "run_memory.sql:run_completed_event": {"run_id": "run-1507"},
    "run_memory.sql:search_page": _RUN_SEARCH,
    "run_memory.sql:search_count": _RUN_SEARCH,
    "transcript.sql:session_turn_texts": {**_SCOPE, "ids": [1507, 6507, 11507]},
    "transcript.sql:analysis_rows": {**_SCOPE, "ids": [1507, 6507, 11507], "policy_version": 1},
    "queries.sql:idempotency_get": {"operation": "commit_turn", "request_id": None},
}
_PARAM = re.compile(r"%\((\w+)\)[sbt]")

FILL = """
INSERT INTO journal.events
    (event_type, subject, workspace, session_id, payload, provenance, request_id,
     content_sha256, occurred_at)
SELECT 'conversation.turn.completed', 'subject-' || (i %% 500), 'ws-' || (i %% 3),
       'session-' || (i %% 5000),
       jsonb_build_object('user_text', 'question number ' || i || ' about topic ' || (i %% 997),
                          'assistant_text', 'answer ' || i || ' mentions item ' || (i %% 131)),
       'user_input', gen_random_uuid(), md5(i::text), now() - make_interval(secs => i)
FROM generate_series(1, %(turns)s) i;

INSERT INTO journal.episodes
    (subject, workspace, content_sha256, session_id, session_ids, user_text, assistant_text,
     first_seen_at, last_seen_at, first_event_id, last_event_id)
SELECT e.subject, e.workspace, e.content_sha256, e.session_id, ARRAY[e.session_id],
       e.payload ->> 'user_text', e.payload ->> 'assistant_text', e.occurred_at, e.occurred_at,
       e.event_id, e.event_id
FROM journal.events e;

INSERT INTO journal.idempotency (operation, request_id, request_sha256, response, subject)
SELECT 'commit_turn', e.request_id, e.content_sha256, '\\x7b7d', e.subject FROM journal.events e;

INSERT INTO journal.receipts (receipt_type, context_id, subject, workspace, session_id)
SELECT 'context_injection', 'ctx-' || (e.event_id / 4), e.subject, e.workspace, e.session_id
FROM journal.events e;

INSERT INTO journal.events
    (event_type, subject, workspace, session_id, payload, provenance, content_sha256, occurred_at)
SELECT 'run.completed', 'subject-' || (i %% 500), 'ws-' || (i %% 3), 'session-' || (i %% 5000),
       jsonb_build_object('run_id', 'run-' || i), 'system', md5('run' || i), now()
FROM generate_series(1, %(turns)s / 10) i;

INSERT INTO journal.run_records
    (run_id, session_id, subject, workspace, status, summary, event_id, request_sha256,
     expires_at)
SELECT e.payload ->> 'run_id', e.session_id, e.subject, e.workspace, 'completed',
       'run summary ' || e.event_id, e.event_id, e.content_sha256, now() + interval '30 days'
FROM journal.events e WHERE e.event_type = 'run.completed';
"""


def _scans(plan: Any) -> set[str]:
    found: set[str] = set()

    def walk(node: dict[str, Any]) -> None:
        if "Relation Name" in node or "Index Name" in node:
            found.add(
                f"{node['Node Type']} {node.get('Relation Name', '')} {node.get('Index Name', '')}"
            )
        for child in node.get("Plans", []):
            walk(child)

    walk(plan[0]["Plan"])
    return found


def _positional(text: str) -> str:
    """psycopg's %(name)s, %(name)b and %(name)t placeholders as $1, $2, ... (one number
    per name)."""
    numbers: dict[str, int] = {}

    def number(match: re.Match[str]) -> str:
        return f"${numbers.setdefault(match.group(1), len(numbers) + 1)}"

    return _PARAM.sub(number, text).replace("%%", "%")


def _plans(url: str) -> tuple[dict[str, set[str]], int]:
    plans: dict[str, set[str]] = {}
    unplanned = 0
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        for path in sorted((ROOT / "memory_service").glob("*.sql")):
            for name, text in Queries(path).items():
                statement = _positional(text)
                try:
                    row = conn.execute(
                        f"EXPLAIN (GENERIC_PLAN, FORMAT JSON) {statement}".encode()
                    ).fetchone()
                except psycopg.Error:
                    unplanned += 1
                    continue
                assert row is not None
                plans[f"{path.name}:{name}"] = _scans(row[0])
    return plans, unplanned


def _sample_params(conn: psycopg.Connection[Any], query: str) -> dict[str, Any]:
    params = dict(TIMED[query])
    if "ids" in params and not params["ids"]:
        row = conn.execute(
            "SELECT array_agg(episode_id) FROM (SELECT episode_id FROM journal.episodes"
            " WHERE subject = 'subject-7' ORDER BY first_event_id LIMIT 20) e"
        ).fetchone()
        params["ids"] = row[0] if row else []
    if "request_id" in params:
        row = conn.execute(
            "SELECT request_id FROM journal.idempotency ORDER BY request_id LIMIT 1"
        ).fetchone()
        params["request_id"] = row[0] if row else None
    return params


def _timings(before_url: str, after_url: str) -> dict[str, list[float]]:
    """Median milliseconds per timed query on the two databases, runs interleaved in
    alternating order (so load from elsewhere falls on both alike), after warm-up runs:
    [custom before, custom after, generic before, generic after]."""
    all_queries = {
        f"{path.name}:{name}": text
        for path in sorted((ROOT / "memory_service").glob("*.sql"))
        for name, text in Queries(path).items()
    }
    out: dict[str, list[float]] = {}
    with (
        psycopg.connect(before_url, autocommit=True) as old,
        psycopg.connect(after_url, autocommit=True) as new,
    ):
        for query in TIMED:
            text = all_queries[query].encode()
            params = {conn: _sample_params(conn, query) for conn in (old, new)}
            medians: list[float] = []
            for mode in ("force_custom_plan", "force_generic_plan"):
                runs: dict[psycopg.Connection[Any], list[float]] = {old: [], new: []}
                for conn in (old, new):
                    conn.execute(f"SET plan_cache_mode = {mode}")
                    for _ in range(WARM_UP):
                        conn.execute(text, params[conn], prepare=True).fetchall()
                for i in range(REPEATS):
                    for conn in (old, new) if i % 2 else (new, old):
                        started = time.perf_counter()
                        conn.execute(text, params[conn], prepare=True).fetchall()
                        runs[conn].append((time.perf_counter() - started) * 1000)
                medians += [sorted(runs[c])[REPEATS // 2] for c in (old, new)]
                for conn in (old, new):
                    conn.execute("DEALLOCATE ALL")
            out[query] = medians
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200_000)
    args = parser.parse_args()
    server = start_embedded(Path(tempfile.mkdtemp(prefix="engram-keys-", dir="/tmp")))
    work = Path(tempfile.mkdtemp(prefix="engram-keys-migrations-"))
    try:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE keys_bench")
        url = with_database(server.url, "keys_bench")
        source = ROOT / "memory_service" / "migrations"
        for path in sorted(source.glob("*.sql")):
            if int(path.name[:4]) < KEYS_MIGRATION:
                shutil.copy(path, work)
        migrations.apply(url, "journal", work)
        started = time.perf_counter()
        with psycopg.connect(url, autocommit=True) as conn:
            for statement in FILL.split(";\n\n"):
                conn.execute(statement.encode(), {"turns": args.turns})
        fill_s = time.perf_counter() - started
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute("CREATE DATABASE keys_bench_before TEMPLATE keys_bench")
        before_url = with_database(server.url, "keys_bench_before")
        before, unplanned = _plans(before_url)
        shutil.copy(next(source.glob(f"{KEYS_MIGRATION:04d}_*.sql")), work)
        started = time.perf_counter()
        applied = migrations.apply(url, "journal", work)
        migrate_s = time.perf_counter() - started
        assert [m.version for m in applied] == [KEYS_MIGRATION]
        after, _ = _plans(url)
        timed = _timings(before_url, url)
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT count(*) FROM journal.events").fetchone()
        events = row[0] if row else 0
        print(f"events: {events}  fill: {fill_s:.1f} s")
        print(f"migration {KEYS_MIGRATION:04d}: {migrate_s:.2f} s")
        print(
            f"named queries planned: {len(before)}  not planned (untyped parameters): {unplanned}"
        )
        changed = {q: (before[q], after.get(q, set())) for q in before if before[q] != after.get(q)}
        print(f"queries whose scans changed: {len(changed)}")
        for query, (old, new) in sorted(changed.items()):
            print(f"  {query}\n    before: {sorted(old)}\n    after:  {sorted(new)}")
        filled = ("events", "episodes", "idempotency", "receipts", "run_records")
        print(f"queries that scan a filled table ({', '.join(filled)}) sequentially:")
        for query, scans in sorted(after.items()):
            seq = sorted(
                s for s in scans if s.split()[:2] == ["Seq", "Scan"] and s.split()[2] in filled
            )
            if seq:
                was = "also before" if set(seq) <= before.get(query, set()) else "NEW"
                print(f"  {query}: {seq} ({was})")
        print(f"median ms of {REPEATS} interleaved runs, before -> after 0013 (after/before):")
        for query, (custom, custom_after, generic, generic_after) in timed.items():
            print(
                f"  {query}: custom {custom:.3f} -> {custom_after:.3f} "
                f"({custom_after / custom:.2f}x), generic {generic:.3f} -> {generic_after:.3f} "
                f"({generic_after / generic:.2f}x)"
            )
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
