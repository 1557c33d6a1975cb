"""GatewayService: AssembleContext latency against the three downstream reads it wraps,
made serially in the same run, and ReleaseResponse throughput.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/gateway_bench.py --episodes 100000

Data, loaded once per size under --out and reused:

* 100k episodes: bench/retrieval_corpus.py (clustered synthetic vectors and topic-word
  texts, COPY into journal.events, journal.episodes and journal.changes; one subject);
* 1k learnings, COPY into learning.candidates, learning.learnings and
  learning.learning_revisions (the revision trigger projects learning_state): active,
  active tier, manual decision, workspace scope (so every one is eligible for every
  session and GetLearnedContext scores all 1k per call), texts made of the same topic
  words so queries match some of them;
* 32 run records of the benchmark session, through JournalService.CompleteRun.

Topology (--topology split, the default): journal, learning and retrieval each run as an
`engram serve <service>` process; the gateway runs in this process (so the in-server
split of AssembleContext into fan-out and receipts can be timed). --topology single runs
all four in this process, sharing one interpreter lock. Hashing embedder (the
query-embedding cost of MiniLM would dominate both sides alike); index persistence off.
Per iteration, in alternating order so machine noise hits both sides alike:

* serial: LearningService.GetLearnedContext, JournalService.GetRecoveredMemory and
  RetrievalService.Recall, one after the other, with the requests the gateway sends;
  their sum is the baseline;
* AssembleContext: the same three reads in parallel, plus coverage validation, packing,
  rendering, and the receipts with the journaled trace event (one RecordContextReceipts
  call, one transaction).

Inside the gateway process every downstream call is timed by method (``call:<method>``,
its round trip included) and, with --topology single, each handler's own time
(``server:<method>``); --profile writes a cProfile of the server threads.

--baseline-checkout PATH compares two checkouts instead of the serial reads: one journal
and one retrieval process (this checkout's), a learning and a gateway process from each
checkout over them, the same AssembleContext to both gateways in alternating order and
their answers compared.

ReleaseResponse: one context, candidates alternating between a plain answer (RELEASE)
and an unlicensed absence claim (REGENERATE); every verdict is journaled. With
``--answers N``: N rounds over the four-sentence blind answers, first answers (the
classifier's cache emptied), the model batch split and on one engine thread alternating
(``--answers-only`` skips the AssembleContext series).
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import grpc
import psycopg
from grpc_health.v1 import health_pb2, health_pb2_grpc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile
from bench.retrieval_corpus import SUBJECT, Corpus, prepare, query_text, topic_words
from engram.channels import open_channel
from engram.config import Settings
from engram.db import migrations
from engram.db.urls import with_database
from engram.embedder_cache import shared_embedder
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as ggrpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lgrpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import start_suite

ROOT = Path(__file__).resolve().parent.parent
SESSION = "bench-gateway-session"
KINDS = ("fact", "preference", "decision")


def clone_with_learnings(
    server_url: str, source_db: str, episodes: int, learnings: int, out: Path
) -> str:
    """A copy of the episode corpus database with the learning schema and learnings."""
    name = f"gateway_{episodes}_{learnings}"
    url = with_database(server_url, name)
    migrations_dir = ROOT / "learning_service" / "migrations"
    schema = hashlib.sha256(
        b"".join(f.read_bytes() for f in sorted(migrations_dir.glob("*.sql")))
    ).hexdigest()
    marker = out / f"{name}.json"
    if marker.exists() and json.loads(marker.read_text()).get("schema") == schema:
        return url
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{source_db}"')
    migrations.apply(url, "learning", migrations_dir)
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction(), conn.cursor() as cur:
        rows = []
        for i in range(learnings):
            words = topic_words(i % 1000)
            content = f"{KINDS[i % 3]} {i}: {' '.join(words[:3])} matters for item{i}"
            rows.append(
                (
                    uuid.uuid4(),
                    uuid.uuid4(),
                    KINDS[i % 3],
                    content,
                    hashlib.sha256(content.lower().encode()).hexdigest(),
                )
            )
        with cur.copy(
            "COPY learning.candidates (candidate_id, origin, scope_kind, scope_id, "
            "kind, content, content_sha256, confidence, sensitivity) "
            "FROM STDIN"
        ) as copy:
            for candidate_id, _, kind, content, sha in rows:
                copy.write_row(
                    (candidate_id, "api", "workspace", "default", kind, content, sha, 90, "normal")
                )
        with cur.copy(
            "COPY learning.learnings (learning_id, candidate_id, origin, scope_kind, "
            "scope_id, kind, content, content_sha256, confidence, sensitivity, "
            "verification_status, policy_decision, policy_actor) FROM STDIN"
        ) as copy:
            for candidate_id, learning_id, kind, content, sha in rows:
                copy.write_row(
                    (
                        learning_id,
                        candidate_id,
                        "api",
                        "workspace",
                        "default",
                        kind,
                        content,
                        sha,
                        90,
                        "normal",
                        "unverified",
                        "manual",
                        "bench",
                    )
                )
        with cur.copy(
            "COPY learning.learning_revisions (learning_id, revision, status, "
            "publish_tier, action, actor) FROM STDIN"
        ) as copy:
            for _, learning_id, _, _, _ in rows:
                copy.write_row((learning_id, 1, "active", "active", "published", "bench"))
    marker.write_text(json.dumps({"learnings": learnings, "schema": schema}))
    return url


def time_phases() -> dict[str, list[float]]:
    """Time the gateway's fan-out and receipt phases inside this process (the gateway is
    in-process, so the in-server split of AssembleContext can be read directly), and each
    downstream call the gateway makes, by method, as the gateway sees it
    (``call:<method>``: its gRPC round trip included)."""
    from gateway.downstream import Planes
    from gateway.fanout import Fanout
    from gateway.receipts import ReceiptWriter

    phases: dict[str, list[float]] = {"fan_out": [], "receipts": []}
    for owner, attribute, phase in (
        (Fanout, "fetch", "fan_out"),
        (ReceiptWriter, "record", "receipts"),
    ):
        _timed_method(owner, attribute, lambda *_, _phase=phase: phases[_phase])

    def by_method(_self: Any, _plane: str, method: str, *_: Any) -> list[float]:
        return phases.setdefault(f"call:{method}", [])

    _timed_method(Planes, "call", by_method)
    return phases


def time_handlers(phases: dict[str, list[float]]) -> None:
    """Time the downstream RPCs' handlers (``server:<method>``: the servicer's own time,
    without the transport and interceptors); only when the planes run in this process
    (--topology single)."""
    from learning_service.servicer import LearningServicer
    from memory_service.receipt_rpcs import ReceiptRpcs
    from memory_service.run_memory_rpcs import RunMemoryRpcs
    from memory_service.transcript_rpcs import TranscriptRpcs
    from retrieval_service.servicer import RetrievalServicer

    for owner, method in (
        (LearningServicer, "GetLearnedContext"),
        (RunMemoryRpcs, "GetRecoveredMemory"),
        (TranscriptRpcs, "GetSessionContext"),
        (ReceiptRpcs, "RecordContextReceipts"),
        (RetrievalServicer, "Recall"),
    ):
        series = phases.setdefault(f"server:{method}", [])
        _timed_method(owner, method, lambda *_, _series=series: _series)


def _timed_method(owner: Any, attribute: str, series: Any) -> None:
    original = getattr(owner, attribute)

    def timed_call(self: Any, *args: Any, _original: Any = original) -> Any:
        started = time.perf_counter()
        try:
            return _original(self, *args)
        finally:
            series(self, *args).append(time.perf_counter() - started)

    setattr(owner, attribute, timed_call)


class ThreadProfiles:
    """cProfile in every thread started after start() (the servers' and the gateway's
    pools), merged into one pstats file; the benchmark's own thread is not profiled."""

    def __init__(self) -> None:
        self._profiles: list[cProfile.Profile] = []
        self._lock = threading.Lock()

    def _begin(self, *_: Any) -> None:
        profile = cProfile.Profile()
        with self._lock:
            self._profiles.append(profile)
        profile.enable()

    def start(self) -> None:
        threading.setprofile(self._begin)

    def reset(self) -> None:
        """Forget what was profiled so far (start-up, warm-up)."""
        with self._lock:
            for profile in self._profiles:
                profile.clear()

    def write(self, path: Path) -> pstats.Stats:
        threading.setprofile(None)
        with self._lock:
            profiles = list(self._profiles)
        stats = pstats.Stats()
        for profile in profiles:
            profile.create_stats()
            if profile.stats:
                stats.add(profile)
        stats.dump_stats(path)
        return stats


