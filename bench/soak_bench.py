"""Soak: the all-in-one server's resident memory and latency under a steady mixed load.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/soak_bench.py --minutes 30

The server is `engram serve` with all four services in ONE subprocess (this script's
``serve`` sub-command: start_suite plus a stats hook), against a throwaway embedded
PostgreSQL; hashing embedder, index persistence off, loopback only. A few client
threads in this process drive a fixed mix, at a bounded total rate, for --minutes:

    CommitTurn : Recall : AssembleContext : ReleaseResponse = --mix (default 1:1:1:1)

Every call carries a fresh request_id (so the replay caches fill as they would with
real clients), every ReleaseResponse names the context it judges with its session
(recoverable from the journal if the gateway dropped it), candidates alternate between
a plain answer and an unlicensed absence claim. Texts come from a fixed vocabulary.

Every --sample-seconds (30): the server process's RSS (psutil, else /proc VmRSS), the
resident index size, and the gateway cache statistics (entries, estimated bytes,
evictions, expiries) that the server writes on SIGUSR1. Per minute and per RPC:
calls, errors, latency p50/p99. Prints the tables and writes --json. With
--tracemalloc the server traces Python allocations and the top growth between the
snapshot after --warmup-minutes and the last one is reported (slower; RSS includes
the tracer's own memory); --cache-mib N sets the gateway's context and replay byte
budgets to N MiB in the server (smaller budgets fill sooner, to see what grows once
they are full). Stops by itself after --minutes (each call has a deadline); the
number of calls is bounded by --rate x --minutes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile, scratch_database

ROOT = Path(__file__).resolve().parent.parent
SUBJECT = "soak"
RPCS = ("CommitTurn", "Recall", "AssembleContext", "ReleaseResponse")
NOUNS = (
    *("meeting", "invoice", "garden", "ticket", "budget", "report", "kitchen"),
    *("contract", "laptop", "rental", "doctor", "flight", "concert", "recipe"),
    *("password", "bicycle", "passport", "printer", "dentist", "lease"),
)
CALL_TIMEOUT_S = 30.0


# ---------------------------------------------------------------------- server side


def serve(args: argparse.Namespace) -> None:
    """The server process: the whole suite, plus cache stats (and tracemalloc
    snapshots) written to --stats-dir on SIGUSR1; stops on SIGTERM."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import gc
    import tracemalloc

    from engram.config import Settings
    from engram.server import start_suite

    if args.tracemalloc:
        tracemalloc.start(args.tracemalloc_frames)
    if args.cache_mib:
        # Smaller gateway byte budgets fill sooner (what grows once they are full).
        import gateway.service

        gateway.service.CONTEXT_CACHE_BYTES = args.cache_mib * 2**20
        gateway.service.REQUEST_CACHE_BYTES = args.cache_mib * 2**20
    settings = Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": args.database_url,
            "embedder": "hashing",
            "data_dir": args.data_dir,
            "index_persist": False,
            "metrics_port": -1,
            "log_level": "WARNING",
            "grace_seconds": 1.0,
        },
        env={},
    )
    suite = start_suite(settings)
    from gateway.service import GatewayService

    gateways = [o for o in gc.get_objects() if isinstance(o, GatewayService)]
    stats_dir = Path(args.stats_dir)
    requests = threading.Event()
    done = threading.Event()
    signal.signal(signal.SIGUSR1, lambda *_: requests.set())
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    Path(args.ready_file).write_text(suite.address)
    sequence = 0
    while not done.wait(0.2):
        if not requests.is_set():
            continue
        requests.clear()
        sequence += 1
        stats: dict[str, Any] = {"sequence": sequence, "at": time.time()}
        for service in gateways[:1]:
            caches = (
                ("contexts", service._contexts),
                ("assembled", service._assembled),
                ("released", service._released),
            )
            if all(hasattr(cache, "stats") for _, cache in caches):
                stats["caches"] = {name: cache.stats() for name, cache in caches}
        if args.tracemalloc:
            path = stats_dir / f"trace-{sequence:04d}.snapshot"
            tracemalloc.take_snapshot().dump(str(path))
            stats["snapshot"] = str(path)
            stats["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
        tmp = stats_dir / "stats.json.tmp"
        tmp.write_text(json.dumps(stats))
        tmp.replace(stats_dir / "stats.json")
    suite.stop(grace=1)


# ---------------------------------------------------------------------- client side


def rss_bytes(pid: int) -> int:
    try:
        psutil = importlib.import_module("psutil")
        return int(psutil.Process(pid).memory_info().rss)
    except ImportError:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError(f"no RSS for pid {pid}")


def parse_mix(text: str) -> dict[str, int]:
    counts = [int(x) for x in text.split(":")]
    if len(counts) != 4 or min(counts) < 0 or not any(counts):
        raise SystemExit("--mix is CommitTurn:Recall:AssembleContext:ReleaseResponse, e.g. 1:1:1:1")
    mix = dict(zip(RPCS, counts, strict=True))
    if mix["ReleaseResponse"] and not mix["AssembleContext"]:
        raise SystemExit("ReleaseResponse needs AssembleContext in the mix")
    return mix


def cycle_of(mix: dict[str, int]) -> list[str]:
    """One cycle of the mix, each RPC spread out, an assemble before its release."""
    ops: list[str] = []
    for k in range(max(mix.values())):
        ops += [rpc for rpc in RPCS if mix[rpc] > k]
    return ops


class Recorder:
    def __init__(self, started: float) -> None:
        self.started = started
        self.lock = threading.Lock()
        self.latencies: dict[tuple[int, str], list[float]] = {}
        self.errors: dict[tuple[int, str], int] = {}
        self.error_codes: dict[str, int] = {}

    def record(self, rpc: str, at: float, elapsed: float, error: str = "") -> None:
        key = (int((at - self.started) // 60), rpc)
        with self.lock:
            if error:
                self.errors[key] = self.errors.get(key, 0) + 1
                self.error_codes[f"{rpc}:{error}"] = self.error_codes.get(f"{rpc}:{error}", 0) + 1
            else:
                self.latencies.setdefault(key, []).append(elapsed)


def client(
    n: int,
    stubs: dict[str, Any],
    cycle: list[str],
    period: float,
    deadline: float,
    recorder: Recorder,
    pb: dict[str, Any],
) -> None:
    gpb, rpb, jpb = pb["gateway"], pb["retrieval"], pb["journal"]
    i = 0
    context: tuple[str, str] | None = None
    attempt = 0
    next_at = time.monotonic() + n * period / 4
    while True:
        now = time.monotonic()
        if now >= deadline:
            return
        if next_at > now:
            time.sleep(min(next_at - now, deadline - now))
            continue
        # Bounded rate: a client that fell behind does not burst to catch up.
        next_at = max(next_at + period, now - 1.0)
        rpc = cycle[i % len(cycle)]
        k = n * 1_000_003 + i
        noun, other = NOUNS[k % len(NOUNS)], NOUNS[(k // 7) % len(NOUNS)]
        session = f"soak-{n}-{(i // 40) % 8}"
        i += 1
        if rpc == "CommitTurn":
            call, request = (
                stubs["journal"].CommitTurn,
                jpb.CommitTurnRequest(
                    subject=SUBJECT,
                    session_id=session,
                    user_text=f"Remember: the {noun} {k % 500} moved to room {k % 97}, "
                    f"next to the {other}.",
                    assistant_text=f"Noted, the {noun} {k % 500} is in room {k % 97}.",
                    request_id=str(uuid.uuid4()),
                    learning_eligible=True,
                ),
            )
        elif rpc == "Recall":
            call, request = (
                stubs["retrieval"].Recall,
                rpb.RecallRequest(
                    query_text=f"where is the {noun} {k % 500}", subject=SUBJECT, limit=10
                ),
            )
        elif rpc == "AssembleContext":
            call, request = (
                stubs["gateway"].AssembleContext,
                gpb.AssembleContextRequest(
                    subject=SUBJECT,
                    session_id=session,
                    input_text=f"Where did the {noun} {k % 500} go, and what about the {other}?",
                    request_id=str(uuid.uuid4()),
                ),
            )
        else:
            if context is None:
                continue
            attempt += 1
            candidate = (
                f"The {noun} is in room {k % 97}."
                if attempt % 2
                else f"You never told me anything about a {other}."
            )
            call, request = (
                stubs["gateway"].ReleaseResponse,
                gpb.ReleaseResponseRequest(
                    context_id=context[0],
                    candidate_text=candidate,
                    attempt=attempt,
                    request_id=str(uuid.uuid4()),
                    subject=SUBJECT,
                    session_id=context[1],
                ),
            )
        started = time.perf_counter()
        try:
            response = call(request, timeout=CALL_TIMEOUT_S)
        except grpc.RpcError as exc:
            code = exc.code().name if exc.code() else "UNKNOWN"
            recorder.record(rpc, time.monotonic(), 0.0, code)
            continue
        recorder.record(rpc, time.monotonic(), time.perf_counter() - started)
        if rpc == "AssembleContext":
            context, attempt = (response.context_id, session), 0


def request_stats(process: subprocess.Popen[bytes], stats_dir: Path, last: int) -> dict[str, Any]:
    """Ask the server for its stats and wait (briefly) for a newer file."""
    process.send_signal(signal.SIGUSR1)
    path = stats_dir / "stats.json"
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if path.exists():
            stats = json.loads(path.read_text())
            if stats["sequence"] > last:
                return dict(stats)
        time.sleep(0.1)
    return {"sequence": last}


def compare_snapshots(first: str, last: str, top: int) -> list[dict[str, Any]]:
    import tracemalloc

    old = tracemalloc.Snapshot.load(first)
    new = tracemalloc.Snapshot.load(last)
    rows = []
    for stat in new.compare_to(old, "traceback")[:top]:
        rows.append(
            {
                "size_diff_kb": round(stat.size_diff / 1024, 1),
                "count_diff": stat.count_diff,
                "size_kb": round(stat.size / 1024, 1),
                # Most recent frame first.
                "traceback": [f"{f.filename}:{f.lineno}" for f in reversed(stat.traceback)][:6],
            }
        )
    return rows


def compare_lines(first: str, last: str, top: int) -> list[dict[str, Any]]:
    import tracemalloc

    old = tracemalloc.Snapshot.load(first)
    new = tracemalloc.Snapshot.load(last)
    return [
        {
            "size_diff_kb": round(stat.size_diff / 1024, 1),
            "count_diff": stat.count_diff,
            "line": f"{stat.traceback[-1].filename}:{stat.traceback[-1].lineno}",
        }
        for stat in new.compare_to(old, "lineno")[:top]
    ]


def slope_mb_per_10min(samples: list[dict[str, Any]]) -> float:
    """Least-squares RSS slope over the given samples."""
    if len(samples) < 2:
        return float("nan")
    xs = [s["minute"] for s in samples]
    ys = [s["rss_mb"] for s in samples]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mx) ** 2 for x in xs)
    slope = 10 * sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / var
    return round(float(slope), 2)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from engram.channels import open_channel
    from engram.gateway.v1 import gateway_pb2 as gpb
    from engram.gateway.v1 import gateway_pb2_grpc as ggrpc
    from engram.journal.v1 import journal_pb2 as jpb
    from engram.journal.v1 import journal_pb2_grpc as jgrpc
    from engram.retrieval.v1 import retrieval_pb2 as rpb
    from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc

    mix = parse_mix(args.mix)
    cycle = cycle_of(mix)
    work = Path(tempfile.mkdtemp(prefix="engram-soak-", dir=args.work_dir))
    summary: dict[str, Any] = {
        "command": " ".join(["bench/soak_bench.py", *sys.argv[1:]]),
        "minutes": args.minutes,
        "rate_per_s": args.rate,
        "clients": args.clients,
        "mix": mix,
        "tracemalloc": args.tracemalloc,
        "cache_mib": args.cache_mib or None,
        "samples": [],
    }
    with scratch_database(args.database_server_url) as url:
        ready = work / "address"
        process = subprocess.Popen(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "serve",
                "--database-url",
                url,
                "--data-dir",
                str(work / "data"),
                "--ready-file",
                str(ready),
                "--stats-dir",
                str(work),
                *(["--tracemalloc"] if args.tracemalloc else []),
                *(["--cache-mib", str(args.cache_mib)] if args.cache_mib else []),
            ],
            env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
            cwd=ROOT,
        )
        channel = None
        try:
            limit = time.monotonic() + 300
            while not ready.exists():
                if process.poll() is not None or time.monotonic() > limit:
                    raise RuntimeError("the server did not start")
                time.sleep(0.2)
            address = ready.read_text()
            channel = open_channel(address)
            grpc.channel_ready_future(channel).result(timeout=60)
            stubs: dict[str, Any] = {
                "journal": jgrpc.JournalServiceStub(channel),
                "retrieval": rgrpc.RetrievalServiceStub(channel),
                "gateway": ggrpc.GatewayServiceStub(channel),
            }
            pbs = {"gateway": gpb, "retrieval": rpb, "journal": jpb}
            summary["server_pid"] = process.pid
            summary["rss_mb_after_start"] = round(rss_bytes(process.pid) / 2**20, 1)

            started = time.monotonic()
            deadline = started + args.minutes * 60
            recorder = Recorder(started)
            period = args.clients / args.rate
            threads = [
                threading.Thread(
                    target=client,
                    args=(n, stubs, cycle, period, deadline, recorder, pbs),
                    daemon=True,
                )
                for n in range(args.clients)
            ]
            for thread in threads:
                thread.start()

            last_seq = 0
            snapshots: list[tuple[float, str]] = []
            next_sample = started
            while True:
                now = time.monotonic()
                if now >= next_sample or now >= deadline:
                    stats = request_stats(process, work, last_seq)
                    last_seq = stats["sequence"]
                    minute = round((time.monotonic() - started) / 60, 2)
                    try:
                        index = stubs["retrieval"].GetIndexStatus(
                            rpb.GetIndexStatusRequest(), timeout=10
                        )
                        episodes, index_bytes = int(index.episodes), int(index.resident_bytes)
                    except grpc.RpcError:
                        episodes, index_bytes = -1, 0
                    rss = rss_bytes(process.pid)
                    sample = {
                        "minute": minute,
                        "rss_mb": round(rss / 2**20, 1),
                        "index_episodes": episodes,
                        "index_resident_mb": round(index_bytes / 2**20, 1),
                        # What is not the retrieval index, which grows with the corpus.
                        "rss_less_index_mb": round((rss - index_bytes) / 2**20, 1),
                        "caches": stats.get("caches", {}),
                    }
                    if "traced_mb" in stats:
                        sample["traced_mb"] = stats["traced_mb"]
                    if "snapshot" in stats:
                        snapshots.append((minute, stats["snapshot"]))
                    summary["samples"].append(sample)
                    print(json.dumps(sample), flush=True)
                    next_sample += args.sample_seconds
                    if now >= deadline:
                        break
                time.sleep(max(0.0, min(next_sample, deadline) - time.monotonic()))
            for thread in threads:
                thread.join(CALL_TIMEOUT_S + 5)
            summary["wall_minutes"] = round((time.monotonic() - started) / 60, 2)
            if snapshots:
                base = next((p for m, p in snapshots if m >= args.warmup_minutes), snapshots[0][1])
                summary["tracemalloc_top_growth"] = compare_snapshots(base, snapshots[-1][1], 25)
                summary["tracemalloc_top_lines"] = compare_lines(base, snapshots[-1][1], 25)
        finally:
            if channel is not None:
                channel.close()
            process.terminate()
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    per_minute: list[dict[str, Any]] = []
    totals: dict[str, dict[str, Any]] = {}
    for minute in range(int(args.minutes + 0.999)):
        row: dict[str, Any] = {"minute": minute}
        for rpc in RPCS:
            values = recorder.latencies.get((minute, rpc), [])
            errors = recorder.errors.get((minute, rpc), 0)
            row[rpc] = {
                "calls": len(values) + errors,
                "errors": errors,
                "p50_ms": round(percentile(values, 50) * 1000, 1),
                "p99_ms": round(percentile(values, 99) * 1000, 1),
            }
        per_minute.append(row)
    for rpc in RPCS:
        values = [v for (m, r), vs in recorder.latencies.items() if r == rpc for v in vs]
        errors = sum(e for (m, r), e in recorder.errors.items() if r == rpc)
        totals[rpc] = {
            "calls": len(values) + errors,
            "errors": errors,
            "p50_ms": round(percentile(values, 50) * 1000, 1),
            "p99_ms": round(percentile(values, 99) * 1000, 1),
        }
    summary["per_minute"] = per_minute
    summary["totals"] = totals
    summary["calls"] = sum(t["calls"] for t in totals.values())
    summary["errors"] = sum(t["errors"] for t in totals.values())
    summary["error_codes"] = recorder.error_codes
    samples = summary["samples"]
    half = [s for s in samples if s["minute"] >= args.minutes / 2]
    summary["rss_slope_mb_per_10min_second_half"] = slope_mb_per_10min(half)
    summary["rss_slope_mb_per_10min_all"] = slope_mb_per_10min(samples)
    less_index = [{**s, "rss_mb": s["rss_less_index_mb"]} for s in half]
    summary["rss_less_index_slope_mb_per_10min_second_half"] = slope_mb_per_10min(less_index)
    # Once the context cache is at its bound (its first eviction), what still grows.
    full = [s for s in samples if s.get("caches", {}).get("contexts", {}).get("evicted", 0)]
    summary["caches_full_from_minute"] = full[0]["minute"] if full else None
    summary["rss_slope_mb_per_10min_caches_full"] = slope_mb_per_10min(full)
    summary["rss_less_index_slope_mb_per_10min_caches_full"] = slope_mb_per_10min(
        [{**s, "rss_mb": s["rss_less_index_mb"]} for s in full]
    )
    return summary


def print_tables(summary: dict[str, Any]) -> None:
    print()
    print(
        "| minute | RSS MB | index episodes / MB | RSS less index MB | contexts (entries / MB) "
        "| AssembleContext replay (entries / MB) | ReleaseResponse replay (entries / MB) |"
    )
    print("|---|---|---|---|---|---|---|")
    for s in summary["samples"]:
        caches = s.get("caches", {})

        def cell(name: str, caches: dict[str, Any] = caches) -> str:
            c = caches.get(name)
            return f"{c['entries']} / {c['bytes'] / 2**20:.1f}" if c else "-"

        print(
            f"| {s['minute']:.1f} | {s['rss_mb']:.1f} | {s['index_episodes']} / "
            f"{s['index_resident_mb']:.1f} | {s['rss_less_index_mb']:.1f} | "
            f"{cell('contexts')} | {cell('assembled')} | {cell('released')} |"
        )
    print()
    print("| minute | " + " | ".join(f"{r} p50 / p99 ms" for r in RPCS) + " | calls | errors |")
    print("|---|" + "---|" * (len(RPCS) + 2))
    for row in summary["per_minute"]:
        cells = [f"{row[r]['p50_ms']} / {row[r]['p99_ms']}" for r in RPCS]
        calls = sum(row[r]["calls"] for r in RPCS)
        errors = sum(row[r]["errors"] for r in RPCS)
        print(f"| {row['minute']} | " + " | ".join(cells) + f" | {calls} | {errors} |")
    print()
    print(json.dumps({k: summary[k] for k in ("calls", "errors", "totals")}, indent=1))
    print(
        f"RSS slope, MB per 10 min: all {summary['rss_slope_mb_per_10min_all']}, "
        f"second half {summary['rss_slope_mb_per_10min_second_half']}, "
        f"second half less the index {summary['rss_less_index_slope_mb_per_10min_second_half']}; "
        f"context cache full from minute {summary['caches_full_from_minute']}: "
        f"{summary['rss_slope_mb_per_10min_caches_full']}, less the index "
        f"{summary['rss_less_index_slope_mb_per_10min_caches_full']}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command")
    srv = sub.add_parser("serve", help="internal: the server process")
    srv.add_argument("--database-url", required=True)
    srv.add_argument("--data-dir", required=True)
    srv.add_argument("--ready-file", required=True)
    srv.add_argument("--stats-dir", required=True)
    srv.add_argument("--tracemalloc", action="store_true")
    srv.add_argument("--tracemalloc-frames", type=int, default=8)
    srv.add_argument("--cache-mib", type=float, default=0.0)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--rate", type=float, default=30.0, help="total calls per second")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--mix", default="1:1:1:1", help="CommitTurn:Recall:Assemble:Release")
    parser.add_argument("--sample-seconds", type=float, default=30.0)
    parser.add_argument("--warmup-minutes", type=float, default=5.0)
    parser.add_argument("--tracemalloc", action="store_true")
    parser.add_argument(
        "--cache-mib",
        type=float,
        default=0.0,
        help="override the gateway's context and replay byte budgets (default: its own)",
    )
    parser.add_argument("--database-server-url", default="", help="default: embedded")
    parser.add_argument("--work-dir", default="/tmp")
    parser.add_argument("--json", type=Path, default=Path("/tmp/engram-soak.json"))
    args = parser.parse_args()
    if args.command == "serve":
        serve(args)
        return
    summary = run(args)
    args.json.write_text(json.dumps(summary, indent=1))
    print_tables(summary)
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
