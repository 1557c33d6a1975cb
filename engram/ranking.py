"""Episode ranking shared by both read paths (Recall's resident index and
SearchEpisodes over PostgreSQL): docs/retrieval.md, "Ranking".

Each path gathers the same candidates under the same filters and fills one
:class:`Candidates`; everything from there on is this module, so the two
paths differ only in the candidates and raw scores they found (BM25 on the
resident index, ts_rank_cd on PostgreSQL), never in how they are combined.

Query. The subject's known speaker names (the episodes' user_name and
assistant_name) are removed from the question for both lists
(:func:`prepare_query`); which of them the question named is kept, and
agreement with an episode's speaker is a bonus, never a filter. Absolute
dates the question names (engram.dates.question_dates) become a soft time
bonus; a hard time window is only the caller's ``time_window``.

Candidates: each list's top ``WINDOW`` (dense cosine, lexical score), their
union; for each candidate its neighbours, the previous and next episode of
its first session in first-occurrence order (first_seen_at, then id).

First stage (prefix-stable: nothing depends on ``limit``).
``wn(x) = (x - x_(W)) / (x_(1) - x_(W))`` min-max over a list's top W (best 1,
W-th 0, below negative; 0 when flat).

* ``D = wn(wn(cos) + 0.25 wn(cos)[prev] + 0.25 wn(cos)[next])``
* ``L = wn(lex + 0.75 lex[prev] + 0.5 lex[next])``
* ``s = D + L + 0.4 [speaker named] + 0.8 time`` (time 1 for a day match, 0.5
  for a month match), ties by episode id.

A missing neighbour (or vector) counts 0. Second stage (optional,
``recall_ranker``): a learned scorer over the features of :func:`features`
re-orders the first stage's top ``RERANK_DEPTH`` when there are at least
``MIN_RERANK_CANDIDATES`` candidates; ranks beyond keep the first-stage
order. The model is a small ``.npz`` of arrays
(engram/data/recall_ranker.npz, trained by tools/train_recall_ranker.py):
gradient-boosted trees (:class:`TreeRanker`, evaluated here in numpy, all
trees at once) or a logistic regression (:class:`LinearRanker`). A model may
also ask for :func:`spread_features` and a session :func:`diversify` step;
the shipped one uses neither (measured on LoCoMo, not adopted:
docs/benchmarks.md). :func:`expansion_features` (dense pseudo-relevance
feedback and how a candidate relates to the top hits) were measured the same
way by bench/locomo_expansion.py and not adopted; no read path fills the
candidates' vectors they need, so :func:`load_ranker` refuses a model that
asks for them. Every constant was chosen on LoCoMo conversations 1-5
(bench/locomo_research.py, tools/train_recall_ranker.py).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from engram import dates as dates_mod

__all__ = [
    "DEFAULT_RANKER_PATH",
    "RERANK_DEPTH",
    "WINDOW",
    "Candidates",
    "LinearRanker",
    "Query",
    "Ranked",
    "Ranker",
    "TreeRanker",
    "diversify",
    "expansion_features",
    "features",
    "first_stage",
    "load_ranker",
    "prepare_query",
    "rank",
    "spread_features",
    "text_shape",
    "text_traits",
]

F = npt.NDArray[np.float64]

WINDOW = 100  # each list's top WINDOW: the candidates and the normalisation window
RERANK_DEPTH = 50
MIN_RERANK_CANDIDATES = WINDOW  # fewer candidates: first stage only (see rank)
DENSE_WEIGHT = 1.0
LEXICAL_WEIGHT = 1.0
DENSE_PREV = 0.25
DENSE_NEXT = 0.25
LEX_PREV = 0.75
LEX_NEXT = 0.5
SPEAKER_BONUS = 0.4
TIME_BONUS = 0.8

DEFAULT_RANKER_PATH = Path(__file__).resolve().parent / "data" / "recall_ranker.npz"
QWORDS = ("what", "when", "where", "who", "how", "why", "which", "would", "is", "did", "does", "do")
_IMAGE = re.compile(r"\s*\[shared a photo: [^\]]*\]\s*$")
_WORD = re.compile(r"[a-z]+")


# ------------------------------------------------------------------ query


@dataclass(frozen=True)
class Query:
    text: str  # the question with the subject's speaker names removed
    original: str
    named: frozenset[str]  # casefolded full names of the speakers the question names
    dates: tuple[tuple[int, int, int], ...]
    form: tuple[float, ...]  # one-hot of the first word over QWORDS


def _name_pattern(name: str) -> re.Pattern[str] | None:
    words = name.split()
    if not words:
        return None
    first = words[0]
    return re.compile(rf"\b{re.escape(first)}(?:'s|’s|s')?\b", re.IGNORECASE)


def prepare_query(text: str, names: Iterable[str]) -> Query:
    """Strip the known speaker first names (with 's, ’s, s') from ``text``."""
    named: set[str] = set()
    out = text
    for name in sorted({n.strip() for n in names if n and n.strip()}):
        pattern = _name_pattern(name)
        if pattern is not None and pattern.search(out):
            named.add(name.casefold())
            out = pattern.sub(" ", out)
    stripped = re.sub(r"\s+", " ", out).strip()
    first = (_WORD.findall(text.lower()) or [""])[0]
    return Query(
        stripped or text.strip(),
        text,
        frozenset(named),
        tuple(dates_mod.question_dates(text)),
        tuple(1.0 if first == w else 0.0 for w in QWORDS),
    )


# ------------------------------------------------------------------ candidates


def text_shape(user_text: str) -> tuple[int, bool, bool]:
    """(length, ends with '?', has an image caption) of an episode's user text
    (the " [shared a photo: ...]" caption the LoCoMo importer appends is not
    counted in the length)."""
    body = _IMAGE.sub("", user_text)
    return len(body), body.rstrip().endswith("?"), body != user_text


def text_traits(length: int, question: bool, image: bool) -> tuple[float, float, float]:
    """The second stage's text features from :func:`text_shape`."""
    return math.log1p(length), float(question), float(image)


