"""Time the release gate's decision on four-sentence answers.

Usage: python bench/gate_speed.py [--rounds 5]

In one run, in alternating order so machine noise hits both alike:

* baseline: the rules alone (``gateway.truthfulness.find_absence_claims``), what the
  gate ran before its learned stage;
* gate: ``gateway.gate.decide`` with the classifier (fast n-gram head, then one e5
  batch for the clauses it does not settle), recollection checks and topic binding.

Inputs: every answer of the frozen blind batches with exactly four sentences (texts in
eight languages, claims and benign). The model loads before timing (once per process,
as in the server). Prints p50/p99 in ms and the gate/baseline ratio; the journaled
verdict that ReleaseResponse adds on top is measured by bench/gateway_bench.py.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engram.common.v1 import common_pb2  # noqa: E402
from gateway.claim_model import classifier  # noqa: E402
from gateway.evidence import ContextEvidence, SectionEvidence  # noqa: E402
from gateway.gate import decide  # noqa: E402
from gateway.truthfulness import find_absence_claims  # noqa: E402

BLIND = ROOT / "tests" / "gate_eval" / "blind"
_SENTENCE_RX = re.compile(r"[.!?\u3002]+(?:\s|$)")


def four_sentence_answers() -> list[str]:
    texts: list[str] = []
    for path in sorted(BLIND.glob("*/*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                text = str(json.loads(line)["text"])
                if len([s for s in _SENTENCE_RX.split(text) if s.strip()]) == 4:
                    texts.append(text)
    return texts


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    texts = four_sentence_answers()
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
    decide(evidence, texts[0], 1, model=model)  # load the engine
    base: list[float] = []
    gate: list[float] = []
    for _ in range(args.rounds):
        for text in texts:
            t0 = time.perf_counter()
            find_absence_claims(text)
            t1 = time.perf_counter()
            decide(evidence, text, 1, model=model)
            t2 = time.perf_counter()
            base.append((t1 - t0) * 1000)
            gate.append((t2 - t1) * 1000)
    for name, values in (("baseline (rules)", base), ("gate v2", gate)):
        print(
            f"{name:17s} n={len(values)} p50 {statistics.median(values):6.2f} ms  "
            f"p99 {percentile(values, 0.99):6.2f} ms  max {max(values):6.2f} ms"
        )
    ratio = statistics.median(gate) / statistics.median(base)
    print(f"gate/baseline p50 ratio {ratio:.1f}x over {len(texts)} four-sentence answers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
