"""JournalService reads of AssembleContext's fan-out, this tree against a baseline
revision in the same run: GetSessionContext and GetRecoveredMemory.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/journal_reads_bench.py [--baseline main]

One throwaway embedded PostgreSQL database; two `engram serve journal` processes on it,
one running this tree and one running ``git archive <baseline>`` (so both read the same
rows through the same PostgreSQL). Data: one session with --runs run records through
CompleteRun (GetRecoveredMemory ranks them all against the pending input and cuts at the
policy's 3 entries, so every call leaves records out and counts the omission), one
session with no turns (what AssembleContext reads for a new session), one with
--turns committed turns (within the 8-turn tail: literal, nothing to compact) and one
with the same turns among --session-events other events of the session (AppendEvent of
the gateway's trace and verdict types, as a long-answered session collects: at least
two per answered turn).

--clients threads each call the three reads on both servers, in alternating order per
iteration (so machine noise hits both sides alike), and check that the two answers are
the same message (the coverage's computation time and digest aside). Reported: p50 / p99
per read and side, and the ratios this tree / baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from io import BytesIO
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from google.protobuf import struct_pb2

from bench._common import percentile, scratch_database
from bench.gateway_bench import _wait_serving, free_port, stop_processes
from engram.channels import open_channel
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc
from engram.journal.v1 import transcript_pb2 as tpb

ROOT = Path(__file__).resolve().parent.parent
SUBJECT = "bench-reads"
RUN_SESSION, EMPTY_SESSION, SHORT_SESSION = "runs", "no-turns", "short"
BUSY_SESSION = "short-among-traces"
OTHER_EVENT_TYPES = ("gateway.context.assembled", "gateway.response.verdict")
WORDS = ["deploy", "database", "migration", "backup", "certificate", "report", "invoice"]


def export_tree(revision: str, into: Path) -> Path:
    """The files of `revision` of this repository, under `into`."""
    blob = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", revision],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(blob)) as archive:
        archive.extractall(into, filter="data")
    return into


def serve_journal(tree: Path, url: str, data: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`engram serve journal` with `tree`'s code first on the path."""
    address = f"127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "PYTHONPATH": str(tree),
        "OPENBLAS_NUM_THREADS": "1",
        "ENGRAM_LISTEN": address,
        "ENGRAM_DATABASE_URL": url,
        "ENGRAM_EMBEDDER": "hashing",
        "ENGRAM_LOG_LEVEL": "WARNING",
        "ENGRAM_METRICS_PORT": "-1",
        "ENGRAM_DATA_DIR": str(data),
    }
    process = subprocess.Popen(
        [sys.executable, "-c", "from engram.cli.main import main; main()", "serve", "journal"],
        env=env,
        cwd=tree,
    )
    return process, address


def seed(stub: jgrpc.JournalServiceStub, runs: int, turns: int, session_events: int) -> None:
    for k in range(runs):
        words = [WORDS[(k + j) % len(WORDS)] for j in range(3)]
        stub.CompleteRun(
            jpb.CompleteRunRequest(
                run_id=f"run-{k}",
                session_id=RUN_SESSION,
                subject=SUBJECT,
                status=jpb.RUN_STATUS_COMPLETED,
                request_text=f"look into the {' '.join(words)} for item {k}",
                outcome_text=f"filed {words[0]} under item{k}; Größe 東京 noted",
                request_id=str(uuid.uuid4()),
            )
        )
    for session in (SHORT_SESSION, BUSY_SESSION):
        for k in range(turns):
            word = WORDS[k % len(WORDS)]
            stub.CommitTurn(
                jpb.CommitTurnRequest(
                    subject=SUBJECT,
                    session_id=session,
                    user_text=f"Turn {k}: the {word} is due on day {k + 1}.",
                    assistant_text=f"Noted: {word} on day {k + 1}.",
                    request_id=str(uuid.uuid4()),
                )
            )
    for k in range(session_events):
        payload = struct_pb2.Struct()
        payload.update({"n": k, "note": f"trace {k}"})
        stub.AppendEvent(
            jpb.AppendEventRequest(
                event_type=OTHER_EVENT_TYPES[k % 2],
                subject=SUBJECT,
                session_id=BUSY_SESSION,
                payload=payload,
                provenance=jpb.PROVENANCE_SYSTEM,
                request_id=str(uuid.uuid4()),
            )
        )