@dataclass
class Candidates:
    """One query's candidates (arrays aligned with ``ids``)."""

    ids: Sequence[str]
    cos: F  # dense cosine, nan without a vector
    cos_prev: F  # neighbours' cosine, nan when missing
    cos_next: F
    lex: F  # lexical score, 0 when not matching
    lex_prev: F
    lex_next: F
    speaker: F  # 1.0 when the episode's speaker is one the question names
    time: F  # engram.dates.time_match
    length: F  # text_traits
    question: F
    image: F
    has_date: F
    # The dense list's best and WINDOW-th cosine (its normalisation window).
    dense_hi: float = 0.0
    dense_lo: float = 0.0
    in_dense: int = 0  # how many of ids head the dense list (for bookkeeping)
    # Integer keys that order exactly as ids do (the resident index: a UUID's
    # 128-bit value as (high, low) uint64 rows), so ties break without the
    # UUID text; () to use ids.
    keys: Sequence[int] | npt.NDArray[np.uint64] = ()
    # Each candidate's first session as an integer (equal: the same session),
    # for the second stage's session features; empty when not known.
    session: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    # Each candidate's unit vector (a zero row without one) and the query's,
    # for expansion_features; empty when the path did not give them (no
    # shipped model reads them).
    vectors: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    query_vector: npt.NDArray[np.float32] = field(default_factory=lambda: np.zeros(0, np.float32))

    def __len__(self) -> int:
        return len(self.ids)


def empty_candidates() -> Candidates:
    z = np.zeros(0)
    return Candidates([], z, z, z, z, z, z, z, z, z, z, z, z)


