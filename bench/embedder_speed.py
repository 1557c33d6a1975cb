"""Embedder throughput and latency on this machine.

Run: .venv/bin/python bench/embedder_speed.py [--runs 3] [--singles 50]

Prints, for MiniLMEmbedder and HashingEmbedder: sentences/s embedding a batch of 64, and
the p50 latency of embed_one(). Each figure is the median over --runs runs.
Compare with ``OPENBLAS_NUM_THREADS=1`` (see docs/embedder.md: multi-threaded BLAS collapses
when another process competes for the cores).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engram.embedding import Embedder, HashingEmbedder, MiniLMEmbedder

_SUBJECTS = ["the user", "Alice", "the agent", "our team", "the customer", "Bob's manager"]
_VERBS = ["prefers", "asked about", "moved away from", "scheduled", "forgot", "approved"]
_OBJECTS = [
    "dark mode in every editor",
    "the quarterly budget review on Thursday",
    "PostgreSQL over MySQL for the new billing service",
    "a vegetarian restaurant near the office for the team dinner",
    "the flight to Lisbon that leaves early on the 14th",
    "rotating the API keys after the incident last week",
]
_TAILS = [
    "",
    " because it was cheaper",
    " and wants a reminder two days before, ideally by email rather than chat",
    " according to the meeting notes from March",
]


def sentences(n: int, seed: int) -> list[str]:
    """Memory-like sentences of 6-35 tokens (typical stored facts), deterministic."""
    rng = random.Random(seed)
    return [
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)}{rng.choice(_TAILS)}."
        for _ in range(n)
    ]


def batch_rate(emb: Embedder, batch: list[str], min_seconds: float = 1.0) -> float:
    reps = 0
    start = time.perf_counter()
    while True:
        emb.embed(batch)
        reps += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return reps * len(batch) / elapsed


def single_p50_ms(emb: Embedder, texts: list[str]) -> float:
    lat = []
    for text in texts:
        t0 = time.perf_counter()
        emb.embed_one(text)
        lat.append((time.perf_counter() - t0) * 1000.0)
    return statistics.median(lat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--singles", type=int, default=50, help="embed_one calls per run")
    args = parser.parse_args()

    # Other work on a 2-core box halves the MiniLM figures; print load so runs can be judged.
    load1 = os.getloadavg()[0]
    blas = os.environ.get("OPENBLAS_NUM_THREADS", "unset (OpenBLAS uses all cores)")
    print(f"cpus={os.cpu_count()} loadavg1={load1:.2f} OPENBLAS_NUM_THREADS={blas}")
    batch = sentences(64, seed=0)
    singles = sentences(args.singles, seed=1)

    minilm = MiniLMEmbedder()
    t0 = time.perf_counter()
    minilm.load()
    print(f"MiniLM load (sha256 check + weights + tokenizer): {time.perf_counter() - t0:.2f} s")

    embedders: list[Embedder] = [minilm, HashingEmbedder()]
    for emb in embedders:
        emb.embed(batch)  # warm-up: BLAS threads, allocator
        rates = [batch_rate(emb, batch) for _ in range(args.runs)]
        p50s = [single_p50_ms(emb, singles) for _ in range(args.runs)]
        print(
            f"{emb.name:<28} batch64: {statistics.median(rates):9.1f} sentences/s   "
            f"single p50: {statistics.median(p50s):7.3f} ms   "
            f"(median of {args.runs} runs; batch runs: {', '.join(f'{r:.0f}' for r in rates)})"
        )


if __name__ == "__main__":
    main()
