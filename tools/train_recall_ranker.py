"""Train the second ranking stage of Recall / SearchEpisodes (engram.ranking).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/train_recall_ranker.py \\
        [--data /work/shared/data/locomo/locomo10.json] [--conversations 5] \\
        [--kinds logistic,trees,trees+sessions] [--paths Recall,SearchEpisodes] \\
        [--out engram/data/recall_ranker.npz] [--cache /var/tmp/locomo-cache] \\
        [--diversity 0] [--candidates /var/tmp/locomo-candidates.pkl] \\
        [--report /tmp/recall_ranker.json]

Candidate models, each over engram.ranking.features of every question's
first-stage top engram.ranking.RERANK_DEPTH (label: the candidate holds a
gold turn): ``logistic`` (standardised features, L2, C = 1), ``trees``
(scikit-learn HistGradientBoostingClassifier, 150 trees of depth 3, learning
rate 0.08, at least 40 rows a leaf, random_state 0: the offline harness's
bench/locomo_research.py settings) and ``trees+sessions`` (the same with
engram.ranking.session_features); any kind may add ``+spread``
(engram.ranking.spread_features after those), ``+expansion``
(engram.ranking.expansion_features, last; research only: they need the
candidates' vectors, which bench/locomo_expansion.py attaches and no read
path supplies, so this tool refuses the flag) and ``@<depth>`` (re-order the
first stage's top depth instead of RERANK_DEPTH), e.g.
``trees+sessions+spread@100``, and every kind is also scored with each
``--diversity`` weight (engram.ranking.diversify; 0 = none), which needs no
refit. The one written is the best by
leave-one-conversation-out over the tuning conversations (the mean over the
read paths of the mean of R@5/10/25 over their questions), then refitted on
all of them; the others are reported beside it, and every kind's held-out
figure is printed but never used for a choice. Trees are exported as arrays
and evaluated in numpy at serve time; the export is checked against
scikit-learn's own decision_function before it is written.

Both read paths' candidates train the one model (the paths rank with the same
code but find different lexical scores: BM25 on the resident index,
ts_rank_cd on PostgreSQL). ``Recall``: the resident index built in memory
exactly as the journal and the follower build it (engram.locomo commits -> one
episode per distinct content, the resident index's records,
snapshot.candidates), with the shipped MiniLM embedding the journal's
canonical content. ``SearchEpisodes``: the journal on a throwaway embedded
PostgreSQL, every conversation imported through CommitTurn and every question
asked through the RPC (about 8 minutes here). ``--candidates`` keeps both
paths' collected candidates in a pickle outside the repository (it holds
LoCoMo-derived data) and reads them back on the next run, so models and
features can be compared in minutes; it must be rebuilt after any change to
how candidates are found (engram.ranking.first_stage inputs, the index, SQL).
Every conversation of the file is indexed together, as bench/locomo_recall.py
imports them, so the corpus statistics are the ones the service ranks with;
only the first ``--conversations`` give training rows and choices.

The default data is LoCoMo (CC BY-NC 4.0), read where it lies and never
copied; conversations 6-10 stay held out. The model written is derived from
the tuning half: the shipped file carries that licence
(engram/data/NOTICE.recall_ranker). To train on your own data, write it in
LoCoMo's JSON layout and point --data at it; load the result with
``recall_ranker: <path>``. scikit-learn is needed here only (a development
dependency); the service evaluates the model in numpy.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import pickle
import sys
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.locomo_recall import CATEGORY_NAMES, KS, bootstrap
from engram import ranking
from engram.locomo import Conversation, commits_for, load_conversations
from engram.timeutil import to_timestamp
from memory_service.journal import canonical_content
from retrieval_service.changes import timestamp_us
from retrieval_service.records import Interner, make_record
from retrieval_service.segment import build_segment
from retrieval_service.snapshot import SearchRequest, Snapshot

WORKSPACE = "default"


@dataclass
class Corpus:
    snapshot: Snapshot | None  # None when the candidates came from --candidates
    dia: dict[str, list[str]] = field(default_factory=dict)  # episode id -> dia ids


def _episode_id(subject: str, content: str) -> str:
    return str(uuid.UUID(bytes=hashlib.sha256(f"{subject}\x00{content}".encode()).digest()[:16]))


def build_corpus(conversations: list[Conversation], embed: Any, dim: int, model: str) -> Corpus:
    """One episode per distinct content per subject, as the journal makes them."""
    interner = Interner()
    order: list[str] = []
    info: dict[str, dict[str, Any]] = {}
    dia: dict[str, list[str]] = defaultdict(list)
    for conversation in conversations:
        for turn in commits_for(conversation):
            content = canonical_content(turn.user_text, turn.assistant_text, turn.user_name, "")
            eid = _episode_id(turn.subject, content)
            dia[eid].append(turn.dia_id)
            if eid in info:
                e = info[eid]
                if turn.session_id not in e["sessions"]:
                    e["sessions"].append(turn.session_id)
                e["last"] = timestamp_us(to_timestamp(turn.occurred_at))
                continue
            order.append(eid)
            seen = timestamp_us(to_timestamp(turn.occurred_at))
            info[eid] = {
                "subject": turn.subject,
                "sessions": [turn.session_id],
                "first": seen,
                "last": seen,
                "user_text": turn.user_text,
                "assistant_text": turn.assistant_text,
                "user_name": turn.user_name,
            }
    texts = [canonical_content(info[e]["user_text"], info[e]["assistant_text"]) for e in order]
    vectors = embed(texts, False)
    records = []
    for eid, vector in zip(order, vectors, strict=True):
        e = info[eid]
        records.append(
            make_record(
                interner,
                episode_id=eid,
                subject=e["subject"],
                workspace=WORKSPACE,
                session_id=e["sessions"][-1],
                session_ids=e["sessions"],
                last_seen_us=e["last"],
                user_text=e["user_text"],
                assistant_text=e["assistant_text"],
                vector=np.asarray(vector, dtype=np.float32),
                first_seen_us=e["first"],
                user_name=e["user_name"],
            )
        )
    base = build_segment(records, dim)
    return Corpus(Snapshot.from_base(base, interner, dim, model, 0, 1), dict(dia))


@dataclass
class Asked:
    """One question with evidence: its candidates, prepared query and gold."""

    candidates: ranking.Candidates
    query: ranking.Query
    gold: set[str]
    conversation: int  # position in the file
    category: str


def question_sets(corpus: Corpus, conversations: list[Conversation], embed: Any) -> list[Asked]:
    """Every question with evidence, with the resident index's candidates."""
    snapshot = corpus.snapshot
    assert snapshot is not None
    pending = []
    for position, conversation in enumerate(conversations):
        names = snapshot.speaker_names(conversation.subject, WORKSPACE)
        for qa in conversation.qa:
            if qa.evidence:
                category = CATEGORY_NAMES.get(qa.category, f"category-{qa.category}")
                pending.append(
                    (
                        conversation.subject,
                        ranking.prepare_query(qa.question, names),
                        set(qa.evidence),
                        position,
                        category,
                    )
                )
    vectors = embed([p[1].text for p in pending], True)
    out = []
    for (subject, prepared, gold, position, category), vector in zip(pending, vectors, strict=True):
        c = snapshot.candidates(
            SearchRequest(
                subject,
                WORKSPACE,
                "",
                None,
                None,
                np.asarray(vector, np.float32),
                prepared.text,
                ranking.WINDOW,
                ranking.WINDOW,
            ),
            prepared,
        )
        out.append(Asked(c, prepared, gold, position, category))
    return out