@dataclass
class CandidateBuilder:
    """Row-by-row construction (both paths)."""

    ids: list[str] = field(default_factory=list)
    rows: list[tuple[float, ...]] = field(default_factory=list)
    sessions: list[int] = field(default_factory=list)
    _session_codes: dict[str, int] = field(default_factory=dict)

    def add(
        self,
        episode_id: str,
        *,
        cos: float,
        cos_prev: float,
        cos_next: float,
        lex: float,
        lex_prev: float,
        lex_next: float,
        speaker: bool,
        time: float,
        traits: tuple[float, float, float],
        has_date: bool,
        session: str = "",
    ) -> None:
        self.ids.append(episode_id)
        self.sessions.append(self._session_codes.setdefault(session, len(self._session_codes)))
        self.rows.append(
            (
                cos,
                cos_prev,
                cos_next,
                lex,
                lex_prev,
                lex_next,
                float(speaker),
                time,
                *traits,
                float(has_date),
            )
        )

    def build(self, dense_hi: float, dense_lo: float) -> Candidates:
        if not self.ids:
            return empty_candidates()
        a = np.asarray(self.rows, dtype=np.float64)
        return Candidates(
            list(self.ids),
            a[:, 0],
            a[:, 1],
            a[:, 2],
            a[:, 3],
            a[:, 4],
            a[:, 5],
            a[:, 6],
            a[:, 7],
            a[:, 8],
            a[:, 9],
            a[:, 10],
            a[:, 11],
            dense_hi,
            dense_lo,
            session=np.asarray(self.sessions, dtype=np.int64),
        )


def speaker_named(query: Query, user_name: str, assistant_name: str) -> bool:
    return bool(query.named) and (
        user_name.strip().casefold() in query.named
        or assistant_name.strip().casefold() in query.named
    )


# ------------------------------------------------------------------ first stage


def window_norm(x: F, window: int = WINDOW) -> F:
    """Min-max over the top ``window`` of ``x``: best 1, window-th 0."""
    if x.size == 0:
        return x.copy()
    top = np.sort(x)[::-1][: min(window, x.size)]
    hi, lo = float(top[0]), float(top[-1])
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


def _dense_norm(c: Candidates, x: F) -> F:
    """wn of cosines against the dense list's own window (nan -> 0, the floor)."""
    span = c.dense_hi - c.dense_lo
    out = (x - c.dense_lo) / span if span > 0 else np.zeros_like(x)
    return np.where(np.isnan(out), 0.0, out)


@dataclass(frozen=True)
class FirstStage:
    score: F  # s
    dense: F  # wn(cos) of the candidates
    dense_prev: F
    dense_next: F


def first_stage(c: Candidates) -> FirstStage:
    dn = _dense_norm(c, c.cos)
    dp = _dense_norm(c, c.cos_prev)
    dx = _dense_norm(c, c.cos_next)
    d = window_norm(dn + DENSE_PREV * dp + DENSE_NEXT * dx)
    lx = window_norm(c.lex + LEX_PREV * c.lex_prev + LEX_NEXT * c.lex_next)
    s = DENSE_WEIGHT * d + LEXICAL_WEIGHT * lx + SPEAKER_BONUS * c.speaker + TIME_BONUS * c.time
    return FirstStage(s, dn, dp, dx)


def _order(score: F, ids: Sequence[str] | Sequence[int] | npt.NDArray[np.uint64]) -> list[int]:
    if isinstance(ids, np.ndarray):
        if not np.isnan(score).any():
            # The same order as the sort below: lexsort is stable and keys are unique.
            order: list[int] = np.lexsort((ids[:, 1], ids[:, 0], -score)).tolist()
            return order
        ids = [(hi << 64) | lo for hi, lo in ids.tolist()]
    return sorted(range(len(ids)), key=lambda i: (-float(score[i]), ids[i]))


# ------------------------------------------------------------------ second stage


def _ranks(x: F, positive_only: bool = False) -> F:
    """1-based ranks of x descending (stable); nan last; with positive_only
    rows <= 0 get inf."""
    key = np.where(np.isnan(x), -np.inf, x)
    order = np.argsort(-key, kind="stable")
    r = np.empty(x.size, dtype=np.float64)
    r[order] = np.arange(1, x.size + 1)
    if positive_only:
        r[~(x > 0)] = np.inf
    return r


