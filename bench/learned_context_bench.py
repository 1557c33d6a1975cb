"""GetLearnedContext at 1k and 100k learnings: the read through term
postings in one statement (learning_service/migrations/0005_learning_term_postings.sql),
withholding by the journal's quarantine tables, against the 0004 read and
the full scan before that, on the same data in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/learned_context_bench.py \
        [--sizes 1000 100000] [--in-scope 1000] [--baseline-checkout /path/to/main]

For each --sizes total, in a scratch database of its own (journal and
learning migrated):
1. A synthetic plane: learnings of 6-14 words drawn from a Zipf-Mandelbrot
   vocabulary of content words (20,000 words, s = 1, rank shift 10: the
   commonest is ~1.2% of terms), written straight to the schema as
   publication writes them (term sets included). Each is in the reading
   session's scopes (its session, persona, two projects, workspace:default)
   with probability --in-scope / size, else in another subject's session
   (1% of those of the same session id) or another persona or project. 5%
   provisional, 3% sensitive, 2% revoked, 1% expired, 0.5% withheld by a
   quarantined source run (in the journal's quarantine ledger and projection
   as Quarantine writes them, and in the plane's copy as the sync does).
2. Inputs: --queries pending inputs of 6-16 words from the same vocabulary
   plus 3 stop words, 5% asking to use durable memory, 5% of words never
   learned; seeded. Nothing was tuned on them; the two halves are reported
   apart.
3. In process, on one connection pool, the selection alone: the full scan
   (the read before 0004: every eligible row in scope, 33 columns, scored in
   Python after re-tokenising each, the counters committed), the 0004 read
   (learned_context_0004.sql, verbatim, pipelined in one read-only
   transaction) and context.select_indexed over the journal's quarantine
   tables (as a suite on the journal's database reads); the entries, scores
   and counts of every input are compared (the full scan on a subset: it is
   slow).
4. Over gRPC, each suite (journal and learning) in a process of its own on
   port 0: GetLearnedContext end to end from this checkout and, with
   --baseline-checkout, from that checkout (the same database, called in
   alternation, input by input; their answers compared the same way), and
   the quarantine sync a read over the copy waits for (one StreamChanges
   catch-up) timed alone.
5. With --baseline-checkout, before the RPCs: the two checkouts'
   learned-context statements (CONTEXT_READ as each composes it), in process
   on one pool, in alternation, as select_indexed runs them; their rows
   compared. The database's part of the RPC, without gRPC's noise.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile, scratch_database
from engram.channels import open_channel
from engram.db import Database, migrations, read_snapshot
from engram.db.embedded import start_embedded
from engram.db.queries import Queries
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import learning_pb2_grpc as pb_grpc
from learning_service.context import (
    SCOPE_KINDS_NARROWEST_FIRST,
    ScoredLearning,
    Selection,
    select,
    select_indexed,
)
from learning_service.journal_client import JournalClient
from learning_service.model import Scope, ScopeKind
from learning_service.quarantine import SourceQuarantine
from learning_service.store import Q, add_counter
from learning_service.term_index import TERMS_VERSION, revision_terms
from learning_service.text import asks_for_durable_memory, overlap_score, term_set

ROOT = Path(__file__).resolve().parent.parent
Q0004 = Queries(Path(__file__).with_name("learned_context_0004.sql"))
SUBJECT = "bench"
WORKSPACE = "default"
SESSION = "s-bench"
PERSONA = "p0"
PROJECTS = ["pr0", "pr1"]
SCOPES = [
    Scope(ScopeKind.SESSION, SESSION),
    Scope(ScopeKind.PERSONA, PERSONA),
    *(Scope(ScopeKind.PROJECT, p) for p in PROJECTS),
    Scope(ScopeKind.WORKSPACE, "default"),
]
MAX_ENTRIES = 8
VOCABULARY = 20_000
# Zipf-Mandelbrot rank shift: the commonest content word is ~1.2% of terms, as
# in English once the stop words (which index_terms drops) are gone.
ZIPF_SHIFT = 10
STOP = ["the", "is", "a", "of", "to", "and", "we", "for", "on", "with", "what", "how"]
_T0 = datetime(2025, 1, 1, tzinfo=UTC)
_ONSETS = [*"bcdfghjklmnprstvwz", "br", "ch", "dr", "fl", "gr", "kl", "pl", "qu", "sh", "st", "tr"]
_VOWELS = [*"aeiou", "ai", "ea", "io", "ou"]
_CODAS = ["", "n", "r", "s", "l", "m", "t", "nd", "st", "x"]


class Vocabulary:
    def __init__(self, size: int, seed: int) -> None:
        rng = random.Random(seed)
        seen: set[str] = set()
        while len(seen) < size:
            word = "".join(
                rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
                for _ in range(rng.choice((2, 2, 3)))
            )
            seen.add(word)
        self.words = sorted(seen)
        rng.shuffle(self.words)
        weights = [1 / (rank + 1 + ZIPF_SHIFT) for rank in range(size)]
        total = sum(weights)
        self.cumulative: list[float] = []
        acc = 0.0
        for w in weights:
            acc += w / total
            self.cumulative.append(acc)

    def sample(self, rng: random.Random, n: int) -> list[str]:
        return rng.choices(self.words, cum_weights=self.cumulative, k=n)


def full_scan(db: Database, pending_input: str) -> Selection:
    """The read path before migration 0004, verbatim: every eligible row in
    scope scored in Python, the counters committed."""
    keys = [s.key for s in SCOPES]
    with db.connection() as conn:
        eligible = conn.execute(
            Q["eligible_in_scopes"],
            {"scope_keys": keys, "subject": SUBJECT, "workspace": WORKSPACE},
        ).fetchall()
        conn.execute(Q0004["revision_watermark"]).fetchone()
        picked = select(eligible, pending_input, MAX_ENTRIES)
        metrics = {
            "context_omitted_zero_score_total": picked.omitted_zero_score,
            "context_omitted_by_limit_total": picked.omitted_by_limit,
            "context_recency_fallback_total": int(picked.recency_fallback),
            "context_entries_returned_total": len(picked.chosen),
        }
        if any(metrics.values()):
            with conn.transaction():
                for name, amount in metrics.items():
                    add_counter(conn, name, amount)
    return picked


def _rank_0004(s: ScoredLearning) -> tuple[float, int, float, str]:
    kinds = SCOPE_KINDS_NARROWEST_FIRST
    return (
        -s.score,
        kinds.index(s.row["scope_kind"]),
        -s.row["created_at"].timestamp(),
        str(s.row["learning_id"]),
    )


def read_0004(db: Database, pending_input: str) -> Selection:
    """The read of migration 0004, verbatim (its select_indexed in its
    pipelined read-only transaction with the watermark)."""
    query = term_set(pending_input)
    args = {
        "scope_keys": [s.key for s in SCOPES],
        "subject": SUBJECT,
        "workspace": WORKSPACE,
        "terms": sorted(query),
        "terms_version": TERMS_VERSION,
        "scope_order": SCOPE_KINDS_NARROWEST_FIRST,
        "limit": MAX_ENTRIES,
    }
    with read_snapshot(db, pipeline=True) as conn:
        versioned = conn.execute(Q0004["revision_watermark"])
        counted = conn.execute(Q0004["context_eligible_count"], args)
        ranked = conn.execute(Q0004["context_hits"], args) if query else None
        unindexed = conn.execute(Q0004["context_unindexed"], args)
        eligible_row = counted.fetchone()
        eligible = int(eligible_row["eligible"]) if eligible_row else 0
        versioned.fetchone()
        if not eligible:
            return Selection([], matched=0)
        indexed = ranked.fetchall() if ranked is not None else []
        matched = int(indexed[0]["matched"]) if indexed else 0
        hits = [ScoredLearning(r, float(r["score"])) for r in indexed]
        for row in unindexed.fetchall():
            score = overlap_score(query, term_set(row["content"]))
            if score > 0:
                hits.append(ScoredLearning(row, score))
                matched += 1
        if hits:
            hits.sort(key=_rank_0004)
            return Selection(
                hits[:MAX_ENTRIES],
                matched=matched,
                omitted_zero_score=eligible - matched,
                omitted_by_limit=max(0, matched - MAX_ENTRIES),
            )
        if asks_for_durable_memory(pending_input):
            recent = conn.execute(Q0004["context_recent"], args).fetchall()
            return Selection(
                [ScoredLearning(r, 0.0) for r in recent],
                matched=eligible,
                recency_fallback=True,
                omitted_by_limit=max(0, eligible - MAX_ENTRIES),
            )
        return Selection([], matched=0, omitted_zero_score=eligible)


def read_new(db: Database, pending_input: str) -> Selection:
    """The read as a suite on the journal's database serves it: the journal's
    quarantine tables in the statement."""
    params = {"scope_keys": [s.key for s in SCOPES], "subject": SUBJECT, "workspace": WORKSPACE}
    return select_indexed(db, params, pending_input, MAX_ENTRIES, "journal")[0]


def grow(
    url: str, vocab: Vocabulary, rng: random.Random, start: int, total: int, visible: float
) -> None:
    """Add learnings number start..total-1 straight to the schema."""
    candidates: list[tuple[Any, ...]] = []
    learnings: list[tuple[Any, ...]] = []
    revisions: list[tuple[Any, ...]] = []
    quarantined: list[str] = []
    for i in range(start, total):
        if rng.random() < visible:
            kind, scope_id = rng.choice(
                [("session", SESSION), ("persona", PERSONA)]
                + [("project", p) for p in PROJECTS]
                + [("workspace", "default")] * 2
            )
            subject = SUBJECT
        else:
            kind, scope_id = rng.choice(
                [
                    ("session", f"s{rng.randrange(2000)}"),
                    ("persona", f"p{rng.randrange(1, 10)}"),
                    ("project", f"pr{rng.randrange(2, 50)}"),
                ]
            )
            if kind == "session" and rng.random() < 0.01:
                scope_id = SESSION  # another subject's session of the same id
            subject = f"other{rng.randrange(200)}"
        content = " ".join(vocab.sample(rng, rng.randint(6, 14))).capitalize()
        roll = rng.random()
        tier = "provisional" if roll < 0.05 else "active"
        sensitivity = "sensitive" if 0.05 <= roll < 0.08 else "normal"
        expires = _T0 if 0.10 <= roll < 0.11 else None
        run_id = f"run-{i}"
        if 0.11 <= roll < 0.115:
            quarantined.append(run_id)
        candidate_id, learning_id = uuid.uuid4(), uuid.uuid4()
        digest = hashlib.sha256(content.encode()).hexdigest()
        created = _T0 + timedelta(seconds=i)
        common = (kind, scope_id, "fact", content, digest, 90, run_id, subject, WORKSPACE)
        candidates.append((candidate_id, "daemon", *common, sensitivity, expires, created))
        learnings.append(
            (
                learning_id,
                candidate_id,
                "daemon",
                *common,
                sensitivity,
                expires,
                "verified",
                "automatic",
                "bench",
                created,
            )
        )
        terms = revision_terms(content)
        revisions.append(
            (
                learning_id,
                1,
                "active",
                tier,
                "published",
                "bench",
                terms["terms"],
                terms["terms_version"],
            )
        )
        if 0.08 <= roll < 0.10:
            revisions.append(
                (
                    learning_id,
                    2,
                    "revoked",
                    tier,
                    "revoked",
                    "bench",
                    terms["terms"],
                    terms["terms_version"],
                )
            )
    cols = (
        "scope_kind, scope_id, kind, content, content_sha256, confidence, source_run_id,"
        " source_subject, source_workspace"
    )
    with psycopg.connect(url) as conn, conn.transaction():
        with conn.cursor().copy(
            f"COPY learning.candidates (candidate_id, origin, {cols}, sensitivity, expires_at,"
            " created_at) FROM STDIN"
        ) as copy:
            for row in candidates:
                copy.write_row(row)
        with conn.cursor().copy(
            f"COPY learning.learnings (learning_id, candidate_id, origin, {cols}, sensitivity,"
            " expires_at, verification_status, policy_decision, policy_actor, created_at)"
            " FROM STDIN"
        ) as copy:
            for row in learnings:
                copy.write_row(row)
        with conn.cursor().copy(
            "COPY learning.learning_revisions (learning_id, revision, status, publish_tier,"
            " action, actor, terms, terms_version) FROM STDIN"
        ) as copy:
            for row in revisions:
                copy.write_row(row)
        for run_id in quarantined:
            # The journal's ledger entry and projection (what Quarantine
            # writes) and the plane's copy of it (what the sync writes).
            entry = conn.execute(
                "INSERT INTO journal.quarantine_ledger (record_kind, record_id, action, reason,"
                " actor, subject, workspace) VALUES ('run_record', %s, 'quarantine', 'bench',"
                " 'bench', %s, %s) RETURNING entry_id, recorded_at",
                (run_id, SUBJECT, WORKSPACE),
            ).fetchone()
            assert entry is not None
            conn.execute(
                "INSERT INTO journal.quarantined (record_kind, record_id, entry_id, since)"
                " VALUES ('run_record', %s, %s, %s)",
                (run_id, entry[0], entry[1]),
            )
            conn.execute(
                "INSERT INTO learning.source_quarantine (record_kind, record_id, quarantined,"
                " change_cursor) VALUES ('run_record', %s, true, 1)",
                (run_id,),
            )
        conn.execute("ANALYZE learning.learnings")
        conn.execute("ANALYZE learning.learning_state")
        conn.execute("ANALYZE learning.source_quarantine")
        conn.execute("ANALYZE journal.quarantined")
        conn.execute("ANALYZE journal.quarantine_ledger")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM (ANALYZE) learning.learning_state")


def inputs(vocab: Vocabulary, rng: random.Random, n: int) -> list[str]:
    out: list[str] = []
    for _ in range(n):
        words = vocab.sample(rng, rng.randint(6, 16)) + rng.sample(STOP, 3)
        if rng.random() < 0.05:
            words = [f"zz{rng.randrange(10**6)}q" for _ in range(4)]
        rng.shuffle(words)
        text = " ".join(words)
        if rng.random() < 0.05:
            text = f"Use durable memory: {text}"
        out.append(text.capitalize() + "?")
    return out


def stats(latencies: list[float]) -> dict[str, float]:
    return {
        "calls": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 3),
        "p99_ms": round(percentile(latencies, 99) * 1000, 3),
    }


def timed(
    fn: Callable[[str], Any], texts: Sequence[str], repeats: int
) -> tuple[list[float], list[Any]]:
    """(latencies, answers): one warm-up call per input (its answer kept),
    then `repeats` timed rounds over all inputs."""
    results = [fn(t) for t in texts]
    latencies: list[float] = []
    for _ in range(repeats):
        for text in texts:
            started = time.perf_counter()
            fn(text)
            latencies.append(time.perf_counter() - started)
    return latencies, results


def alternating(
    fns: Mapping[str, Callable[[str], Any]], texts: Sequence[str], repeats: int
) -> tuple[dict[str, list[list[float]]], dict[str, list[Any]]]:
    """Every input through every function in turn (so a change of machine
    load hits all alike), the order reversed from one pair of inputs to the next (a
    call's place in the turn changes its latency on a loaded machine: the
    same suite called first and second differed by 10-15%): one warm-up
    round (answers kept), then `repeats` timed rounds. Latencies by
    function, as [even inputs, odd inputs]."""
    answers = {name: [fn(t) for t in texts] for name, fn in fns.items()}
    latencies: dict[str, list[list[float]]] = {name: [[], []] for name in fns}
    turns = [list(fns.items()), list(fns.items())[::-1]]
    for round_ in range(repeats):
        for i, text in enumerate(texts):
            # By pairs of inputs: each half (even, odd) gets both orders alike.
            for name, fn in turns[(i // 2 + round_) % 2]:
                started = time.perf_counter()
                fn(text)
                latencies[name][i % 2].append(time.perf_counter() - started)
    return latencies, answers


def answer(picked: Selection) -> tuple[Any, ...]:
    return (
        [(str(s.row["learning_id"]), round(s.score, 12)) for s in picked.chosen],
        picked.omitted_zero_score,
        picked.omitted_by_limit,
        picked.recency_fallback,
    )


def rpc_answer(response: pb.GetLearnedContextResponse) -> tuple[Any, ...]:
    """answer() of a GetLearnedContext response."""
    return (
        [(e.learning.learning_id, round(e.score, 12)) for e in response.entries],
        response.omitted_zero_score,
        response.omitted_by_limit,
        response.recency_fallback,
    )


def halves(name: str, split: list[list[float]]) -> dict[str, Any]:
    return {
        name: stats(split[0] + split[1]),
        f"{name}_half_a": stats(split[0]),
        f"{name}_half_b": stats(split[1]),
    }


def ratio(base: dict[str, float], new: dict[str, float]) -> float:
    return round(base["p50_ms"] / new["p50_ms"], 2)


def measure(url: str, texts: list[str], repeats: int) -> dict[str, Any]:
    db = Database(url, max_size=4, name="bench").open()
    try:
        scope = {"scope_keys": [s.key for s in SCOPES], "subject": SUBJECT, "workspace": WORKSPACE}
        with db.connection() as conn:
            row = conn.execute(Q0004["context_eligible_count"], scope).fetchone()
        eligible = int(row["eligible"]) if row else 0
        # The full scan costs ~eligible/25 ms a call: fewer inputs where it is slow.
        scan_texts = texts[: max(10, min(len(texts), 40_000 // max(1, eligible)))]
        scan_latencies, scan_answers = timed(lambda t: full_scan(db, t), scan_texts, 1)
        split, answers = alternating(
            {"read_0004": lambda t: read_0004(db, t), "read_new": lambda t: read_new(db, t)},
            texts,
            repeats,
        )
        new_answers = dict(zip(texts, answers["read_new"], strict=True))
        report: dict[str, Any] = {
            "eligible_in_scope": eligible,
            "full_scan": stats(scan_latencies),
            **halves("read_0004", split["read_0004"]),
            **halves("read_new", split["read_new"]),
        }
        report["ratio_p50_vs_0004"] = ratio(report["read_0004"], report["read_new"])
        report["ratio_p50_vs_full_scan"] = ratio(report["full_scan"], report["read_new"])
        report["mismatches_vs_0004"] = sum(
            answer(a) != answer(b)
            for a, b in zip(answers["read_0004"], answers["read_new"], strict=True)
        )
        report["mismatches_vs_full_scan"] = sum(
            answer(old) != answer(new_answers[t])
            for t, old in zip(scan_texts, scan_answers, strict=True)
        )
        report["compared_with_full_scan"] = len(scan_texts)
        entries = [len(a.chosen) for a in answers["read_new"]]
        report["mean_entries"] = round(sum(entries) / len(entries), 2)
        return report
    finally:
        db.close()


# A suite (journal and learning, port 0) of the checkout in the working
# directory, until its stdin closes; prints its port and where its
# learning_service was imported from.
SERVE = """
import sys
from bench._common import in_process_settings
from engram.server import start_suite
import learning_service.context as context
suite = start_suite(in_process_settings(sys.argv[1]), ["journal", "learning"])
print(suite.port, context.__file__, flush=True)
sys.stdin.read()
suite.stop(grace=1)
"""


@contextmanager
def suite_process(checkout: Path, url: str) -> Iterator[tuple[int, str]]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "OPENBLAS_NUM_THREADS": "1"}
    child = subprocess.Popen(
        [sys.executable, "-c", SERVE, url],
        cwd=checkout,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        port, source = child.stdout.readline().split(maxsplit=1)
        yield int(port), source.strip()
    finally:
        assert child.stdin is not None
        child.stdin.close()
        child.wait(timeout=30)


def rpc_call(stub: pb_grpc.LearningServiceStub) -> Callable[[str], Any]:
    def call(text: str) -> Any:
        return stub.GetLearnedContext(
            pb.GetLearnedContextRequest(
                subject=SUBJECT,
                workspace=WORKSPACE,
                session_id=SESSION,
                persona_id=PERSONA,
                project_ids=PROJECTS,
                pending_input=text,
                max_entries=MAX_ENTRIES,
            )
        )

    return call


# The learned-context statement of the checkout in the working directory
# (as a suite on the journal's database composes it).
STATEMENT = """
import sys
from learning_service.context import CONTEXT_READ
sys.stdout.write(CONTEXT_READ["journal"])
"""


def checkout_statement(checkout: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(checkout), "OPENBLAS_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", STATEMENT],
        cwd=checkout,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def statement_call(db: Database, statement: str) -> Callable[[str], Any]:
    """One statement as select_indexed runs it (its generic plan, one
    pipeline sync); answers as (part, learning id, score) and the counts."""
    scope = {"scope_keys": [s.key for s in SCOPES], "subject": SUBJECT, "workspace": WORKSPACE}

    def call(text: str) -> Any:
        args = {
            **scope,
            "terms": sorted(term_set(text)),
            "scope_order": SCOPE_KINDS_NARROWEST_FIRST,
            "limit": MAX_ENTRIES,
            "fallback": asks_for_durable_memory(text),
        }
        with db.connection() as conn:
            with conn.pipeline():
                conn.execute(Q["generic_plan"])
                found = conn.execute(statement, args, prepare=True)
            rows = found.fetchall()
        return (
            rows[0]["eligible"],
            rows[0]["matched"],
            sorted((r["part"], str(r["learning_id"]), r["score"]) for r in rows),
        )

    return call


def measure_statements(url: str, texts: list[str], repeats: int, baseline: Path) -> dict[str, Any]:
    """This checkout's statement and the baseline's, in process on one pool,
    in alternation: the database's share of the RPC without gRPC's noise."""
    db = Database(url, max_size=2, name="bench-statements").open()
    try:
        calls = {
            "statement_new": statement_call(db, checkout_statement(ROOT)),
            "statement_baseline": statement_call(db, checkout_statement(baseline)),
        }
        split, answers = alternating(calls, texts, repeats)
        report: dict[str, Any] = {}
        for name in calls:
            report |= halves(name, split[name])
        report["ratio_statement_p50_vs_baseline"] = ratio(
            report["statement_baseline"], report["statement_new"]
        )
        report["statement_mismatches_vs_baseline"] = sum(
            a != b
            for a, b in zip(answers["statement_baseline"], answers["statement_new"], strict=True)
        )
        return report
    finally:
        db.close()


def measure_grpc(url: str, texts: list[str], repeats: int, baseline: Path | None) -> dict[str, Any]:
    checkouts = {"rpc_new": ROOT} | ({"rpc_baseline": baseline} if baseline else {})
    with ExitStack() as stack:
        calls: dict[str, Callable[[str], Any]] = {}
        sources: dict[str, str] = {}
        ports: dict[str, int] = {}
        for name, checkout in checkouts.items():
            ports[name], sources[name] = stack.enter_context(suite_process(checkout, url))
            channel = open_channel(f"127.0.0.1:{ports[name]}")
            stack.callback(channel.close)
            calls[name] = rpc_call(pb_grpc.LearningServiceStub(channel))
        split, answers = alternating(calls, texts, repeats)
        report: dict[str, Any] = {"served_from": sources}
        for name in calls:
            report |= halves(name, split[name])
        if baseline:
            report["ratio_rpc_p50_vs_baseline"] = ratio(report["rpc_baseline"], report["rpc_new"])
            report["rpc_mismatches_vs_baseline"] = sum(
                rpc_answer(a) != rpc_answer(b)
                for a, b in zip(answers["rpc_baseline"], answers["rpc_new"], strict=True)
            )
        journal = JournalClient(f"127.0.0.1:{ports['rpc_new']}", "", 5.0)
        stack.callback(journal.close)
        db = Database(url, max_size=2, name="bench-sync").open()
        stack.callback(db.close)
        sync = SourceQuarantine(db, journal)
        quarantine_sync, _ = timed(lambda _t: sync.sync(), texts, repeats)
        report["quarantine_sync_alone"] = stats(quarantine_sync)
        return report


def run(args: argparse.Namespace) -> dict[str, Any]:
    vocab = Vocabulary(VOCABULARY, seed=3)
    texts = inputs(vocab, random.Random(9), args.queries)
    report: dict[str, Any] = {
        "queries": args.queries,
        "repeats": args.repeats,
        "in_scope_target": args.in_scope,
        "sizes": {},
    }
    with server(args.database_url) as server_url:
        for size in args.sizes:
            report["sizes"][str(size)] = run_size(server_url, vocab, texts, size, args)
    return report


@contextmanager
def server(url: str) -> Iterator[str]:
    """The given server, or an embedded one whose data directory is removed after."""
    if url:
        yield url
        return
    directory = Path(tempfile.mkdtemp(prefix="engram-bench-", dir="/tmp"))
    embedded = start_embedded(directory)
    try:
        yield embedded.url
    finally:
        embedded.stop()
        shutil.rmtree(directory, ignore_errors=True)


def run_size(
    server_url: str, vocab: Vocabulary, texts: list[str], size: int, args: argparse.Namespace
) -> dict[str, Any]:
    with scratch_database(server_url) as url:
        migrations.apply(url, "journal", ROOT / "memory_service" / "migrations")
        migrations.apply(url, "learning", ROOT / "learning_service" / "migrations")
        started = time.perf_counter()
        grow(url, vocab, random.Random(5), 0, size, min(1.0, args.in_scope / size))
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(Q0004["baseline_index"])
            conn.execute("VACUUM (ANALYZE) learning.learning_state, learning.learning_terms")
        load_s = time.perf_counter() - started
        load_before = os.getloadavg()[0]
        entry = measure(url, texts, args.repeats)
        entry["load_s"] = round(load_s, 1)
        if args.baseline_checkout:
            entry.update(measure_statements(url, texts, args.repeats, args.baseline_checkout))
        entry.update(measure_grpc(url, texts, args.repeats, args.baseline_checkout))
        entry["load_average_1m"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
        print(json.dumps({size: entry}), flush=True)
        return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 100000])
    parser.add_argument(
        "--in-scope",
        type=int,
        default=1000,
        help="learnings in the reading session's scopes (the rest are others')",
    )
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--database-url", default="", help="a server to use (default: embedded)")
    parser.add_argument(
        "--baseline-checkout",
        type=Path,
        help="another checkout (e.g. main) whose suite is timed over gRPC in alternation",
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    report = run(args)
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
