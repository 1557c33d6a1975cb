"""LoCoMo evidence recall of both read paths, and fusion variants compared
on a tuning half and judged on a held-out half, with the real MiniLM embedder.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/locomo_recall.py \
        [--data /work/shared/data/locomo/locomo10.json] [--save-lists /tmp/lists.json]
    .venv/bin/python bench/locomo_recall.py --load-lists /tmp/lists.json

The dataset is read where it lies (CC BY-NC 4.0; never copied into the
repository; see SOURCE.md beside it). Journal + retrieval run in this process
on a throwaway embedded PostgreSQL. Every conversation is imported through
the public API as its own subject, one CommitTurn per utterance
(engram.locomo: user_text "<speaker>: <text>" plus the image caption, a fixed
assistant text, one session id per LoCoMo session), and the receipts' episode
ids give the episode -> dia_id map (identical utterances in a conversation
share one episode, which then stands for all their dia_ids). Once the
embedding worker has embedded everything and the index has applied the
feed, each question with evidence is asked of the conversation's subject.

Metric, as upstream (task_eval/evaluation.py, evaluation_stats.py): recall
of a QA = |gold dia_ids among the top-k retrieved turns| / |gold dia_ids|;
a category's figure is the sum over its QAs with evidence divided by all its
QAs; "overall" divides by all QAs. Differences from upstream: multi-id
evidence strings ("D8:6; D9:17", 6 of 2,815) are split instead of never
matching, and the retriever is MiniLM on "User: <speaker>: <text>\\n
Assistant: (acknowledged)" instead of DRAGON on '<speaker> said, "<text>"'.

Per question, the two lists of each read path are taken once, SEARCH_WINDOW
long: "resident" = RetrievalService's published snapshot (FAISS + BM25, the
lists Recall fuses), "journal" = SearchEpisodes' own SQL (pgvector + full
text, same filters and HNSW settings). Every fusion variant is then computed
offline from those lists. Variants are compared on a tuning half of the
conversations (the first five in file order) by one number, the mean of
overall R@5/10/25 over both paths; the best one is chosen there alone and
every variant is then reported on the held-out half (the last five), with a
paired bootstrap interval for the chosen variant against lexical-only and
the previous default, and the chosen one on all ten. "recall_rpc@10" and
"search_episodes_rpc@10" repeat k=10 through the public RPCs, with the
fusion the services use now, as a cross-check of the offline lists.

--save-lists writes the per-question lists (ids and dia_ids only, no text)
to a file outside the repository; --load-lists re-runs the offline part
from it without PostgreSQL or the embedder.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engram.fusion import candidate_window, fuse, rrf, score_fusion

KS = (5, 10, 25)
PATHS = ("resident", "journal")
# Longest list any variant reads: window factor 10 at k = 25.
SEARCH_WINDOW = 250
TUNING_CONVERSATIONS = 5
BOOTSTRAP_SAMPLES = 2000
CATEGORY_NAMES = {
    4: "single-hop",
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    5: "adversarial",
}
# LoCoMo paper, Table 3 (dialog units, DRAGON retriever): R@5 / R@10 / R@25.
PAPER_DRAGON = {
    "single-hop": (68.0, 77.7, 87.1),
    "multi-hop": (35.4, 46.6, 62.5),
    "temporal": (70.4, 77.3, 83.5),
    "open-domain": (33.1, 40.8, 52.6),
    "adversarial": (43.9, 54.7, 66.3),
    "overall": (56.7, 66.2, 76.7),
}


@dataclass
class Lists:
    """One read path's two lists for one question, best first."""

    dense: list[str]
    dense_scores: list[float]
    lexical: list[str]
    lexical_scores: list[float]


@dataclass
class Question:
    conversation: int  # position in the file
    subject: str
    category: str
    gold: list[str]  # empty: no evidence, counts as recall 0
    lists: dict[str, Lists] = field(default_factory=dict)


# ------------------------------------------------------------------ variants