SESSION_FEATURES = 2  # columns session_features appends


def session_features(c: Candidates, fs: FirstStage, idx: npt.NDArray[np.int64]) -> F:
    """Per head candidate: the best wn(s) among the other head candidates of
    its session (0 when none) and how many there are; zeros when the path did
    not give sessions."""
    n = idx.size
    if c.session.size != len(c):
        return np.zeros((n, SESSION_FEATURES))
    score = window_norm(fs.score)[idx]
    sess = c.session[idx]
    same = sess[:, None] == sess[None, :]
    np.fill_diagonal(same, False)
    count = same.sum(axis=1).astype(np.float64)
    best = np.where(same, score[None, :], -np.inf).max(axis=1, initial=-np.inf)
    return np.column_stack([np.where(count > 0, best, 0.0), count])


SPREAD_FEATURES = 7  # columns spread_features appends


def spread_features(c: Candidates, fs: FirstStage, query: Query, idx: npt.NDArray[np.int64]) -> F:
    """How the evidence spreads over sessions, per head candidate (``idx`` in
    first-stage order): its rank among the head candidates of its session
    (0: the session's best), how many distinct sessions the head holds above
    it, the number of all candidates of its session and the best wn(s) among
    them (itself excluded), its wn(s) minus its session's best in the head,
    the number of distinct sessions in the head, and the question's length in
    words. Zeros for the session columns when the path did not give sessions."""
    n = idx.size
    words = float(len(_WORD.findall(query.text.lower())))
    if c.session.size != len(c):
        out = np.zeros((n, SPREAD_FEATURES))
        out[:, -1] = words
        return out
    norm = window_norm(fs.score)
    score = norm[idx]
    sess = c.session[idx]
    before = np.tri(n, n, -1, dtype=bool)  # before[i, j]: j ranks above i
    same = sess[:, None] == sess[None, :]
    within = (same & before).sum(axis=1).astype(np.float64)
    first = ~(same & before).any(axis=1)  # the first of its session in the head
    sessions_above = (before & first[None, :]).sum(axis=1).astype(np.float64)
    every = c.session[:, None] == sess[None, :]  # (all candidates, head)
    every[idx, np.arange(n)] = False
    total = every.sum(axis=0).astype(np.float64)
    best_all = np.where(every, norm[:, None], -np.inf).max(axis=0, initial=-np.inf)
    head_best = np.where(same, score[None, :], -np.inf).max(axis=1)
    return np.column_stack(
        [
            within,
            sessions_above,
            total,
            np.where(total > 0, best_all, 0.0),
            score - head_best,
            np.full(n, float(first.sum())),
            np.full(n, words),
        ]
    )


EXPANSION_FEATURES = 6  # columns expansion_features appends
PRF_DEPTH = 5  # dense pseudo-relevance feedback from the dense list's top PRF_DEPTH
PRF_BETA = 1.0  # q' = normalise(q + PRF_BETA * mean of their vectors)
NEAR_TOP = 5  # the first stage's top NEAR_TOP, for the relation columns


