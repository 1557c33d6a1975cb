"""FAISS HNSW parameters against exact search on the retrieval benchmark's
clustered synthetic vectors (bench/retrieval_corpus.py), outside any service:
build time and recall@10 / single-query latency per efSearch.

    .venv/bin/python bench/retrieval_hnsw_params.py --episodes 1000000 --ef-construction 80

This is how retrieval_service/dense.py's HNSW_EF_CONSTRUCTION and
HNSW_EF_SEARCH were chosen (docs/benchmarks.md, "Retrieval").
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import faiss as _faiss_module
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile
from bench.retrieval_corpus import DIM, Corpus
from retrieval_service.dense import HNSW_M

faiss: Any = _faiss_module


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=1_000_000)
    parser.add_argument("--ef-construction", type=int, default=80)
    parser.add_argument("--queries", type=int, default=300)
    args = parser.parse_args()
    corpus = Corpus(args.episodes)
    vectors = np.empty((args.episodes, DIM), dtype=np.float32)
    for start, _clusters, chunk in corpus.chunks():
        vectors[start : start + len(chunk)] = chunk
    queries, _ = corpus.queries(args.queries)
    exact = faiss.IndexFlatIP(DIM)
    exact.add(vectors)
    _, truth = exact.search(queries, 10)
    del exact
    index = faiss.IndexHNSWFlat(DIM, HNSW_M, faiss.METRIC_INNER_PRODUCT)
    index.hnsw.efConstruction = args.ef_construction
    started = time.monotonic()
    index.add(vectors)
    print(
        f"episodes {args.episodes} M {HNSW_M} efConstruction {args.ef_construction} "
        f"build {time.monotonic() - started:.1f}s",
        flush=True,
    )
    faiss.omp_set_num_threads(1)  # one query at a time, as a request does
    for ef in (64, 128, 256, 512):
        params = faiss.SearchParametersHNSW(efSearch=ef)
        latencies, recalls = [], []
        for query, gold in zip(queries, truth, strict=True):
            t = time.perf_counter()
            _, labels = index.search(query.reshape(1, -1), 10, params=params)
            latencies.append(time.perf_counter() - t)
            recalls.append(len(set(labels[0]) & set(gold)) / 10)
        print(
            f"efSearch {ef}: recall@10 {np.mean(recalls):.3f} "
            f"p50 {percentile(latencies, 50) * 1000:.2f} ms "
            f"p99 {percentile(latencies, 99) * 1000:.2f} ms",
            flush=True,
        )


if __name__ == "__main__":
    main()
