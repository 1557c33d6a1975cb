"""Bad input at the edge of a real server is INVALID_ARGUMENT naming the
field, never INTERNAL: identifiers matched whole, bounded strings and lists,
NaN, malformed wire bytes, and signed page tokens with typed positions."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import uuid
from collections.abc import Callable
from pathlib import Path

import grpc
import psycopg
import pytest
from google.protobuf import struct_pb2

from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.server import Suite
from tests.helpers import commit_turn, error_field, error_info

pytestmark = pytest.mark.integration

SECRET = "a-known-page-token-secret-0123456789"


def refused(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT, err.value.details()
    return err.value


def receipts(database_url: str) -> int:
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT count(*) FROM journal.receipts").fetchone()
    assert row is not None
    return int(row[0])


def test_identifiers_are_matched_whole(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    suite = start_services(["journal", "learning"], workers_enabled=False)
    learning = lpb_grpc.LearningServiceStub(channel_to(suite))
    journal = jpb_grpc.JournalServiceStub(channel_to(suite))
    err = refused(
        lambda: learning.PromoteToSkill(
            lpb.PromoteToSkillRequest(
                learning_id=str(uuid.uuid4()), skill_name="abc\n", request_id=str(uuid.uuid4())
            )
        )
    )
    assert error_field(err) == "skill_name"
    assert error_field(refused(lambda: commit_turn(journal, "hi", subject="alice\n"))) == "subject"
    err = refused(
        lambda: journal.AppendEvent(
            jpb.AppendEventRequest(
                event_type="tool.call.completed\n",
                subject="alice",
                provenance=jpb.PROVENANCE_USER_INPUT,
                request_id=str(uuid.uuid4()),
            )
        )
    )
    assert error_field(err) == "event_type"


def test_receipt_writes_are_bounded(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    suite = start_services(["journal"])
    journal = jpb_grpc.JournalServiceStub(channel_to(suite))

    def audit(*entries: jpb.RetrievalAuditEntry) -> jpb.RecordRetrievalAuditResponse:
        response: jpb.RecordRetrievalAuditResponse = journal.RecordRetrievalAudit(
            jpb.RecordRetrievalAuditRequest(context_id="ctx-1", subject="alice", entries=entries)
        )
        return response

    def entry(**fields: object) -> jpb.RetrievalAuditEntry:
        base: dict[str, object] = {
            "section": "episodic_recall",
            "record_kind": "episode",
            "record_id": "e-1",
            "decision": jpb.AUDIT_DECISION_EVALUATED,
            "score": 0.5,
        }
        return jpb.RetrievalAuditEntry(**{**base, **fields})  # type: ignore[arg-type]

    err = refused(lambda: audit(entry(record_kind="k" * 5_000_000)))
    assert error_field(err) == "entries[0].record_kind"
    assert error_field(refused(lambda: audit(*[entry()] * 1000))) == "entries"
    assert error_field(refused(lambda: audit(entry(), entry(score=math.nan)))) == "entries[1].score"
    err = refused(lambda: audit(entry(record_kind="not a kind")))
    assert error_field(err) == "entries[0].record_kind"
    assert receipts(suite.database_url) == 0
    assert len(audit(entry(), entry(record_kind="")).receipt_ids) == 2


def test_struct_payloads_and_timestamps_are_checked(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    journal = jpb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))
    payload = struct_pb2.Struct()
    payload.update({"tool": "grep", "score": math.inf})
    err = refused(
        lambda: journal.AppendEvent(
            jpb.AppendEventRequest(
                event_type="tool.call.completed",
                subject="alice",
                payload=payload,
                provenance=jpb.PROVENANCE_USER_INPUT,
                request_id=str(uuid.uuid4()),
            )
        )
    )
    assert error_field(err) == "payload.score"
    request = jpb.CommitTurnRequest(
        subject="alice",
        session_id="s1",
        user_text="hi",
        assistant_text="ok",
        request_id=str(uuid.uuid4()),
    )
    request.occurred_at.seconds = 253_402_300_800  # 10000-01-01
    assert error_field(refused(lambda: journal.CommitTurn(request))) == "occurred_at.seconds"
    request.occurred_at.seconds, request.occurred_at.nanos = 0, -5
    assert error_field(refused(lambda: journal.CommitTurn(request))) == "occurred_at.nanos"


def test_malformed_wire_bytes_are_invalid_argument(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    channel = channel_to(start_services(["journal", "learning"], workers_enabled=False))
    user_text = jpb.CommitTurnRequest.DESCRIPTOR.fields_by_name["user_text"].number
    good = jpb.CommitTurnRequest(subject="alice", session_id="s1").SerializeToString()
    for raw in (b"caf\xc3", b"\xed\xa0\x80", b"\xff\xfe"):
        bad = good + bytes([user_text << 3 | 2, len(raw)]) + raw
        call = channel.unary_unary("/engram.journal.v1.JournalService/CommitTurn")
        err = refused(lambda bad=bad, call=call: call(bad))  # type: ignore[misc]
        info = error_info(err)
        assert (info.reason, info.metadata["field"]) == ("MALFORMED_REQUEST", "user_text")
    truncated = channel.unary_unary("/engram.learning.v1.LearningService/GetSkill")
    refused(lambda: truncated(b"\x0a\x40abc"))


def _forge(query: dict[str, object], position: dict[str, object]) -> str:
    digest = hashlib.sha256(
        json.dumps(query, sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()[:16]
    body = json.dumps({"q": digest, "p": position}, separators=(",", ":"), sort_keys=True).encode()
    mac = hmac.new(SECRET.encode(), b"engram-page-token-v2." + body, hashlib.sha256).hexdigest()
    return base64.urlsafe_b64encode(body + b"." + mac.encode()).decode().rstrip("=")


def test_page_tokens_are_signed_per_deployment_with_typed_positions(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    suite = start_services(["journal"], page_token_secret=SECRET)
    journal = jpb_grpc.JournalServiceStub(channel_to(suite))
    for text in ("one", "two", "three"):
        commit_turn(journal, text)
    read = jpb.ReadSessionJournalRequest(subject="alice", session_id="s1", page_size=2)
    first = journal.ReadSessionJournal(read)
    assert first.next_page_token
    read.page_token = first.next_page_token
    assert len(journal.ReadSessionJournal(read).events) == 1
    query = {"subject": "alice", "workspace": "default", "session_id": "s1", "event_types": []}
    # Signed with the deployment's secret (so it passes the MAC) but typed wrong.
    for position in ({"after": "abc"}, {"after": -1}, {"after": 1.5}, {"before": 1}):
        read.page_token = _forge(query, position)
        assert error_field(refused(lambda: journal.ReadSessionJournal(read))) == "page_token"
    read.page_token = _forge(query, {"after": 1})
    assert len(journal.ReadSessionJournal(read).events) == 2


def test_page_tokens_survive_a_restart_and_not_another_deployment(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel], tmp_path: Path
) -> None:
    first = start_services(["journal"])
    journal = jpb_grpc.JournalServiceStub(channel_to(first))
    for text in ("one", "two"):
        commit_turn(journal, text)
    read = jpb.ReadSessionJournalRequest(subject="alice", session_id="s1", page_size=1)
    read.page_token = journal.ReadSessionJournal(read).next_page_token
    first.stop(grace=0)
    # Same data dir (and so the same generated secret): the token still pages.
    again = jpb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))
    assert again.ReadSessionJournal(read).events[0].payload["user_text"] == "two"
    other = start_services(["journal"], data_dir=str(tmp_path / "elsewhere"))
    elsewhere = jpb_grpc.JournalServiceStub(channel_to(other))
    assert error_field(refused(lambda: elsewhere.ReadSessionJournal(read))) == "page_token"