def expansion_features(c: Candidates, fs: FirstStage, idx: npt.NDArray[np.int64]) -> F:
    """How each head candidate relates to the query's best hits, from the
    candidates' vectors (no model call): its cosine to the Rocchio query
    ``q' = normalise(q + PRF_BETA * mean(top PRF_DEPTH dense hits))``, the log
    of its rank by that cosine among the candidates, that cosine minus its own;
    its maximum and mean cosine to the first stage's top ``NEAR_TOP`` (itself
    excluded), and its maximum cosine to those of another session. Zeros when
    the path gave no vectors."""
    n = idx.size
    if c.vectors.shape[0] != len(c) or c.query_vector.size == 0:
        return np.zeros((n, EXPANSION_FEATURES))
    v = c.vectors.astype(np.float64)
    cos = np.where(np.isnan(c.cos), -np.inf, c.cos)
    top_dense = np.argsort(-cos, kind="stable")[:PRF_DEPTH]
    q = c.query_vector.astype(np.float64) + PRF_BETA * v[top_dense].mean(axis=0)
    q /= max(float(np.linalg.norm(q)), 1e-12)
    prf = v @ q
    prf_rank = _ranks(prf)
    own = np.where(np.isnan(c.cos), 0.0, c.cos)
    first = idx[:NEAR_TOP]  # idx is in first-stage order
    sims = v[idx] @ v[first].T  # (head, NEAR_TOP)
    sims[idx[:, None] == first[None, :]] = np.nan
    have = ~np.isnan(sims)
    near_max = np.where(have, sims, -np.inf).max(axis=1, initial=-np.inf)
    near_mean = np.where(have, sims, 0.0).sum(axis=1) / np.maximum(have.sum(axis=1), 1)
    if c.session.size == len(c):
        other = have & (c.session[idx][:, None] != c.session[first][None, :])
    else:
        other = have
    far_max = np.where(other, sims, -np.inf).max(axis=1, initial=-np.inf)
    return np.column_stack(
        [
            prf[idx],
            np.log(prf_rank[idx]),
            prf[idx] - own[idx],
            np.where(np.isfinite(near_max), near_max, 0.0),
            near_mean,
            np.where(np.isfinite(far_max), far_max, 0.0),
        ]
    )


def features(
    c: Candidates,
    fs: FirstStage,
    top: Sequence[int],
    query: Query,
    sessions: bool = False,
    spread: bool = False,
    expansion: bool = False,
) -> F:
    """Feature rows of the candidates ``top`` (first-stage order), as
    bench/locomo_research.py SecondStage.features; with ``sessions`` the two
    :func:`session_features` columns, then with ``spread`` the
    :func:`spread_features` columns, then with ``expansion`` the
    :func:`expansion_features` columns, last."""
    idx = np.asarray(top, dtype=np.int64)
    n = idx.size
    cols: list[F] = [np.log1p(np.arange(n, dtype=np.float64)), window_norm(fs.score)[idx]]
    cos = np.where(np.isnan(c.cos), 0.0, c.cos)
    cols += [
        cos[idx],
        np.log(_ranks(c.cos)[idx]),
        fs.dense[idx],
        fs.dense_prev[idx],
        fs.dense_next[idx],
    ]
    lmax = float(c.lex.max()) if c.lex.size and c.lex.max() > 0 else 1.0
    cols += [
        c.lex[idx] / lmax,
        np.log(np.minimum(_ranks(c.lex, positive_only=True)[idx], 1000.0)),
        c.lex_prev[idx] / lmax,
        c.lex_next[idx] / lmax,
        (c.lex[idx] > 0).astype(np.float64),
    ]
    named = 1.0 if query.named else 0.0
    cols += [c.speaker[idx], np.full(n, named), c.speaker[idx] * named, c.time[idx]]
    cols += [c.length[idx], c.question[idx], c.image[idx], c.has_date[idx]]
    x = np.column_stack(cols)
    form = np.tile(np.asarray(query.form, dtype=np.float64), (n, 1))
    inter = np.column_stack([form * x[:, [1]], form * x[:, [-1]], form * x[:, [-4]]])
    out = np.hstack([x, form, inter])
    if sessions:
        out = np.hstack([out, session_features(c, fs, idx)])
    if spread:
        out = np.hstack([out, spread_features(c, fs, query, idx)])
    if expansion:
        out = np.hstack([out, expansion_features(c, fs, idx)])
    return out


@dataclass(frozen=True, kw_only=True)
class RankerSettings:
    """What every second-stage model carries besides its parameters."""

    depth: int = RERANK_DEPTH  # re-orders the first stage's top ``depth``
    source: str = ""  # where it was loaded from
    sessions: bool = False  # its features end with session_features
    spread: bool = False  # ... then with spread_features
    expansion: bool = False  # ... then with expansion_features
    diversity: float = 0.0  # see diversify


