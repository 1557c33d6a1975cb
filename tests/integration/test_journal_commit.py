"""CommitTurn: canonical event + episode projection in one transaction, idempotency."""

from __future__ import annotations

import hashlib
import threading
import uuid
from datetime import UTC, datetime

import grpc
import psycopg
import pytest
from google.protobuf import timestamp_pb2

from engram.dates import MONTHS
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))


def turn(**overrides: object) -> pb.CommitTurnRequest:
    fields: dict[str, object] = {
        "subject": "alice",
        "session_id": "s-1",
        "user_text": "I moved to Lisbon.",
        "assistant_text": "Noted, Lisbon it is.",
        "request_id": str(uuid.uuid4()),
        "learning_eligible": True,
    }
    fields.update(overrides)
    return pb.CommitTurnRequest(**fields)  # type: ignore[arg-type]


def count(url: str, table: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(f"SELECT count(*) FROM journal.{table}").fetchone()
        assert row is not None
        return int(row[0])


def test_receipt_hashes_and_projection(journal, database_url):
    request = turn()
    receipt = journal.CommitTurn(request).receipt
    content = f"User: {request.user_text}\nAssistant: {request.assistant_text}"
    assert receipt.content_sha256 == hashlib.sha256(content.encode()).hexdigest()
    assert receipt.user_sha256 == hashlib.sha256(request.user_text.encode()).hexdigest()
    assert receipt.assistant_sha256 == hashlib.sha256(request.assistant_text.encode()).hexdigest()
    assert receipt.occurrence_count == 1 and not receipt.replayed
    with psycopg.connect(database_url) as conn:
        event = conn.execute(
            "SELECT event_type, provenance, payload FROM journal.events WHERE event_id = %s",
            (receipt.event_id,),
        ).fetchone()
    assert event is not None
    assert event[0] == "conversation.turn.completed"
    assert event[1] == "generated_output_unverified"
    assert event[2]["canonical_content"] == content
    assert event[2]["field_provenance"]["assistant_text"] == "generated_output_unverified"


def test_sixteen_concurrent_commits_with_one_request_id(journal, database_url):
    request = turn()
    barrier = threading.Barrier(16)
    receipts: list[pb.TurnReceipt] = []
    errors: list[BaseException] = []

    def commit() -> None:
        barrier.wait()
        try:
            receipts.append(journal.CommitTurn(request).receipt)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=commit) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len({r.event_id for r in receipts}) == 1
    assert sum(not r.replayed for r in receipts) == 1
    assert count(database_url, "events") == 1
    assert count(database_url, "episodes") == 1


def test_replay_returns_original_receipt(journal):
    request = turn()
    first = journal.CommitTurn(request).receipt
    again = journal.CommitTurn(request).receipt
    assert again.replayed and again.event_id == first.event_id
    assert again.committed_at == first.committed_at


def test_request_id_reused_with_other_content_is_rejected(journal, database_url):
    request = turn()
    journal.CommitTurn(request)
    with pytest.raises(grpc.RpcError) as err:
        journal.CommitTurn(turn(request_id=request.request_id, user_text="something else"))
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert count(database_url, "events") == 1


def test_same_content_deduplicates_episode(journal, database_url):
    journal.CommitTurn(turn(session_id="s-1"))
    second = journal.CommitTurn(turn(session_id="s-2")).receipt
    assert second.occurrence_count == 2
    assert count(database_url, "events") == 2
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT session_ids, occurrence_count FROM journal.episodes").fetchone()
    assert row == (["s-1", "s-2"], 2)


def test_not_learning_eligible_appends_event_without_episode(journal, database_url):
    receipt = journal.CommitTurn(turn(learning_eligible=False)).receipt
    assert receipt.episode_id == ""
    assert count(database_url, "events") == 1
    assert count(database_url, "episodes") == 0


def test_expected_content_hash(journal, database_url):
    request = turn()
    content = f"User: {request.user_text}\nAssistant: {request.assistant_text}"
    with pytest.raises(grpc.RpcError) as err:
        journal.CommitTurn(turn(expected_content_sha256="0" * 64))
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert count(database_url, "events") == 0
    request.expected_content_sha256 = hashlib.sha256(content.encode()).hexdigest()
    assert journal.CommitTurn(request).receipt.event_id > 0


def test_repetition_loop_is_rejected(journal, database_url):
    looped = "\n".join(["I am a helpful assistant."] * 12)
    with pytest.raises(grpc.RpcError) as err:
        journal.CommitTurn(turn(assistant_text=looped))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "assistant_text" in (err.value.details() or "")
    assert count(database_url, "events") == 0


def test_a_new_episode_stores_its_relative_dates_in_the_commit(journal, database_url):
    """Relative dates resolve against the turn's time, given or the commit's;
    a second occurrence keeps the first one's."""
    given = timestamp_pb2.Timestamp()
    given.FromDatetime(datetime(2023, 5, 8, 12, 0, tzinfo=UTC))
    first = journal.CommitTurn(
        turn(user_text="I went hiking yesterday.", occurred_at=given)
    ).receipt
    journal.CommitTurn(turn(user_text="I went hiking yesterday.", session_id="s-2"))
    now = journal.CommitTurn(turn(user_text="We met today.")).receipt
    plain = journal.CommitTurn(turn(user_text="No dates here at all.")).receipt
    with psycopg.connect(database_url) as conn:
        rows = dict(
            conn.execute("SELECT episode_id::text, resolved_dates FROM journal.episodes").fetchall()
        )
    assert rows[first.episode_id] == "7 may 2023"
    day = now.committed_at.ToDatetime(tzinfo=UTC)
    assert rows[now.episode_id] == f"{day.day} {MONTHS[day.month - 1]} {day.year}"
    assert rows[plain.episode_id] == ""
