"""Recall latency over gRPC (resident index) against JournalService.SearchEpisodes
(pgvector + full-text) on the same synthetic corpus in the same run, resident
dense recall@10 against exact search, index build time and resident memory.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/retrieval_latency.py --episodes 100000

The corpus (bench/retrieval_corpus.py: clustered synthetic vectors, one
subject, loaded with COPY) is built once per size under --out and reused.
The services run in this process on one port (journal + retrieval, MiniLM
embedder, index persistence off); RetrievalService builds its index by
replaying the change feed at start, and the benchmark waits for it.

Per query, six calls in turn (so machine noise hits all alike): Recall
and SearchEpisodes with a precomputed query vector (excluding query
embedding); the same Recall with its hits re-read from the journal's
database instead of served from the snapshot after the visibility fence
(the path before the fence, a same-run baseline); the same with the re-read
sent through JournalService.BatchGetEpisodes over gRPC (the path before
that); then Recall and SearchEpisodes with query text only (each service
embeds the query with --embedder; --no-text skips these two). k = 10.
Recall's resident path includes its visibility check, the price of never
serving a quarantined hit: one read of the visibility fence row
(retrieval_service.direct), the process knowing the database URL.

With --baseline DIR (a checkout of another revision, e.g. made with
`git worktree add` or `git archive`) and --keep-index, two more Recall calls
join each query's turn: RetrievalService as an `engram serve retrieval`
process from this checkout and one from DIR, each loading a hard-linked copy
of the persisted index and following this run's journal, so the two versions
are measured interleaved in one run; their returned hits are compared query
by query (ids, scores, ranks, bodies).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile
from bench.gateway_bench import free_port, stop_processes
from bench.retrieval_corpus import SUBJECT, WORKSPACE, Corpus, prepare, query_text
from engram import ranking
from engram.channels import open_channel
from engram.config import Settings
from engram.embedder_cache import shared_embedder
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import start_suite
from retrieval_service import dense as dense_mod
from retrieval_service.dense import faiss
from retrieval_service.recall import VISIBILITY_SNAPSHOT
from retrieval_service.snapshot import SearchRequest, Snapshot


def rss_bytes() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def stats(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(percentile(values, 50) * 1000, 3),
        "p99_ms": round(percentile(values, 99) * 1000, 3),
    }


def body_bytes(snapshot: Snapshot) -> int:
    """Bytes the snapshot spends on episode bodies (texts, hash, body columns)."""
    return sum(
        int(s.text_offsets.nbytes + s.text_bytes.nbytes + s.sha256.nbytes + s.body.nbytes)
        for s in snapshot.segments
    )


ROOT = Path(__file__).resolve().parent.parent


def linked_copy(source: Path, target: Path) -> None:
    """A copy of a directory tree made of hard links (instant; the index's
    writes replace files by rename, so the original is never touched)."""
    for directory, _dirs, files in os.walk(source):
        into = target / Path(directory).relative_to(source)
        into.mkdir(parents=True, exist_ok=True)
        for name in files:
            if not (into / name).exists():
                os.link(Path(directory) / name, into / name)


def serve_retrieval(
    checkout: Path, data_dir: Path, journal: str, url: str, embedder: str
) -> tuple[subprocess.Popen[bytes], str]:
    """`engram serve retrieval` from ``checkout`` (its code first on the path)."""
    address = f"127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "OPENBLAS_NUM_THREADS": "1",
        "ENGRAM_LISTEN": address,
        "ENGRAM_DATABASE_URL": url,
        "ENGRAM_JOURNAL_ADDR": journal,
        "ENGRAM_EMBEDDER": embedder,
        "ENGRAM_INDEX_PERSIST": "true",
        "ENGRAM_INDEX_STALENESS_SECONDS": "60",
        "ENGRAM_LOG_LEVEL": "WARNING",
        "ENGRAM_METRICS_PORT": "-1",
        "ENGRAM_DATA_DIR": str(data_dir),
    }
    process = subprocess.Popen(
        [sys.executable, "-c", "from engram.cli.main import main; main()", "serve", "retrieval"],
        env=env,
        cwd=checkout,
    )
    return process, address


def wait_ready(stub: Any, process: subprocess.Popen[bytes]) -> None:
    import grpc

    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("a compared retrieval process exited")
        try:
            if stub.GetIndexStatus(rpb.GetIndexStatusRequest(), timeout=5).ready:
                return
        except grpc.RpcError:
            pass
        time.sleep(0.5)
    raise TimeoutError("a compared retrieval process did not load its index")


def timed(call: Any, request: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    response = call(request)
    return time.perf_counter() - started, response


def pgvector_top10(url: str, vectors: np.ndarray) -> list[set[str]]:
    """pgvector's dense top-10 with SearchEpisodes' settings for limit 10
    (hnsw.ef_search = max(100, candidate window 40), iterative scan)."""
    found = []
    with psycopg.connect(url) as conn:
        register_vector(conn)
        conn.execute("SET hnsw.ef_search = 100")
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        for vector in vectors:
            rows = conn.execute(
                "SELECT episode_id FROM journal.episodes WHERE subject = %s AND workspace = %s "
                "AND embedding IS NOT NULL ORDER BY embedding <=> %s LIMIT 10",
                (SUBJECT, WORKSPACE, vector),
            ).fetchall()
            found.append({str(r[0]) for r in rows})
    return found


def dense_recall(runtime: Any, vectors: np.ndarray, url: str) -> dict[str, float]:
    """Resident dense top-10 (and pgvector's) against exact inner product over the same rows."""
    snapshot = runtime.index.snapshot
    base = snapshot.segments[0]
    subject, workspace = (
        runtime.index.interner.lookup(SUBJECT),
        runtime.index.interner.lookup(WORKSPACE),
    )
    lo, hi = base.scope_range(subject, workspace)
    recalls, pg_recalls, latencies = [], [], []
    pgvector = pgvector_top10(url, vectors)
    for vector, pg_ids in zip(vectors, pgvector, strict=True):
        started = time.perf_counter()
        result = snapshot.search(
            SearchRequest(SUBJECT, WORKSPACE, "", None, None, vector, "", 10, 10)
        )
        latencies.append(time.perf_counter() - started)
        scores = base.dense.vectors[lo:hi] @ vector
        exact = {base.episode_id(int(r) + lo) for r in np.argsort(-scores)[:10]}
        recalls.append(len(exact & set(result.dense.ids)) / 10)
        pg_recalls.append(len(exact & pg_ids) / 10)
    return {
        "recall_at_10": round(float(np.mean(recalls)), 4),
        "pgvector_recall_at_10": round(float(np.mean(pg_recalls)), 4),
        "dense_only_p50_ms": round(percentile(latencies, 50) * 1000, 3),
        "dense_only_p99_ms": round(percentile(latencies, 99) * 1000, 3),
        "queries": len(vectors),
    }


def ef_search_sweep(
    runtime: Any, vectors: np.ndarray, efs: tuple[int, ...] = (100, 128, 192)
) -> dict[str, Any]:
    """Recall@10 of the top 10 of Recall's dense list (k = ranking.WINDOW) against
    exact search, and the FAISS search time, at several efSearch values (the
    resident index uses dense.HNSW_EF_SEARCH, at least k)."""
    base = runtime.index.snapshot.segments[0]
    if base.dense.kind != dense_mod.KIND_HNSW:
        return {}
    subject = runtime.index.interner.lookup(SUBJECT)
    workspace = runtime.index.interner.lookup(WORKSPACE)
    lo, hi = base.scope_range(subject, workspace)
    exact = [set(np.argsort(-(base.dense.vectors[lo:hi] @ v))[:10].tolist()) for v in vectors]
    k = ranking.WINDOW
    found: dict[str, Any] = {"k": k}
    for ef in efs:
        params = faiss.SearchParametersHNSW(sel=faiss.IDSelectorRange(lo, hi), efSearch=ef)
        recalls, latencies = [], []
        for vector, truth in zip(vectors, exact, strict=True):
            started = time.perf_counter()
            _d, labels = base.dense.faiss_index.search(vector.reshape(1, -1), k, params=params)
            latencies.append(time.perf_counter() - started)
            top = {int(x) - lo for x in labels[0][:10]}
            recalls.append(len(top & truth) / 10)
        found[f"ef_{ef}"] = {
            "recall_at_10": round(float(np.mean(recalls)), 4),
            "faiss_p50_ms": round(percentile(latencies, 50) * 1000, 3),
        }
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--recall-queries", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("/var/tmp/engram-bench"))
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--no-text", action="store_true", help="skip the text-only calls")
    parser.add_argument(
        "--keep-index",
        action="store_true",
        help="persist the resident index under --out and load it on the next run",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="a checkout of another revision: its RetrievalService process and one of this "
        "checkout are measured interleaved (needs --keep-index and a persisted index)",
    )
    args = parser.parse_args()
    if args.baseline is not None and not args.keep_index:
        parser.error("--baseline needs --keep-index (the processes load the persisted index)")

    model = shared_embedder(args.embedder).name
    shared_embedder(args.embedder).embed_one("warm the model up")
    started = time.monotonic()
    server, url, load_log = prepare(args.out, args.episodes, model)
    prepare_seconds = time.monotonic() - started
    settings = Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": url,
            "embedder": args.embedder,
            "data_dir": str(
                args.out / f"data-{args.episodes}-{re.sub(r'[^A-Za-z0-9._-]+', '_', model)}"
            ),
            "index_persist": args.keep_index,
            "metrics_port": -1,
            "index_staleness_seconds": 60,
            "log_level": "WARNING",
            "grace_seconds": 1.0,
        },
        env={},
    )
    rss_before = rss_bytes()
    started = time.monotonic()
    suite = start_suite(settings, ["journal", "retrieval"])
    compared: dict[str, Any] = {}
    processes: list[subprocess.Popen[bytes]] = []
    summary: dict[str, Any] = {
        "episodes": args.episodes,
        "load": load_log,
        "prepare_seconds": round(prepare_seconds, 1),
    }
    try:
        channel = open_channel(suite.address)
        retrieval = rgrpc.RetrievalServiceStub(channel)
        journal = jgrpc.JournalServiceStub(channel)
        while True:
            status = retrieval.GetIndexStatus(rpb.GetIndexStatusRequest())
            if status.ready:
                break
            time.sleep(0.5)
        summary["index_build_seconds"] = round(time.monotonic() - started, 1)
        rss_after = rss_bytes()
        summary["index"] = {
            "type": status.dense_index_type,
            "episodes": status.episodes,
            "resident_bytes": status.resident_bytes,
            "resident_bytes_per_episode": round(status.resident_bytes / status.episodes, 1),
            "rss_delta_bytes_per_episode": round((rss_after - rss_before) / status.episodes, 1),
        }
        runtime: Any = next(b for b in suite.bindings if b.name == "retrieval").servicer.runtime  # type: ignore[attr-defined]
        summary["index"]["body_bytes_per_episode"] = round(
            body_bytes(runtime.index.snapshot) / status.episodes, 1
        )
        print(json.dumps(summary), flush=True)
        if args.baseline is not None:
            index_dir = settings.data_path / "index"
            for name, checkout in (("this", ROOT), ("baseline", args.baseline.resolve())):
                data_dir = Path(f"/var/tmp/engram-bench-compare/{args.episodes}-{name}")
                linked_copy(index_dir, data_dir / "index")
                process, address = serve_retrieval(
                    checkout, data_dir, suite.address, url, args.embedder
                )
                processes.append(process)
                compared[name] = rgrpc.RetrievalServiceStub(open_channel(address))
            for stub, process in zip(compared.values(), processes, strict=True):
                wait_ready(stub, process)

        corpus = Corpus(args.episodes)
        vectors, clusters = corpus.queries(args.queries + args.warmup)
        names = ["recall_vector", "search_vector", "recall_vector_reread", "recall_vector_rpc"]
        if not args.no_text:
            names += ["recall_text", "search_text"]
        names += [f"recall_process_{name}" for name in compared]
        server_process: dict[str, list[float]] = {name: [] for name in compared}
        identical = 0
        series: dict[str, list[float]] = {k: [] for k in names}
        served: dict[int, int] = {}
        server_embed, server_search = [], []
        server_search_vector: dict[str, list[float]] = {"fence": [], "reread": [], "rpc": []}
        recaller = runtime.recaller
        assert runtime.direct is not None, "the benchmark measures the direct reads"
        fence = recaller.fence
        from_snapshot = 0

        def recall_reread(request: rpb.RecallRequest) -> rpb.RecallResponse:
            recaller.fence = None
            try:
                response: rpb.RecallResponse = retrieval.Recall(request)
                return response
            finally:
                recaller.fence = fence

        def recall_via_rpc(request: rpb.RecallRequest) -> rpb.RecallResponse:
            recaller._episodes = runtime.client
            try:
                return recall_reread(request)
            finally:
                recaller._episodes = runtime.direct

        agree_top1 = 0
        for i, (vector, cluster) in enumerate(zip(vectors, clusters, strict=True)):
            text = query_text(int(cluster), i)
            values = vector.tolist()
            calls = [
                (
                    "recall_vector",
                    retrieval.Recall,
                    rpb.RecallRequest(
                        query_text=text, subject=SUBJECT, limit=10, query_embedding=values
                    ),
                ),
                (
                    "search_vector",
                    journal.SearchEpisodes,
                    jpb.SearchEpisodesRequest(
                        query_text=text, subject=SUBJECT, limit=10, query_embedding=values
                    ),
                ),
                (
                    "recall_vector_reread",
                    recall_reread,
                    rpb.RecallRequest(
                        query_text=text, subject=SUBJECT, limit=10, query_embedding=values
                    ),
                ),
                (
                    "recall_vector_rpc",
                    recall_via_rpc,
                    rpb.RecallRequest(
                        query_text=text, subject=SUBJECT, limit=10, query_embedding=values
                    ),
                ),
                (
                    "recall_text",
                    retrieval.Recall,
                    rpb.RecallRequest(query_text=text, subject=SUBJECT, limit=10),
                ),
                (
                    "search_text",
                    journal.SearchEpisodes,
                    jpb.SearchEpisodesRequest(query_text=text, subject=SUBJECT, limit=10),
                ),
            ]
            calls += [
                (
                    f"recall_process_{name}",
                    stub.Recall,
                    rpb.RecallRequest(
                        query_text=text, subject=SUBJECT, limit=10, query_embedding=values
                    ),
                )
                for name, stub in compared.items()
            ]
            responses: dict[str, Any] = {}
            for name, call, request in calls:
                if name not in series:
                    continue
                held = recaller.visibility_counts[VISIBILITY_SNAPSHOT]
                elapsed, responses[name] = timed(call, request)
                if i >= args.warmup:
                    series[name].append(elapsed)
                    if name == "recall_vector":
                        from_snapshot += recaller.visibility_counts[VISIBILITY_SNAPSHOT] - held
            if i >= args.warmup:
                for name in ("recall_vector", "recall_vector_reread", "recall_vector_rpc"):
                    served[responses[name].served_by] = served.get(responses[name].served_by, 0) + 1
                for key, name in (
                    ("fence", "recall_vector"),
                    ("reread", "recall_vector_reread"),
                    ("rpc", "recall_vector_rpc"),
                ):
                    server_search_vector[key].append(responses[name].search_micros / 1e6)
                if not args.no_text:
                    recall = responses["recall_text"]
                    server_embed.append(recall.embed_micros / 1e6)
                    server_search.append(recall.search_micros / 1e6)
                for name in compared:
                    server_process[name].append(
                        responses[f"recall_process_{name}"].search_micros / 1e6
                    )
                if compared:
                    mine, theirs = (
                        list(responses[f"recall_process_{name}"].hits) for name in compared
                    )
                    identical += mine == theirs
                a, b = responses["recall_vector"], responses["search_vector"]
                if a.hits and b.hits and a.hits[0].episode_id == b.hits[0].episode.episode_id:
                    agree_top1 += 1
        result: dict[str, Any] = {name: stats(values) for name, values in series.items()}
        for mode in ("vector",) if args.no_text else ("vector", "text"):
            result[f"ratio_p50_{mode}"] = round(
                result[f"search_{mode}"]["p50_ms"] / result[f"recall_{mode}"]["p50_ms"], 2
            )
        for name in ("reread", "rpc"):
            result[f"ratio_p50_{name}_over_fence"] = round(
                result[f"recall_vector_{name}"]["p50_ms"] / result["recall_vector"]["p50_ms"], 2
            )
        for key, values in server_search_vector.items():
            result[f"recall_server_search_vector_{key}"] = stats(values)
        result["recall_vector_served_from_snapshot"] = from_snapshot
        if compared:
            result["ratio_p50_baseline_over_this"] = round(
                result["recall_process_baseline"]["p50_ms"]
                / result["recall_process_this"]["p50_ms"],
                2,
            )
            result["ratio_p99_baseline_over_this"] = round(
                result["recall_process_baseline"]["p99_ms"]
                / result["recall_process_this"]["p99_ms"],
                2,
            )
            for name, values in server_process.items():
                result[f"recall_process_{name}_server_search"] = stats(values)
            result["process_hits_identical"] = f"{identical} of {args.queries}"
        if not args.no_text:
            result["recall_server_embed"] = stats(server_embed)
            result["recall_server_search"] = stats(server_search)
        result["served_by"] = {
            rpb.ServedBy.Name(k): v  # type: ignore[arg-type]
            for k, v in served.items()
        }
        result["top1_agreement_vector"] = round(agree_top1 / args.queries, 3)
        summary["latency"] = result
        recall_vectors = corpus.queries(args.recall_queries)[0]
        summary["dense"] = dense_recall(runtime, recall_vectors, url)
        summary["ef_search"] = ef_search_sweep(runtime, recall_vectors)
        print(json.dumps(summary, indent=1), flush=True)
        channel.close()
    finally:
        stop_processes(processes)
        suite.stop(grace=1)
        server.stop()


if __name__ == "__main__":
    main()
