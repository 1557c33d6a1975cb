"""GetSessionContext over one session of 10k turns, over gRPC.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/transcript_bench.py [--turns 10000]

Seeds one session with --turns committed turns (8 committing clients), calls
GetSessionContext until the pruned turns are all analysed (512 per call, the
built-in extractive analyzer, each journaled as `turn.analyzed`), then times
GetSessionContext (default policy: 8-turn tail, 4000-character checkpoint)
in these states, each incremental one beside its same-run baseline (the full
verification path: the session's verified prefix deleted before each call,
outside the timing, so the call verifies every turn and builds it again):

* compacted, steady: verified prefix and checkpoint projection both served;
* one new turn committed before each call (outside the timing): the call
  verifies the turns after the prefix, analyses the newly pruned one and
  renders a new checkpoint;
* compacted, dry_run: everything verified and rendered, nothing stored;
* compacted with a 600-token budget (tail packed, checkpoint dropped);
* declined: a tool event after the prefix (tail only, typed issue).

It also reports the seeding rate, the catch-up (first compaction) time and
checks that the checkpoint bytes are identical across calls and paths. The
tables are ANALYZEd after seeding and after the catch-up, as autovacuum
would in time, so the plans are those a running service gets.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg
from google.protobuf import struct_pb2

from bench._common import scratch_database, summarize
from engram.channels import open_channel
from engram.config import Settings
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.journal.v1 import transcript_pb2 as tpb
from engram.server import start_suite

SUBJECT, SESSION = "bench", "long-session"


def seed(stub: pb_grpc.JournalServiceStub, turns: int, clients: int = 8) -> float:
    def worker(c: int) -> None:
        for i in range(c, turns, clients):
            stub.CommitTurn(
                pb.CommitTurnRequest(
                    subject=SUBJECT,
                    session_id=SESSION,
                    user_text=f"Turn {i}: remember that task {i} is due on day {i % 28 + 1}. "
                    "It matters because the team depends on it.",
                    assistant_text=f"Noted: task {i} is due on day {i % 28 + 1}.",
                    request_id=str(uuid.uuid4()),
                    learning_eligible=False,
                )
            )

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def time_calls(
    stub: pb_grpc.JournalServiceStub,
    n: int,
    before: Callable[[], None] = lambda: None,
    **fields: object,
) -> tuple[dict[str, float], tpb.GetSessionContextResponse]:
    """n timed calls; ``before`` runs ahead of each, outside the timing."""
    latencies: list[float] = []
    response = tpb.GetSessionContextResponse()
    for _ in range(n):
        before()
        t0 = time.perf_counter()
        response = stub.GetSessionContext(
            tpb.GetSessionContextRequest(subject=SUBJECT, session_id=SESSION, **fields)  # type: ignore[arg-type]
        )
        latencies.append(time.perf_counter() - t0)
    return summarize(latencies, sum(latencies)), response


def analyze(url: str) -> None:
    """Planner statistics for the tables just filled (as autovacuum would
    gather them in time), so both paths run on the plans they get in service."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE journal.events")
        conn.execute("ANALYZE journal.changes")
        conn.execute("ANALYZE journal.quarantined")


def drop_prefix(url: str) -> Callable[[], None]:
    def drop() -> None:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DELETE FROM journal.session_verified_prefixes")

    return drop


