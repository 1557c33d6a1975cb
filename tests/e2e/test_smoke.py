"""Commit one turn and read it back: in-process, or against a running
deployment (ENGRAM_E2E_TARGET; `make test-cluster` runs it through the
cluster's router, where the journal may read from a standby)."""

import uuid

import grpc

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc


def test_commit_and_read(live_target: grpc.Channel) -> None:
    stub = pb_grpc.JournalServiceStub(live_target)
    subject = f"smoke-{uuid.uuid4().hex[:12]}"
    r = stub.CommitTurn(
        pb.CommitTurnRequest(
            subject=subject,
            session_id="s1",
            user_text="hi",
            assistant_text="hello",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        ),
        timeout=10,
    )
    assert r.receipt.event_id > 0
    # No retry: a standby serves this read only once it has replayed the commit.
    page = stub.ReadSessionJournal(
        pb.ReadSessionJournalRequest(subject=subject, session_id="s1"), timeout=10
    )
    assert [e.event_id for e in page.events] == [r.receipt.event_id]