def search_sets(corpus: Corpus, conversations: list[Conversation]) -> list[Asked]:
    """Every question with evidence, with SearchEpisodes' candidates: the journal
    on a throwaway embedded PostgreSQL, every conversation imported through
    CommitTurn (as bench/locomo_recall.py does), each question asked through
    the SearchEpisodes RPC; the candidates it ranks are recorded on their way
    into engram.ranking.rank. Their episode -> dia_id map joins ``corpus.dia``."""
    from bench._common import scratch_database
    from engram.channels import open_channel
    from engram.cli.importer import commit_request
    from engram.config import Settings
    from engram.journal.v1 import journal_pb2 as jpb
    from engram.journal.v1 import journal_pb2_grpc as jgrpc
    from engram.server import start_suite

    out: list[Asked] = []
    seen: list[tuple[ranking.Candidates, ranking.Query]] = []
    rank = ranking.rank

    def recording(
        c: ranking.Candidates, query: ranking.Query, ranker: ranking.Ranker | None
    ) -> ranking.Ranked:
        seen.append((c, query))
        return rank(c, query, ranker)

    with scratch_database() as url:
        settings = Settings.load(
            {
                "listen": "127.0.0.1:0",
                "database_url": url,
                "embedder": "minilm",
                "data_dir": f"/tmp/engram-train-ranker-{time.time_ns()}",
                "index_persist": False,
                "metrics_port": -1,
                "log_level": "WARNING",
                "embed_batch_size": 64,
                "grace_seconds": 1.0,
            },
            env={},
        )
        suite = start_suite(settings, ["journal"])
        channel = open_channel(suite.address)
        journal = jgrpc.JournalServiceStub(channel)
        try:
            started = time.monotonic()
            for conversation in conversations:
                for turn in commits_for(conversation):
                    receipt = journal.CommitTurn(commit_request(turn, "")).receipt
                    corpus.dia.setdefault(receipt.episode_id, [])
                    if turn.dia_id not in corpus.dia[receipt.episode_id]:
                        corpus.dia[receipt.episode_id].append(turn.dia_id)
            while journal.GetStatus(jpb.GetStatusRequest()).episodes_pending_embedding:
                time.sleep(0.5)
            print(f"journal: imported and embedded in {time.monotonic() - started:.0f}s")
            ranking.rank = recording
            for position, conversation in enumerate(conversations):
                for qa in conversation.qa:
                    if not qa.evidence:
                        continue
                    seen.clear()
                    journal.SearchEpisodes(
                        jpb.SearchEpisodesRequest(
                            query_text=qa.question, subject=conversation.subject, limit=1
                        )
                    )
                    c, q = seen[-1]
                    category = CATEGORY_NAMES.get(qa.category, f"category-{qa.category}")
                    out.append(Asked(c, q, set(qa.evidence), position, category))
        finally:
            ranking.rank = rank
            channel.close()
            suite.stop(grace=1)
    return out


