"""FindExact at 100k turns for one subject: the term indexes
(memory_service/migrations/0007_exact_terms_index.sql) against the linear scan
they replaced, on the same data in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/find_exact_bench.py [--turns 100000]

1. A scratch database migrated to 0006, before the term indexes.
2. A synthetic conversation corpus: --turns turns of one subject (40 per
   session, ~570 characters of user and assistant text each, 5% not
   learning-eligible, 3% repeating earlier content, 2% Chinese, some
   accented names) and --other-turns spread over 20 other subjects with the
   same vocabulary, loaded straight into journal.events and journal.episodes as
   CommitTurn writes them; 20 events and 20 episodes quarantined.
3. Baseline: bench/find_exact_linear.py (FindExact's pre-index queries,
   verbatim) on one query of each --baseline-classes class; and the write
   cost of a turn's two rows (the event, the episode upsert), --write-turns
   of them, one transaction each, synchronous_commit off (the CPU, not fsync).
4. Migration 0007 applied and timed (it backfills both indexes).
5. The write cost again, then the remaining migrations, then
   memory_service.find_exact.FindExact on the
   whole query mix (--repeats runs of each query), then JournalService.FindExact
   over gRPC. Indexed and linear results are compared where both ran.

Query classes: rare (a name in 1-5 turns), medium (20-100 turns), absent (a
word never said: an authoritative absence, with the variant guard and the
verifier), variant ("Zurich" when "Zürich" was said), unicode, cjk, two_terms
(a name and a frequent word), phrase (two adjacent words), common (a word in
~5-10% of turns: cost grows with matches, shown apart).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import hashlib
import itertools
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import in_process_settings, percentile, scratch_database
from bench.find_exact_linear import LinearFindExact
from engram.channels import open_channel
from engram.db import Database, migrations
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.server import start_suite
from engram.terms import STOP_WORDS, words
from memory_service.exact_terms import normalize_terms, terms_are_exact
from memory_service.find_exact import ExactQuery, FindExact
from memory_service.journal import canonical_content

ROOT = Path(__file__).resolve().parent.parent
MIGRATIONS = ROOT / "memory_service" / "migrations"
INDEX_MIGRATION = 7
SUBJECT = "bench"
WORKSPACE = "default"
_T0 = datetime(2025, 1, 1, tzinfo=UTC)
_ONSETS = [*"bcdfghjklmnprstvwz", "br", "ch", "dr", "fl", "gr", "kl", "pl", "qu", "sh", "st", "tr"]
_VOWELS = [*"aeiou", "ai", "ea", "io", "ou"]
_CODAS = ["", "n", "r", "s", "l", "m", "t", "nd", "st", "x"]
UNICODE_NAMES = ["Zürich", "São Paulo", "Ørsted", "Müller", "Kraków", "Reykjavík", "Москва"]
VARIANTS = ["Zurich", "Sao Paulo", "Orsted", "Muller", "Krakow"]
CJK = ["我住在北京", "上海", "东京大学", "附近", "今天", "天气", "很好", "我们", "朋友", "吃饭"]
CJK_TERMS = ["北京", "上海", "东京大学", "朋友", "吃饭"]
CLASSES = (
    "rare",
    "medium",
    "absent",
    "variant",
    "unicode",
    "cjk",
    "two_terms",
    "phrase",
    "common",
)

_EVENTS = """
INSERT INTO journal.events (event_type, subject, workspace, session_id, payload, provenance,
                            content_sha256, occurred_at)
SELECT 'conversation.turn.completed', x.subject, %(workspace)s, x.session_id, x.payload::jsonb,
       'generated_output_unverified', x.sha, x.at
FROM unnest(%(subjects)s::text[], %(sessions)s::text[], %(payloads)s::text[], %(shas)s::text[],
            %(ats)s::timestamptz[]) WITH ORDINALITY AS x(subject, session_id, payload, sha, at, n)
