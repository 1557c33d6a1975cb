"""LoCoMo, tuning half only: late interaction (token-level MaxSim over the shipped
MiniLM) as second-stage features (research; nothing here is served).

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 nice .venv/bin/python bench/locomo_maxsim.py \\
        --candidates /var/tmp/locomo-candidates.pkl [--out /tmp/locomo_maxsim.json]

Reads the candidates tools/train_recall_ranker.py collected for both read paths
(the first run of that tool, or of this one, writes them). For every candidate
of a tuning question it scores MaxSim (ColBERT's late interaction: for each of
the question's word pieces the best cosine to one of the turn's word pieces,
averaged over the question) with MiniLM's last hidden states
(engram.embedding.MiniLMEmbedder.token_vectors), plainly and with every question
piece weighted by its idf over the corpus's turns (so "what", "does" and "?"
weigh little), and appends four columns to the second stage's features: both
scores and the log of each one's rank among the question's candidates (the
``+expansion`` slot of tools/train_recall_ranker.py's kinds, filled here).
Every figure is leave-one-conversation-out over conversations 1-5; 6-10 are
never scored here. Reports the LOCO criterion, R@5/10/25 per path, multi-hop
and open-domain R@10 and paired bootstrap intervals against the shipped kind,
plus the token vectors' memory per turn.
"""

from __future__ import annotations

import argparse
import json
import math
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
from engram.embedding import MiniLMEmbedder
from engram.locomo import commits_for, load_conversations

KIND = "trees+sessions"
TUNING_CONVERSATIONS = 5
CATEGORIES = ("multi-hop", "open-domain", "single-hop", "temporal", "adversarial")


