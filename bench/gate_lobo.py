"""Leave-one-batch-out: how the gate generalises to a batch written without sight of it.

Usage:
    ENGRAM_TRAIN_CACHE=/var/tmp/engram-train python bench/gate_lobo.py [--fold NAME ...]
        [--json OUT]

The seen blind batches (:data:`SEEN_BATCHES`, the ones whose figures have been reported)
are the folds. For each batch X:

1. the classifier is trained by ``tools/train_claim_classifier.py``'s own :func:`train`
   on the whole training corpus *except* ``training/gate/blind_X.jsonl`` (X's folded
   clauses), that is the written corpus plus the other seen batches' folded clauses; its
   combiner and thresholds are calibrated on the held-out 15% of that corpus, as the
   shipped head's are;
2. the gate, with that classifier, is scored on X by ``bench/gate_eval.py``'s metrics.

It prints each fold's figures, then the mean and the worst over the folds. These are
cross-validated figures on *seen* batches (their phrasings have informed the rules, the
canonical text and the written corpus), so they measure generalisation to an unseen
batch of the kinds seen so far, and are not a headline: the headline is the first run on
a batch nobody has looked at. A batch still being written is never read: only the names
listed here (or given with ``--fold``) are opened.

``ENGRAM_TRAIN_CACHE`` keeps the e5 embedding of every clause across runs (training
corpus and evaluation clauses alike); without it a run embeds ~25k clauses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import train_claim_classifier as trainer  # noqa: E402

from bench.gate_eval import BLIND, REPORTED_BATCHES, evaluate_batch  # noqa: E402
from gateway import claim_model  # noqa: E402
from gateway.claim_model import ClaimClassifier  # noqa: E402

# Every reported batch has been folded into training (training/gate/blind_<name>.jsonl).
SEEN_BATCHES = REPORTED_BATCHES
LANGS = ("de", "en", "es", "fr", "it", "pt")
# Figures kept per fold: (name, tally key, higher is better).
FIGURES: tuple[tuple[str, str, bool], ...] = (
    ("false_block", "false_block", False),
    ("recall/corpus_wide", "recall/corpus_wide", True),
    ("recall/query_scoped", "recall/query_scoped", True),
    *((f"recall/{lang}", f"recall/lang/{lang}", True) for lang in LANGS),
    ("recall/min_lang", "", True),
    ("recollection/recall", "recollection/recall", True),
    ("recollection/false_block", "recollection/false_block", False),
    ("recollection/supported_released", "recollection/supported_released", True),
    ("obfuscated/recall", "obfuscated/recall", True),
    ("obfuscation/families_passing", "", False),
)


def _warm_cache() -> None:
    """Make the gate's clause-embedding cache hold every stored embedding."""
    claim_model.EMBEDDING_CACHE_SIZE = 1 << 30
    for text, vector in trainer.load_store().items():
        claim_model._cache[text] = vector


def _save_cache() -> None:
    store = trainer.load_store()
    fresh = {t: v for t, v in claim_model._cache.items() if t not in store}
    if fresh:
        store.update(fresh)
        trainer.save_store(store)


def run_fold(batch: str, corpus: trainer.Corpus, misses: Path | None = None) -> dict[str, float]:
    arrays = trainer.train(corpus.without([f"blind_{batch}"]), verbose=False)
    model = ClaimClassifier(arrays=arrays)
    report, families = evaluate_batch(BLIND / batch, model)
    if misses is not None:
        misses.mkdir(parents=True, exist_ok=True)
        (misses / f"{batch}.txt").write_text("\n".join(report.misses) + "\n", "utf-8")
    out: dict[str, float] = {}
    for name, key, _ in FIGURES:
        if key and key in report.tallies:
            out[name] = report.tallies[key].rate
    out["recall/min_lang"] = min(out[f"recall/{lang}"] for lang in LANGS)
    if families:
        out["obfuscation/families_passing"] = float(sum(1 for ok in families.values() if not ok))
    out["claim_threshold"] = model.claim_threshold
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fold", action="append", default=None, choices=SEEN_BATCHES)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="PREFIX",
        help="leave out corpus files whose name starts with PREFIX (an ablation)",
    )
    parser.add_argument("--misses", type=Path, default=None, metavar="DIR")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a numeric constant of the trainer (e.g. BLIND_WEIGHT=3)",
    )
    args = parser.parse_args()
    for assignment in args.set:
        name, _, value = assignment.partition("=")
        if not hasattr(trainer, name):
            parser.error(f"the trainer has no constant {name}")
        setattr(trainer, name, float(value))
    folds = args.fold or list(SEEN_BATCHES)
    _warm_cache()
    corpus = trainer.load()
    dropped = {s for s in corpus.sources if any(s.startswith(p) for p in args.without)}
    corpus = corpus.without(dropped)
    results: dict[str, dict[str, float]] = {}
    for batch in folds:
        t0 = time.perf_counter()
        results[batch] = run_fold(batch, corpus, args.misses)
        _save_cache()
        print(f"fold {batch}: {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    names = [n for n, _, _ in FIGURES]
    print(f"{'figure':34s} " + " ".join(f"{b[-6:]:>7s}" for b in folds) + "    mean   worst")
    for name, _, higher in FIGURES:
        values = [results[b].get(name) for b in folds]
        present = [v for v in values if v is not None]
        if not present:
            continue
        mean = statistics.fmean(present)
        worst = min(present) if higher else max(present)
        cells = " ".join(f"{v:7.3f}" if v is not None else "      -" for v in values)
        print(f"{name:34s} {cells} {mean:7.3f} {worst:7.3f}")
    print(f"(figures: {', '.join(names[:3])}, ...; families_passing is a count)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