ORDER BY x.n
"""

# One episode per learning-eligible content, as CommitTurn's upserts leave it.
_EPISODES = """
INSERT INTO journal.episodes (subject, workspace, content_sha256, session_id, session_ids,
    user_text, assistant_text, first_seen_at, last_seen_at, first_event_id, last_event_id,
    occurrence_count)
SELECT g.subject, g.workspace, g.content_sha256, last.session_id, g.session_ids,
       last.payload ->> 'user_text', last.payload ->> 'assistant_text', g.first_at, g.last_at,
       g.first_id, g.last_id, g.n
FROM (SELECT subject, workspace, content_sha256, array_agg(DISTINCT session_id) AS session_ids,
             min(occurred_at) AS first_at, max(occurred_at) AS last_at,
             min(event_id) AS first_id, max(event_id) AS last_id, count(*) AS n
      FROM journal.events
      WHERE event_type = 'conversation.turn.completed'
        AND (payload ->> 'learning_eligible')::boolean
      GROUP BY subject, workspace, content_sha256) AS g
JOIN journal.events last ON last.event_id = g.last_id
"""

# A turn's two rows, one transaction: what a commit adds to the indexed tables.
_WRITE_EVENT = """
INSERT INTO journal.events (event_type, subject, workspace, session_id, payload, provenance,
                            content_sha256, occurred_at)
VALUES ('conversation.turn.completed', %(subject)s, %(workspace)s, %(session)s,
        %(payload)s::jsonb, 'generated_output_unverified', %(sha)s, now())
RETURNING event_id, occurred_at
"""
_WRITE_EPISODE = """
INSERT INTO journal.episodes AS e (subject, workspace, content_sha256, session_id, session_ids,
    user_text, assistant_text, first_seen_at, last_seen_at, first_event_id, last_event_id)
VALUES (%(subject)s, %(workspace)s, %(sha)s, %(session)s, ARRAY[%(session)s], %(user)s,
        %(assistant)s, %(at)s, %(at)s, %(event_id)s, %(event_id)s)
ON CONFLICT ON CONSTRAINT episodes_content_key DO UPDATE SET
    occurrence_count = e.occurrence_count + 1, last_seen_at = excluded.last_seen_at,
    last_event_id = excluded.last_event_id
