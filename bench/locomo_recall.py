"""LoCoMo evidence recall of both read paths through the public API
(Recall and SearchEpisodes), with the shipped MiniLM embedder.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/locomo_recall.py \\
        [--data /work/shared/data/locomo/locomo10.json] [--out /tmp/locomo_recall.json]

The dataset is read where it lies (CC BY-NC 4.0; never copied into the
repository; see SOURCE.md beside it). Journal + retrieval run in this process
on a throwaway embedded PostgreSQL. Every conversation is imported through
the public API as its own subject, one CommitTurn per utterance
(engram.locomo: the speaker as user_name, the utterance plus its image
caption as user_text, one session id per LoCoMo session), and the receipts'
episode ids give the episode -> dia_id map (identical utterances of one
speaker share one episode, which then stands for all their dia_ids). Once the
embedding worker has embedded everything and the index has applied the feed,
each question with evidence is asked of its conversation's subject.

Configurations, each through the public RPCs with limit = k (k = 5, 10, 25):
"second stage" (the shipped default, recall_ranker: default) and "first
stage" (recall_ranker: none), switched in-process on the running services;
"old default" is the previous ranking (engram.fusion.fuse: RRF over the top
`limit` of each list, candidate window max(4k, 40), the question as given),
computed from the resident index's own lists. Prefix stability is checked on
every question: the limit-25 answer's top 5 / 10 must equal the limit-5 / 10
answers.

Metric, as upstream (task_eval/evaluation.py, evaluation_stats.py): recall
of a QA = |gold dia_ids among the top-k retrieved turns| / |gold dia_ids|;
a category's figure is the sum over its QAs with evidence divided by all its
QAs; "overall" divides by all QAs. Multi-id evidence strings ("D8:6; D9:17")
are split. Conversations 1-5 (file order) are the tuning half (everything in
engram.ranking was chosen there, and the second stage is trained there),
6-10 are held out; both halves and all ten are reported per category, with
paired bootstrap 95% intervals (2,000 resamples of questions, seed 0)
against the old default.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engram.fusion import candidate_window, fuse

KS = (5, 10, 25)
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
PAPER_DRAGON = {"overall": (56.7, 66.2, 76.7)}
MODES = ("second stage", "first stage")
PATHS = ("Recall", "SearchEpisodes")
OLD = "old default (Recall lists)"

Matrix = np.ndarray[Any, np.dtype[np.float64]]


@dataclass
class Question:
    conversation: int  # position in the file
    subject: str
    category: str
    gold: list[str]  # empty: no evidence, counts as recall 0
    # configuration -> k -> returned episode ids
    answers: dict[str, dict[int, list[str]]] = field(default_factory=dict)


def dia_ids(episode_ids: Sequence[str], episodes: dict[str, list[str]]) -> set[str]:
    found: set[str] = set()
    for episode_id in episode_ids:
        found.update(episodes.get(episode_id, ()))
    return found


def recalls(
    questions: list[Question], mapping: dict[str, dict[str, list[str]]], name: str
) -> Matrix:
    out = np.zeros((len(questions), len(KS)))
    for row, q in enumerate(questions):
        if not q.gold or name not in q.answers:
            continue
        gold = set(q.gold)
        for col, k in enumerate(KS):
            found = dia_ids(q.answers[name][k][:k], mapping[q.subject])
            out[row, col] = len(gold & found) / len(gold)
    return out


def bootstrap(a: Matrix, b: Matrix) -> list[list[float]]:
    """Per k: mean(a - b) and its 95% paired bootstrap interval, in points."""
    rng = np.random.default_rng(0)
    diff = a - b
    draws = rng.integers(0, len(diff), size=(BOOTSTRAP_SAMPLES, len(diff)))
    means = diff[draws].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5], axis=0)
    return [
        [round(100 * float(m), 1), round(100 * float(x), 1), round(100 * float(y), 1)]
        for m, x, y in zip(diff.mean(axis=0), lo, hi, strict=True)
    ]


def by_category(questions: list[Question], values: Matrix) -> dict[str, list[float]]:
    table: dict[str, list[float]] = {}
    for name in [*CATEGORY_NAMES.values(), "overall"]:
        rows = [i for i, q in enumerate(questions) if name in (q.category, "overall")]
        if rows:
            table[f"{name} ({len(rows)})"] = [
                round(100 * float(v), 1) for v in values[rows].mean(axis=0)
            ]
    return table


def evaluate(questions: list[Question], mapping: dict[str, dict[str, list[str]]]) -> dict[str, Any]:
    names = [f"{p}, {m}" for m in MODES for p in PATHS] + [OLD]
    halves = {
        "tuning (conversations 1-5)": [
            i for i, q in enumerate(questions) if q.conversation < TUNING_CONVERSATIONS
        ],
        "held out (conversations 6-10)": [
            i for i, q in enumerate(questions) if q.conversation >= TUNING_CONVERSATIONS
        ],
        "all ten": list(range(len(questions))),
    }
    scores = {n: recalls(questions, mapping, n) for n in names}
    result: dict[str, Any] = {}
    for half, rows in halves.items():
        qs = [questions[i] for i in rows]
        result[half] = {
            "R@5 / R@10 / R@25 per category": {n: by_category(qs, scores[n][rows]) for n in names},
            "paired bootstrap vs old default, overall (mean, 2.5%, 97.5%) per k": {
                n: bootstrap(scores[n][rows], scores[OLD][rows]) for n in names if n != OLD
            },
            "SearchEpisodes - Recall, overall (mean, 2.5%, 97.5%) per k": {
                m: bootstrap(scores[f"SearchEpisodes, {m}"][rows], scores[f"Recall, {m}"][rows])
                for m in MODES
            },
        }
    return result


# ---------------------------------------------------------------- collection


def collect(args: argparse.Namespace) -> tuple[list[Question], dict[str, Any], dict[str, Any]]:
    from bench._common import scratch_database
    from engram import ranking
    from engram.channels import open_channel
    from engram.cli.importer import commit_request
    from engram.config import Settings
    from engram.embedder_cache import shared_embedder
    from engram.journal.v1 import journal_pb2 as jpb
    from engram.journal.v1 import journal_pb2_grpc as jgrpc
    from engram.locomo import commits_for, load_conversations
    from engram.retrieval.v1 import retrieval_pb2 as rpb
    from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
    from engram.server import start_suite
    from retrieval_service.snapshot import SearchRequest

    conversations = load_conversations(args.data)
    if args.conversations:
        conversations = conversations[: args.conversations]
    embedder = shared_embedder(args.embedder)
    embedder.embed_one("warm up")
    timings: dict[str, float] = {}
    stability: dict[str, int] = defaultdict(int)
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
        try:
            started = time.monotonic()
            mapping: dict[str, dict[str, list[str]]] = defaultdict(dict)
            for conversation in conversations:
                for turn in commits_for(conversation):
                    episode = journal.CommitTurn(commit_request(turn, "")).receipt.episode_id
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
            by_name = {b.name: b for b in suite.bindings}
            runtime = by_name["retrieval"].servicer.runtime  # type: ignore[attr-defined]
            recaller = runtime.recaller
            search = by_name["journal"].servicer.episode_search  # type: ignore[attr-defined]
            snapshot = runtime.index.snapshot
            shipped = ranking.shared_ranker("default")
            meta = {
                "conversations": len(conversations),
                "turns": sum(c.turn_count() for c in conversations),
                "episodes": snapshot.live,
                "embedder": embedder.name,
                "second stage weights": getattr(shipped, "source", "none"),
            }
            questions: list[Question] = []
            started = time.monotonic()
            for position, conversation in enumerate(conversations):
                for qa in conversation.qa:
                    q = Question(
                        position,
                        conversation.subject,
                        CATEGORY_NAMES.get(qa.category, f"category-{qa.category}"),
                        sorted(set(qa.evidence)),
                    )
                    questions.append(q)
                    if not qa.evidence:
                        continue
                    for mode in MODES:
                        recaller.ranker = shipped if mode == "second stage" else None
                        search.ranker = recaller.ranker
                        for path in PATHS:
                            answers: dict[int, list[str]] = {}
                            # First stage: one limit-25 call, R@5/10 from its prefix
                            # (the order is limit-independent; checked on the second stage).
                            asked = KS if mode == "second stage" else KS[-1:]
                            for k in asked:
                                if path == "Recall":
                                    response = retrieval.Recall(
                                        rpb.RecallRequest(
                                            query_text=qa.question,
                                            subject=conversation.subject,
                                            limit=k,
                                        )
                                    )
                                    if response.served_by != rpb.SERVED_BY_RESIDENT:
                                        stability["Recall not served by the resident index"] += 1
                                    answers[k] = [h.episode_id for h in response.hits]
                                else:
                                    found = journal.SearchEpisodes(
                                        jpb.SearchEpisodesRequest(
                                            query_text=qa.question,
                                            subject=conversation.subject,
                                            limit=k,
                                        )
                                    ).hits
                                    answers[k] = [h.episode.episode_id for h in found]
                            for k in KS[:-1]:
                                answers.setdefault(k, answers[KS[-1]][:k])
                                if answers[KS[-1]][:k] != answers[k]:
                                    stability[
                                        f"{path}, {mode}: top {k} of limit {KS[-1]} != limit {k}"
                                    ] += 1
                            q.answers[f"{path}, {mode}"] = answers
                    # The previous ranking, from the resident index's own lists.
                    vector = embedder.embed_one(qa.question)
                    old: dict[int, list[str]] = {}
                    for k in KS:
                        window = candidate_window(k)
                        lists = snapshot.search(
                            SearchRequest(
                                conversation.subject,
                                "default",
                                "",
                                None,
                                None,
                                vector,
                                qa.question,
                                window,
                                window,
                            )
                        )
                        fused = fuse(
                            (lists.dense.ids, lists.dense.scores),
                            (lists.lexical.ids, lists.lexical.scores),
                            k,
                        )
                        old[k] = [f.id for f in fused[:k]]
                    q.answers[OLD] = old
            recaller.ranker = shipped
            search.ranker = shipped
            timings["questions_seconds"] = round(time.monotonic() - started, 1)
        finally:
            channel.close()
            suite.stop(grace=1)
    meta["timings"] = timings
    meta["prefix instability (questions)"] = dict(stability) or "none"
    return questions, dict(mapping), meta


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--conversations", type=int, default=0, help="first N only (0 = all)")
    parser.add_argument("--out", type=Path, help="also write the JSON result here")
    args = parser.parse_args()
    questions, mapping, meta = collect(args)
    result = evaluate(questions, mapping)
    text = json.dumps({**meta, "paper DRAGON": PAPER_DRAGON, **result}, indent=1)
    text = re.sub(r"\[[-0-9.,\s\[\]]*\]", lambda m: " ".join(m.group().split()), text)
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
