"""Bad input gets INVALID_ARGUMENT naming the field and writes nothing."""

from __future__ import annotations

import uuid

import grpc
import psycopg
import pytest
from google.protobuf import struct_pb2

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from tests.helpers import error_field, error_info


def ok_turn(**overrides: object) -> pb.CommitTurnRequest:
    fields: dict[str, object] = {
        "subject": "bob",
        "session_id": "s",
        "user_text": "hi",
        "assistant_text": "hello",
        "request_id": str(uuid.uuid4()),
    }
    fields.update(overrides)
    return pb.CommitTurnRequest(**fields)  # type: ignore[arg-type]


def ok_event(**overrides: object) -> pb.AppendEventRequest:
    fields: dict[str, object] = {
        "event_type": "tool.call.completed",
        "subject": "bob",
        "provenance": pb.PROVENANCE_SYSTEM,
        "request_id": str(uuid.uuid4()),
    }
    fields.update(overrides)
    return pb.AppendEventRequest(**fields)  # type: ignore[arg-type]


BIG = "x" * 32_769

CASES = [
    ("CommitTurn", ok_turn(subject=""), "subject"),
    ("CommitTurn", ok_turn(session_id=""), "session_id"),
    ("CommitTurn", ok_turn(subject="has space"), "subject"),
    ("CommitTurn", ok_turn(user_text=""), "user_text"),
    ("CommitTurn", ok_turn(assistant_text=BIG), "assistant_text"),
    ("CommitTurn", ok_turn(user_text=BIG), "user_text"),
    ("CommitTurn", ok_turn(request_id="not-a-uuid"), "request_id"),
    ("CommitTurn", ok_turn(request_id=""), "request_id"),
    ("CommitTurn", ok_turn(expected_content_sha256="abc"), "expected_content_sha256"),
    ("CommitTurn", ok_turn(workspace="bad workspace"), "workspace"),
    ("AppendEvent", ok_event(event_type="NotDotted"), "event_type"),
    ("AppendEvent", ok_event(event_type="tool"), "event_type"),
    ("AppendEvent", ok_event(event_type="conversation.turn.completed"), "event_type"),
    ("AppendEvent", ok_event(request_id="123"), "request_id"),
    ("AppendEvent", ok_event(subject=""), "subject"),
    ("AppendEvent", ok_event(provenance=pb.PROVENANCE_UNSPECIFIED), "provenance"),
    ("ReadSessionJournal", pb.ReadSessionJournalRequest(subject="bob"), "session_id"),
    (
        "ReadSessionJournal",
        pb.ReadSessionJournalRequest(subject="bob", session_id="s", page_size=5000),
        "page_size",
    ),
    (
        "ReadSessionJournal",
        pb.ReadSessionJournalRequest(subject="bob", session_id="s", page_token="garbage"),
        "page_token",
    ),
    (
        "Quarantine",
        pb.QuarantineRequest(record_kind=pb.RECORD_KIND_EPISODE, record_id="x", reason=""),
        "reason",
    ),
    ("Quarantine", pb.QuarantineRequest(record_id="x", reason="r"), "record_kind"),
    ("Purge", pb.PurgeRequest(subject="bob"), "reason"),
]


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))


@pytest.mark.parametrize(
    ("method", "request_message", "field"),
    CASES,
    ids=[f"{m}-{f}-{i}" for i, (m, _, f) in enumerate(CASES)],
)
def test_bad_input_names_the_field_and_writes_nothing(
    journal, database_url, method, request_message, field
):
    with pytest.raises(grpc.RpcError) as err:
        getattr(journal, method)(request_message)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(err.value).domain == "engram"
    assert error_field(err.value) == field
    assert field in (err.value.details() or "")
    with psycopg.connect(database_url) as conn:
        for table in ("events", "episodes", "changes", "quarantine_ledger", "purge_ledger"):
            row = conn.execute(f"SELECT count(*) FROM journal.{table}").fetchone()
            assert row == (0,), table


def test_oversize_payload_is_rejected(journal):
    payload = struct_pb2.Struct()
    payload.update({"blob": "y" * (65 * 1024)})
    with pytest.raises(grpc.RpcError) as err:
        journal.AppendEvent(ok_event(payload=payload))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(err.value) == "payload"


def test_append_event_is_idempotent(journal):
    payload = struct_pb2.Struct()
    payload.update({"tool": "grep", "ok": True})
    request = ok_event(payload=payload, session_id="s")
    first = journal.AppendEvent(request)
    again = journal.AppendEvent(request)
    assert not first.replayed and again.replayed
    assert again.event.event_id == first.event.event_id
    assert dict(first.event.payload) == {"tool": "grep", "ok": True}
