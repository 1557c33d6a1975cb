"""Recall's server-side path in this checkout against another revision's, in
one process on the same persisted index, query by query in alternating
order (so load hits both alike), a pause (--pause-ms) before each call:
the visibility fence read, the search
(candidates, both ranking stages), the hits from the held bodies and the
response protobuf. The ranked candidate lists and the hits of both versions
are compared for every query.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recall_ab.py --episodes 1000000 \
        --baseline /tmp/engram-baseline

--baseline is a checkout of the other revision (``git worktree add`` or
``git archive``); its retrieval_service package and engram/ranking.py are
loaded beside this checkout's (every other module is shared). The persisted
index of bench/retrieval_latency.py --keep-index is loaded once per version.
No gRPC: bench/retrieval_latency.py measures the whole call.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import re
import sys
import time
import types
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engram
from bench._common import percentile
from bench.retrieval_corpus import SUBJECT, WORKSPACE, Corpus, prepare, query_text
from engram.embedder_cache import shared_embedder
from engram.retrieval.v1 import retrieval_pb2 as rpb
from retrieval_service.bodies import hit_from_episode
from retrieval_service.direct import DirectEpisodes

MODULES = ("retrieval_service", "engram.ranking")


def _ours(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in MODULES)


def load_version(checkout: Path | None) -> dict[str, types.ModuleType]:
    """recall, persist and ranking of a checkout (None: this one), each
    version's modules importing each other only."""
    names = ("retrieval_service.recall", "retrieval_service.persist", "retrieval_service.bodies")
    if checkout is None:
        found = {n: importlib.import_module(n) for n in names}
        found["engram.ranking"] = importlib.import_module("engram.ranking")
        return found
    saved = {n: m for n, m in sys.modules.items() if _ours(n)}
    for name in saved:
        del sys.modules[name]
    sys.path.insert(0, str(checkout))
    try:
        spec = importlib.util.spec_from_file_location(
            "engram.ranking", checkout / "engram" / "ranking.py"
        )
        assert spec is not None and spec.loader is not None
        ranking = importlib.util.module_from_spec(spec)
        sys.modules["engram.ranking"] = ranking
        # `from engram import ranking` reads the package's attribute first.
        engram.ranking = ranking
        spec.loader.exec_module(ranking)
        found = {n: importlib.import_module(n) for n in names}
        found["engram.ranking"] = ranking
        return found
    finally:
        sys.path.remove(str(checkout))
        for name in [n for n in sys.modules if _ours(n)]:
            del sys.modules[name]
        sys.modules.update(saved)
        engram.ranking = saved["engram.ranking"]


class Version:
    """One version's server-side Recall path, without gRPC and routing."""

    def __init__(
        self, modules: dict[str, types.ModuleType], root: Path, direct: DirectEpisodes
    ) -> None:
        self.recall = modules["retrieval_service.recall"]
        self.ranking = modules["engram.ranking"]
        loaded = modules["retrieval_service.persist"].load(root, 384, "hashing-v1-384")
        assert loaded is not None, f"no persisted index under {root}"
        self.snapshot = loaded[0]
        self.owner = types.SimpleNamespace(
            _resident_guard=None, ranker=self.ranking.shared_ranker("default")
        )
        self.direct = direct
        # This checkout sends the fence read and collects it after the search.
        self.pipelined = hasattr(self.recall, "HeldHit")

    def __call__(self, text: str, vector: Any) -> tuple[Any, list[Any]]:
        recall = self.recall
        if self.pipelined:
            pending = self.direct.start_fence()
        else:
            fence = self.direct.fence()
        query = recall.RecallQuery(text, SUBJECT, WORKSPACE, "", 10, None, None, vector)
        prepared = recall.Recaller._prepare(query, self.snapshot)
        fused = recall.Recaller._search(self.owner, query, self.snapshot, vector, prepared)
        if self.pipelined:
            fence = pending()
        assert self.snapshot.applied_cursor >= fence
        held = recall.Recaller._from_snapshot(query, self.snapshot, fused)
        assert held is not None
        if self.pipelined:
            hits = [h.message() for h in held]
        else:
            # The mapping the servicer made before held rows became hits directly.
            hits = [
                hit_from_episode(h.episode, h.score, h.dense_rank, h.lexical_rank) for h in held
            ]
        response = rpb.RecallResponse(hits=hits)
        return response, [(f.id, f.score, f.dense_rank, f.lexical_rank) for f in fused]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=1_000_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--out", type=Path, default=Path("/var/tmp/engram-bench"))
    parser.add_argument("--baseline", type=Path, required=True)
    parser.add_argument("--pause-ms", type=float, default=5.0)
    args = parser.parse_args()

    model = shared_embedder("hashing").name
    server, url, _log = prepare(args.out, args.episodes, model)
    tag = re.sub(r"[^A-Za-z0-9._-]+", "_", model)
    root = args.out / f"data-{args.episodes}-{tag}" / "index"
    direct = DirectEpisodes(url, model)
    try:
        started = time.monotonic()
        paths = {
            "this": Version(load_version(None), root, direct),
            "baseline": Version(load_version(args.baseline.resolve()), root, direct),
        }
        loaded = round(time.monotonic() - started, 1)
        vectors, clusters = Corpus(args.episodes).queries(args.queries + args.warmup)
        spent: dict[str, list[float]] = {name: [] for name in paths}
        identical = 0
        for i, (vector, cluster) in enumerate(zip(vectors, clusters, strict=True)):
            text = query_text(int(cluster), i)
            order = list(paths) if i % 2 == 0 else list(reversed(paths))
            outputs = {}
            for name in order:
                # A pause before each call, as between a server's requests: a
                # process that never sleeps is scheduled as a batch job on a
                # shared machine, and its calls then measure the queue.
                time.sleep(args.pause_ms / 1000)
                begun = time.perf_counter_ns()
                outputs[name] = paths[name](text, vector)
                if i >= args.warmup:
                    spent[name].append((time.perf_counter_ns() - begun) / 1e6)
            if i >= args.warmup:
                a, b = outputs["this"], outputs["baseline"]
                identical += a[0].SerializeToString() == b[0].SerializeToString() and a[1] == b[1]
        result: dict[str, Any] = {
            "episodes": args.episodes,
            "queries": args.queries,
            "load_seconds_both": loaded,
        }
        for name, values in spent.items():
            result[name] = {
                "p50_ms": round(percentile(values, 50), 3),
                "p99_ms": round(percentile(values, 99), 3),
            }
        result["ratio_p50_baseline_over_this"] = round(
            result["baseline"]["p50_ms"] / result["this"]["p50_ms"], 2
        )
        result["ratio_p99_baseline_over_this"] = round(
            result["baseline"]["p99_ms"] / result["this"]["p99_ms"], 2
        )
        result["identical"] = f"{identical} of {args.queries}"
        print(json.dumps(result, indent=1), flush=True)
    finally:
        direct.close()
        server.stop()


if __name__ == "__main__":
    main()
