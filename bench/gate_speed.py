"""Time the release gate's decision on four-sentence answers.

Usage: python bench/gate_speed.py [--rounds 5]

In one run, in alternating order so machine noise hits both alike:

* baseline: the rules alone (``gateway.truthfulness.find_absence_claims``), what the
  gate ran before its learned stage;
* gate: ``gateway.gate.decide`` with the classifier (fast n-gram head, then one e5
  batch for the clauses it does not settle, split over the engine threads,
  ``gateway.claim_model.ENGINE_THREADS``, the joined readings of sentences no rule
  settled in it), recollection checks and topic binding; the same on one engine
  thread, and with the joined readings in a second batch after the units
  (``gateway.claims.JOINS_AFTER_UNITS``).

Inputs: every answer with exactly four sentences (texts in eight languages, claims and
benign) of the batches given with ``--batch`` (default: the blind batches already
reported, :data:`SEEN_BATCHES`; a batch still being written or not yet reported is
never read unless named). The model and every table load before timing (once per
process, as in the server), and the clause-embedding cache is emptied before each
answer, so every timed decision embeds its clauses afresh (a regeneration would hit
the cache; a first answer does not); ``--cached`` keeps them, timing the decision
without the e5 pass. Prints p50/p99 in ms and the gate/baseline ratio; the journaled
verdict that ReleaseResponse adds on top is measured by bench/gateway_bench.py.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engram.common.v1 import common_pb2  # noqa: E402
from gateway import claim_model, claims  # noqa: E402
from gateway.claim_model import classifier  # noqa: E402
from gateway.evidence import ContextEvidence, SectionEvidence  # noqa: E402
from gateway.gate import decide  # noqa: E402
from gateway.truthfulness import find_absence_claims  # noqa: E402

BLIND = ROOT / "tests" / "gate_eval" / "blind"
SEEN_BATCHES = ("2026-12-01", "2026-12-01b", "2026-12-01c", "2026-12-01d", "2026-12-01e")
_SENTENCE_RX = re.compile(r"[.!?\u3002]+(?:\s|$)")


def four_sentence_answers(batches: list[Path]) -> list[str]:
    texts: list[str] = []
    for path in sorted(p for batch in batches for p in batch.glob("*.jsonl")):
        for line in path.read_text("utf-8").split("\n"):
            if line.strip():
                text = str(json.loads(line)["text"])
                if len([s for s in _SENTENCE_RX.split(text) if s.strip()]) == 4:
                    texts.append(text)
    return texts


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _time_engine_calls() -> list[list[float]]:
    """CPU ms of each engine call (its own thread's), grouped by the batch it served.

    The calls of one batch run side by side; batches (the units, then the joined
    readings where they are needed) run one after the other."""
    batches: list[list[float]] = []
    query = getattr(claim_model, "_query", None)
    if query is None:  # a tree from before the split: one call on the caller's thread
        return batches
    embed = claim_model._embed

    def timed(engine: object, texts: list[str]) -> Any:
        started = time.thread_time()
        try:
            return query(engine, texts)
        finally:
            batches[-1].append((time.thread_time() - started) * 1000)

    def batched(texts: list[str]) -> Any:
        batches.append([])
        return embed(texts)

    claim_model._query = timed
    claim_model._embed = batched
    return batches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=Path, action="append", default=None)
    parser.add_argument(
        "--cached",
        action="store_true",
        help="keep the clause embeddings of a first pass: the decision without the e5 pass",
    )
    args = parser.parse_args()
    batches = args.batch or [BLIND / name for name in SEEN_BATCHES]
    texts = four_sentence_answers(batches)
    evidence = ContextEvidence.build(
        (
            SectionEvidence(
                "episodic_recall",
                common_pb2.ABSENCE_STATE_COVERAGE_UNKNOWN,
                common_pb2.Coverage(),
                0,
            ),
        ),
        query_text="what did I tell you about my trip",
    )
    model = classifier()
    for text in texts if args.cached else texts[:8]:  # load the engine and the tables
        decide(evidence, text, 1, model=model)

    def forget() -> None:
        if not args.cached:
            claim_model.clear_embedding_cache()

    threads = getattr(claim_model, "ENGINE_THREADS", 1)
    # (name, engine threads, joins in a second batch); the one-thread gate is what the
    # split replaced; the joins after the units spend less model time in two passes.
    after = getattr(claims, "JOINS_AFTER_UNITS", None)
    gates = [("gate v2", threads, False)]
    gates += [("gate, 1 engine thread", 1, False)] if threads > 1 else []
    gates += [("gate, joins after units", threads, True)] if after is not None else []
    wall: dict[str, list[float]] = {name: [] for name in ["rules alone", *(g[0] for g in gates)]}
    cpu: dict[str, list[float]] = {g[0]: [] for g in gates}
    critical: dict[str, list[float]] = {g[0]: [] for g in gates}
    parts = _time_engine_calls()
    embedded: list[int] = []
    load = [os.getloadavg()[0]]
    for round_ in range(args.rounds):
        for text in texts:
            forget()
            t0 = time.perf_counter()
            find_absence_claims(text)
            wall["rules alone"].append((time.perf_counter() - t0) * 1000)
            # Alternate the gates' order each round: noise hits both alike.
            for name, n, joins_after in gates if round_ % 2 == 0 else gates[::-1]:
                forget()
                if hasattr(claim_model, "ENGINE_THREADS"):
                    claim_model.ENGINE_THREADS = n
                if after is not None:
                    claims.JOINS_AFTER_UNITS = joins_after
                parts.clear()
                c0, t0 = time.process_time(), time.perf_counter()
                decide(evidence, text, 1, model=model)
                wall[name].append((time.perf_counter() - t0) * 1000)
                used = (time.process_time() - c0) * 1000
                cpu[name].append(used)
                # What an idle machine would wait for: the caller's own work and, for
                # each batch in turn, its longest engine call (the split's calls run
                # side by side).
                engine_cpu = sum(sum(batch) for batch in parts)
                longest = sum(max(batch, default=0.0) for batch in parts)
                critical[name].append(used - engine_cpu + longest)
            embedded.append(len(claim_model._cache))
        load.append(os.getloadavg()[0])
    if hasattr(claim_model, "ENGINE_THREADS"):
        claim_model.ENGINE_THREADS = threads
    if after is not None:
        claims.JOINS_AFTER_UNITS = after
    for name, values in wall.items():
        line = (
            f"{name:22s} n={len(values)} p50 {statistics.median(values):6.2f} ms  "
            f"p99 {percentile(values, 0.99):6.2f} ms  max {max(values):6.2f} ms"
        )
        if name in cpu:
            line += f"  (process CPU p50 {statistics.median(cpu[name]):5.2f} ms"
            line += f" p99 {percentile(cpu[name], 0.99):6.2f} ms; critical path"
            line += f" p50 {statistics.median(critical[name]):5.2f}"
            line += f" p99 {percentile(critical[name], 0.99):6.2f} ms)"
        print(line)
    ratio = statistics.median(wall["gate v2"]) / statistics.median(wall["rules alone"])
    reaching = [n for n in embedded if n]
    reached = (
        "embeddings cached"
        if args.cached
        else f"{len(reaching) // args.rounds} reach the model "
        f"({max(reaching, default=0)} clauses at most)"
    )
    print(
        f"gate/rules p50 ratio {ratio:.1f}x over {len(texts)} four-sentence answers; "
        f"{reached}; load average {min(load):.1f}-{max(load):.1f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