@dataclass(frozen=True)
class Variant:
    """A way to turn one path's two lists into a top-`limit` list."""

    name: str
    kind: str = "rrf"  # rrf | minmax | dense | lexical | engram (engram.fusion.fuse)
    k: int = 60
    dense_weight: float = 1.0
    lexical_weight: float = 1.0
    window_factor: int = 0  # 0: engram.fusion.candidate_window(limit)
    dense_share: float = 0.5  # minmax: weights share, 1 - share of min-max normalised scores

    def window(self, limit: int) -> int:
        return self.window_factor * limit if self.window_factor else candidate_window(limit)

    def rank(self, lists: Lists, limit: int) -> list[str]:
        if self.kind == "dense":
            return lists.dense[:limit]
        if self.kind == "lexical":
            return lists.lexical[:limit]
        w = self.window(limit)
        dense = (lists.dense[:w], lists.dense_scores[:w])
        lexical = (lists.lexical[:w], lists.lexical_scores[:w])
        if self.kind == "engram":
            fused = fuse(dense, lexical, limit)
        elif self.kind == "minmax":
            shares = (self.dense_share, 1.0 - self.dense_share)
            fused = score_fusion([dense, lexical], weights=shares)
        else:
            weights = (self.dense_weight, self.lexical_weight)
            fused = rrf([dense[0], lexical[0]], k=self.k, weights=weights)
        return [f.id for f in fused[:limit]]


PREVIOUS_DEFAULT = "rrf k=60 w=1.00/1.00"
DENSE_ONLY = "dense only"
LEXICAL_ONLY = "lexical only"


def variants() -> list[Variant]:
    found = [Variant(DENSE_ONLY, kind="dense"), Variant(LEXICAL_ONLY, kind="lexical")]
    # Weighted RRF; only the ratio of the weights matters, so lexical stays 1.
    for k in (10, 30, 60, 100):
        for dense_weight in (1.0, 0.7, 0.5, 0.35, 0.2):
            found.append(
                Variant(f"rrf k={k} w={dense_weight:.2f}/1.00", k=k, dense_weight=dense_weight)
            )
    # Candidate window (default max(4 x limit, 40)) at equal weights.
    for factor in (1, 2, 10):
        found.append(Variant(f"rrf k=60 w=1.00/1.00 window={factor}xk", window_factor=factor))
    for share in (0.5, 0.3):
        found.append(Variant(f"minmax dense share {share:.1f}", kind="minmax", dense_share=share))
    return found


def current_default() -> Variant:
    """What both read paths do now: engram.fusion.fuse over candidate windows."""
    return Variant("engram.fusion.fuse", kind="engram")


# ------------------------------------------------------------------- scoring


def dia_ids(episode_ids: Sequence[str], episodes: dict[str, list[str]]) -> set[str]:
    found: set[str] = set()
    for episode_id in episode_ids:
        found.update(episodes.get(episode_id, ()))
    return found