@dataclass(frozen=True)
class Kind:
    """A candidate model: ``logistic`` or ``trees``, then ``+sessions`` (the
    session features), ``+spread`` (engram.ranking.spread_features, after the
    session features) and ``@<depth>`` (how many first-stage candidates it
    re-orders; default engram.ranking.RERANK_DEPTH), e.g. ``trees+sessions@100``."""

    model: str
    sessions: bool
    spread: bool
    depth: int
    expansion: bool = False

    @classmethod
    def parse(cls, text: str) -> Kind:
        name, _, depth = text.partition("@")
        model, *flags = name.split("+")
        if model not in ("logistic", "trees") or not set(flags) <= {
            "sessions",
            "spread",
            "expansion",
        }:
            raise SystemExit(f"unknown kind {text!r}")
        return cls(
            model,
            "sessions" in flags,
            "spread" in flags,
            int(depth or ranking.RERANK_DEPTH),
            "expansion" in flags,
        )


def dataset(corpus: Corpus, sets: list[Asked], kind: Kind) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for a in sets:
        c = a.candidates
        if len(c) == 0:
            continue
        fs = ranking.first_stage(c)
        order = ranking.rank(c, a.query, None).order
        head = order[: kind.depth]
        xs.append(
            ranking.features(c, fs, head, a.query, kind.sessions, kind.spread, kind.expansion)
        )
        ys.append(
            np.array([1.0 if a.gold & set(corpus.dia.get(c.ids[i], [])) else 0.0 for i in head])
        )
    return np.vstack(xs), np.concatenate(ys)