@dataclass(frozen=True)
class LinearRanker(RankerSettings):
    """A logistic regression over :func:`features` (standardised)."""

    mean: F
    scale: F
    coef: F
    intercept: float

    def decision(self, x: F) -> F:
        z: F = ((x - self.mean) / self.scale) @ self.coef + self.intercept
        return z


Idx = npt.NDArray[np.intp]
Mask = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class TreeRanker(RankerSettings):
    """Gradient-boosted trees over :func:`features`: ``baseline`` plus the sum
    of each tree's leaf value. Every tree is stored as a complete binary tree
    of depth ``steps`` in heap order (node p's children are 2p+1 and 2p+2): a
    (trees, 2**steps - 1) array of split features, thresholds and nan
    directions, and a (trees, 2**steps) array of leaf values; a leaf above
    the last level always goes left (threshold inf) and its value fills the
    leaves below it. A row goes left when ``x[feature] <= threshold`` (a nan:
    when ``missing_left``), as scikit-learn's HistGradientBoosting predicts.
    All splits are compared at once, then ``steps`` vectorised moves of every
    row in every tree reach the leaves."""

    feature: Idx
    threshold: F
    missing_left: Mask
    value: F
    baseline: float
    steps: int

    def decision(self, x: F) -> F:
        n = x.shape[0]
        trees, internal = self.feature.shape
        # Every split of every tree decided once for every row: (trees * internal, rows),
        # gathered as whole rows of x transposed.
        v = np.ascontiguousarray(x.T)[self.feature.ravel()]
        left = v <= self.threshold.ravel()[:, None]
        missing = np.isnan(v)
        if missing.any():
            left |= missing & self.missing_left.ravel()[:, None]
        flat = left.ravel()
        at = (np.arange(trees, dtype=np.intp) * (internal * n))[None, :] + np.arange(
            n, dtype=np.intp
        )[:, None]
        pos = np.zeros((n, trees), dtype=np.intp)
        for _ in range(self.steps):
            pos = 2 * pos + 2 - flat[at + pos * n]
        leaves = (np.arange(trees, dtype=np.intp) * self.value.shape[1])[None, :]
        z: F = self.baseline + self.value.ravel()[leaves + pos - internal].sum(axis=1)
        return z


Ranker = LinearRanker | TreeRanker


def load_ranker(setting: str) -> Ranker | None:
    """``none`` -> first stage only; ``default`` (or empty) -> the shipped
    model; anything else -> a path to a model from tools/train_recall_ranker.py."""
    choice = setting.strip()
    if choice.lower() == "none":
        return None
    default = choice.lower() in ("", "default")
    path = DEFAULT_RANKER_PATH if default else Path(choice)
    if default and not path.exists():
        return None  # not trained yet: first stage only
    with np.load(path) as data:
        depth = int(data["depth"]) if "depth" in data.files else RERANK_DEPTH
        sessions = bool(data["sessions"]) if "sessions" in data.files else False
        spread = bool(data["spread"]) if "spread" in data.files else False
        if "expansion" in data.files and bool(data["expansion"]):
            # Measured on LoCoMo and not adopted (docs/benchmarks.md): neither
            # read path fills Candidates.vectors, so such a model would rank on zeros.
            raise ValueError(
                f"{path}: expansion features need the candidates' vectors, which neither"
                " read path supplies (bench/locomo_expansion.py measures them)"
            )
        diversity = float(data["diversity"]) if "diversity" in data.files else 0.0
        kind = str(data["kind"]) if "kind" in data.files else "logistic"
        if kind == "trees":
            return TreeRanker(
                np.asarray(data["feature"], dtype=np.intp),
                np.asarray(data["threshold"], dtype=np.float64),
                np.asarray(data["missing_left"], dtype=np.bool_),
                np.asarray(data["value"], dtype=np.float64),
                float(data["baseline"]),
                int(data["steps"]),
                depth=depth,
                source=str(path),
                sessions=sessions,
                spread=spread,
                diversity=diversity,
            )
        if kind != "logistic":
            raise ValueError(f"{path}: unknown ranker kind {kind!r}")
        return LinearRanker(
            np.asarray(data["mean"], dtype=np.float64),
            np.asarray(data["scale"], dtype=np.float64),
            np.asarray(data["coef"], dtype=np.float64),
            float(data["intercept"]),
            depth=depth,
            source=str(path),
            sessions=sessions,
            spread=spread,
            diversity=diversity,
        )