def recalls(
    questions: list[Question],
    mapping: dict[str, dict[str, list[str]]],
    rank: Callable[[Lists, int], list[str]],
    path: str,
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Per-question recall, shape (questions, len(KS)); 0 without evidence."""
    out = np.zeros((len(questions), len(KS)))
    for row, q in enumerate(questions):
        if not q.gold:
            continue
        gold = set(q.gold)
        for col, k in enumerate(KS):
            found = dia_ids(rank(q.lists[path], k), mapping[q.subject])
            out[row, col] = len(gold & found) / len(gold)
    return out


def percent(values: np.ndarray[Any, np.dtype[np.float64]]) -> list[float]:
    return [round(100 * float(v), 1) for v in values.mean(axis=0)]


def bootstrap(
    a: np.ndarray[Any, np.dtype[np.float64]], b: np.ndarray[Any, np.dtype[np.float64]]
) -> list[list[float]]:
    """Per k: mean(a - b) and its 95% paired bootstrap interval, in points."""
    rng = np.random.default_rng(0)
    diff = a - b
    draws = rng.integers(0, len(diff), size=(BOOTSTRAP_SAMPLES, len(diff)))
    means = diff[draws].mean(axis=1)  # (samples, len(KS))
    lo, hi = np.percentile(means, [2.5, 97.5], axis=0)
    return [
        [round(100 * float(m), 1), round(100 * float(x), 1), round(100 * float(y), 1)]
        for m, x, y in zip(diff.mean(axis=0), lo, hi, strict=True)
    ]


def by_category(
    questions: list[Question], values: np.ndarray[Any, np.dtype[np.float64]]
) -> dict[str, list[float]]:
    table: dict[str, list[float]] = {}
    for name in [*CATEGORY_NAMES.values(), "overall"]:
        rows = [i for i, q in enumerate(questions) if name in (q.category, "overall")]
        if rows:
            table[f"{name} ({len(rows)})"] = percent(values[rows])
    return table


def evaluate(questions: list[Question], mapping: dict[str, dict[str, list[str]]]) -> dict[str, Any]:
    conversations = sorted({q.conversation for q in questions})
    tuning_ids = set(conversations[: min(TUNING_CONVERSATIONS, len(conversations) // 2)])
    tuning = [q for q in questions if q.conversation in tuning_ids]
    held_out = [q for q in questions if q.conversation not in tuning_ids]
    candidates = variants()

    def score(qs: list[Question], v: Variant, path: str) -> np.ndarray[Any, np.dtype[np.float64]]:
        return recalls(qs, mapping, v.rank, path)

    tuning_table: dict[str, Any] = {}
    for v in candidates:
        per_path = {p: score(tuning, v, p).mean(axis=0) for p in PATHS}
        criterion = float(np.mean([per_path[p].mean() for p in PATHS]))
        tuning_table[v.name] = {
            "criterion": round(100 * criterion, 2),
            **{p: [round(100 * float(x), 1) for x in per_path[p]] for p in PATHS},
        }
    # The design fixes reciprocal rank fusion for both read paths; the tuning
    # half picks its parameters. Baselines and score fusion are reported only.
    fusions = [v for v in candidates if v.kind == "rrf"]
    chosen = max(fusions, key=lambda v: tuning_table[v.name]["criterion"])

    held_table: dict[str, Any] = {}
    held_scores: dict[tuple[str, str], np.ndarray[Any, np.dtype[np.float64]]] = {}
    for v in candidates:
        row: dict[str, Any] = {}
        for p in PATHS:
            held_scores[(v.name, p)] = score(held_out, v, p)
            row[p] = percent(held_scores[(v.name, p)])
        row["criterion"] = round(
            100 * float(np.mean([held_scores[(v.name, p)].mean() for p in PATHS])), 2
        )
        held_table[v.name] = row
    intervals = {
        p: {
            f"chosen - {other}": bootstrap(held_scores[(chosen.name, p)], held_scores[(other, p)])
            for other in (LEXICAL_ONLY, PREVIOUS_DEFAULT)
        }
        for p in PATHS
    }

    full: dict[str, Any] = {}
    named = {v.name: v for v in candidates}
    for p in PATHS:
        full[p] = {
            label: by_category(questions, score(questions, named[name], p))
            for label, name in (
                ("dense", DENSE_ONLY),
                ("lexical", LEXICAL_ONLY),
                ("previous default", PREVIOUS_DEFAULT),
                (f"chosen: {chosen.name}", chosen.name),
            )
        }
    full["paper_dragon"] = {k: list(v) for k, v in PAPER_DRAGON.items()}
    default_now = current_default()
    return {
        "split": {
            "tuning_conversations": sorted(tuning_ids),
            "held_out_conversations": sorted(set(conversations) - tuning_ids),
            "tuning_questions": len(tuning),
            "held_out_questions": len(held_out),
        },
        "chosen": asdict(chosen),
        "tuning": tuning_table,
        "held_out": held_table,
        "held_out_chosen_minus_baseline_points_mean_ci95_at_5_10_25": intervals,
        "full_set": full,
        "current_engram_defaults_full_set_at_10": {
            "variant": asdict(default_now),
            **{p: percent(score(questions, default_now, p))[1] for p in PATHS},
        },
    }


# ---------------------------------------------------------------- collection


def collect(args: argparse.Namespace) -> tuple[list[Question], dict[str, Any], dict[str, Any]]:
    """Import, embed and take each question's lists; also the RPC cross-check."""
    from bench._common import scratch_database
    from engram.channels import open_channel
    from engram.cli.importer import commit_request
    from engram.config import Settings
    from engram.db import Database
    from engram.embedder_cache import shared_embedder
    from engram.journal.v1 import journal_pb2 as jpb
    from engram.journal.v1 import journal_pb2_grpc as jgrpc
    from engram.locomo import commits_for, load_conversations
    from engram.retrieval.v1 import retrieval_pb2 as rpb
    from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
    from engram.server import start_suite
    from memory_service.search import EpisodeSearch, lexical_query
    from memory_service.search_queries import SQ
    from retrieval_service.snapshot import SearchRequest

    conversations = load_conversations(args.data)
    if args.conversations:
        conversations = conversations[: args.conversations]
    embedder = shared_embedder(args.embedder)
    embedder.embed_one("warm up")
    timings: dict[str, float] = {}
    meta: dict[str, Any] = {}
    cross: dict[str, Any] = {}
    with scratch_database() as url:
        settings = Settings.load(
            {
                "listen": "127.0.0.1:0",
                "database_url": url,
                "embedder": args.embedder,
                "data_dir": f"/tmp/engram-locomo-{time.time_ns()}",
                "index_persist": False,
                "metrics_port": -1,
                "log_level": "WARNING",
                "embed_batch_size": 64,
                "index_staleness_seconds": 3600,
                "grace_seconds": 1.0,
            },
            env={},
        )
        suite = start_suite(settings, ["journal", "retrieval"])
        channel = open_channel(suite.address)
        journal = jgrpc.JournalServiceStub(channel)
        retrieval = rgrpc.RetrievalServiceStub(channel)
        db = Database(url, max_size=2, name="locomo-bench").open()
        try:
            started = time.monotonic()
            mapping: dict[str, dict[str, list[str]]] = defaultdict(dict)
            for conversation in conversations:
                for turn in commits_for(conversation):
                    request = commit_request(turn, "")
                    episode = journal.CommitTurn(request).receipt.episode_id
                    mapping[turn.subject].setdefault(episode, []).append(turn.dia_id)
            timings["import_seconds"] = round(time.monotonic() - started, 1)
            while True:
                status = journal.GetStatus(jpb.GetStatusRequest())
                if status.episodes_pending_embedding == 0:
                    break
                time.sleep(0.5)
            timings["embedded_after_seconds"] = round(time.monotonic() - started, 1)
            while (
                retrieval.GetIndexStatus(rpb.GetIndexStatusRequest()).applied_cursor
                < status.feed_watermark
            ):
                time.sleep(0.1)
            binding = next(b for b in suite.bindings if b.name == "retrieval")
            snapshot = binding.servicer.runtime.index.snapshot  # type: ignore[attr-defined]
            pairs = [(i, c, qa) for i, c in enumerate(conversations) for qa in c.qa]
            started = time.monotonic()
            vectors = embedder.embed([qa.question for _, _, qa in pairs])
            timings["question_embedding_seconds"] = round(time.monotonic() - started, 1)
            meta = {
                "conversations": len(conversations),
                "turns": sum(c.turn_count() for c in conversations),
                "episodes": snapshot.live,
                "embedder": embedder.name,
            }

            search = EpisodeSearch(db, args.embedder)
            questions: list[Question] = []
            rpc_sums: dict[str, float] = defaultdict(float)
            started = time.monotonic()
            for (position, conversation, qa), vector in zip(pairs, vectors, strict=True):
                question = Question(
                    position,
                    conversation.subject,
                    CATEGORY_NAMES.get(qa.category, f"category-{qa.category}"),
                    sorted(set(qa.evidence)),
                )
                questions.append(question)
                if not qa.evidence:
                    continue
                found = snapshot.search(
                    SearchRequest(
                        conversation.subject,
                        "default",
                        "",
                        None,
                        None,
                        vector,
                        qa.question,
                        SEARCH_WINDOW,
                        SEARCH_WINDOW,
                    )
                )
                question.lists["resident"] = Lists(
                    found.dense.ids, found.dense.scores, found.lexical.ids, found.lexical.scores
                )
                params = {
                    "subject": conversation.subject,
                    "workspace": "default",
                    "exclude": "",
                    "start": None,
                    "end": None,
                    "window": SEARCH_WINDOW,
                    "model": embedder.name,
                }
                with db.connection() as conn, conn.transaction():
                    search._tune_hnsw(conn, SEARCH_WINDOW)
                    dense = conn.execute(SQ["search_dense"], {**params, "query": vector}).fetchall()
                    words = lexical_query(qa.question)
                    lexical = (
                        conn.execute(SQ["search_lexical"], {**params, "text": words}).fetchall()
                        if words
                        else []
                    )
                question.lists["journal"] = Lists(
                    [str(r["episode_id"]) for r in dense],
                    [1 - float(r["distance"]) for r in dense],
                    [str(r["episode_id"]) for r in lexical],
                    [float(r["rank"]) for r in lexical],
                )

                gold = set(qa.evidence)
                episodes = mapping[conversation.subject]
                recall_hits = retrieval.Recall(
                    rpb.RecallRequest(
                        query_text=qa.question,
                        subject=conversation.subject,
                        limit=10,
                        query_embedding=vector.tolist(),
                    )
                ).hits
                rpc_sums["recall_rpc@10"] += len(
                    gold & dia_ids([h.episode_id for h in recall_hits], episodes)
                ) / len(gold)
                search_hits = journal.SearchEpisodes(
                    jpb.SearchEpisodesRequest(
                        query_text=qa.question,
                        subject=conversation.subject,
                        limit=10,
                        query_embedding=vector.tolist(),
                    )
                ).hits
                rpc_sums["search_episodes_rpc@10"] += len(
                    gold & dia_ids([h.episode.episode_id for h in search_hits], episodes)
                ) / len(gold)
            timings["lists_and_rpc_seconds"] = round(time.monotonic() - started, 1)
            cross = {name: round(100 * s / len(questions), 1) for name, s in rpc_sums.items()}
        finally:
            db.close()
            channel.close()
            suite.stop(grace=1)
    meta["timings"] = timings
    return questions, dict(mapping), {**meta, "services_now_overall_at_10": cross}


def save(path: Path, questions: list[Question], mapping: dict[str, Any], meta: Any) -> None:
    payload = {"meta": meta, "mapping": mapping, "questions": [asdict(q) for q in questions]}
    path.write_text(json.dumps(payload))


def load(path: Path) -> tuple[list[Question], dict[str, dict[str, list[str]]], Any]:
    payload = json.loads(path.read_text())
    questions = [
        Question(
            q["conversation"],
            q["subject"],
            q["category"],
            q["gold"],
            {p: Lists(**lists) for p, lists in q["lists"].items()},
        )
        for q in payload["questions"]
    ]
    return questions, payload["mapping"], payload["meta"]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--conversations", type=int, default=0, help="first N only (0 = all)")
    parser.add_argument("--save-lists", type=Path, help="write the per-question lists here")
    parser.add_argument("--load-lists", type=Path, help="evaluate lists written by --save-lists")
    args = parser.parse_args()
    if args.load_lists:
        questions, mapping, meta = load(args.load_lists)
    else:
        questions, mapping, meta = collect(args)
        if args.save_lists:
            save(args.save_lists, questions, mapping, meta)
    started = time.monotonic()
    result = evaluate(questions, mapping)
    meta.setdefault("timings", {})["offline_evaluation_seconds"] = round(
        time.monotonic() - started, 1
    )
    text = json.dumps({**meta, **result}, indent=1)
    # One line per list of numbers keeps the tables readable.
    print(re.sub(r"\[[-0-9.,\s\[\]]*\]", lambda m: " ".join(m.group().split()), text))


if __name__ == "__main__":
    main()