"""


class _Zipf:
    def __init__(self, items: list[str], s: float) -> None:
        self.items = items
        self.cum = list(itertools.accumulate(1 / (r + 2) ** s for r in range(len(items))))

    def pick(self, rng: random.Random) -> str:
        return self.items[bisect.bisect_left(self.cum, rng.random() * self.cum[-1])]


def _synth(rng: random.Random, n: int, syllables: tuple[int, ...], avoid: set[str]) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        word = "".join(
            rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS)
            for _ in range(rng.choice(syllables))
        )
        if word not in avoid:
            avoid.add(word)
            out.append(word)
    return out


@dataclass
class Turn:
    subject: str
    session_id: str
    occurred_at: datetime
    eligible: bool
    user: str
    assistant: str


class Corpus:
    """Deterministic synthetic conversations over one vocabulary."""

    def __init__(self, seed: int) -> None:
        rng = random.Random(seed)
        taken = set(STOP_WORDS)
        self.vocab = _Zipf(sorted(STOP_WORDS) + _synth(rng, 30_000, (1, 2, 2, 3), taken), 1.05)
        self.entities = _Zipf([w.capitalize() for w in _synth(rng, 4000, (2, 3), taken)], 1.0)
        self.unused = [w.capitalize() for w in _synth(rng, 20, (3,), taken)]

    def turns(self, subject: str, n: int, seed: int) -> Iterator[Turn]:
        rng = random.Random(seed)
        made: list[tuple[str, str]] = []
        for i in range(n):
            if made and rng.random() < 0.03:
                user, assistant = made[rng.randrange(len(made))]
            elif rng.random() < 0.02:
                user = "".join(rng.choice(CJK) for _ in range(rng.randint(2, 6))) + "。"
                assistant = "好的，" + "".join(rng.choice(CJK) for _ in range(rng.randint(3, 9)))
            else:
                user = " ".join(self._sentence(rng) for _ in range(rng.randint(1, 2)))
                assistant = " ".join(self._sentence(rng) for _ in range(rng.randint(1, 10)))
            made.append((user, assistant))
            yield Turn(
                subject=subject,
                session_id=f"{subject}-s{i // 40}",
                occurred_at=_T0 + timedelta(minutes=7 * i),
                eligible=rng.random() >= 0.05,
                user=user,
                assistant=assistant,
            )

    def _sentence(self, rng: random.Random) -> str:
        out = [self.vocab.pick(rng) for _ in range(rng.randint(5, 16))]
        if rng.random() < 0.35:
            out.insert(rng.randrange(len(out) + 1), self.entities.pick(rng))
        if rng.random() < 0.04:
            out.insert(rng.randrange(len(out) + 1), rng.choice(UNICODE_NAMES))
        text = " ".join(out)
        return text[:1].upper() + text[1:] + rng.choice([".", "?", "!", ","])


def _payload(turn: Turn) -> tuple[str, str]:
    content = canonical_content(turn.user, turn.assistant)
    payload = {
        "user_text": turn.user,
        "assistant_text": turn.assistant,
        "canonical_content": content,
        "user_sha256": hashlib.sha256(turn.user.encode()).hexdigest(),
        "assistant_sha256": hashlib.sha256(turn.assistant.encode()).hexdigest(),
        "learning_eligible": turn.eligible,
        "run_id": "",
        "field_provenance": {
            "user_text": "user_input",
            "assistant_text": "generated_output_unverified",
        },
    }
    return json.dumps(payload, ensure_ascii=False), hashlib.sha256(content.encode()).hexdigest()


def load(url: str, turns: Iterator[Turn], stats: collections.Counter[str]) -> int:
    """Insert the turns; counts, per folded word, the bench subject's turns saying it."""
    loaded = 0
    with psycopg.connect(url, autocommit=True) as conn:
        batch: list[Turn] = []

        def flush() -> None:
            payloads = [_payload(t) for t in batch]
            conn.execute(
                _EVENTS,
                {
                    "workspace": WORKSPACE,
                    "subjects": [t.subject for t in batch],
                    "sessions": [t.session_id for t in batch],
                    "payloads": [p for p, _ in payloads],
                    "shas": [s for _, s in payloads],
                    "ats": [t.occurred_at for t in batch],
                },
            )
            batch.clear()

        for turn in turns:
            if turn.subject == SUBJECT:
                stats.update(set(words(turn.user)) | set(words(turn.assistant)))
            batch.append(turn)
            loaded += 1
            if len(batch) == 5000:
                flush()
        if batch:
            flush()
        conn.execute(_EPISODES)
    return loaded


_QUARANTINE = """
WITH entry AS (
    INSERT INTO journal.quarantine_ledger
        (record_kind, record_id, action, reason, actor, subject, workspace)
    VALUES (%(kind)s, %(id)s, 'quarantine', 'bench', 'bench', %(subject)s, %(workspace)s)
    RETURNING entry_id, recorded_at
)
INSERT INTO journal.quarantined (record_kind, record_id, entry_id, since)
SELECT %(kind)s, %(id)s, entry_id, recorded_at FROM entry
"""


def quarantine_some(url: str, rng: random.Random) -> None:
    """Quarantine 20 turn events and 20 episodes of the subject: the ledger entry and
    the projection FindExact reads (the change feed is not needed here)."""
    with psycopg.connect(url, autocommit=True) as conn:
        events = conn.execute(
            "SELECT event_id FROM journal.events WHERE subject = %s ORDER BY event_id", (SUBJECT,)
        ).fetchall()
        episodes = conn.execute(
            "SELECT episode_id FROM journal.episodes WHERE subject = %s ORDER BY first_event_id",
            (SUBJECT,),
        ).fetchall()
        picked = [("event", str(r[0])) for r in rng.sample(events, 20)]
        picked += [("episode", str(r[0])) for r in rng.sample(episodes, 20)]
        for kind, record_id in picked:
            conn.execute(
                _QUARANTINE,
                {"kind": kind, "id": record_id, "subject": SUBJECT, "workspace": WORKSPACE},
            )