def recall_matrix(corpus: Corpus, sets: list[Asked], ranker: ranking.Ranker | None) -> np.ndarray:
    """(questions, len(KS)) recall of each question at each k."""
    out = np.zeros((len(sets), len(KS)))
    for row, a in enumerate(sets):
        order = ranking.rank(a.candidates, a.query, ranker).order
        for col, k in enumerate(KS):
            found: set[str] = set()
            for i in order[:k]:
                found.update(corpus.dia.get(a.candidates.ids[i], []))
            out[row, col] = len(a.gold & found) / len(a.gold)
    return out


# ---------------------------------------------------------------- models

TREE_SETTINGS: dict[str, Any] = {
    "max_iter": 150,
    "max_depth": 3,
    "learning_rate": 0.08,
    "min_samples_leaf": 40,
    "random_state": 0,
}


def fit_logistic(x: np.ndarray, y: np.ndarray, c: float, sessions: bool) -> ranking.LinearRanker:
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    scaler = StandardScaler().fit(x)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    lr = LogisticRegression(C=c, max_iter=5000).fit((x - scaler.mean_) / scale, y)
    return ranking.LinearRanker(
        scaler.mean_.astype(np.float64),
        scale.astype(np.float64),
        lr.coef_[0].astype(np.float64),
        float(lr.intercept_[0]),
        sessions=sessions,
    )


MAX_STEPS = 8  # complete trees of this depth at most (2**8 leaves each)


def export_trees(model: Any, sessions: bool) -> ranking.TreeRanker:
    """A fitted HistGradientBoostingClassifier (binary, numeric features) as
    engram.ranking.TreeRanker's complete heap-ordered trees."""
    predictors = [p[0].nodes for p in model._predictors]
    for nodes in predictors:
        if nodes["is_categorical"].any():
            raise ValueError("categorical splits are not exported")
    steps = max(int(nodes["depth"][nodes["is_leaf"].astype(bool)].max()) for nodes in predictors)
    if steps > MAX_STEPS:
        raise ValueError(f"trees of depth {steps} exceed {MAX_STEPS}")
    internal, count = 2**steps - 1, len(predictors)
    feature = np.zeros((count, internal), dtype=np.intp)
    threshold = np.full((count, internal), np.inf)
    missing_left = np.ones((count, internal), dtype=np.bool_)
    value = np.zeros((count, internal + 1))
    for t, nodes in enumerate(predictors):
        stack = [(0, 0, 0)]  # (node, heap position, level)
        while stack:
            node, pos, level = stack.pop()
            nd = nodes[node]
            if level == steps:
                value[t, pos - internal] = nd["value"]
            elif nd["is_leaf"]:  # passes through: goes left, its value fills the leaves below
                stack += [(node, 2 * pos + 1, level + 1), (node, 2 * pos + 2, level + 1)]
            else:
                feature[t, pos] = nd["feature_idx"]
                threshold[t, pos] = nd["num_threshold"]
                missing_left[t, pos] = bool(nd["missing_go_to_left"])
                stack += [
                    (int(nd["left"]), 2 * pos + 1, level + 1),
                    (int(nd["right"]), 2 * pos + 2, level + 1),
                ]
    baseline = float(np.asarray(model._baseline_prediction).ravel()[0])
    return ranking.TreeRanker(
        feature, threshold, missing_left, value, baseline, steps, sessions=sessions
    )