def one_turn(stub: pb_grpc.JournalServiceStub) -> Callable[[], None]:
    counter = iter(range(10**9))

    def commit() -> None:
        i = next(counter)
        stub.CommitTurn(
            pb.CommitTurnRequest(
                subject=SUBJECT,
                session_id=SESSION,
                user_text=f"Later turn {i}: the review of item {i} moved to day {i % 28 + 1}.",
                assistant_text=f"Noted: item {i} on day {i % 28 + 1}.",
                request_id=str(uuid.uuid4()),
                learning_eligible=False,
            )
        )

    return commit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--database-server-url", default="", help="default: embedded")
    args = parser.parse_args()
    with scratch_database(args.database_server_url) as url:
        settings = Settings.load(
            {
                "listen": "127.0.0.1:0",
                "database_url": url,
                "embedder": "hashing",
                "metrics_port": -1,
                "log_level": "WARNING",
            },
            env={},
        )
        suite = start_suite(settings, ["journal"])
        channel = open_channel(suite.address)
        stub = pb_grpc.JournalServiceStub(channel)
        seeded = seed(stub, args.turns)
        print(f"seeded in {seeded:.1f} s", flush=True)
        analyze(url)
        # The first calls analyse the pruned turns (512 per call) and decline
        # with MISSING_ANALYSIS until every one is analysed.
        started = time.perf_counter()
        catch_up = 0
        while True:
            catch_up += 1
            t0 = time.perf_counter()
            probe = stub.GetSessionContext(
                tpb.GetSessionContextRequest(subject=SUBJECT, session_id=SESSION)
            )
            print(f"catch-up call {catch_up}: {time.perf_counter() - t0:.1f} s", flush=True)
            if probe.outcome == tpb.COMPACTION_OUTCOME_COMPACTED:
                break
        analysed = time.perf_counter() - started
        analyze(url)
        rows: list[tuple[str, dict[str, float], tpb.GetSessionContextResponse]] = []
        ratios: list[tuple[str, float]] = []
        drop = drop_prefix(url)
        commit = one_turn(stub)

        def both_ways(name: str, before: Callable[[], None] = lambda: None) -> None:
            fast, fast_r = time_calls(stub, args.calls, before)
            assert fast_r.checkpoint.sha256

            def before_full() -> None:
                before()
                drop()

            full, full_r = time_calls(stub, args.calls, before_full)
            assert full_r.outcome == fast_r.outcome
            rows.append((f"{name}, incremental", fast, fast_r))
            rows.append((f"{name}, full verification (baseline)", full, full_r))
            ratios.append((name, full["p50_ms"] / fast["p50_ms"]))

        time_calls(stub, 1)  # builds the verified prefix
        both_ways("compacted, steady")
        steady = rows[0][2]
        assert steady.checkpoint.from_projection
        both_ways("one new turn before each call", commit)
        rebuilt, second = time_calls(stub, args.calls, dry_run=True)
        rows.append(("compacted, dry_run (all verified, nothing stored)", rebuilt, second))
        # The same journal verified in full gives the same bytes.
        _, served = time_calls(stub, 1)
        assert second.checkpoint.sha256 == served.checkpoint.sha256
        budget, third = time_calls(stub, args.calls, budget_tokens=600)
        rows.append(("compacted, 600-token budget", budget, third))
        body = struct_pb2.Struct()
        body.update({"tool": "search"})
        # A tool event now sits before the tail once more turns follow it.
        stub.AppendEvent(
            pb.AppendEventRequest(
                event_type="tool.call.completed",
                subject=SUBJECT,
                session_id=SESSION,
                payload=body,
                provenance=pb.PROVENANCE_EXTERNAL,
                request_id=str(uuid.uuid4()),
            )
        )
        seed(stub, 16, clients=1)
        declined, fourth = time_calls(stub, args.calls)
        assert fourth.outcome == tpb.COMPACTION_OUTCOME_DECLINED
        rows.append(("declined (tool event in range)", declined, fourth))
        channel.close()
        suite.stop(grace=1)
    print(
        f"seeded {args.turns} turns in {seeded:.1f} s ({args.turns / seeded:.0f}/s); "
        f"first compaction after {catch_up} calls, {analysed:.1f} s (analysing every pruned turn)"
    )
    print("| state | p50 ms | p99 ms | mean ms | calls/s | tail | checkpoint chars | outcome |")
    print("|---|---|---|---|---|---|---|---|")
    for name, stats, response in rows:
        outcome = tpb.CompactionOutcome.Name(response.outcome).removeprefix("COMPACTION_OUTCOME_")
        print(
            f"| {name} | {stats['p50_ms']:.1f} | {stats['p99_ms']:.1f} | "
            f"{stats['mean_ms']:.1f} | {stats['throughput']:.1f} | {len(response.tail)} | "
            f"{len(response.checkpoint.text)} | {outcome.lower()} |"
        )
    for name, ratio in ratios:
        print(f"{name}: full verification / incremental, p50: {ratio:.1f}x")


if __name__ == "__main__":
    main()