def choose_queries(
    corpus: Corpus, stats: collections.Counter[str], turns: int, rng: random.Random
) -> dict[str, list[list[str]]]:
    def entities_between(low: int, high: int) -> list[str]:
        found = [e for e in corpus.entities.items if low <= stats[e.lower()] <= high]
        return rng.sample(found, min(5, len(found)))

    rare = entities_between(1, 5)
    common = [w for w in corpus.vocab.items[130:2000] if 0.05 <= stats[w] / turns <= 0.1]
    # From the subject's first turns: a name and the word after it (a phrase the
    # text contains), and a rare name with a frequent word of the same turn.
    names = {e.lower() for e in corpus.entities.items}
    phrases: list[str] = []
    pairs: list[list[str]] = []
    for turn in corpus.turns(SUBJECT, min(turns, 20_000), 1):
        if not turn.eligible:
            continue
        for first, second in itertools.pairwise(turn.assistant.split(" ")):
            name = first.lower()
            phrase = f"{first} {second}"
            if (
                name in names
                and stats[name] < 200
                and second.isalpha()
                and phrase not in phrases
                and len(phrases) < 5
            ):
                phrases.append(phrase)
        said = words(f"{turn.user} {turn.assistant}")
        rare_here = [w for w in said if w in names and stats[w] <= 5]
        frequent_here = [w for w in said if stats[w] >= 500 and w not in STOP_WORDS]
        if rare_here and frequent_here and len(pairs) < 5:
            pairs.append([rare_here[0], rng.choice(frequent_here)])
    return {
        "rare": [[e] for e in rare],
        "medium": [[e] for e in entities_between(20, 100)],
        "absent": [[w] for w in corpus.unused[:5]],
        "variant": [[v] for v in VARIANTS],
        "unicode": [[u] for u in UNICODE_NAMES[:5]],
        "cjk": [[c] for c in CJK_TERMS],
        "two_terms": pairs,
        "phrase": [[p] for p in phrases],
        "common": [[w] for w in rng.sample(common, min(5, len(common)))],
    }


def exact_query(terms: list[str]) -> ExactQuery:
    return ExactQuery(
        subject=SUBJECT,
        workspace=WORKSPACE,
        terms=normalize_terms(terms),
        normalization_exact=terms_are_exact(terms),
        session_id="",
        start=None,
        end=None,
        limit=20,
    )


def time_finds(
    finder: FindExact, queries: dict[str, list[list[str]]], repeats: int
) -> dict[str, Any]:
    per_class: dict[str, Any] = {}
    every: list[float] = []
    typical: list[float] = []
    for name, cases in queries.items():
        latencies: list[float] = []
        matched: list[int] = []
        for terms in cases:
            query = exact_query(terms)
            finder.find(query)  # warm the plan and the pages once
            for _ in range(repeats):
                started = time.perf_counter()
                result = finder.find(query)
                latencies.append(time.perf_counter() - started)
            matched.append(int(result.coverage.cardinality.matched_before_limit))
        every += latencies
        if name != "common":
            typical += latencies
        per_class[name] = {
            "queries": len(cases),
            "runs": len(latencies),
            "matched": matched,
            "p50_ms": percentile(latencies, 50) * 1000,
            "p99_ms": percentile(latencies, 99) * 1000,
        }
    return {
        "classes": per_class,
        "p50_ms": percentile(every, 50) * 1000,
        "p50_ms_without_common": percentile(typical, 50) * 1000,
        "p99_ms_without_common": percentile(typical, 99) * 1000,
    }


