"""Where a resident Recall spends its server time, section by section, on the
persisted corpus of bench/retrieval_latency.py (run that once with
--keep-index first), and the ranked output of every query for comparing two
versions of the code.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recall_breakdown.py --episodes 1000000 \
        --embedder hashing --dump /tmp/recall-after.json
    .venv/bin/python bench/recall_breakdown.py --compare /tmp/before.json /tmp/after.json

Each query runs the servicer's Recall in this process (no gRPC: the request
object the client would send, validation, routing, the visibility fence,
the search, ranking, the bodies and the response protobuf), then the same
request over loopback gRPC; k = 10, query vectors precomputed. Sections are
inclusive wall times of the named functions (wrapped for the run; nested
ones are counted in their callers too), p50 over the measured queries.
``--dump`` writes each query's whole ranked candidate list (ids, scores,
dense and lexical ranks) and its returned hits.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile
from bench.retrieval_corpus import SUBJECT, Corpus, prepare, query_text
from engram import ranking
from engram.channels import open_channel
from engram.config import Settings
from engram.embedder_cache import shared_embedder
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import start_suite
from retrieval_service import dense, lexical, recall, snapshot

# (owner, attribute, label): the functions timed, outermost first.
SECTIONS: list[tuple[Any, str, str]] = [
    (recall.Recaller, "recall", "Recaller.recall"),
    (recall.Recaller, "_read_fence", "fence read"),
    (recall.Recaller, "_start_fence", "fence read sent"),
    (getattr(recall, "_Fence", None), "value", "fence answer collected"),
    (recall.Recaller, "_prepare", "prepare_query (speaker names)"),
    (recall.Recaller, "_search", "search (candidates + rank)"),
    (snapshot.Snapshot, "candidates", "Snapshot.candidates"),
    (snapshot.Snapshot, "_weighted_terms", "query terms + idf"),
    (snapshot.Snapshot, "_dense_hits", "dense list (HNSW + re-score)"),
    (dense.DenseIndex, "search", "FAISS / exact search"),
    (lexical.LexicalSegment, "score_range", "BM25 score_range"),
    (snapshot.Snapshot, "_top_hits", "_top_hits (both lists)"),
    (snapshot.Snapshot, "_neighbours", "_neighbours"),
    (snapshot.Snapshot, "_cosines", "_cosines (candidates + neighbours)"),
    (snapshot.Snapshot, "_lex_scores", "_lex_scores"),
    (snapshot.Snapshot, "speaker_names", "speaker_names"),
    (snapshot.EpisodeIds, "keys", "EpisodeIds.keys"),
    (ranking, "rank", "ranking.rank"),
    (ranking, "first_stage", "first_stage"),
    (ranking, "_order", "first-stage order"),
    (ranking, "list_ranks", "list_ranks"),
    (ranking, "features", "features"),
    (ranking.TreeRanker, "decision", "trees"),
    (recall.Recaller, "_from_snapshot", "hits from held bodies"),
    (getattr(recall, "RankedList", None), "__getitem__", "ranked items made"),
]


class Timer:
    def __init__(self) -> None:
        self.spent: dict[str, list[float]] = {}
        self.current: dict[str, float] = {}
        self._restore: list[tuple[Any, str, Any]] = []

    def wrap(self, owner: Any, name: str, label: str) -> None:
        """Time ``owner.name`` (skipped where this version of the code has none)."""
        if owner is None or name not in vars(owner):
            return
        original = owner.__dict__[name]
        raw = original.__func__ if isinstance(original, staticmethod) else original
        current = self.current

        @functools.wraps(raw)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter_ns()
            try:
                return raw(*args, **kwargs)
            finally:
                current[label] = current.get(label, 0.0) + (time.perf_counter_ns() - started)

        setattr(owner, name, staticmethod(timed) if isinstance(original, staticmethod) else timed)
        self._restore.append((owner, name, original))

    def wrap_call(self, label: str, call: Callable[..., Any]) -> Callable[..., Any]:
        current = self.current

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter_ns()
            try:
                return call(*args, **kwargs)
            finally:
                current[label] = current.get(label, 0.0) + (time.perf_counter_ns() - started)

        return timed

    def commit(self) -> None:
        for label, ns in self.current.items():
            self.spent.setdefault(label, []).append(ns / 1e6)
        self.current.clear()

    def restore(self) -> None:
        for owner, name, original in reversed(self._restore):
            setattr(owner, name, original)


def compare(before_path: Path, after_path: Path) -> int:
    before = json.loads(before_path.read_text())
    after = json.loads(after_path.read_text())
    if len(before) != len(after):
        print(f"different query counts: {len(before)} vs {len(after)}")
        return 1
    bad = 0
    for i, (a, b) in enumerate(zip(before, after, strict=True)):
        if a != b:
            bad += 1
            if bad <= 5:
                print(f"query {i} differs")
    print(f"{len(before) - bad} of {len(before)} queries identical")
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("/var/tmp/engram-bench"))
    parser.add_argument("--embedder", default="hashing")
    parser.add_argument("--dump", type=Path, help="write every query's ranked output here")
    parser.add_argument("--compare", type=Path, nargs=2, help="compare two --dump files and exit")
    args = parser.parse_args()
    if args.compare:
        raise SystemExit(compare(*args.compare))

    model = shared_embedder(args.embedder).name
    server, url, _log = prepare(args.out, args.episodes, model)
    settings = Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": url,
            "embedder": args.embedder,
            "data_dir": str(
                args.out / f"data-{args.episodes}-{re.sub(r'[^A-Za-z0-9._-]+', '_', model)}"
            ),
            "index_persist": True,
            "metrics_port": -1,
            "index_staleness_seconds": 600,
            "log_level": "WARNING",
            "grace_seconds": 1.0,
        },
        env={},
    )
    suite = start_suite(settings, ["journal", "retrieval"])
    timer = Timer()
    try:
        channel = open_channel(suite.address)
        stub = rgrpc.RetrievalServiceStub(channel)
        while not stub.GetIndexStatus(rpb.GetIndexStatusRequest()).ready:
            time.sleep(0.5)
        binding: Any = next(b for b in suite.bindings if b.name == "retrieval")
        servicer = binding.servicer
        runtime = servicer.runtime
        recaller = runtime.recaller
        assert recaller.fence is not None, "the benchmark measures the fence path"
        recaller.fence = timer.wrap_call("fence (the call Recaller makes)", recaller.fence)
        for owner, name, label in SECTIONS:
            timer.wrap(owner, name, label)
        corpus = Corpus(args.episodes)
        vectors, clusters = corpus.queries(args.queries + args.warmup)
        dumps: list[dict[str, Any]] = []
        handler, grpc_ms = [], []
        original_search = recall.Recaller._search
        for i, (vector, cluster) in enumerate(zip(vectors, clusters, strict=True)):
            request = rpb.RecallRequest(
                query_text=query_text(int(cluster), i),
                subject=SUBJECT,
                limit=10,
                query_embedding=vector.tolist(),
            )
            captured: list[list[recall.Ranked]] = []
            if args.dump is not None and i >= args.warmup:

                def capture(self: Any, *a: Any, _out: Any = captured) -> Sequence[recall.Ranked]:
                    fused: Sequence[recall.Ranked] = original_search(self, *a)
                    _out.append(fused)
                    return fused

                recall.Recaller._search = capture  # type: ignore[method-assign,assignment]
            started = time.perf_counter_ns()
            response = servicer.Recall(request, None)
            elapsed = (time.perf_counter_ns() - started) / 1e6
            recall.Recaller._search = original_search  # type: ignore[method-assign]
            assert response.served_by == rpb.SERVED_BY_RESIDENT, response
            if i < args.warmup:
                timer.current.clear()
                stub.Recall(request)
                continue
            timer.commit()
            handler.append(elapsed)
            started = time.perf_counter_ns()
            over_grpc = stub.Recall(request)
            grpc_ms.append((time.perf_counter_ns() - started) / 1e6)
            assert list(over_grpc.hits) == list(response.hits)
            if args.dump is not None:
                fused = captured[0]
                dumps.append(
                    {
                        "ranked": [[f.id, f.score, f.dense_rank, f.lexical_rank] for f in fused],
                        "hits": [h.SerializeToString().hex() for h in response.hits],
                    }
                )
            timer.current.clear()  # the gRPC call's and the dump's own calls
        timer.restore()
        p50 = {label: round(percentile(v, 50), 4) for label, v in timer.spent.items()}
        out = {
            "episodes": args.episodes,
            "queries": args.queries,
            "servicer Recall in process p50 / p99 ms": [
                round(percentile(handler, 50), 4),
                round(percentile(handler, 99), 4),
            ],
            "the same over loopback gRPC p50 / p99 ms": [
                round(percentile(grpc_ms, 50), 4),
                round(percentile(grpc_ms, 99), 4),
            ],
            "sections p50 ms": p50,
        }
        print(json.dumps(out, indent=1), flush=True)
        if args.dump is not None:
            args.dump.write_text(json.dumps(dumps))
        channel.close()
    finally:
        timer.restore()
        suite.stop(grace=1)
        server.stop()


if __name__ == "__main__":
    main()
