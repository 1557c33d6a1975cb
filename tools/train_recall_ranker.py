"""Train the second ranking stage of Recall / SearchEpisodes (engram.ranking).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tools/train_recall_ranker.py \\
        [--data /work/shared/data/locomo/locomo10.json] [--conversations 5] \\
        [--out engram/data/recall_ranker.npz] [--cache /var/tmp/locomo-cache]

A logistic regression (standardised features, L2, C = 1) over
engram.ranking.features of each question's first-stage top
engram.ranking.RERANK_DEPTH; label: the candidate holds a gold turn. The
episodes are built in memory exactly as the journal and the resident index
build them (engram.locomo commits -> one episode per distinct content, the
resident index's records, snapshot.candidates), with the shipped MiniLM
embedding the journal's canonical content; no PostgreSQL.

The default data is LoCoMo (CC BY-NC 4.0), read where it lies and never
copied; only its first ``--conversations`` conversations (the tuning half)
are used, so conversations 6-10 stay held out. The weights written are
derived from it: the shipped file carries that licence (engram/data/NOTICE).
To train on your own data, write it in LoCoMo's JSON layout and point
--data at it; load the result with ``recall_ranker: <path>``. scikit-learn is
needed here only; the service evaluates the model in numpy.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

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
    snapshot: Snapshot
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


def question_sets(
    corpus: Corpus, conversations: list[Conversation], embed: Any
) -> list[tuple[ranking.Candidates, ranking.Query, set[str], str]]:
    """(candidates, prepared query, gold dia ids, subject) per question with evidence."""
    prepared_all = []
    for conversation in conversations:
        names = corpus.snapshot.speaker_names(conversation.subject, WORKSPACE)
        for qa in conversation.qa:
            if qa.evidence:
                prepared_all.append(
                    (
                        conversation.subject,
                        ranking.prepare_query(qa.question, names),
                        set(qa.evidence),
                    )
                )
    vectors = embed([p.text for _s, p, _g in prepared_all], True)
    out = []
    for (subject, prepared, gold), vector in zip(prepared_all, vectors, strict=True):
        c = corpus.snapshot.candidates(
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
        out.append((c, prepared, gold, subject))
    return out


def dataset(
    corpus: Corpus, sets: list[tuple[ranking.Candidates, ranking.Query, set[str], str]]
) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for c, prepared, gold, _subject in sets:
        if len(c) == 0:
            continue
        fs = ranking.first_stage(c)
        order = sorted(range(len(c)), key=lambda i: (-float(fs.score[i]), c.ids[i]))
        head = order[: ranking.RERANK_DEPTH]
        xs.append(ranking.features(c, fs, head, prepared))
        ys.append(
            np.array([1.0 if gold & set(corpus.dia.get(c.ids[i], [])) else 0.0 for i in head])
        )
    return np.vstack(xs), np.concatenate(ys)


def recall_at(corpus: Corpus, sets: Any, ranker: ranking.Ranker | None, k: int) -> float:
    total = 0.0
    for c, prepared, gold, _s in sets:
        ranked = ranking.rank(c, prepared, ranker)
        found: set[str] = set()
        for i in ranked.order[:k]:
            found.update(corpus.dia.get(c.ids[i], []))
        total += len(gold & found) / len(gold)
    return 100 * total / max(len(sets), 1)


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


def main() -> None:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    p.add_argument("--conversations", type=int, default=5, help="the first N train (default 5)")
    p.add_argument("--out", type=Path, default=ranking.DEFAULT_RANKER_PATH)
    p.add_argument(
        "--cache",
        type=Path,
        default=Path("/var/tmp/locomo-cache"),
        help="embedding cache outside the repository ('' for none)",
    )
    p.add_argument("--C", type=float, default=1.0)
    args = p.parse_args()

    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    conversations = load_conversations(args.data)[: args.conversations]
    embed, dim, model = make_embed(args.cache if str(args.cache) else None)
    corpus = build_corpus(conversations, embed, dim, model)
    sets = question_sets(corpus, conversations, embed)
    x, y = dataset(corpus, sets)
    scaler = StandardScaler().fit(x)
    scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
    lr = LogisticRegression(C=args.C, max_iter=5000).fit((x - scaler.mean_) / scale, y)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        args.out,
        mean=scaler.mean_.astype(np.float64),
        scale=scale.astype(np.float64),
        coef=lr.coef_[0].astype(np.float64),
        intercept=np.float64(lr.intercept_[0]),
        depth=np.int64(ranking.RERANK_DEPTH),
        features=np.int64(x.shape[1]),
    )
    ranker = ranking.load_ranker(str(args.out))
    print(
        f"wrote {args.out}: {x.shape[0]} rows x {x.shape[1]} features, "
        f"{int(y.sum())} positive, from {len(sets)} questions of {len(conversations)} conversations"
    )
    for k in (5, 10, 25):
        print(
            f"  in-sample R@{k}: first stage {recall_at(corpus, sets, None, k):.1f}, "
            f"with second stage {recall_at(corpus, sets, ranker, k):.1f}"
        )


if __name__ == "__main__":
    main()