def time_baseline(
    db: Database, queries: dict[str, list[list[str]]], classes: list[str]
) -> dict[str, Any]:
    linear = LinearFindExact(db)
    out: dict[str, Any] = {}
    for name in classes:
        if not queries.get(name):
            continue
        terms = queries[name][0]
        started = time.perf_counter()
        result = linear.find(exact_query(terms))
        out[name] = {
            "terms": terms,
            "ms": (time.perf_counter() - started) * 1000,
            "matches": [m["event_id"] for m in result.matches],
            "matched": int(result.coverage.cardinality.matched_before_limit),
            "verifier": int(result.coverage.verifier.count),
            "normalization": int(result.coverage.dimensions.normalization),
        }
    return out


def time_writes(url: str, turns: list[Turn]) -> dict[str, float]:
    latencies: list[float] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SET synchronous_commit = off")
        for turn in turns:
            payload, sha = _payload(turn)
            started = time.perf_counter()
            with conn.transaction():
                event = conn.execute(
                    _WRITE_EVENT,
                    {
                        "subject": turn.subject,
                        "workspace": WORKSPACE,
                        "session": turn.session_id,
                        "payload": payload,
                        "sha": sha,
                    },
                ).fetchone()
                assert event is not None
                if turn.eligible:
                    conn.execute(
                        _WRITE_EPISODE,
                        {
                            "subject": turn.subject,
                            "workspace": WORKSPACE,
                            "sha": sha,
                            "session": turn.session_id,
                            "user": turn.user,
                            "assistant": turn.assistant,
                            "at": event[1],
                            "event_id": event[0],
                        },
                    )
            latencies.append(time.perf_counter() - started)
    return {
        "n": len(latencies),
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000,
        "mean_ms": statistics.fmean(latencies) * 1000,
    }


def time_grpc(url: str, queries: dict[str, list[list[str]]], repeats: int) -> dict[str, float]:
    settings = in_process_settings(url)
    suite = start_suite(settings, ["journal"])
    channel = open_channel(suite.address)
    try:
        stub = pb_grpc.JournalServiceStub(channel)
        latencies: list[float] = []
        for name, cases in queries.items():
            if name == "common":
                continue
            for terms in cases:
                request = pb.FindExactRequest(terms=terms, subject=SUBJECT)
                stub.FindExact(request)
                for _ in range(repeats):
                    started = time.perf_counter()
                    stub.FindExact(request)
                    latencies.append(time.perf_counter() - started)
    finally:
        channel.close()
        suite.stop(grace=1)
    return {
        "runs": len(latencies),
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
    }


def migrate_through(url: str, last: int) -> None:
    """Apply the journal's migrations up to and including ``last``."""
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(MIGRATIONS.glob("*.sql")):
            if int(path.name[:4]) <= last:
                shutil.copy(path, tmp)
        migrations.apply(url, "journal", Path(tmp))


