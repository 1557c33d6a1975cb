"""CommitTurn throughput and latency over gRPC, against a plain psycopg
INSERT loop of the same rows measured in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/commit_turn_bench.py [--turns 2000]

The baseline inserts the same turn rows into a table with only a primary key,
one transaction per row: the cost of durability alone. CommitTurn adds
validation, idempotency (check, advisory lock, check), the canonical event,
the episode upsert (HNSW + GIN indexes), feed cursors and the gRPC hop.
The embedding worker is disabled so the figures isolate the commit path
(commits never wait for it anyway).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import scratch_database, summarize
from engram.channels import open_channel
from engram.config import Settings
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.server import start_suite


def turn_text(i: int) -> tuple[str, str]:
    return (
        f"Turn {i}: please remember that meeting {i} moved to room {i % 97}.",
        f"Noted: meeting {i} is now in room {i % 97}.",
    )


def run_clients(clients: int, per_client: int, one: Callable[[int], None]) -> dict[str, float]:
    latencies: list[float] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)

    def worker(c: int) -> None:
        local: list[float] = []
        barrier.wait()
        for k in range(per_client):
            started = time.perf_counter()
            one(c * per_client + k)
            local.append(time.perf_counter() - started)
        with lock:
            latencies.extend(local)

    threads = [threading.Thread(target=worker, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    barrier.wait()
    started = time.perf_counter()
    for t in threads:
        t.join()
    return summarize(latencies, time.perf_counter() - started)


def baseline(url: str, clients: int, per_client: int, offset: int) -> dict[str, float]:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_turns (id bigint GENERATED ALWAYS AS "
            "IDENTITY PRIMARY KEY, subject text, session_id text, user_text text, "
            "assistant_text text)"
        )
    local = threading.local()

    def one(i: int) -> None:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = psycopg.connect(url, autocommit=True)
        user, assistant = turn_text(offset + i)
        with conn.transaction():
            conn.execute(
                "INSERT INTO bench_turns (subject, session_id, user_text, "
                "assistant_text) VALUES (%s, %s, %s, %s)",
                ("bench", f"s{i % 50}", user, assistant),
            )

    return run_clients(clients, per_client, one)


def grpc_commits(
    stub: pb_grpc.JournalServiceStub, clients: int, per_client: int, offset: int
) -> dict[str, float]:
    def one(i: int) -> None:
        user, assistant = turn_text(offset + i)
        stub.CommitTurn(
            pb.CommitTurnRequest(
                subject="bench",
                session_id=f"s{i % 50}",
                user_text=user,
                assistant_text=assistant,
                request_id=str(uuid.uuid4()),
                learning_eligible=True,
            )
        )

    return run_clients(clients, per_client, one)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=2000, help="commits per configuration")
    parser.add_argument("--database-server-url", default="", help="default: embedded")
    args = parser.parse_args()
    with scratch_database(args.database_server_url) as url:
        settings = Settings.load(
            {
                "listen": "127.0.0.1:0",
                "database_url": url,
                "embedder": "hashing",
                "workers_enabled": False,
                "metrics_port": -1,
                "log_level": "WARNING",
            },
            env={},
        )
        suite = start_suite(settings, ["journal"])
        channel = open_channel(suite.address)
        stub = pb_grpc.JournalServiceStub(channel)
        rows = []
        offset = 0
        for clients in (1, 8):
            per_client = max(1, args.turns // clients)
            base = baseline(url, clients, per_client, offset)
            commit = grpc_commits(stub, clients, per_client, offset)
            offset += clients * per_client
            rows.append((clients, base, commit))
        channel.close()
        suite.stop(grace=1)
    print(
        "| clients | baseline INSERT rows/s | CommitTurn/s | ratio | "
        "baseline p50/p99 ms | CommitTurn p50/p99 ms |"
    )
    print("|---|---|---|---|---|---|")
    for clients, base, commit in rows:
        print(
            f"| {clients} | {base['throughput']:.0f} | {commit['throughput']:.0f} | "
            f"{commit['throughput'] / base['throughput']:.2f} | "
            f"{base['p50_ms']:.2f} / {base['p99_ms']:.2f} | "
            f"{commit['p50_ms']:.2f} / {commit['p99_ms']:.2f} |"
        )


if __name__ == "__main__":
    main()