def fit_trees(x: np.ndarray, y: np.ndarray, sessions: bool) -> ranking.TreeRanker:
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(**TREE_SETTINGS).fit(x, y)
    ranker = export_trees(model, sessions)
    gap = float(np.abs(ranker.decision(x) - model.decision_function(x)).max())
    if gap > 1e-9:
        raise AssertionError(f"numpy trees disagree with scikit-learn by {gap}")
    return ranker


def fit(kind: Kind, corpus: Corpus, sets: list[Asked], c: float) -> ranking.Ranker:
    x, y = dataset(corpus, sets, kind)
    ranker: ranking.Ranker
    if kind.model == "logistic":
        ranker = fit_logistic(x, y, c, kind.sessions)
    else:
        ranker = fit_trees(x, y, kind.sessions)
    return dataclasses.replace(
        ranker, spread=kind.spread, depth=kind.depth, expansion=kind.expansion
    )


def save(ranker: ranking.Ranker, path: Path, features: int) -> None:
    common: dict[str, Any] = {
        "depth": np.int64(ranker.depth),
        "features": np.int64(features),
        "sessions": np.bool_(ranker.sessions),
        "spread": np.bool_(ranker.spread),
        "expansion": np.bool_(ranker.expansion),
        "diversity": np.float64(ranker.diversity),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(ranker, ranking.TreeRanker):
        np.savez_compressed(
            path,
            kind=np.str_("trees"),
            feature=ranker.feature.astype(np.int16),
            threshold=ranker.threshold,
            missing_left=ranker.missing_left,
            value=ranker.value,
            baseline=np.float64(ranker.baseline),
            steps=np.int64(ranker.steps),
            **common,
        )
    else:
        np.savez_compressed(
            path,
            kind=np.str_("logistic"),
            mean=ranker.mean,
            scale=ranker.scale,
            coef=ranker.coef,
            intercept=np.float64(ranker.intercept),
            **common,
        )


# ---------------------------------------------------------------- evaluation


def criterion(m: np.ndarray) -> float:
    return float(100 * m.mean())


def summary(m: np.ndarray, sets: list[Asked], total: int) -> str:
    """Overall R@5/10/25 (questions without evidence count 0, as upstream) and
    per-category R@10."""
    overall = 100 * m.sum(axis=0) / max(total, 1)
    cats = []
    for name in CATEGORY_NAMES.values():
        rows = [i for i, a in enumerate(sets) if a.category == name]
        if rows:
            cats.append(f"{name} {100 * m[rows, 1].mean():.1f}")
    return " / ".join(f"{v:.1f}" for v in overall) + " | R@10 " + ", ".join(cats)


Paths = dict[str, list[Asked]]  # read path -> its questions
Scores = dict[str, np.ndarray]  # read path -> (questions, len(KS)) recall


def loco(
    kind: Kind,
    corpus: Corpus,
    tuning: Paths,
    c: float,
    conversations: list[int],
    diversities: list[float],
) -> dict[float, Scores]:
    """Leave-one-conversation-out over the tuning questions: each fold trains on
    the other conversations' candidates of every path and is scored per path,
    once per diversity weight (engram.ranking.diversify; it needs no refit)."""
    out = {
        w: {path: np.zeros((len(sets), len(KS))) for path, sets in tuning.items()}
        for w in diversities
    }
    for hold in conversations:
        train = [a for sets in tuning.values() for a in sets if a.conversation != hold]
        ranker = fit(kind, corpus, train, c)
        for w in diversities:
            weighted = dataclasses.replace(ranker, diversity=w)
            for path, sets in tuning.items():
                test = [i for i, a in enumerate(sets) if a.conversation == hold]
                out[w][path][test] = recall_matrix(corpus, [sets[i] for i in test], weighted)
    return out


def make_embed(cache: Path | None) -> tuple[Any, int, str]:
    from engram.embedding import MiniLMEmbedder

    model = MiniLMEmbedder()

    def embed(texts: list[str], query: bool) -> np.ndarray:
        path = None
        if cache is not None:
            cache.mkdir(parents=True, exist_ok=True)
            key = hashlib.sha1(("\x00".join(texts) + f"|minilm|{query}").encode()).hexdigest()[:16]
            path = cache / f"train-minilm-{'q' if query else 'p'}-{key}.npy"
            if path.exists():
                loaded: np.ndarray = np.load(path)
                return loaded
        started = time.time()
        out = np.asarray(model.embed(texts), dtype=np.float32)
        print(f"embedded {len(texts)} texts in {time.time() - started:.0f}s", file=sys.stderr)
        if path is not None:
            np.save(path, out)
        return out

    return embed, int(model.dimension), str(model.name)


def collect(
    cache: Path | None,
    conversations: list[Conversation],
    embed: Any,
    dim: int,
    model: str,
    paths: list[str],
) -> tuple[Corpus, Paths]:
    """Both paths' candidates, from ``cache`` when it holds them."""
    if cache is not None and cache.exists():
        with cache.open("rb") as f:
            dia, rows = pickle.load(f)
        cached: Paths = {path: [Asked(*row) for row in sets] for path, sets in rows.items()}
        if set(cached) != set(paths):
            raise SystemExit(f"{cache} holds {sorted(cached)}, not {sorted(paths)}")
        return Corpus(None, dia), cached
    corpus = build_corpus(conversations, embed, dim, model)
    every: Paths = {}
    if "Recall" in paths:
        every["Recall"] = question_sets(corpus, conversations, embed)
    if "SearchEpisodes" in paths:
        every["SearchEpisodes"] = search_sets(corpus, conversations)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        with cache.open("wb") as f:
            # plain tuples: the file loads whichever module runs this one
            rows = {
                path: [(a.candidates, a.query, a.gold, a.conversation, a.category) for a in sets]
                for path, sets in every.items()
            }
            pickle.dump((corpus.dia, rows), f)
    return corpus, every


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    p.add_argument("--conversations", type=int, default=5, help="the first N train (default 5)")
    p.add_argument("--kinds", default="logistic,trees,trees+sessions")
    p.add_argument(
        "--paths",
        default="Recall,SearchEpisodes",
        help="read paths whose candidates train and choose ('Recall' needs no database)",
    )
    p.add_argument("--out", type=Path, default=ranking.DEFAULT_RANKER_PATH)
    p.add_argument(
        "--cache",
        type=Path,
        default=Path("/var/tmp/locomo-cache"),
        help="embedding cache outside the repository ('' for none)",
    )
    p.add_argument("--C", type=float, default=1.0)
    p.add_argument(
        "--diversity",
        default="0",
        help="comma-separated engram.ranking.diversify weights tried with every kind",
    )
    p.add_argument(
        "--candidates",
        type=Path,
        help="pickle of the collected candidates (outside the repository): read when"
        " it exists, else written after collecting; features and models may change"
        " between runs, the candidates (first-stage inputs) may not",
    )
    p.add_argument("--report", type=Path, help="also write the figures as JSON here")
    p.add_argument(
        "--tuning-only",
        action="store_true",
        help="score no held-out conversation (for comparing candidates before one is kept)",
    )
    args = p.parse_args()

    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if any(Kind.parse(k).expansion for k in kinds):
        raise SystemExit("+expansion needs the candidates' vectors: bench/locomo_expansion.py")
    paths = [k.strip() for k in args.paths.split(",") if k.strip()]
    diversities = [float(w) for w in args.diversity.split(",") if w.strip()]
    previous = ranking.load_ranker(str(args.out)) if args.out.exists() else None
    conversations = load_conversations(args.data)
    embed, dim, model = make_embed(args.cache if str(args.cache) else None)
    corpus, every = collect(args.candidates, conversations, embed, dim, model, paths)
    tuning = {k: [a for a in v if a.conversation < args.conversations] for k, v in every.items()}
    held = {
        k: [a for a in v if a.conversation >= args.conversations and not args.tuning_only]
        for k, v in every.items()
    }
    halves = (("tuning", 0),) if args.tuning_only else (("tuning", 0), ("held out", 1))
    totals = [0, 0]
    for position, conversation in enumerate(conversations):
        totals[position >= args.conversations] += len(conversation.qa)
    tuning_ids = sorted({a.conversation for v in tuning.values() for a in v})
    report: dict[str, Any] = {}

    def show(label: str, m_tune: Scores, m_held: Scores) -> None:
        print(label, flush=True)
        for path in every:
            print(f"  {path:<15} tuning {summary(m_tune[path], tuning[path], totals[0])}")
            if held[path]:
                print(f"  {'':<15} held   {summary(m_held[path], held[path], totals[1])}")

    def scores(ranker: ranking.Ranker | None, sets: Paths) -> Scores:
        return {k: recall_matrix(corpus, v, ranker) for k, v in sets.items()}

    results: dict[str, tuple[Scores, Scores]] = {
        "first stage": (scores(None, tuning), scores(None, held))
    }
    show("first stage", *results["first stage"])
    if previous is not None:
        results["previous"] = (scores(previous, tuning), scores(previous, held))
        show(f"previous {args.out.name} (tuning in-sample)", *results["previous"])
    best, best_score = "", -1.0
    fitted: dict[str, ranking.Ranker] = {}
    kind_of: dict[str, Kind] = {}
    for text in kinds:
        kind = Kind.parse(text)
        started = time.time()
        by_weight = loco(kind, corpus, tuning, args.C, tuning_ids, diversities)
        refit = fit(kind, corpus, [a for v in tuning.values() for a in v], args.C)
        for w, cv in by_weight.items():
            label = text if len(diversities) == 1 and w == 0 else f"{text} diversity {w:g}"
            kind_of[label] = kind
            score = float(np.mean([criterion(m) for m in cv.values()]))
            fitted[label] = dataclasses.replace(refit, diversity=w)
            results[label] = (cv, scores(fitted[label], held))
            show(
                f"{label} (tuning: leave-one-conversation-out; {time.time() - started:.0f}s)",
                *results[label],
            )
            report[label] = {"LOCO criterion": round(score, 2)}
            if score > best_score:
                best, best_score = label, score
    print(f"chosen by leave-one-conversation-out: {best} (criterion {best_score:.2f})")
    chosen = fitted[best]
    x, _y = dataset(corpus, [a for v in tuning.values() for a in v], kind_of[best])
    save(chosen, args.out, x.shape[1])
    loaded = ranking.load_ranker(str(args.out))
    assert loaded is not None
    gap = float(np.abs(loaded.decision(x) - chosen.decision(x)).max())
    assert gap < 1e-9, gap
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes): {best}, {x.shape[1]} features")
    results["chosen, refitted"] = (scores(chosen, tuning), results[best][1])
    show(
        "chosen, refitted on all tuning conversations (tuning in-sample)",
        *results["chosen, refitted"],
    )
    for other in [k for k in results if k not in (best, "chosen, refitted")]:
        for half, col in halves:
            for path in every:
                diff = bootstrap(results[best][col][path], results[other][col][path])
                report[f"{best} - {other}, {path}, {half}"] = diff
                print(
                    f"  {best} - {other}, {path}, {half}: "
                    + " / ".join(f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]" for m, lo, hi in diff)
                )
    if len(every) == 2:
        for half, col in halves:
            diff = bootstrap(results[best][col]["SearchEpisodes"], results[best][col]["Recall"])
            report[f"{best}: SearchEpisodes - Recall, {half}"] = diff
            print(
                f"  {best}: SearchEpisodes - Recall, {half}: "
                + " / ".join(f"{m:+.1f} [{lo:+.1f}, {hi:+.1f}]" for m, lo, hi in diff)
            )
    if args.report:
        args.report.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