def run(args: argparse.Namespace) -> dict[str, Any]:
    corpus = Corpus(seed=7)
    rng = random.Random(11)
    stats: collections.Counter[str] = collections.Counter()
    with scratch_database(args.database_server_url) as url:
        migrate_through(url, INDEX_MIGRATION - 1)
        started = time.perf_counter()
        others = (
            corpus.turns(f"other{k}", args.other_turns // 20, seed=100 + k) for k in range(20)
        )
        loaded = load(url, itertools.chain(corpus.turns(SUBJECT, args.turns, 1), *others), stats)
        quarantine_some(url, rng)
        db = Database(url, max_size=4).open()
        try:
            with psycopg.connect(url, autocommit=True) as conn:
                conn.execute("VACUUM ANALYZE journal.events")
                conn.execute("VACUUM ANALYZE journal.episodes")
            load_s = time.perf_counter() - started
            queries = choose_queries(corpus, stats, args.turns, rng)
            writes = list(corpus.turns("writer", 2 * args.write_turns, seed=99))
            print(f"loaded {loaded} turns in {load_s:.0f} s", file=sys.stderr)
            baseline = time_baseline(db, queries, args.baseline_classes.split(","))
            print("baseline done", file=sys.stderr)
            writes_before = time_writes(url, writes[: args.write_turns])
            started = time.perf_counter()
            migrate_through(url, INDEX_MIGRATION)
            migration_s = time.perf_counter() - started
            print(f"migration 0007 in {migration_s:.0f} s", file=sys.stderr)
            writes_after = time_writes(url, writes[args.write_turns :])
            # The rest of the journal's migrations (the commit-order feed of 0008 and
            # later), so FindExact runs on the schema it is written for.
            migrate_through(url, 10_000)
            indexed = time_finds(FindExact(db), queries, args.repeats)
            for name, old in baseline.items():
                new = FindExact(db).find(exact_query(old["terms"]))
                same = (
                    [m["event_id"] for m in new.matches] == old["matches"]
                    and new.coverage.cardinality.matched_before_limit == old["matched"]
                    and new.coverage.verifier.count == old["verifier"]
                    and new.coverage.dimensions.normalization == old["normalization"]
                )
                old["indexed_agrees"] = same
                old["indexed_ms"] = indexed["classes"][name]["p50_ms"]
                old["ratio"] = old["ms"] / old["indexed_ms"]
        finally:
            db.close()
        try:  # the suite applies every later migration first
            grpc_figures = time_grpc(url, queries, args.repeats)
        except (migrations.MigrationError, TypeError) as error:  # a tree mid-change
            print(f"gRPC figures skipped: {error}", file=sys.stderr)
            grpc_figures = {"runs": 0, "p50_ms": float("nan"), "p99_ms": float("nan")}
    return {
        "turns": args.turns,
        "other_turns": args.other_turns,
        "load_s": load_s,
        "migration_s": migration_s,
        "queries": queries,
        "baseline": baseline,
        "indexed": indexed,
        "grpc": grpc_figures,
        "writes_before": writes_before,
        "writes_after": writes_after,
    }


def print_tables(result: dict[str, Any]) -> None:
    indexed = result["indexed"]
    print(f"\n{result['turns']} turns for one subject (+{result['other_turns']} in 20 others)")
    print(f"migration 0007 (backfill of both indexes): {result['migration_s']:.1f} s\n")
    print("| class | queries | matched | p50 ms | p99 ms | linear ms | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, row in indexed["classes"].items():
        if not row["matched"]:  # a class a small corpus has no query for
            continue
        base = result["baseline"].get(name)
        linear = f"{base['ms']:.0f}" if base else ""
        ratio = f"{base['ratio']:.0f}x" if base else ""
        print(
            f"| {name} | {row['queries']} | {min(row['matched'])}-{max(row['matched'])} "
            f"| {row['p50_ms']:.1f} | {row['p99_ms']:.1f} | {linear} | {ratio} |"
        )
    print(
        f"\nall queries p50 {indexed['p50_ms']:.1f} ms; without 'common' p50 "
        f"{indexed['p50_ms_without_common']:.1f} ms, p99 {indexed['p99_ms_without_common']:.1f} ms"
    )
    grpc_figures = result["grpc"]
    print(
        f"JournalService.FindExact over gRPC (without 'common'): p50 "
        f"{grpc_figures['p50_ms']:.1f} ms, p99 {grpc_figures['p99_ms']:.1f} ms"
    )
    before, after = result["writes_before"], result["writes_after"]
    print(
        f"a turn's writes: p50 {before['p50_ms']:.2f} -> {after['p50_ms']:.2f} ms, mean "
        f"{before['mean_ms']:.2f} -> {after['mean_ms']:.2f} ms, max {before['max_ms']:.0f} -> "
        f"{after['max_ms']:.0f} ms"
    )
    agree = all(row.get("indexed_agrees") for row in result["baseline"].values())
    print(f"indexed results equal the linear scan's: {agree}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=100_000)
    parser.add_argument("--other-turns", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write-turns", type=int, default=500)
    parser.add_argument("--baseline-classes", default="rare,absent,unicode")
    parser.add_argument("--database-server-url", default="", help="default: embedded")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    result = run(args)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2, default=str))
    print_tables(result)


if __name__ == "__main__":
    main()
