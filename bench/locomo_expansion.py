"""LoCoMo, tuning half only: query expansion from the top hits as candidates
and as second-stage features (research; nothing here is served by default).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice .venv/bin/python bench/locomo_expansion.py \\
        --candidates /var/tmp/locomo-candidates.pkl [--variants base,features,...] \\
        [--out /tmp/locomo_expansion.json]

Reads the candidates tools/train_recall_ranker.py collected for both read
paths (``--candidates``; the first run of that tool writes them) and rebuilds
its in-memory resident index (the MiniLM vectors come from its embedding
cache). Every figure is leave-one-conversation-out over conversations 1-5
(tools/train_recall_ranker.py's ``loco``: each conversation scored by trees
fitted on the other four); conversations 6-10 are never scored here.
Variants:

* ``base``: the shipped kind (trees + session features), both paths.
* ``features``: the same plus engram.ranking.expansion_features (cosine to
  the Rocchio query q' = normalise(q + beta * mean of the top m dense hits),
  its rank among the candidates and its gain over the plain cosine; maximum
  and mean cosine to the first stage's top 5, maximum to those of another
  session), both paths: both can compute them from the candidates' vectors
  (PostgreSQL holds the same MiniLM vectors; here they are read from the
  in-memory index by dia_id).
* ``rocchio``: the dense list asked with q' in place of q (a second FAISS
  query, its top 100 the dense candidates and its cosines the dense scores),
  Recall only: the candidates are re-collected from the resident index.
* ``rm3``: the lexical list asked with the question's terms plus the top
  ``--rm3-terms`` terms of the top ``--rm3-docs`` BM25 hits (RM3 weights:
  each hit's share of the hits' BM25 mass times the term's frequency in it,
  times the term's idf, scaled to ``--rm3-weight`` of the question's best
  term), Recall only.
* ``rocchio+features``, ``rm3+features``: the same with the expansion
  features.
* ``base-recall``, ``features-recall``: the baselines of the Recall-only
  variants (trained and scored on Recall's candidates only).

Reports per variant the LOCO criterion (mean over the paths of the mean of
R@5/10/25 over the questions), each path's overall R@5/10/25 and
per-category R@10, the share of multi-hop / open-domain gold turns among
the candidates and the first stage's top 50, and paired bootstrap intervals
against its baseline.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

import train_recall_ranker as trainer

from bench.locomo_recall import bootstrap
from engram import ranking
from engram.locomo import commits_for, load_conversations
from engram.terms import index_terms
from memory_service.journal import canonical_content
from retrieval_service.lexical import idf
from retrieval_service.snapshot import SearchRequest

KIND = "trees+sessions"
TUNING_CONVERSATIONS = 5
CATEGORIES = ("multi-hop", "open-domain")


def attach_vectors(
    every: trainer.Paths,
    corpus: trainer.Corpus,
    built: trainer.Corpus,
    key_of: dict[tuple[int, str], str],
    vector_of: dict[str, np.ndarray],
    queries: dict[str, np.ndarray],
) -> None:
    """Each candidate's MiniLM vector (by its dia_ids, so the journal's ids map
    too) and the question's vector, on every path's candidates."""
    dim = next(iter(vector_of.values())).size
    for sets in every.values():
        for a in sets:
            c = a.candidates
            rows = np.zeros((len(c), dim), np.float32)
            for i in range(len(c)):
                dias = corpus.dia.get(c.ids[i]) or built.dia.get(c.ids[i]) or []
                eid = key_of.get((a.conversation, dias[0])) if dias else None
                if eid is not None:
                    rows[i] = vector_of[eid]
            c.vectors = rows
            c.query_vector = queries[a.query.text]


def add_rare_terms(
    every: trainer.Paths,
    corpus: trainer.Corpus,
    built: trainer.Corpus,
    key_of: dict[tuple[int, str], str],
    text_of: dict[str, str],
    max_df: int,
) -> None:
    """Wrap engram.ranking.expansion_features with two rare-term columns (see
    --rare-terms), from each candidate's indexed terms of document frequency
    <= max_df over the index."""
    snapshot = built.snapshot
    assert snapshot is not None
    n_docs, _total = snapshot._live_lengths
    weight: dict[str, float] = {}
    rare_of: dict[int, list[dict[str, float]]] = {}
    for sets in every.values():
        for a in sets:
            c = a.candidates
            rows = []
            for i in range(len(c)):
                dias = corpus.dia.get(c.ids[i]) or []
                eid = key_of.get((a.conversation, dias[0])) if dias else None
                found: dict[str, float] = {}
                for t in set(index_terms(text_of.get(eid, ""))) if eid else set():
                    if t not in weight:
                        df = snapshot._live_df(t)
                        weight[t] = idf(df, n_docs) if df <= max_df else 0.0
                    if weight[t] > 0:
                        found[t] = weight[t]
                rows.append(found)
            rare_of[id(c)] = rows
    every_column = ranking.expansion_features

    def with_rare(c: ranking.Candidates, fs: ranking.FirstStage, idx: np.ndarray) -> np.ndarray:
        rows = rare_of.get(id(c))
        x = every_column(c, fs, idx)
        extra = np.zeros((idx.size, 2))
        if rows is not None:
            top = [int(j) for j in idx[: ranking.NEAR_TOP]]
            for r, i in enumerate(idx):
                shared = [
                    sum(w for t, w in rows[int(i)].items() if t in rows[j])
                    for j in top
                    if j != int(i)
                ]
                extra[r] = (max(shared, default=0.0), sum(1 for v in shared if v > 0))
        return np.hstack([x, extra])

    ranking.expansion_features = with_rare


def rocchio_vector(c: ranking.Candidates, m: int, beta: float) -> np.ndarray:
    cos = np.where(np.isnan(c.cos), -np.inf, c.cos)
    top = np.argsort(-cos, kind="stable")[:m]
    q = c.query_vector.astype(np.float64) + beta * c.vectors[top].astype(np.float64).mean(axis=0)
    out: np.ndarray = (q / max(float(np.linalg.norm(q)), 1e-12)).astype(np.float32)
    return out


def recollect(
    built: trainer.Corpus,
    conversations: list[Any],
    sets: list[trainer.Asked],
    *,
    vector: Any,
    terms: Any,
) -> list[trainer.Asked]:
    """Recall's candidates again, with the dense query ``vector(a)`` and the
    lexical weighted terms ``terms(a)`` (None: as collected)."""
    snapshot = built.snapshot
    assert snapshot is not None
    out = []
    for a in sets:
        subject = conversations[a.conversation].subject
        weighted = terms(a) if terms is not None else None
        if weighted is not None:
            # The lexical list asked with these weighted terms (this snapshot only).
            object.__setattr__(snapshot, "_weighted_terms", lambda _text, w=weighted: w)
        q = vector(a) if vector is not None else a.candidates.query_vector
        c = snapshot.candidates(
            SearchRequest(
                subject,
                trainer.WORKSPACE,
                "",
                None,
                None,
                np.asarray(q, np.float32),
                a.query.text,
                ranking.WINDOW,
                ranking.WINDOW,
            ),
            a.query,
        )
        if weighted is not None:
            object.__delattr__(snapshot, "_weighted_terms")
        out.append(trainer.Asked(c, a.query, a.gold, a.conversation, a.category))
    return out


def rm3_terms(
    built: trainer.Corpus,
    text_of: dict[str, str],
    docs: int,
    count: int,
    weight: float,
) -> Any:
    snapshot = built.snapshot
    assert snapshot is not None

    def terms(a: trainer.Asked) -> tuple[list[tuple[str, float]], float]:
        original, avgdl = snapshot._weighted_terms(a.query.text)
        c = a.candidates
        top = [i for i in np.argsort(-c.lex, kind="stable")[:docs] if c.lex[i] > 0]
        if not top or not original:
            return original, avgdl
        mass = float(sum(c.lex[i] for i in top))
        p: dict[str, float] = {}
        for i in top:
            words = index_terms(text_of.get(str(c.ids[i]), ""))
            if not words:
                continue
            tf = Counter(words)
            for t, n in tf.items():
                p[t] = p.get(t, 0.0) + float(c.lex[i]) / mass * n / len(words)
        n_docs, _total = snapshot._live_lengths
        scored = {t: v * idf(snapshot._live_df(t), n_docs) for t, v in p.items()}
        best = sorted(scored.items(), key=lambda kv: (-kv[1], kv[0]))[:count]
        if not best:
            return original, avgdl
        top_original = max(w for _t, w in original)
        scale = weight * top_original / best[0][1]
        merged = dict(original)
        for t, v in best:
            merged[t] = merged.get(t, 0.0) + scale * v
        return sorted(merged.items()), avgdl

    return terms


def coverage(corpus: trainer.Corpus, sets: list[trainer.Asked]) -> dict[str, list[float]]:
    """Per category: % of gold turns among the candidates and among the first
    stage's top RERANK_DEPTH."""
    out: dict[str, list[float]] = {}
    for name in CATEGORIES:
        found = [0.0, 0.0]
        total = 0
        for a in sets:
            if a.category != name:
                continue
            c = a.candidates
            order = ranking.rank(c, a.query, None).order
            every = {d for i in range(len(c)) for d in corpus.dia.get(c.ids[i], [])}
            head = {d for i in order[: ranking.RERANK_DEPTH] for d in corpus.dia.get(c.ids[i], [])}
            total += len(a.gold)
            found[0] += len(a.gold & every)
            found[1] += len(a.gold & head)
        out[name] = [round(100 * f / max(total, 1), 1) for f in found]
    return out


