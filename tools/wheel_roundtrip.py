"""Commit two turns and recall them through an installed engram's own stubs.

Run by tools/wheel_check.py with the fresh virtualenv's interpreter, from a directory outside
the checkout, once `engram health` says SERVING. Fails unless `engram` is imported from that
virtualenv, Recall's dense side ranks first of two committed turns the one a sentence
embedding relates to the query (the other shares its words), and the retrieval service
reports the MiniLM embedder.

    python roundtrip.py 127.0.0.1:PORT --venv /tmp/engram-wheel-check-XXXX/venv
"""

from __future__ import annotations

import argparse
import time
import uuid
from pathlib import Path

import grpc

import engram
from engram.journal.v1 import journal_pb2, journal_pb2_grpc
from engram.retrieval.v1 import retrieval_pb2, retrieval_pb2_grpc

RECALL_SECONDS = 180
MINILM = "all-MiniLM-L6-v2@gt-0.1.0"


def _commit(journal: journal_pb2_grpc.JournalServiceStub, subject: str, text: str) -> str:
    receipt = journal.CommitTurn(
        journal_pb2.CommitTurnRequest(
            subject=subject,
            session_id="s-1",
            user_text=text,
            assistant_text="Noted.",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,  # makes it an episode, which Recall searches
        ),
        timeout=30,
    ).receipt
    print(f"CommitTurn: event {receipt.event_id}, episode {receipt.episode_id}")
    return receipt.episode_id


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("address")
    parser.add_argument("--venv", type=Path, required=True)
    args = parser.parse_args()
    package = Path(engram.__file__).resolve()
    if not package.is_relative_to(args.venv.resolve()):
        raise SystemExit(f"engram imported from {package}, not from {args.venv}")
    print(f"engram from {package.parent}")
    with grpc.insecure_channel(args.address) as channel:
        journal = journal_pb2_grpc.JournalServiceStub(channel)
        retrieval = retrieval_pb2_grpc.RetrievalServiceStub(channel)
        subject = f"wheel-check-{uuid.uuid4().hex[:8]}"
        bees = _commit(journal, subject, "My sister Ingrid keeps bees on her rooftop in Porto.")
        coffee = _commit(journal, subject, "Who has time for breakfast? I take my coffee black.")
        # The query shares no word with the bees and two with the coffee: only a sentence
        # embedding ranks the bees first on the dense side (MiniLM cosines 0.44 vs 0.12; the
        # word-hashing embedder 0.00 vs 0.27). The dense side ranks every episode, so one turn
        # alone would prove nothing.
        request = retrieval_pb2.RecallRequest(query_text="Who has a beehive?", subject=subject)
        deadline = time.monotonic() + RECALL_SECONDS
        while True:
            reply = retrieval.Recall(request, timeout=30)
            dense = {h.episode_id: h.dense_rank for h in reply.hits if h.dense_rank > 0}
            if bees in dense and coffee in dense:
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"Recall did not rank both turns densely: {reply}")
            time.sleep(1)
        served = retrieval_pb2.ServedBy.Name(reply.served_by)
        print(f"Recall: dense ranks bees {dense[bees]}, coffee {dense[coffee]}; served by {served}")
        if dense[bees] != 1:
            raise SystemExit(f"the beekeeping turn is not the top dense hit: {reply}")
        status = retrieval.GetIndexStatus(retrieval_pb2.GetIndexStatusRequest(), timeout=30)
        if status.embedding_model != MINILM:
            raise SystemExit(f"embedder {status.embedding_model!r}, expected {MINILM!r}")
        print(f"embedder {status.embedding_model}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
