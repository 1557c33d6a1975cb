"""Recall throughput with one RetrievalService replica against two, in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/retrieval_replicas.py --episodes 20000

One journal and two retrieval replicas, each an `engram serve <service>` process (the
hashing embedder, index persistence off, each replica building its own resident index
from the change feed), over the synthetic corpus of bench/retrieval_corpus.py (loaded
once per size under --out and reused). Before measuring, both replicas must report the
same applied cursor and give the same hits for a sample of queries (what
tests/integration/test_retrieval_replicas.py proves in general).

Load: 8 client processes (not threads: one interpreter lock would cap the clients
before the servers), spawned once, each with its own channel to each replica, calling
Recall back to back with a precomputed query vector (k = 10) for --seconds per phase,
all starting together at a barrier. In the "1 replica" phase every client calls the
first replica; in "2 replicas" clients alternate between the two. The phases alternate
for --rounds rounds (1 then 2, twice, then 2 then 1, twice, ...) so machine noise hits
both alike; the query list is split into two halves, used in turn round by round, and
each phase's figures are reported per half beside the total. Reported: throughput
(calls/s), p50 and p99 latency, the ratio 2 replicas / 1 replica, and the 1-minute load
average after each phase (the machine is shared: a second replica can only help as far
as idle cores exist; PostgreSQL, which serves every hit's visibility re-read, and the
clients themselves share the same cores).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import summarize
from bench.gateway_bench import _serve, _wait_serving, free_port, stop_processes
from bench.retrieval_corpus import SUBJECT, WORKSPACE, Corpus, prepare
from engram.channels import open_channel
from engram.embedder_cache import shared_embedder
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc

CLIENTS = 8
LIMIT = 10
AGREEMENT_SAMPLE = 50


def _request(vector: np.ndarray) -> rpb.RecallRequest:
    return rpb.RecallRequest(
        query_text="what about it",
        subject=SUBJECT,
        workspace=WORKSPACE,
        limit=LIMIT,
        query_embedding=vector.tolist(),
    )


def _client(
    k: int, addresses: list[str], halves: list[np.ndarray], commands: Any, out: Any, barrier: Any
) -> None:
    """One client process, kept for the whole run: per command (replicas, half,
    seconds), wait at the barrier with the others, then Recall back to back."""
    channels = [open_channel(a) for a in addresses]
    stubs = [rgrpc.RetrievalServiceStub(c) for c in channels]
    requests = [[_request(v) for v in np.array_split(h, CLIENTS)[k]] for h in halves]
    for stub in stubs:
        stub.Recall(requests[0][0])  # connected before any clock starts
    while (command := commands.get()) is not None:
        replicas, half, seconds = command
        stub = stubs[k % replicas]
        mine = requests[half]
        latencies: list[float] = []
        resident = 0
        barrier.wait()
        end = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < end:
            began = time.perf_counter()
            response = stub.Recall(mine[i % len(mine)])
            latencies.append(time.perf_counter() - began)
            resident += response.served_by == rpb.SERVED_BY_RESIDENT
            i += 1
        out.put({"latencies": latencies, "resident": resident})
    for channel in channels:
        channel.close()


class Clients:
    """CLIENTS processes (spawned once) spread round robin over the first n replicas."""

    def __init__(self, addresses: list[str], halves: list[np.ndarray]) -> None:
        context = multiprocessing.get_context("spawn")
        self._results = context.Queue()
        self._barrier = context.Barrier(CLIENTS + 1)
        self._commands = [context.Queue() for _ in range(CLIENTS)]
        self._processes = [
            context.Process(
                target=_client,
                args=(k, addresses, halves, self._commands[k], self._results, self._barrier),
            )
            for k in range(CLIENTS)
        ]
        for process in self._processes:
            process.start()

    def run(self, replicas: int, half: int, seconds: float) -> tuple[list[float], int]:
        """(latencies, calls served resident) of one phase."""
        for queue in self._commands:
            queue.put((replicas, half, seconds))
        self._barrier.wait(timeout=600)
        gathered = [self._results.get(timeout=seconds + 120) for _ in self._processes]
        latencies = [x for g in gathered for x in g["latencies"]]
        return latencies, sum(g["resident"] for g in gathered)

    def close(self) -> None:
        for queue in self._commands:
            queue.put(None)
        for process in self._processes:
            process.join(30)
            if process.is_alive():
                process.kill()


def wait_agreeing(addresses: list[str], vectors: np.ndarray, timeout: float) -> dict[str, Any]:
    """Both replicas ready at one applied cursor, with the same hits for a sample."""
    channels = [open_channel(a) for a in addresses]
    stubs = [rgrpc.RetrievalServiceStub(c) for c in channels]
    deadline = time.monotonic() + timeout
    started = time.monotonic()
    try:
        while True:
            statuses = [s.GetIndexStatus(rpb.GetIndexStatusRequest()) for s in stubs]
            cursors = {st.applied_cursor for st in statuses}
            if all(st.ready for st in statuses) and len(cursors) == 1:
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"replicas not at one cursor: {cursors}")
            time.sleep(0.5)
        agreeing = 0
        for vector in vectors[:AGREEMENT_SAMPLE]:
            answers = [s.Recall(_request(vector)) for s in stubs]
            keyed = [([h.episode_id for h in a.hits], a.coverage.snapshot_version) for a in answers]
            agreeing += keyed[0] == keyed[1]
        return {
            "ready_seconds": round(time.monotonic() - started, 1),
            "snapshot_version": statuses[0].snapshot_version,
            "episodes": statuses[0].episodes,
            "index_type": statuses[0].dense_index_type,
            "agreeing_queries": f"{agreeing}/{min(AGREEMENT_SAMPLE, len(vectors))}",
        }
    finally:
        for channel in channels:
            channel.close()


def _figures(latencies: list[float], seconds: float) -> dict[str, float]:
    return {k: round(v, 2) for k, v in summarize(latencies, seconds).items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--queries", type=int, default=800)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--rounds", type=int, default=4, help="even: both halves per phase")
    parser.add_argument("--out", type=Path, default=Path("/var/tmp/engram-replica-bench"))
    args = parser.parse_args()
    if args.rounds < 2 or args.rounds % 2:
        parser.error("--rounds must be even: each phase runs on both halves alike")

    model = shared_embedder("hashing").name
    server, url, load_log = prepare(args.out, args.episodes, model)
    vectors, _clusters = Corpus(args.episodes).queries(args.queries)
    halves = np.array_split(vectors, 2)
    journal = f"127.0.0.1:{free_port()}"
    replicas = [f"127.0.0.1:{free_port()}" for _ in range(2)]
    processes = [_serve("journal", journal, journal, url, args.out)]
    summary: dict[str, Any] = {
        "episodes": args.episodes,
        "clients": CLIENTS,
        "seconds_per_phase": args.seconds,
        "rounds": args.rounds,
        "cores": os.cpu_count(),
        "load": load_log,
    }
    try:
        _wait_serving("journal", journal)
        for k, address in enumerate(replicas):
            processes.append(_serve("retrieval", address, journal, url, args.out / f"r{k}"))
        for address in replicas:
            _wait_serving("retrieval", address)
        summary["replicas"] = wait_agreeing(replicas, vectors, timeout=900)
        print(json.dumps(summary), flush=True)
        clients = Clients(replicas, halves)
        phases: dict[str, list[list[float]]] = {"1": [[], []], "2": [[], []]}
        resident: dict[str, int] = {"1": 0, "2": 0}
        loads: dict[str, list[float]] = {"1": [], "2": []}
        for round_ in range(args.rounds):
            half = round_ % 2
            order = ("1", "2") if round_ // 2 % 2 == 0 else ("2", "1")
            for phase in order:
                latencies, served = clients.run(int(phase), half, args.seconds)
                phases[phase][half].extend(latencies)
                resident[phase] += served
                loads[phase].append(os.getloadavg()[0])
                print(
                    json.dumps(
                        {
                            "round": round_,
                            "replicas": phase,
                            "half": half,
                            **_figures(latencies, args.seconds),
                            "load1": round(loads[phase][-1], 2),
                        }
                    ),
                    flush=True,
                )
        clients.close()
        seconds_per_half = args.seconds * args.rounds / 2
        result: dict[str, Any] = {}
        for phase, by_half in phases.items():
            every = by_half[0] + by_half[1]
            result[f"{phase}_replica"] = {
                "all": _figures(every, args.seconds * args.rounds),
                "first_half": _figures(by_half[0], seconds_per_half),
                "second_half": _figures(by_half[1], seconds_per_half),
                "resident_share": round(resident[phase] / max(1, len(every)), 3),
                "load1_mean": round(float(np.mean(loads[phase])), 2),
            }
        one, two = result["1_replica"], result["2_replica"]
        result["ratio_2_over_1"] = {
            part: round(two[part]["throughput"] / one[part]["throughput"], 2)
            for part in ("all", "first_half", "second_half")
        }
        summary["result"] = result
        print(json.dumps(summary, indent=2), flush=True)
    finally:
        stop_processes(processes)
        server.stop()


if __name__ == "__main__":
    main()