def reads(i: int) -> list[tuple[str, str, Any]]:
    """(label, method, request) of iteration i: the requests the gateway sends."""
    text = f"why did the {WORDS[i % len(WORDS)]} and {WORDS[(i + 3) % len(WORDS)]} fail"
    return [
        (
            "GetRecoveredMemory",
            "GetRecoveredMemory",
            jpb.GetRecoveredMemoryRequest(
                subject=SUBJECT, session_id=RUN_SESSION, pending_input=text
            ),
        ),
        (
            "GetSessionContext (no turns)",
            "GetSessionContext",
            tpb.GetSessionContextRequest(subject=SUBJECT, session_id=EMPTY_SESSION),
        ),
        (
            "GetSessionContext (short)",
            "GetSessionContext",
            tpb.GetSessionContextRequest(subject=SUBJECT, session_id=SHORT_SESSION),
        ),
        (
            "GetSessionContext (short, among other events)",
            "GetSessionContext",
            tpb.GetSessionContextRequest(subject=SUBJECT, session_id=BUSY_SESSION),
        ),
    ]


def comparable(response: Any) -> bytes:
    """The answer without the coverage's computation time (and the digest over it)."""
    copy = type(response)()
    copy.CopyFrom(response)
    copy.coverage.ClearField("computed_at")
    copy.coverage.ClearField("digest")
    return bytes(copy.SerializeToString(deterministic=True))


def client(
    stubs: dict[str, jgrpc.JournalServiceStub],
    iterations: int,
    warmup: int,
    offset: int,
    series: dict[tuple[str, str], list[float]],
    mismatches: list[str],
    lock: threading.Lock,
) -> None:
    sides = list(stubs)
    for i in range(iterations + warmup):
        for name, method, request in reads(i + offset):
            answers: dict[str, bytes] = {}
            order = sides if (i + offset) % 2 else sides[::-1]
            for side in order:
                call: Callable[..., Any] = getattr(stubs[side], method)
                start = time.perf_counter()
                response = call(request, timeout=30)
                elapsed = time.perf_counter() - start
                answers[side] = comparable(response)
                if i >= warmup:
                    with lock:
                        series[(name, side)].append(elapsed)
            if len(set(answers.values())) > 1:
                with lock:
                    mismatches.append(name)


def measure(stubs: dict[str, jgrpc.JournalServiceStub], args: argparse.Namespace) -> dict[str, Any]:
    series: dict[tuple[str, str], list[float]] = {
        (name, side): [] for name, _, _ in reads(0) for side in stubs
    }
    mismatches: list[str] = []
    lock = threading.Lock()
    threads = [
        threading.Thread(
            target=client,
            args=(stubs, args.iterations, args.warmup, c, series, mismatches, lock),
        )
        for c in range(args.clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    result: dict[str, Any] = {
        "baseline": args.baseline,
        "clients": args.clients,
        "calls_per_read_and_side": args.iterations * args.clients,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "mismatched_answers": mismatches,
    }
    for name, _, _ in reads(0):
        row: dict[str, float] = {}
        for side in ("baseline", "this"):
            values = series[(name, side)]
            row[f"{side}_p50_ms"] = round(percentile(values, 50) * 1000, 2)
            row[f"{side}_p99_ms"] = round(percentile(values, 99) * 1000, 2)
        row["ratio_p50"] = round(row["this_p50_ms"] / row["baseline_p50_ms"], 2)
        row["ratio_p99"] = round(row["this_p99_ms"] / row["baseline_p99_ms"], 2)
        result[name] = row
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--baseline", default="main", help="git revision to compare against")
    parser.add_argument("--runs", type=int, default=32)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument(
        "--session-events",
        type=int,
        default=2000,
        help="other events of the third session (gateway traces and verdicts)",
    )
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--clients", type=int, default=4)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="engram-journal-reads-") as scratch:
        base = Path(scratch)
        baseline_tree = export_tree(args.baseline, base / "baseline")
        with scratch_database() as url:
            processes: list[subprocess.Popen[bytes]] = []
            try:
                # This tree first: it migrates the database, and the baseline finds
                # the schema current.
                process, this_address = serve_journal(ROOT, url, base / "data-this")
                processes.append(process)
                _wait_serving("journal (this tree)", this_address)
                process, base_address = serve_journal(baseline_tree, url, base / "data-base")
                processes.append(process)
                _wait_serving("journal (baseline)", base_address)
                channels = {
                    "this": open_channel(this_address),
                    "baseline": open_channel(base_address),
                }
                stubs = {side: jgrpc.JournalServiceStub(ch) for side, ch in channels.items()}
                seed(stubs["this"], args.runs, args.turns, args.session_events)
                result = measure(stubs, args)
                for channel in channels.values():
                    channel.close()
            finally:
                stop_processes(processes)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