_LOADED: dict[str, Ranker | None] = {}


def shared_ranker(setting: str) -> Ranker | None:
    """:func:`load_ranker`, once per setting per process."""
    if setting not in _LOADED:
        _LOADED[setting] = load_ranker(setting)
    return _LOADED[setting]


# ------------------------------------------------------------------ ranking


def diversify(z: F, session: npt.NDArray[np.int64], weight: float) -> list[int]:
    """Positions of ``z`` best first, greedily: each step takes the highest
    ``z - weight * (how many already taken share its session)``, ties to the
    lower position. ``weight`` 0 (or no sessions) is the plain order of -z,
    stable; a positive weight lets a turn of a session not yet shown pass
    turns of one already shown (evidence spread over several sessions)."""
    n = z.size
    if weight <= 0 or session.size != n:
        return [int(j) for j in np.argsort(-z, kind="stable")]
    codes = np.unique(session, return_inverse=True)[1]
    taken = np.zeros(int(codes.max()) + 1 if n else 0)
    left = np.ones(n, dtype=bool)
    out: list[int] = []
    for _ in range(n):
        adjusted = np.where(left, z - weight * taken[codes], -np.inf)
        j = int(np.argmax(adjusted))
        out.append(j)
        left[j] = False
        taken[codes[j]] += 1
    return out


@dataclass(frozen=True)
class Ranked:
    """Candidate positions best first, with a score that decreases along it,
    and each candidate's 1-based rank in the dense and the lexical list among
    the candidates (0: not in that list)."""

    order: list[int]
    scores: list[float]
    dense_rank: list[int] = field(default_factory=list)
    lexical_rank: list[int] = field(default_factory=list)


def list_ranks(c: Candidates) -> tuple[list[int], list[int]]:
    d = np.where(np.isnan(c.cos), 0, _ranks(c.cos)).astype(np.int64)
    lx = _ranks(c.lex, positive_only=True)
    lexical = np.where(np.isfinite(lx), lx, 0).astype(np.int64)
    return d.tolist(), lexical.tolist()


def rank(c: Candidates, query: Query, ranker: Ranker | None) -> Ranked:
    """The final order of the candidates (independent of any limit)."""
    if len(c) == 0:
        return Ranked([], [])
    fs = first_stage(c)
    order = _order(fs.score, c.keys if len(c.keys) else c.ids)
    dense_rank, lexical_rank = list_ranks(c)
    # The model learned on full windows (LoCoMo scopes hold 300-700 episodes);
    # below WINDOW candidates its window-relative features are out of range, so
    # a small scope keeps the first-stage order.
    if ranker is None or len(order) < MIN_RERANK_CANDIDATES:
        return Ranked(order, fs.score[order].tolist(), dense_rank, lexical_rank)
    head, tail = order[: ranker.depth], order[ranker.depth :]
    z = ranker.decision(
        features(c, fs, head, query, ranker.sessions, ranker.spread, ranker.expansion)
    )
    # Equal scores keep the first-stage order.
    sessions = c.session[head] if c.session.size == len(c) else c.session
    positions = diversify(z, sessions, ranker.diversity)
    # Reported scores decrease along the list: the head's are above every tail score.
    floor = float(fs.score[tail[0]]) if tail else 0.0
    head_scores = floor + 1.0 + 1.0 / (1.0 + np.exp(-np.clip(z[positions], -50, 50)))
    head_scores = np.minimum.accumulate(head_scores).tolist()
    return Ranked(
        [head[j] for j in positions] + tail,
        head_scores + fs.score[tail].tolist(),
        dense_rank,
        lexical_rank,
    )
