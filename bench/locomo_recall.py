"""LoCoMo evidence recall of the resident index: dense alone, lexical alone
and fused (RRF), with the real MiniLM embedder.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/locomo_recall.py \
        [--data /work/shared/data/locomo/locomo10.json]

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

Dense and lexical lists come from the published snapshot in process (the
lists Recall fuses); "fused" is engram.fusion.rrf over candidate windows of
max(4k, 40), exactly what Recall does; "recall_rpc@10" repeats fused k=10
through the public Recall RPC as a cross-check (it also re-reads each hit
from the journal).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import scratch_database
from engram.channels import open_channel
from engram.config import Settings
from engram.embedder_cache import shared_embedder
from engram.fusion import candidate_window, rrf
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc
from engram.locomo import commits_for, load_conversations
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import start_suite
from engram.timeutil import to_timestamp
from retrieval_service.snapshot import SearchRequest

KS = (5, 10, 25)
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
MODES = ("dense", "lexical", "fused")


def import_conversations(
    journal: jgrpc.JournalServiceStub, conversations: list[Any]
) -> dict[str, dict[str, set[str]]]:
    """Commit every utterance; subject -> episode id -> dia_ids."""
    mapping: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for conversation in conversations:
        for turn in commits_for(conversation):
            request = jpb.CommitTurnRequest(
                subject=turn.subject,
                session_id=turn.session_id,
                user_text=turn.user_text,
                assistant_text=turn.assistant_text,
                request_id=turn.request_id,
                learning_eligible=True,
            )
            request.occurred_at.CopyFrom(to_timestamp(turn.occurred_at))
            receipt = journal.CommitTurn(request).receipt
            mapping[turn.subject][receipt.episode_id].add(turn.dia_id)
    return mapping


def dia_ids(episode_ids: list[str], episodes: dict[str, set[str]]) -> set[str]:
    found: set[str] = set()
    for episode_id in episode_ids:
        found |= episodes.get(episode_id, set())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo/locomo10.json"))
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--conversations", type=int, default=0, help="first N only (0 = all)")
    args = parser.parse_args()
    conversations = load_conversations(args.data)
    if args.conversations:
        conversations = conversations[: args.conversations]
    embedder = shared_embedder(args.embedder)
    embedder.embed_one("warm up")
    timings: dict[str, float] = {}
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
            mapping = import_conversations(journal, conversations)
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
            questions = [(c, qa) for c in conversations for qa in c.qa]
            started = time.monotonic()
            vectors = embedder.embed([qa.question for _, qa in questions])
            timings["question_embedding_seconds"] = round(time.monotonic() - started, 1)

            sums: dict[tuple[str, str, int], float] = defaultdict(float)
            counts: dict[str, int] = defaultdict(int)
            window = candidate_window(max(KS))
            started = time.monotonic()
            for (conversation, qa), vector in zip(questions, vectors, strict=True):
                category = CATEGORY_NAMES.get(qa.category, f"category-{qa.category}")
                for name in (category, "overall"):
                    counts[name] += 1
                if not qa.evidence:
                    continue
                gold = set(qa.evidence)
                episodes = mapping[conversation.subject]
                result = snapshot.search(
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
                for k in KS:
                    w = candidate_window(k)
                    ranked = {
                        "dense": result.dense.ids[:k],
                        "lexical": result.lexical.ids[:k],
                        "fused": [
                            f.id for f in rrf([result.dense.ids[:w], result.lexical.ids[:w]])[:k]
                        ],
                    }
                    for mode, ids in ranked.items():
                        recall = len(gold & dia_ids(ids, episodes)) / len(gold)
                        for name in (category, "overall"):
                            sums[(mode, name, k)] += recall
                response = retrieval.Recall(
                    rpb.RecallRequest(
                        query_text=qa.question,
                        subject=conversation.subject,
                        limit=10,
                        query_embedding=vector.tolist(),
                    )
                )
                recall = len(gold & dia_ids([h.episode_id for h in response.hits], episodes)) / len(
                    gold
                )
                for name in (category, "overall"):
                    sums[("recall_rpc", name, 10)] += recall
            timings["evaluation_seconds"] = round(time.monotonic() - started, 1)

            table: dict[str, Any] = {}
            for name in [*CATEGORY_NAMES.values(), "overall"]:
                if not counts[name]:
                    continue
                row: dict[str, Any] = {"questions": counts[name]}
                for mode in MODES:
                    row[mode] = [round(100 * sums[(mode, name, k)] / counts[name], 1) for k in KS]
                row["recall_rpc@10"] = round(100 * sums[("recall_rpc", name, 10)] / counts[name], 1)
                row["paper_dragon"] = list(PAPER_DRAGON.get(name, ()))
                table[name] = row
            print(
                json.dumps(
                    {
                        "conversations": len(conversations),
                        "turns": sum(c.turn_count() for c in conversations),
                        "episodes": snapshot.live,
                        "embedder": embedder.name,
                        "timings": timings,
                        "recall_percent_at_5_10_25": table,
                    },
                    indent=1,
                )
            )
        finally:
            channel.close()
            suite.stop(grace=1)


if __name__ == "__main__":
    main()
