"""CommitTurn throughput and latency over gRPC, against a plain psycopg
INSERT loop of the same rows measured in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/commit_turn_bench.py [--turns 4000]
        [--processes 0,1,2]

The baseline inserts the same turn rows into a table with only a primary key,
one transaction per row: the cost of durability alone. CommitTurn adds
validation, idempotency (check, advisory lock, check), the canonical event,
the episode upsert (HNSW + GIN indexes), feed cursors and the gRPC hop.
The embedding worker is disabled so the figures isolate the commit path
(commits never wait for it anyway).

Server configurations (--processes): 0 runs the journal in this process, so
its Python shares one interpreter (one GIL) with the client threads; N >= 1
runs `engram serve journal --processes N` as a subprocess (N serving
processes on one port, SO_REUSEPORT) and the client threads here spread
their calls over CHANNELS_PER_PROCESS * N channels, since the kernel
assigns each connection to one process. Each configuration measures its own
baseline just before it.
"""

from __future__ import annotations

import argparse
import itertools
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import psycopg
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import in_process_settings, scratch_database, summarize
from engram.channels import open_channel
from engram.db import migrations
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.server import start_suite

ROOT = Path(__file__).resolve().parent.parent
CHANNELS_PER_PROCESS = 8


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
    opened: list[psycopg.Connection[tuple[object, ...]]] = []

    def one(i: int) -> None:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = psycopg.connect(url, autocommit=True)
            opened.append(conn)
        user, assistant = turn_text(offset + i)
        with conn.transaction():
            conn.execute(
                "INSERT INTO bench_turns (subject, session_id, user_text, "
                "assistant_text) VALUES (%s, %s, %s, %s)",
                ("bench", f"s{i % 50}", user, assistant),
            )

    try:
        return run_clients(clients, per_client, one)
    finally:
        for conn in opened:
            conn.close()


def grpc_commits(
    stubs: list[pb_grpc.JournalServiceStub], clients: int, per_client: int, offset: int
) -> dict[str, float]:
    # Each call takes the next channel: calls spread over every serving process.
    cycle = itertools.cycle(stubs)
    lock = threading.Lock()

    def one(i: int) -> None:
        with lock:
            stub = next(cycle)
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def journal_server(url: str, processes: int) -> Iterator[list[pb_grpc.JournalServiceStub]]:
    """Stubs to a journal: in this process (0) or `engram serve journal --processes N`."""
    if processes == 0:
        settings = in_process_settings(url)
        suite = start_suite(settings, ["journal"])
        channel = open_channel(suite.address)
        try:
            yield [pb_grpc.JournalServiceStub(channel)]
        finally:
            channel.close()
            suite.stop(grace=1)
        return
    address = f"127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "OPENBLAS_NUM_THREADS": "1",
        "ENGRAM_WORKERS_ENABLED": "false",
        "ENGRAM_LOG_LEVEL": "WARNING",
        "ENGRAM_METRICS_PORT": "-1",
        "ENGRAM_INDEX_PERSIST": "false",
    }
    data_dir = tempfile.mkdtemp(prefix="engram-bench-serve-", dir="/tmp")
    command = [sys.executable, "-c", "from engram.cli.main import main; main()", "serve"]
    command += ["journal", "--processes", str(processes), "--listen", address]
    command += ["--database-url", url, "--embedder", "hashing", "--data-dir", data_dir]
    server = subprocess.Popen(command, env=env, cwd=ROOT)
    # Separate connections (no shared subchannel), so the kernel spreads them.
    channels = [
        grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(CHANNELS_PER_PROCESS * processes)
    ]
    try:
        deadline = time.monotonic() + 120
        for channel in channels:
            health = health_pb2_grpc.HealthStub(channel)
            while True:
                try:
                    status = health.Check(health_pb2.HealthCheckRequest(), timeout=2).status
                    if status == health_pb2.HealthCheckResponse.SERVING:
                        break
                except grpc.RpcError:
                    pass
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("engram serve journal did not start")
                time.sleep(0.2)
        yield [pb_grpc.JournalServiceStub(channel) for channel in channels]
    finally:
        for channel in channels:
            channel.close()
        server.terminate()
        server.wait(60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=4000, help="commits per configuration")
    parser.add_argument(
        "--processes",
        default="0,1,2",
        help="server configurations: 0 in this process, N: engram serve --processes N",
    )
    parser.add_argument("--database-server-url", default="", help="default: embedded")
    args = parser.parse_args()
    configurations = [int(p) for p in args.processes.split(",")]
    rows = []
    with scratch_database(args.database_server_url) as url:
        migrations.apply(url, "journal", ROOT / "memory_service" / "migrations")
        offset = 0
        for processes in configurations:
            with journal_server(url, processes) as stubs:
                grpc_commits(stubs, 8, 50, 10**7 + offset)  # warm up connections and plans
                for clients in (1, 8) if processes == 0 else (8,):
                    per_client = max(1, args.turns // clients)
                    base = baseline(url, clients, per_client, offset)
                    commit = grpc_commits(stubs, clients, per_client, offset)
                    offset += clients * per_client
                    rows.append((processes, clients, base, commit))
    print(
        "| server | clients | baseline INSERT rows/s | CommitTurn/s | ratio | "
        "baseline p50/p99 ms | CommitTurn p50/p99 ms |"
    )
    print("|---|---|---|---|---|---|---|")
    for processes, clients, base, commit in rows:
        where = "in-process" if processes == 0 else f"--processes {processes}"
        print(
            f"| {where} | {clients} | {base['throughput']:.0f} | {commit['throughput']:.0f} | "
            f"{commit['throughput'] / base['throughput']:.2f} | "
            f"{base['p50_ms']:.2f} / {base['p99_ms']:.2f} | "
            f"{commit['p50_ms']:.2f} / {commit['p99_ms']:.2f} |"
        )


if __name__ == "__main__":
    main()