def stats(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(values, 50) * 1000, 2),
        "p99_ms": round(percentile(values, 99) * 1000, 2),
    }


def timed(call: Any, request: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    response = call(request)
    return time.perf_counter() - started, response


def wait_ready(retrieval: Any, learning: Any, journal: Any, timeout: float) -> dict[str, Any]:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        index = retrieval.GetIndexStatus(rpb.GetIndexStatusRequest())
        watermark = journal.GetStatus(jpb.GetStatusRequest()).feed_watermark
        capture = learning.GetLearningStatus(lpb.GetLearningStatusRequest()).capture_cursor
        if index.ready and index.applied_cursor >= watermark and capture >= watermark:
            return {
                "index_episodes": index.episodes,
                "ready_seconds": round(time.monotonic() - started, 1),
            }
        time.sleep(0.5)
    raise TimeoutError("services did not catch up with the journal")


def run_serial(
    calls: list[tuple[str, Any, Any]], series: dict[str, list[float]], keep: bool
) -> float:
    total = 0.0
    for name, call, request in calls:
        elapsed, _ = timed(call, request)
        total += elapsed
        if keep:
            series[name].append(elapsed)
    return total


def assemble_series(
    stubs: dict[str, Any],
    iterations: int,
    warmup: int,
    phases: dict[str, list[float]],
    on_warm: Any = lambda: None,
) -> dict[str, Any]:
    series: dict[str, list[float]] = {
        k: [] for k in ("learned", "recovered", "recall", "serial_sum", "assemble")
    }
    statuses: dict[str, int] = {}
    for i in range(iterations + warmup):
        text = query_text(i % 1000, i) + " matters"
        serial: list[tuple[str, Any, Any]] = [
            (
                "learned",
                stubs["learning"].GetLearnedContext,
                lpb.GetLearnedContextRequest(
                    subject=SUBJECT, session_id=SESSION, pending_input=text, max_entries=8
                ),
            ),
            (
                "recovered",
                stubs["journal"].GetRecoveredMemory,
                jpb.GetRecoveredMemoryRequest(
                    subject=SUBJECT, session_id=SESSION, pending_input=text
                ),
            ),
            (
                "recall",
                stubs["retrieval"].Recall,
                rpb.RecallRequest(
                    query_text=text, subject=SUBJECT, exclude_session_id=SESSION, limit=5
                ),
            ),
        ]
        assemble = gpb.AssembleContextRequest(
            subject=SUBJECT, session_id=SESSION, input_text=text, request_id=str(uuid.uuid4())
        )

        keep = i >= warmup
        if i == warmup:
            for values in phases.values():
                values.clear()
            on_warm()
        if i % 2:
            total = run_serial(serial, series, keep)
            elapsed, response = timed(stubs["gateway"].AssembleContext, assemble)
        else:
            elapsed, response = timed(stubs["gateway"].AssembleContext, assemble)
            total = run_serial(serial, series, keep)
        if i >= warmup:
            series["serial_sum"].append(total)
            series["assemble"].append(elapsed)
            for section in response.sections:
                key = f"{section.name}:{gpb.SectionStatus.Name(section.status)}"
                statuses[key] = statuses.get(key, 0) + 1
    result: dict[str, Any] = {name: stats(values) for name, values in series.items()}
    for name, values in phases.items():
        if values:
            result[f"assemble_{name}"] = stats(values)
    result["ratio_p50_assemble_over_serial"] = round(
        result["assemble"]["p50_ms"] / result["serial_sum"]["p50_ms"], 2
    )
    result["ratio_p99_assemble_over_serial"] = round(
        result["assemble"]["p99_ms"] / result["serial_sum"]["p99_ms"], 2
    )
    result["section_statuses"] = statuses
    return result


def assembled_context(gateway: Any, input_text: str) -> str:
    """The id of a context assembled for ``input_text`` in the benchmark session."""
    request = gpb.AssembleContextRequest(
        subject=SUBJECT, session_id=SESSION, input_text=input_text, request_id=str(uuid.uuid4())
    )
    return str(gateway.AssembleContext(request).context_id)


def release_series(gateway: Any, calls: int, clients: int) -> dict[str, Any]:
    context_id = assembled_context(gateway, "what about w0001 w0003")
    texts = ["The item is filed under w0001.", "You never told me about w0001."]
    latencies: list[float] = []
    verdicts: dict[str, int] = {}
    lock = threading.Lock()

    def client(offset: int) -> None:
        for k in range(calls // clients):
            request = gpb.ReleaseResponseRequest(
                context_id=context_id,
                candidate_text=texts[(offset + k) % 2],
                attempt=1,
                request_id=str(uuid.uuid4()),
            )
            elapsed, response = timed(gateway.ReleaseResponse, request)
            with lock:
                latencies.append(elapsed)
                name = gpb.Verdict.Name(response.verdict)
                verdicts[name] = verdicts.get(name, 0) + 1

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    return {
        "clients": clients,
        "calls": len(latencies),
        "per_second": round(len(latencies) / wall, 1),
        **stats(latencies),
        "verdicts": verdicts,
    }


def answer_series(gateway: Any, rounds: int) -> dict[str, Any]:
    """ReleaseResponse on the four-sentence blind answers (bench/gate_speed.py's inputs),
    the classifier on, its embedding cache emptied before every call (a first answer):
    the model batch split over the engine threads, and on one thread (what the split
    replaced), alternating per answer in the same run. The gateway runs in this process
    (both topologies), so the switch and the cache are the server's own."""
    from bench.gate_speed import BLIND, SEEN_BATCHES, four_sentence_answers
    from gateway import claim_model

    texts = four_sentence_answers([BLIND / name for name in SEEN_BATCHES])
    context_id = assembled_context(gateway, "what did I tell you about my trip")
    threads = claim_model.ENGINE_THREADS
    variants = [(f"split over {threads} engine threads", threads), ("one engine thread", 1)]
    latencies: dict[str, list[float]] = {name: [] for name, _ in variants}
    verdicts: dict[str, int] = {}
    for round_ in range(rounds + 1):  # round 0 warms up and is not counted
        for text in texts:
            for name, n in variants if round_ % 2 else variants[::-1]:
                claim_model.clear_embedding_cache()
                claim_model.ENGINE_THREADS = n
                elapsed, response = timed(
                    gateway.ReleaseResponse,
                    gpb.ReleaseResponseRequest(
                        context_id=context_id,
                        candidate_text=text,
                        attempt=1,
                        request_id=str(uuid.uuid4()),
                    ),
                )
                if round_:
                    latencies[name].append(elapsed)
                    verdict = gpb.Verdict.Name(response.verdict)
                    verdicts[verdict] = verdicts.get(verdict, 0) + 1
    claim_model.ENGINE_THREADS = threads
    return {
        "answers": len(texts),
        "rounds": rounds,
        "load_average": round(os.getloadavg()[0], 1),
        **{name: {**stats(v), "max_ms": round(max(v) * 1000, 2)} for name, v in latencies.items()},
        "verdicts": verdicts,
    }


def complete_runs(journal: Any) -> None:
    """The 32 run records of the benchmark session (the recovered-memory section)."""
    for k in range(32):
        words = topic_words(k)
        journal.CompleteRun(
            jpb.CompleteRunRequest(
                run_id=f"bench-run-{k}",
                session_id=SESSION,
                subject=SUBJECT,
                status=jpb.RUN_STATUS_COMPLETED,
                request_text=f"look into {' '.join(words)}",
                outcome_text=f"filed {words[0]} under item{k}",
                request_id=str(uuid.uuid4()),
            )
        )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spawn_planes(url: str, out: Path) -> tuple[list[subprocess.Popen[bytes]], dict[str, str]]:
    """journal, learning and retrieval as three `engram serve <service>` processes."""
    addresses = {name: f"127.0.0.1:{free_port()}" for name in ("journal", "learning", "retrieval")}
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for name, address in addresses.items():
            processes.append(_serve(name, address, addresses["journal"], url, out))
        for name, address in addresses.items():
            _wait_serving(name, address)
    except BaseException:
        stop_processes(processes)
        raise
    return processes, addresses


def _serve(
    name: str,
    address: str,
    journal: str,
    url: str,
    out: Path,
    checkout: Path = ROOT,
    extra: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """`engram serve <name>` from ``checkout`` (its own code first on the path)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "OPENBLAS_NUM_THREADS": "1",
        "ENGRAM_LISTEN": address,
        "ENGRAM_DATABASE_URL": url,
        "ENGRAM_JOURNAL_ADDR": journal,
        "ENGRAM_EMBEDDER": "hashing",
        "ENGRAM_INDEX_PERSIST": "false",
        "ENGRAM_INDEX_STALENESS_SECONDS": "60",
        "ENGRAM_LOG_LEVEL": "WARNING",
        "ENGRAM_METRICS_PORT": "-1",
        "ENGRAM_DATA_DIR": str(out / f"data-{name}"),
        **(extra or {}),
    }
    return subprocess.Popen(
        [sys.executable, "-c", "from engram.cli.main import main; main()", "serve", name],
        env=env,
        cwd=checkout,
    )


def spawn_stacks(
    url: str, out: Path, baseline: Path
) -> tuple[list[subprocess.Popen[bytes]], dict[str, str], dict[str, str]]:
    """For a comparison of two checkouts: one journal and one retrieval process (this
    checkout's), then a learning and a gateway process from each checkout over them;
    returns the processes, the plane addresses of this checkout and the two gateways'."""
    processes, addresses = spawn_planes(url, out)
    gateways: dict[str, str] = {}
    try:
        for side, checkout in (("new", ROOT), ("baseline", baseline)):
            learning = addresses["learning"]
            if side == "baseline":
                learning = f"127.0.0.1:{free_port()}"
                processes.append(
                    _serve("learning", learning, addresses["journal"], url, out / side, checkout)
                )
                _wait_serving("learning", learning)
            gateways[side] = f"127.0.0.1:{free_port()}"
            processes.append(
                _serve(
                    "gateway",
                    gateways[side],
                    addresses["journal"],
                    url,
                    out / side,
                    checkout,
                    {
                        "ENGRAM_LEARNING_ADDR": learning,
                        "ENGRAM_RETRIEVAL_ADDR": addresses["retrieval"],
                    },
                )
            )
            _wait_serving("gateway", gateways[side])
    except BaseException:
        stop_processes(processes)
        raise
    return processes, addresses, gateways


def answer(response: gpb.AssembleContextResponse) -> tuple[Any, ...]:
    """What an AssembleContext answers, without what differs per call (the context id,
    receipt and event ids, the time)."""
    return tuple(
        (
            section.name,
            section.status,
            section.rendered,
            tuple(trace.record_ids),
            trace.block_sha256,
            trace.absence_state,
            trace.candidates_evaluated,
            trace.entries_packed,
            trace.entries_dropped_budget,
            trace.used_tokens,
            trace.detail,
        )
        for section, trace in zip(response.sections, response.trace.sections, strict=True)
    )


def compare_series(gateways: dict[str, Any], iterations: int, warmup: int) -> dict[str, Any]:
    """AssembleContext on each checkout's gateway, alternating which goes first, the
    same request (but its request id) to both; their answers compared."""
    series: dict[str, list[float]] = {name: [] for name in gateways}
    mismatches = 0
    names = list(gateways)
    for i in range(iterations + warmup):
        text = query_text(i % 1000, i) + " matters"
        answers = {}
        for name in names if i % 2 else names[::-1]:
            request = gpb.AssembleContextRequest(
                subject=SUBJECT, session_id=SESSION, input_text=text, request_id=str(uuid.uuid4())
            )
            elapsed, response = timed(gateways[name].AssembleContext, request)
            answers[name] = answer(response)
            if i >= warmup:
                series[name].append(elapsed)
        mismatches += len({answers[name] for name in names}) > 1
    result: dict[str, Any] = {name: stats(values) for name, values in series.items()}
    base, new = result["baseline"], result["new"]
    result["ratio_p50_baseline_over_new"] = round(base["p50_ms"] / new["p50_ms"], 2)
    result["ratio_p99_baseline_over_new"] = round(base["p99_ms"] / new["p99_ms"], 2)
    result["mismatches"] = mismatches
    return result


def stop_processes(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def _wait_serving(name: str, address: str) -> None:
    channel = open_channel(address)
    health = health_pb2_grpc.HealthStub(channel)
    deadline = time.monotonic() + 120
    try:
        while True:
            try:
                reply = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"{name} did not start")
            time.sleep(0.3)
    finally:
        channel.close()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--learnings", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--release-calls", type=int, default=400)
    parser.add_argument(
        "--answers",
        type=int,
        default=0,
        help="rounds of ReleaseResponse on the four-sentence blind answers (0: none)",
    )
    parser.add_argument(
        "--answers-only", action="store_true", help="skip the AssembleContext series"
    )
    parser.add_argument("--topology", choices=("split", "single"), default="split")
    parser.add_argument("--out", type=Path, default=Path("/var/tmp/engram-gateway-bench"))
    parser.add_argument(
        "--baseline-checkout",
        type=Path,
        help="another checkout (e.g. main): its learning and gateway processes, and this "
        "checkout's, over one journal and one retrieval process; AssembleContext on both "
        "gateways in alternation (instead of the serial reads)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="write a cProfile of the server threads during the AssembleContext series here",
    )
    args = parser.parse_args()

    phases = time_phases()
    if args.topology == "single":
        time_handlers(phases)
    profiles = ThreadProfiles()
    if args.profile:
        profiles.start()
    model = shared_embedder("hashing").name
    server, corpus_url, _ = prepare(args.out, args.episodes, model)
    corpus_db = psycopg.conninfo.conninfo_to_dict(corpus_url)["dbname"]
    url = clone_with_learnings(server.url, str(corpus_db), args.episodes, args.learnings, args.out)
    overrides: dict[str, Any] = {
        "listen": "127.0.0.1:0",
        "database_url": url,
        "embedder": "hashing",
        "data_dir": str(args.out / "data"),
        "index_persist": False,
        "metrics_port": -1,
        "index_staleness_seconds": 60,
        "log_level": "WARNING",
        "grace_seconds": 1.0,
    }
    processes: list[subprocess.Popen[bytes]] = []
    suite = None
    channels: list[grpc.Channel] = []
    summary: dict[str, Any] = {
        "episodes": args.episodes,
        "learnings": args.learnings,
        "corpus": Corpus(args.episodes).episodes,
        "topology": args.topology,
        "load_average_start": round(os.getloadavg()[0], 1),
    }
    try:
        if args.baseline_checkout:
            processes, addresses, gateways = spawn_stacks(url, args.out, args.baseline_checkout)
            channels = [open_channel(a) for a in (*addresses.values(), *gateways.values())]
            stubs: dict[str, Any] = {
                "journal": jgrpc.JournalServiceStub(channels[0]),
                "learning": lgrpc.LearningServiceStub(channels[1]),
                "retrieval": rgrpc.RetrievalServiceStub(channels[2]),
            }
            summary["topology"] = "split, two checkouts"
            summary["baseline_checkout"] = str(args.baseline_checkout)
            summary["startup"] = wait_ready(
                stubs["retrieval"], stubs["learning"], stubs["journal"], timeout=900
            )
            complete_runs(stubs["journal"])
            print(json.dumps(summary), flush=True)
            summary["assemble"] = compare_series(
                {
                    name: ggrpc.GatewayServiceStub(channel)
                    for name, channel in zip(gateways, channels[3:], strict=True)
                },
                args.iterations,
                args.warmup,
            )
            summary["load_average_end"] = round(os.getloadavg()[0], 1)
            print(json.dumps(summary, indent=1), flush=True)
            return
        if args.topology == "split":
            processes, addresses = spawn_planes(url, args.out)
            overrides.update(
                journal_addr=addresses["journal"],
                learning_addr=addresses["learning"],
                retrieval_addr=addresses["retrieval"],
            )
            suite = start_suite(Settings.load(overrides, env={}), ["gateway"])
        else:
            suite = start_suite(
                Settings.load(overrides, env={}), ["journal", "learning", "retrieval", "gateway"]
            )
            addresses = {name: suite.address for name in ("journal", "learning", "retrieval")}
        channels = [open_channel(a) for a in (*addresses.values(), suite.address)]
        stubs = {
            "journal": jgrpc.JournalServiceStub(channels[0]),
            "learning": lgrpc.LearningServiceStub(channels[1]),
            "retrieval": rgrpc.RetrievalServiceStub(channels[2]),
            "gateway": ggrpc.GatewayServiceStub(channels[3]),
        }
        summary["startup"] = wait_ready(
            stubs["retrieval"], stubs["learning"], stubs["journal"], timeout=900
        )
        complete_runs(stubs["journal"])
        print(json.dumps(summary), flush=True)
        if not args.answers_only:
            summary["assemble"] = assemble_series(
                stubs, args.iterations, args.warmup, phases, profiles.reset
            )
            print(json.dumps(summary["assemble"]), flush=True)
            if args.profile:
                profiles.write(args.profile).sort_stats("tottime").print_stats(40)
            summary["release"] = [
                release_series(stubs["gateway"], args.release_calls, clients) for clients in (1, 4)
            ]
        if args.answers:
            summary["answers"] = answer_series(stubs["gateway"], args.answers)
        summary["load_average_end"] = round(os.getloadavg()[0], 1)
        print(json.dumps(summary, indent=1), flush=True)
    finally:
        for channel in channels:
            channel.close()
        if suite is not None:
            suite.stop(grace=1)
        stop_processes(processes)
        server.stop()


if __name__ == "__main__":
    main()
