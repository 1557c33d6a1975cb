"""RecordContextReceipts on a real PostgreSQL: one assembled context's audit rows,
injection receipts, counters and trace event in one transaction, all or nothing."""

from __future__ import annotations

import hashlib
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import psycopg
import pytest
from google.protobuf import struct_pb2

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from tests.helpers import error_info

EMPTY_SHA = hashlib.sha256(b"").hexdigest()
BLOCK_SHA = hashlib.sha256(
    "<engram:recovered_memory>…</engram:recovered_memory>".encode()
).hexdigest()


@pytest.fixture
def journal(start_services: Any, channel_to: Any) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))


def audit(
    record_id: str, decision: int, section: str = "recovered_memory"
) -> pb.RetrievalAuditEntry:
    return pb.RetrievalAuditEntry(
        section=section, record_kind="run_record", record_id=record_id, decision=decision, rank=1
    )


def request(context_id: str = "ctx_1", **overrides: Any) -> pb.RecordContextReceiptsRequest:
    payload = struct_pb2.Struct()
    payload.update({"context_id": context_id, "note": "Größe 東京 ✓"})
    fields: dict[str, Any] = {
        "context_id": context_id,
        "subject": "alice",
        "session_id": "s-1",
        "audit_entries": [
            audit("r1", pb.AUDIT_DECISION_EVALUATED),
            audit("r1", pb.AUDIT_DECISION_SELECTED),
            audit("r2", pb.AUDIT_DECISION_EVALUATED),
            audit("r2", pb.AUDIT_DECISION_DROPPED_BUDGET),
            audit("l1", pb.AUDIT_DECISION_EVALUATED, "learned_context"),
        ],
        "injections": [
            pb.ContextInjection(
                section="recovered_memory",
                record_ids=["r1"],
                block_sha256=BLOCK_SHA,
                injected_count=1,
                omitted_count=1,
            ),
            pb.ContextInjection(
                section="learned_context", block_sha256=EMPTY_SHA, injected_count=0, omitted_count=1
            ),
        ],
        "trace_event": pb.ContextTraceEvent(
            event_type="gateway.context.assembled",
            payload=payload,
            provenance=pb.PROVENANCE_SYSTEM,
        ),
        "request_id": str(uuid.uuid4()),
    }
    fields.update(overrides)
    return pb.RecordContextReceiptsRequest(**fields)


def counters(database_url: str) -> dict[str, int]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT name, value FROM journal.counters").fetchall()
    return {str(name): int(value) for name, value in rows}


def stored(database_url: str, context_id: str) -> tuple[int, int]:
    """(receipts, trace events) stored for the context."""
    with psycopg.connect(database_url) as conn:
        receipts = conn.execute(
            "SELECT count(*) FROM journal.receipts WHERE context_id = %s", (context_id,)
        ).fetchone()
        events = conn.execute(
            "SELECT count(*) FROM journal.events WHERE payload->>'context_id' = %s", (context_id,)
        ).fetchone()
    assert receipts is not None and events is not None
    return int(receipts[0]), int(events[0])


