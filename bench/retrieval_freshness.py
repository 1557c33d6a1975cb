"""Freshness: time from CommitTurn returning to Recall returning the new episode.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/retrieval_freshness.py --turns 200

Journal + retrieval in this process (MiniLM embedder, embedding worker on),
on a throwaway embedded PostgreSQL preloaded with --background episodes
through CommitTurn. For each probe turn (a unique made-up word in its text):
commit, then call Recall for that word with a precomputed query vector as
fast as it answers, until the episode is among the hits, served by the
resident index. Two times per probe: "lexical" (first returned: the feed's
EPISODE_UPSERTED reached the index; the vector may still be pending) and
"dense" (returned with a dense rank: the embedding worker stored the vector
and EPISODE_EMBEDDED was applied).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import percentile, scratch_database
from engram.channels import open_channel
from engram.config import Settings
from engram.embedder_cache import shared_embedder
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import start_suite

SUBJECT = "fresh"
TIMEOUT_SECONDS = 30.0


def probe_word(i: int) -> str:
    return "zq" + uuid.uuid5(uuid.NAMESPACE_DNS, f"probe-{i}").hex[:10]


def commit(journal: jgrpc.JournalServiceStub, user: str, assistant: str) -> str:
    receipt = journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject=SUBJECT,
            session_id="s1",
            user_text=user,
            assistant_text=assistant,
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    ).receipt
    return str(receipt.episode_id)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--background", type=int, default=500)
    parser.add_argument("--embedder", default="minilm")
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    embedder = shared_embedder(args.embedder)
    embedder.embed_one("warm up")
    with scratch_database(args.database_url or None) as url:
        settings = Settings.load(
            {
                "listen": "127.0.0.1:0",
                "database_url": url,
                "embedder": args.embedder,
                "data_dir": f"/tmp/engram-fresh-{uuid.uuid4().hex[:6]}",
                "index_persist": False,
                "metrics_port": -1,
                "log_level": "WARNING",
                "grace_seconds": 1.0,
            },
            env={},
        )
        suite = start_suite(settings, ["journal", "retrieval"])
        channel = open_channel(suite.address)
        journal = jgrpc.JournalServiceStub(channel)
        retrieval = rgrpc.RetrievalServiceStub(channel)
        try:
            for i in range(args.background):
                commit(journal, f"background note {i} about topic {i % 37}", "noted")
            while journal.GetStatus(jpb.GetStatusRequest()).episodes_pending_embedding:
                time.sleep(0.2)
            lexical, dense, polls = [], [], []
            misses = 0
            for i in range(args.turns):
                word = probe_word(i)
                text = f"The access code for locker {i} is {word}, keep it safe."
                vector = embedder.embed_one(f"User: {text}\nAssistant: stored").tolist()
                episode_id = commit(journal, text, "stored")
                committed = time.perf_counter()
                seen_lexical = seen_dense = None
                count = 0
                while time.perf_counter() - committed < TIMEOUT_SECONDS:
                    count += 1
                    response = retrieval.Recall(
                        rpb.RecallRequest(
                            query_text=word, subject=SUBJECT, limit=5, query_embedding=vector
                        )
                    )
                    hit = next((h for h in response.hits if h.episode_id == episode_id), None)
                    if hit is not None and response.served_by == rpb.SERVED_BY_RESIDENT:
                        now = time.perf_counter() - committed
                        seen_lexical = seen_lexical if seen_lexical is not None else now
                        if hit.dense_rank > 0:
                            seen_dense = now
                            break
                if seen_lexical is None or seen_dense is None:
                    misses += 1
                    continue
                lexical.append(seen_lexical)
                dense.append(seen_dense)
                polls.append(count)

            def ms(values: list[float]) -> dict[str, float]:
                return {
                    "p50_ms": round(percentile(values, 50) * 1000, 1),
                    "p99_ms": round(percentile(values, 99) * 1000, 1),
                    "max_ms": round(max(values) * 1000, 1),
                }

            print(
                json.dumps(
                    {
                        "turns": args.turns,
                        "background": args.background,
                        "misses": misses,
                        "commit_to_recall_lexical": ms(lexical),
                        "commit_to_recall_dense": ms(dense),
                        "recall_polls_p50": percentile([float(p) for p in polls], 50),
                    },
                    indent=1,
                )
            )
        finally:
            channel.close()
            suite.stop(grace=1)


if __name__ == "__main__":
    main()