def union_coverage(
    corpus: trainer.Corpus, base: list[trainer.Asked], other: list[trainer.Asked]
) -> dict[str, list[float]]:
    """Per category: % of gold turns among the collected candidates, and among
    them together with ``other``'s (what adding that list's hits could reach)."""
    out: dict[str, list[float]] = {}
    for name in CATEGORIES:
        found = [0, 0]
        total = 0
        for a, b in zip(base, other, strict=True):
            if a.category != name:
                continue
            own = {
                d for i in range(len(a.candidates)) for d in corpus.dia.get(a.candidates.ids[i], [])
            }
            more = {
                d for i in range(len(b.candidates)) for d in corpus.dia.get(b.candidates.ids[i], [])
            }
            total += len(a.gold)
            found[0] += len(a.gold & own)
            found[1] += len(a.gold & (own | more))
        out[name] = [round(100 * f / max(total, 1), 1) for f in found]
    return out


def category_r10(m: np.ndarray, sets: list[trainer.Asked], name: str) -> float:
    rows = [i for i, a in enumerate(sets) if a.category == name]
    return round(100 * float(m[rows, 1].mean()), 1) if rows else 0.0


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    p.add_argument("--candidates", type=Path, required=True)
    p.add_argument("--cache", type=Path, default=Path("/var/tmp/locomo-cache"))
    p.add_argument(
        "--variants",
        default="base,features,base-recall,features-recall,rocchio,rocchio+features,rm3,rm3+features",
    )
    p.add_argument("--prf-depth", type=int, default=ranking.PRF_DEPTH)
    p.add_argument("--prf-beta", type=float, default=ranking.PRF_BETA)
    p.add_argument("--rm3-docs", type=int, default=10)
    p.add_argument("--rm3-terms", type=int, default=10)
    p.add_argument("--rm3-weight", type=float, default=0.5)
    p.add_argument(
        "--columns",
        default="",
        help="comma-separated expansion_features columns kept (the others zeroed: the"
        " trees cannot split on a constant); default all",
    )
    p.add_argument(
        "--rare-terms",
        type=int,
        default=0,
        help="also append two columns to the expansion features: the most idf a candidate"
        " shares in terms of at most this document frequency with one of the first"
        " stage's top 5 (itself excluded), and how many of them share one (0: off)",
    )
    p.add_argument("--random-state", type=int, default=trainer.TREE_SETTINGS["random_state"])
    p.add_argument("--out", type=Path)
    args = p.parse_args()
    ranking.PRF_DEPTH, ranking.PRF_BETA = args.prf_depth, args.prf_beta
    trainer.TREE_SETTINGS["random_state"] = args.random_state
    if args.columns:
        kept = [int(x) for x in args.columns.split(",")]
        every_column = ranking.expansion_features

        def some_columns(
            c: ranking.Candidates, fs: ranking.FirstStage, idx: np.ndarray
        ) -> np.ndarray:
            x = every_column(c, fs, idx)
            out = np.zeros_like(x)
            out[:, kept] = x[:, kept]
            return out

        ranking.expansion_features = some_columns
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]

    conversations = load_conversations(args.data)
    tuning_count = trainer_conversations = TUNING_CONVERSATIONS
    embed, dim, model = trainer.make_embed(args.cache)
    corpus, every = trainer.collect(
        args.candidates, conversations, embed, dim, model, ["Recall", "SearchEpisodes"]
    )
    built = trainer.build_corpus(conversations, embed, dim, model)
    snapshot = built.snapshot
    assert snapshot is not None
    vector_of: dict[str, np.ndarray] = {}
    for segment in snapshot.segments:
        for row in range(segment.rows):
            vector_of[segment.episode_id(row)] = np.asarray(segment.dense.vectors[row])
    key_of: dict[tuple[int, str], str] = {}
    text_of: dict[str, str] = {}
    for position, conversation in enumerate(conversations):
        for turn in commits_for(conversation):
            content = canonical_content(turn.user_text, turn.assistant_text, turn.user_name, "")
            eid = trainer._episode_id(turn.subject, content)
            key_of[(position, turn.dia_id)] = eid
            text_of[eid] = turn.user_text
    tuning = {k: [a for a in v if a.conversation < trainer_conversations] for k, v in every.items()}
    texts = sorted({a.query.text for v in tuning.values() for a in v})
    queries = dict(zip(texts, embed(texts, True), strict=True))
    attach_vectors(tuning, corpus, built, key_of, vector_of, queries)
    for eid, dias in built.dia.items():
        corpus.dia.setdefault(eid, dias)
    if args.rare_terms:
        add_rare_terms(tuning, corpus, built, key_of, text_of, args.rare_terms)

    recall_only: dict[str, list[trainer.Asked]] = {}
    if any(v.startswith("rocchio") for v in variants):
        started = time.time()
        recall_only["rocchio"] = recollect(
            built,
            conversations,
            tuning["Recall"],
            vector=lambda a: rocchio_vector(a.candidates, args.prf_depth, args.prf_beta),
            terms=None,
        )
        print(f"rocchio candidates in {time.time() - started:.0f}s", flush=True)
    if any(v.startswith("rm3") for v in variants):
        started = time.time()
        recall_only["rm3"] = recollect(
            built,
            conversations,
            tuning["Recall"],
            vector=None,
            terms=rm3_terms(built, text_of, args.rm3_docs, args.rm3_terms, args.rm3_weight),
        )
        print(f"rm3 candidates in {time.time() - started:.0f}s", flush=True)
    for name, sets in recall_only.items():
        attach_vectors({"Recall": sets}, corpus, built, key_of, vector_of, queries)
        print(
            f"{name}: gold in the candidates / with this list's added (multi-hop, open-domain):"
            f" {union_coverage(corpus, tuning['Recall'], sets)}",
            flush=True,
        )

    ids = list(range(tuning_count))
    report: dict[str, Any] = {
        "settings": {
            "prf_depth": args.prf_depth,
            "prf_beta": args.prf_beta,
            "columns": args.columns or "all",
            "random_state": args.random_state,
            "rm3": [args.rm3_docs, args.rm3_terms, args.rm3_weight],
        }
    }
    results: dict[str, tuple[trainer.Paths, trainer.Scores]] = {}
    for variant in variants:
        source, _, extra = variant.partition("+")
        kind = trainer.Kind.parse(KIND + ("+expansion" if extra == "features" else ""))
        paths: trainer.Paths
        if source in ("base", "features"):
            paths, reference = tuning, "base"
            kind = trainer.Kind.parse(KIND + ("+expansion" if source == "features" else ""))
        elif source in ("base-recall", "features-recall"):
            paths, reference = {"Recall": tuning["Recall"]}, "base-recall"
            kind = trainer.Kind.parse(KIND + ("+expansion" if source[0] == "f" else ""))
        else:
            paths, reference = {"Recall": recall_only[source]}, "base-recall"
        started = time.time()
        scores = trainer.loco(kind, corpus, paths, 1.0, ids, [0.0])[0.0]
        first = {k: trainer.recall_matrix(corpus, v, None) for k, v in paths.items()}
        results[variant] = (paths, scores)
        entry: dict[str, Any] = {
            "kind": str(kind),
            "LOCO criterion": round(
                float(np.mean([trainer.criterion(m) for m in scores.values()])), 2
            ),
        }
        for path, m in scores.items():
            entry[path] = {
                "R@5/10/25": [round(100 * float(x), 1) for x in m.mean(axis=0)],
                "first stage R@5/10/25": [
                    round(100 * float(x), 1) for x in first[path].mean(axis=0)
                ],
                "R@10 multi-hop / open-domain": [
                    category_r10(m, paths[path], n) for n in CATEGORIES
                ],
                "gold in candidates / first-stage top 50 (multi-hop, open-domain)": coverage(
                    corpus, paths[path]
                ),
            }
        if variant != reference and reference in results:
            for path, m in scores.items():
                other = results[reference][1][path]
                entry[f"{path} - {reference}"] = bootstrap(m, other)
                for n in CATEGORIES:
                    rows = [i for i, a in enumerate(paths[path]) if a.category == n]
                    entry[f"{path} - {reference}, {n}"] = bootstrap(m[rows], other[rows])
        report[variant] = entry
        print(f"{variant} ({time.time() - started:.0f}s): {json.dumps(entry)}", flush=True)
        if args.out:
            args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