def test_one_call_writes_every_receipt_the_counters_and_the_event(
    journal: pb_grpc.JournalServiceStub, database_url: str
) -> None:
    before = counters(database_url)
    response = journal.RecordContextReceipts(request())
    assert len(response.audit_receipt_ids) == 5
    assert len(response.injection_receipt_ids) == 2
    ids = [*response.audit_receipt_ids, *response.injection_receipt_ids]
    assert ids == sorted(ids) and len(set(ids)) == 7
    assert response.event_id > 0 and not response.replayed

    listed = journal.ListReceipts(pb.ListReceiptsRequest(context_id="ctx_1")).receipts
    assert [r.receipt_id for r in listed] == ids
    assert [r.receipt_type for r in listed] == ["retrieval_audit"] * 5 + ["context_injection"] * 2
    assert [(r.section, list(r.record_ids), r.detail["decision"]) for r in listed[:2]] == [
        ("recovered_memory", ["r1"], "evaluated"),
        ("recovered_memory", ["r1"], "selected"),
    ]
    injection = listed[5]
    assert (injection.section, list(injection.record_ids), injection.block_sha256) == (
        "recovered_memory",
        ["r1"],
        BLOCK_SHA,
    )
    assert injection.detail["injected_count"] == 1 and injection.detail["omitted_count"] == 1
    assert list(listed[6].record_ids) == []

    after = counters(database_url)
    for name, delta in (
        ("run_memory.injected_total", 1),
        ("run_memory.prompt_limit_omitted_total", 1),
        ("session_memory.prompt_limit_omitted_total", 1),
    ):
        assert after.get(name, 0) - before.get(name, 0) == delta, name

    [event] = journal.ReadSessionJournal(
        pb.ReadSessionJournalRequest(
            subject="alice", session_id="s-1", event_types=["gateway.context.assembled"]
        )
    ).events
    assert event.event_id == response.event_id
    assert event.payload["note"] == "Größe 東京 ✓"
    assert event.provenance == pb.PROVENANCE_SYSTEM
    # The change feed announces the event like any appended one.
    feed = [
        c
        for batch in journal.StreamChanges(pb.StreamChangesRequest(after_cursor=0))
        for c in batch.changes
    ]
    assert [c.event_id for c in feed if c.event_id == response.event_id] == [response.event_id]


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        (
            {"injections": [pb.ContextInjection(section="recovered_memory", block_sha256="x")]},
            "injections[0].block_sha256",
        ),
        (
            {"audit_entries": [pb.RetrievalAuditEntry(section="recovered_memory", record_id="r")]},
            "audit_entries[0].decision",
        ),
        (
            {
                "trace_event": pb.ContextTraceEvent(
                    event_type="Bad Type", provenance=pb.PROVENANCE_SYSTEM
                )
            },
            "trace_event.event_type",
        ),
        (
            {
                "trace_event": pb.ContextTraceEvent(
                    event_type="conversation.turn.completed", provenance=pb.PROVENANCE_SYSTEM
                )
            },
            "trace_event.event_type",
        ),
        ({"request_id": ""}, "request_id"),
        (
            {
                "injections": [
                    pb.ContextInjection(section="learned_context", block_sha256=EMPTY_SHA),
                    pb.ContextInjection(section="learned_context", block_sha256=EMPTY_SHA),
                ]
            },
            "injections",
        ),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(
    journal: pb_grpc.JournalServiceStub, database_url: str, overrides: dict[str, Any], field: str
) -> None:
    before = counters(database_url)
    with pytest.raises(grpc.RpcError) as err:
        journal.RecordContextReceipts(request("ctx_bad", **overrides))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(err.value).metadata["field"] == field
    assert stored(database_url, "ctx_bad") == (0, 0)
    assert counters(database_url) == before


def test_a_failure_inside_the_transaction_rolls_back_every_row(
    journal: pb_grpc.JournalServiceStub, database_url: str
) -> None:
    # The event insert fails inside the function, after the receipt rows and
    # the counters were written: nothing of the call may remain.
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "ALTER TABLE journal.events ADD CONSTRAINT test_no_trace "
            "CHECK (event_type <> 'gateway.context.assembled')"
        )
    before = counters(database_url)
    with pytest.raises(grpc.RpcError):
        journal.RecordContextReceipts(request("ctx_rollback"))
    assert stored(database_url, "ctx_rollback") == (0, 0)
    assert counters(database_url) == before


def test_replay_returns_the_original_ids_and_reuse_is_refused(
    journal: pb_grpc.JournalServiceStub, database_url: str
) -> None:
    first_request = request("ctx_replay")
    first = journal.RecordContextReceipts(first_request)
    again = journal.RecordContextReceipts(first_request)
    assert again.replayed
    assert (list(again.audit_receipt_ids), list(again.injection_receipt_ids), again.event_id) == (
        list(first.audit_receipt_ids),
        list(first.injection_receipt_ids),
        first.event_id,
    )
    assert stored(database_url, "ctx_replay") == (7, 1)

    changed = request("ctx_replay", request_id=first_request.request_id)
    del changed.audit_entries[-1]
    with pytest.raises(grpc.RpcError) as err:
        journal.RecordContextReceipts(changed)
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert error_info(err.value).reason == "REQUEST_ID_REUSED"


def test_concurrent_duplicates_write_once(
    journal: pb_grpc.JournalServiceStub, database_url: str
) -> None:
    same = request("ctx_race")
    with ThreadPoolExecutor(max_workers=6) as pool:
        results = list(pool.map(lambda _: journal.RecordContextReceipts(same), range(6)))
    assert sum(not r.replayed for r in results) == 1
    assert len({tuple(r.audit_receipt_ids) for r in results}) == 1
    assert stored(database_url, "ctx_race") == (7, 1)


def test_receipts_without_a_trace_event(
    journal: pb_grpc.JournalServiceStub, database_url: str
) -> None:
    response = journal.RecordContextReceipts(
        request("ctx_no_trace", trace_event=None, injections=[])
    )
    assert response.event_id == 0
    assert len(response.audit_receipt_ids) == 5 and not response.injection_receipt_ids
    assert stored(database_url, "ctx_no_trace") == (5, 0)
