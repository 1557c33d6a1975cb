"""The change feed: commit order, resumable, no loss and no repeats under concurrency."""

from __future__ import annotations

import threading
import uuid

import grpc
import pytest

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc

WRITERS = 6
COMMITS_PER_WRITER = 15


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))


def test_resuming_consumer_neither_loses_nor_repeats(journal):
    expected: set[int] = set()
    lock = threading.Lock()

    def writer(w: int) -> None:
        for i in range(COMMITS_PER_WRITER):
            receipt = journal.CommitTurn(
                pb.CommitTurnRequest(
                    subject="feed",
                    session_id=f"w{w}",
                    user_text=f"writer {w} turn {i}",
                    assistant_text="ok",
                    request_id=str(uuid.uuid4()),
                    learning_eligible=True,
                )
            ).receipt
            with lock:
                expected.add(receipt.event_id)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(WRITERS)]
    for t in threads:
        t.start()
    # Consume while writers run, dropping the stream after a few batches and
    # resuming from the last cursor seen, as a real follower reconnecting would.
    cursors: list[int] = []
    event_ids: list[int] = []
    cursor = 0
    while True:
        writers_done = not any(t.is_alive() for t in threads)
        stream = journal.StreamChanges(
            pb.StreamChangesRequest(
                after_cursor=cursor,
                kinds=[pb.CHANGE_KIND_EVENT_APPENDED, pb.CHANGE_KIND_EPISODE_UPSERTED],
            )
        )
        for batches, response in enumerate(stream):
            for change in response.changes:
                cursors.append(change.cursor)
                cursor = change.cursor
                if change.kind == pb.CHANGE_KIND_EVENT_APPENDED:
                    event_ids.append(change.event_id)
            if batches >= 2:
                stream.cancel()
                break
        if writers_done and len(event_ids) >= WRITERS * COMMITS_PER_WRITER:
            break
    for t in threads:
        t.join()
    assert cursors == sorted(cursors), "changes arrive in cursor order"
    assert len(cursors) == len(set(cursors)), "no change is repeated"
    assert set(event_ids) == expected, "no change is lost"
    assert len(cursors) == 2 * WRITERS * COMMITS_PER_WRITER


def test_follow_pushes_new_changes(journal):
    received = threading.Event()
    seen: list[pb.Change] = []

    def follow() -> None:
        stream = journal.StreamChanges(
            pb.StreamChangesRequest(
                after_cursor=0, follow=True, kinds=[pb.CHANGE_KIND_EPISODE_UPSERTED]
            )
        )
        try:
            for response in stream:
                seen.extend(response.changes)
                if seen:
                    received.set()
                    stream.cancel()
        except grpc.RpcError as err:
            assert err.code() == grpc.StatusCode.CANCELLED

    thread = threading.Thread(target=follow)
    thread.start()
    journal.CommitTurn(
        pb.CommitTurnRequest(
            subject="feed",
            session_id="s",
            user_text="pushed",
            assistant_text="ok",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    )
    assert received.wait(10)
    thread.join(5)
    assert seen[0].kind == pb.CHANGE_KIND_EPISODE_UPSERTED
    assert seen[0].episode.user_text == "pushed"


def test_cursor_beyond_watermark_is_out_of_range(journal):
    with pytest.raises(grpc.RpcError) as err:
        list(journal.StreamChanges(pb.StreamChangesRequest(after_cursor=10**9)))
    assert err.value.code() == grpc.StatusCode.OUT_OF_RANGE