def maxsim(q: np.ndarray, d: np.ndarray, weights: np.ndarray) -> float:
    if not len(q) or not len(d):
        return 0.0
    best = (q @ d.T).max(axis=1)
    return float((best * weights).sum() / max(float(weights.sum()), 1e-9))


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    p.add_argument("--candidates", type=Path, required=True)
    p.add_argument("--cache", type=Path, default=Path("/var/tmp/locomo-cache"))
    p.add_argument("--columns", default="0,1,2,3", help="maxsim columns kept (others zeroed)")
    p.add_argument(
        "--vectors",
        default="contextual",
        choices=("contextual", "static", "pca64-int8", "pca32-int8"),
        help="the turns' token vectors: MiniLM's last hidden states; its input word-piece"
        " embeddings (nothing stored a turn but its word-piece ids); or the hidden states"
        " projected by PCA to 64 or 32 dimensions and quantised to int8 (the question's"
        " pieces projected alike, not quantised)",
    )
    p.add_argument(
        "--basis-from",
        default="turns",
        choices=("turns", "gate-corpus"),
        help="what the PCA basis is fitted on: the LoCoMo turns themselves, or 4,000"
        " English clauses of training/gate/ (text of this repository's own, none of it"
        " LoCoMo's: what a shipped basis would be fitted on)",
    )
    p.add_argument("--random-state", type=int, default=trainer.TREE_SETTINGS["random_state"])
    p.add_argument("--out", type=Path)
    args = p.parse_args()
    trainer.TREE_SETTINGS["random_state"] = args.random_state
    kept = [int(x) for x in args.columns.split(",")]

    conversations = load_conversations(args.data)
    embed, dim, model = trainer.make_embed(args.cache)
    corpus, every = trainer.collect(
        args.candidates, conversations, embed, dim, model, ["Recall", "SearchEpisodes"]
    )
    tuning = {k: [a for a in v if a.conversation < TUNING_CONVERSATIONS] for k, v in every.items()}

    minilm = MiniLMEmbedder()
    tokenizer = minilm._get().tokenizer
    text_of: dict[tuple[int, str], str] = {}
    for position, conversation in enumerate(conversations):
        for turn in commits_for(conversation):
            text_of[(position, turn.dia_id)] = turn.user_text
    # Word-piece document frequencies over every turn (the corpus the index ranks).
    df: Counter[int] = Counter()
    for text in text_of.values():
        df.update(set(tokenizer.encode(text).ids[1:-1]))
    n_docs = len(text_of)

    def idf_weights(text: str) -> np.ndarray:
        ids = tokenizer.encode(text).ids[1:-1]
        return np.asarray([math.log(1 + n_docs / (1 + df[i])) for i in ids], np.float32)

    started = time.time()
    needed = {
        (a.conversation, d)
        for sets in tuning.values()
        for a in sets
        for i in range(len(a.candidates))
        for d in corpus.dia.get(a.candidates.ids[i], [])[:1]
    }
    static = minilm._get().weights.word

    def vectors_of(text: str) -> np.ndarray:
        if args.vectors == "static":
            rows = static[tokenizer.encode(text).ids[1:-1]]
            norms = np.linalg.norm(rows, axis=1, keepdims=True)
            out: np.ndarray = rows / np.maximum(norms, 1e-12)
            return out
        return minilm.token_vectors(text)

    tokens = {key: vectors_of(text_of[key]) for key in sorted(needed)}
    questions = sorted({a.query.text for sets in tuning.values() for a in sets})
    q_tokens = {t: (vectors_of(t), idf_weights(t)) for t in questions}
    if args.vectors.startswith("pca"):
        # Fitted on the turns' pieces (the index's own data), applied to both sides.
        dims = int(args.vectors[3:5])
        if args.basis_from == "turns":
            stacked = np.vstack(list(tokens.values()))
        else:
            root = Path(__file__).resolve().parent.parent / "training" / "gate"
            clauses = [
                json.loads(line)["text"]
                for name in ("clauses_en.jsonl", "round2_en.jsonl", "round3_en.jsonl")
                for line in (root / name).read_text("utf-8").splitlines()
                if line.strip()
            ]
            picked = np.random.default_rng(0).permutation(len(clauses))[:4000]
            stacked = np.vstack([minilm.token_vectors(clauses[i]) for i in picked])
        mean = stacked.mean(axis=0)
        _u, _s, vt = np.linalg.svd(
            stacked[:: max(1, len(stacked) // 20000)] - mean, full_matrices=False
        )
        basis = vt[:dims].T

        def project(x: np.ndarray, quantise: bool) -> np.ndarray:
            y = (x - mean) @ basis
            y /= np.maximum(np.linalg.norm(y, axis=1, keepdims=True), 1e-12)
            if quantise:
                y = np.round(y * 127).clip(-127, 127) / 127
            out: np.ndarray = y.astype(np.float32)
            return out

        tokens = {k: project(v, True) for k, v in tokens.items()}
        q_tokens = {t: (project(v, False), w) for t, (v, w) in q_tokens.items()}
    pieces = [len(t) for t in tokens.values()]
    print(
        f"token vectors of {len(tokens)} turns in {time.time() - started:.0f}s;"
        f" pieces a turn p50 {np.median(pieces):.0f}, mean {np.mean(pieces):.1f}:"
        f" {np.mean(pieces) * 384 * 4 / 1024:.1f} KiB a turn as float32,"
        f" {np.mean(pieces) * 384 / 1024:.1f} KiB as int8",
        flush=True,
    )

    columns: dict[int, np.ndarray] = {}
    for sets in tuning.values():
        for a in sets:
            c = a.candidates
            q, w = q_tokens[a.query.text]
            plain = np.zeros(len(c))
            weighted = np.zeros(len(c))
            for i in range(len(c)):
                dias = corpus.dia.get(c.ids[i], [])
                d = tokens.get((a.conversation, dias[0])) if dias else None
                if d is None:
                    continue
                plain[i] = maxsim(q, d, np.ones(len(q), np.float32))
                weighted[i] = maxsim(q, d, w)
            rank_plain = np.empty(len(c))
            rank_plain[np.argsort(-plain, kind="stable")] = np.arange(1, len(c) + 1)
            rank_w = np.empty(len(c))
            rank_w[np.argsort(-weighted, kind="stable")] = np.arange(1, len(c) + 1)
            x = np.stack([plain, np.log(rank_plain), weighted, np.log(rank_w)], axis=1)
            out = np.zeros_like(x)
            out[:, kept] = x[:, kept]
            columns[id(c)] = out
    print(f"maxsim columns in {time.time() - started:.0f}s", flush=True)

    def maxsim_features(
        c: ranking.Candidates, fs: ranking.FirstStage, idx: np.ndarray
    ) -> np.ndarray:
        picked: np.ndarray = columns[id(c)][idx]
        return picked

    ranking.expansion_features = maxsim_features  # the +expansion slot
    ids = list(range(TUNING_CONVERSATIONS))
    report: dict[str, Any] = {
        "columns": kept,
        "random_state": args.random_state,
        "vectors": args.vectors,
        "basis_from": args.basis_from,
    }
    results: dict[str, trainer.Scores] = {}
    for variant, kind_name in (("base", KIND), ("maxsim", KIND + "+expansion")):
        started = time.time()
        kind = trainer.Kind.parse(kind_name)
        scores = trainer.loco(kind, corpus, tuning, 1.0, ids, [0.0])[0.0]
        results[variant] = scores
        entry: dict[str, Any] = {
            "LOCO criterion": round(
                float(np.mean([trainer.criterion(m) for m in scores.values()])), 2
            )
        }
        for path, m in scores.items():
            rows = {
                n: [i for i, a in enumerate(tuning[path]) if a.category == n] for n in CATEGORIES
            }
            entry[path] = {
                "R@5/10/25": [round(100 * float(x), 1) for x in m.mean(axis=0)],
                "R@10 by category": {
                    n: round(100 * float(m[r, 1].mean()), 1) for n, r in rows.items() if r
                },
            }
            if variant != "base":
                other = results["base"][path]
                entry[f"{path} - base"] = bootstrap(m, other)
                for n in ("multi-hop", "open-domain"):
                    entry[f"{path} - base, {n}"] = bootstrap(m[rows[n]], other[rows[n]])
        report[variant] = entry
        print(f"{variant} ({time.time() - started:.0f}s): {json.dumps(entry)}", flush=True)
        if args.out:
            args.out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
