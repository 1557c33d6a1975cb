"""The journal's read-only RPCs on the primary against a streaming standby
(--read-database-url), same data and queries in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/read_replica_bench.py [--turns 3000]

1. A primary on TCP and a standby cloned from it with pg_basebackup
   (engram.db.instance), both in a scratch directory; migrations on the primary.
2. --turns turns over --subjects subjects committed through CommitTurn, the
   embedding worker on, until every episode is embedded and the standby has
   replayed it all.
3. Two journal servers on port 0 over the same primary: one reading the
   primary (the baseline), one with read_database_url set to the standby.
   Each query of the mix (SearchEpisodes with dense and lexical candidates,
   FindExact of a word said, FindExact of a word never said,
   ReadSessionJournal of one session) runs on both, alternating which goes
   first, --repeats times after one warm-up.
4. The same mix again on the replica server while --writers clients commit
   turns on the primary, counting how many reads the standby served caught up
   and how many behind (coverage temporal PARTIAL).

Prints one JSON object: p50/p99 per RPC and server, the replica/primary
ratio of p50, and the caught-up share under writes.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import in_process_settings, percentile
from engram.channels import open_channel
from engram.cluster.processes import free_port
from engram.common.v1 import common_pb2 as cpb
from engram.db.instance import clone_standby, init_primary
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.server import Suite, migrate, start_suite
from memory_service.read_replica import STANDBY_SOURCE

WORDS = [
    "heron",
    "otter",
    "badger",
    "wren",
    "mill",
    "pond",
    "bridge",
    "lane",
    "dusk",
    "river",
    "meadow",
    "orchard",
    "lantern",
    "harbour",
    "ferry",
    "market",
    "cellar",
    "attic",
    "garden",
    "hedge",
    "willow",
    "copper",
]


def lag_bytes(primary_url: str, standby_url: str) -> int:
    with (
        psycopg.connect(primary_url, autocommit=True) as primary,
        psycopg.connect(standby_url, autocommit=True) as standby,
    ):
        row = primary.execute("SELECT pg_current_wal_flush_lsn()::text").fetchone()
        assert row is not None
        lag = standby.execute(
            "SELECT pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn())::bigint", (row[0],)
        ).fetchone()
    assert lag is not None
    return int(lag[0])


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def load(stub: pb_grpc.JournalServiceStub, turns: int, subjects: int, seed: int) -> None:
    rng = random.Random(seed)
    for i in range(turns):
        stub.CommitTurn(
            pb.CommitTurnRequest(
                subject=f"s{i % subjects}",
                session_id=f"session-{i % (subjects * 4)}",
                user_text=f"{sentence(rng, 12)} Turn {i}.",
                assistant_text=sentence(rng, 20),
                request_id=str(uuid.uuid4()),
                learning_eligible=True,
            )
        )


def wait_embedded(stub: pb_grpc.JournalServiceStub, timeout_s: float = 600) -> None:
    deadline = time.monotonic() + timeout_s
    while stub.GetStatus(pb.GetStatusRequest()).episodes_pending_embedding:
        if time.monotonic() > deadline:
            raise TimeoutError("embedding did not finish")
        time.sleep(0.2)


Query = Callable[[pb_grpc.JournalServiceStub], cpb.Coverage]


def queries(subjects: int, seed: int) -> dict[str, list[Query]]:
    rng = random.Random(seed + 1)

    def search(subject: str, text: str) -> Query:
        return lambda stub: (
            stub.SearchEpisodes(
                pb.SearchEpisodesRequest(subject=subject, query_text=text, limit=10)
            ).coverage
        )

    def find(subject: str, term: str) -> Query:
        return lambda stub: (
            stub.FindExact(pb.FindExactRequest(subject=subject, terms=[term])).coverage
        )

    def session(subject: str, session_id: str) -> Query:
        return lambda stub: (
            stub.ReadSessionJournal(
                pb.ReadSessionJournalRequest(subject=subject, session_id=session_id, page_size=100)
            ).coverage
        )

    mix: dict[str, list[Query]] = {"SearchEpisodes": [], "FindExact": [], "FindExact_absent": []}
    mix["ReadSessionJournal"] = []
    for i in range(20):
        subject = f"s{rng.randrange(subjects)}"
        mix["SearchEpisodes"].append(search(subject, f"{rng.choice(WORDS)} {rng.choice(WORDS)}"))
        mix["FindExact"].append(find(subject, rng.choice(WORDS)))
        mix["FindExact_absent"].append(find(subject, f"zyx{i}"))
        index = int(subject[1:])
        mix["ReadSessionJournal"].append(session(subject, f"session-{index}"))
    return mix


def timed(query: Query, stub: pb_grpc.JournalServiceStub) -> tuple[float, cpb.Coverage]:
    started = time.perf_counter()
    coverage = query(stub)
    return (time.perf_counter() - started) * 1000, coverage


def compare(
    mix: dict[str, list[Query]],
    primary: pb_grpc.JournalServiceStub,
    replica: pb_grpc.JournalServiceStub,
    repeats: int,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for rpc, items in mix.items():
        times: dict[str, list[float]] = {"primary": [], "replica": []}
        served_by_standby = 0
        for query in items:
            query(primary), query(replica)  # warm-up
            for r in range(repeats):
                order = [("primary", primary), ("replica", replica)]
                for name, stub in order if r % 2 == 0 else order[::-1]:
                    ms, coverage = timed(query, stub)
                    times[name].append(ms)
                    if name == "replica" and any(
                        s.startswith(STANDBY_SOURCE) for s in coverage.source_systems
                    ):
                        served_by_standby += 1
        p50 = {k: percentile(v, 50) for k, v in times.items()}
        out[rpc] = {
            "n": len(times["primary"]),
            "primary_p50_ms": round(p50["primary"], 2),
            "primary_p99_ms": round(percentile(times["primary"], 99), 2),
            "replica_p50_ms": round(p50["replica"], 2),
            "replica_p99_ms": round(percentile(times["replica"], 99), 2),
            "replica_over_primary_p50": round(p50["replica"] / p50["primary"], 2),
            "replica_reads_served_by_standby": served_by_standby,
        }
    return out


def under_writes(
    mix: dict[str, list[Query]],
    replica: pb_grpc.JournalServiceStub,
    writer: pb_grpc.JournalServiceStub,
    writers: int,
    seconds: float,
) -> dict[str, Any]:
    stop = threading.Event()
    commits = [0] * writers

    def write(k: int) -> None:
        rng = random.Random(k)
        while not stop.is_set():
            writer.CommitTurn(
                pb.CommitTurnRequest(
                    subject=f"w{k}",
                    session_id="w",
                    user_text=sentence(rng, 12),
                    assistant_text=sentence(rng, 20),
                    request_id=str(uuid.uuid4()),
                )
            )
            commits[k] += 1

    threads = [threading.Thread(target=write, args=(k,)) for k in range(writers)]
    for thread in threads:
        thread.start()
    flat = [q for items in mix.values() for q in items]
    states = {"caught_up": 0, "behind": 0, "primary": 0}
    times: list[float] = []
    deadline = time.monotonic() + seconds
    i = 0
    try:
        while time.monotonic() < deadline:
            ms, coverage = timed(flat[i % len(flat)], replica)
            i += 1
            times.append(ms)
            source = [s for s in coverage.source_systems if s.startswith(STANDBY_SOURCE)]
            if not source:
                states["primary"] += 1
            elif (
                coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL
                and "behind" in (source[0])
            ):
                states["behind"] += 1
            else:
                states["caught_up"] += 1
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    return {
        "writers": writers,
        "commits_per_s": round(sum(commits) / seconds, 1),
        "reads": i,
        "read_p50_ms": round(percentile(times, 50), 2),
        "read_p99_ms": round(percentile(times, 99), 2),
        **states,
    }


def open_stub(suite: Suite) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(open_channel(suite.address, ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=3000)
    parser.add_argument("--subjects", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--writers", type=int, default=2)
    parser.add_argument("--write-seconds", type=float, default=15.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    base = Path(tempfile.mkdtemp(prefix="engram-bench-replica-", dir="/tmp"))
    primary = init_primary(base / "primary", free_port()).start()
    standby = None
    suites: list[Suite] = []
    try:
        url = primary.create_database("engram")
        migrate(url, ["journal"])
        standby = clone_standby(primary, base / "standby", free_port()).start()
        standby_url = standby.url("engram")
        settings = in_process_settings(url).with_(data_dir=str(base / "data"))
        loader = start_suite(settings.with_(workers_enabled=True), ["journal"])
        suites.append(loader)
        started = time.monotonic()
        load(open_stub(loader), args.turns, args.subjects, args.seed)
        wait_embedded(open_stub(loader))
        load_seconds = time.monotonic() - started
        while lag_bytes(url, standby_url) > 0:
            time.sleep(0.05)
        baseline = start_suite(settings, ["journal"])
        suites.append(baseline)
        replica = start_suite(settings.with_(read_database_url=standby_url), ["journal"])
        suites.append(replica)
        mix = queries(args.subjects, args.seed)
        report = {
            "turns": args.turns,
            "subjects": args.subjects,
            "load_and_embed_seconds": round(load_seconds, 1),
            "idle": compare(mix, open_stub(baseline), open_stub(replica), args.repeats),
            "under_writes": under_writes(
                mix, open_stub(replica), open_stub(loader), args.writers, args.write_seconds
            ),
        }
        print(json.dumps(report, indent=2))
    finally:
        for suite in reversed(suites):
            suite.stop(grace=0.2)
        if standby is not None:
            standby.stop(mode="immediate")
        primary.stop(mode="immediate")
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
