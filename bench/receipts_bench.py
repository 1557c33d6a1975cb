"""AssembleContext's receipt phase: RecordContextReceipts (one call, one transaction,
one commit) against the calls the gateway made before it, in the same run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/receipts_bench.py

One realistic context per iteration: three sections (8 learned-context candidates, 3
run records, 5 episodes; 16 candidates, 32 audit rows: EVALUATED plus SELECTED or
DROPPED_BUDGET each), three injection receipts and the sealed-size trace event (about
4 KB of JSON). Both sides send exactly these rows, timed from the caller:

* baseline (the previous gateway path): AppendEvent of the trace started in parallel;
  RecordRetrievalAudit (32 single-row INSERTs, one commit); then the three
  RecordContextInjection calls in parallel (one commit each); then wait for the event.
  Five durable commits, two in sequence on the critical path;
* RecordContextReceipts: one call, one statement (migration 0011), one commit.

The journal runs as `engram serve journal --processes 1` (its own interpreter, as in the
gateway benchmark's split topology; `--processes 0`: in this process) on a throwaway
embedded PostgreSQL. Iterations alternate between the two sides so machine noise hits
both alike; with several clients each client alternates on its own.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from google.protobuf import struct_pb2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile, scratch_database
from bench.commit_turn_bench import journal_server
from engram.db import migrations
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = {
    "learned_context": ("learning", 8, 6),
    "recovered_memory": ("run_record", 3, 3),
    "episodic_recall": ("episode", 5, 4),
}


class Context:
    """The rows one assembled context leaves behind."""

    def __init__(self, n: int) -> None:
        self.context_id = f"ctx_{uuid.uuid4().hex}"
        self.entries: list[pb.RetrievalAuditEntry] = []
        self.injections: list[pb.ContextInjection] = []
        sections: list[dict[str, Any]] = []
        for section, (kind, candidates, kept) in SECTIONS.items():
            ids = [f"{kind}-{n}-{i}-{uuid.uuid4().hex[:12]}" for i in range(candidates)]
            for rank, record_id in enumerate(ids):
                for decision in (
                    pb.AUDIT_DECISION_EVALUATED,
                    pb.AUDIT_DECISION_SELECTED if rank < kept else pb.AUDIT_DECISION_DROPPED_BUDGET,
                ):
                    self.entries.append(
                        pb.RetrievalAuditEntry(
                            section=section,
                            record_kind=kind,
                            record_id=record_id,
                            decision=decision,
                            score=1.0 / (rank + 1),
                            rank=rank + 1,
                        )
                    )
            block = hashlib.sha256(f"{section}:{n}".encode()).hexdigest()
            self.injections.append(
                pb.ContextInjection(
                    section=section,
                    record_ids=ids[:kept],
                    block_sha256=block,
                    injected_count=kept,
                    omitted_count=candidates - kept,
                )
            )
            sections.append(
                {
                    "name": section,
                    "packed_status": "SECTION_STATUS_INCLUDED",
                    "absence_state": "ABSENCE_STATE_NOT_ABSENT",
                    "hit_count": candidates,
                    "coverage": base64.b64encode(os.urandom(560)).decode(),
                    "record_ids": ids[:kept],
                    "block_sha256": block,
                }
            )
        self.payload = struct_pb2.Struct()
        self.payload.update(
            {
                "version": 3,
                "context_id": self.context_id,
                "request_id": str(uuid.uuid4()),
                "input_sha256": hashlib.sha256(str(n).encode()).hexdigest(),
                "input_excerpt": "what did we decide about the backup rotation? " * 4,
                "assembled_at": "2026-12-01T17:00:00+00:00",
                "scope_keys": ["workspace:default"],
                "context_mentions_terms": False,
                "sections": sections,
                "exact_lookup": None,
                "seal": base64.b64encode(os.urandom(48)).decode(),
            }
        )


def baseline(stub: pb_grpc.JournalServiceStub, pool: ThreadPoolExecutor, ctx: Context) -> None:
    who = {"subject": "alice", "workspace": "default", "session_id": "s-bench"}
    event = pool.submit(
        stub.AppendEvent,
        pb.AppendEventRequest(
            event_type="gateway.context.assembled",
            payload=ctx.payload,
            provenance=pb.PROVENANCE_SYSTEM,
            request_id=str(uuid.uuid4()),
            subject="alice",
            workspace="default",
            session_id="s-bench",
        ),
    )
    stub.RecordRetrievalAudit(
        pb.RecordRetrievalAuditRequest(context_id=ctx.context_id, entries=ctx.entries, **who)
    )
    injections = [
        pool.submit(
            stub.RecordContextInjection,
            pb.RecordContextInjectionRequest(
                context_id=ctx.context_id,
                section=i.section,
                record_ids=i.record_ids,
                block_sha256=i.block_sha256,
                injected_count=i.injected_count,
                omitted_count=i.omitted_count,
                **who,
            ),
        )
        for i in ctx.injections
    ]
    for job in injections:
        job.result()
    event.result()


def one_call(stub: pb_grpc.JournalServiceStub, ctx: Context) -> None:
    stub.RecordContextReceipts(
        pb.RecordContextReceiptsRequest(
            context_id=ctx.context_id,
            subject="alice",
            workspace="default",
            session_id="s-bench",
            audit_entries=ctx.entries,
            injections=ctx.injections,
            trace_event=pb.ContextTraceEvent(
                event_type="gateway.context.assembled",
                payload=ctx.payload,
                provenance=pb.PROVENANCE_SYSTEM,
            ),
            request_id=str(uuid.uuid4()),
        )
    )


def run(
    stubs: list[pb_grpc.JournalServiceStub], clients: int, iterations: int, warmup: int
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {"baseline": [], "one_call": []}
    lock = threading.Lock()

    def client(c: int) -> None:
        stub = stubs[c % len(stubs)]
        with ThreadPoolExecutor(max_workers=4) as pool:
            for i in range(warmup + iterations):
                order = ("baseline", "one_call") if (i + c) % 2 == 0 else ("one_call", "baseline")
                for side in order:
                    ctx = Context(i)
                    started = time.perf_counter()
                    if side == "baseline":
                        baseline(stub, pool, ctx)
                    else:
                        one_call(stub, ctx)
                    elapsed = time.perf_counter() - started
                    if i >= warmup:
                        with lock:
                            times[side].append(elapsed)

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=300, help="per side and client")
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--clients", default="1,4")
    parser.add_argument("--processes", type=int, default=1, help="0: journal in this process")
    parser.add_argument("--database-server-url", default="", help="default: embedded")
    args = parser.parse_args()
    rows = []
    with scratch_database(args.database_server_url) as url:
        migrations.apply(url, "journal", ROOT / "memory_service" / "migrations")
        with journal_server(url, args.processes) as stubs:
            for clients in [int(c) for c in args.clients.split(",")]:
                times = run(stubs, clients, args.iterations // clients, args.warmup)
                rows.append((clients, times))
    print(
        "| clients | baseline p50 / p99 ms | RecordContextReceipts p50 / p99 ms | ratio p50 / p99 |"
    )
    print("|---|---|---|---|")
    for clients, times in rows:
        b, o = times["baseline"], times["one_call"]
        b50, b99, o50, o99 = (
            percentile(b, 50) * 1000,
            percentile(b, 99) * 1000,
            percentile(o, 50) * 1000,
            percentile(o, 99) * 1000,
        )
        print(
            f"| {clients} | {b50:.2f} / {b99:.2f} | {o50:.2f} / {o99:.2f} | "
            f"{b50 / o50:.2f}x / {b99 / o99:.2f}x |"
        )


if __name__ == "__main__":
    main()
