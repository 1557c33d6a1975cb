import uuid

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc


def test_commit_and_read(start_services, channel_to):
    suite = start_services(["journal"])
    stub = pb_grpc.JournalServiceStub(channel_to(suite))
    r = stub.CommitTurn(
        pb.CommitTurnRequest(
            subject="u1",
            session_id="s1",
            user_text="hi",
            assistant_text="hello",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    )
    assert r.receipt.event_id > 0
    page = stub.ReadSessionJournal(pb.ReadSessionJournalRequest(subject="u1", session_id="s1"))
    assert len(page.events) == 1
    print(page.coverage)
