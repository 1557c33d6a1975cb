"""Recovered run memory through real gRPC on a real PostgreSQL: CompleteRun,
scrubbing before storage, the policy and its pruning, expiry, session
isolation, ranking, search, boot repair and status."""

from __future__ import annotations

import threading
import unicodedata
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import psycopg
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from psycopg.rows import dict_row

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import derive_absence, validate
from engram.db import Database
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.pending_counters import PendingCounters
from engram.server import Suite
from memory_service.run_memory import MAX_SUMMARY_CHARS, assemble_summary
from memory_service.store import Q

pytestmark = pytest.mark.integration

Stub = pb_grpc.JournalServiceStub

# Assembled from pieces so this file does not trip secret scanners.
SECRETS: dict[str, str] = {
    "openai": "sk-" + "proj-" + "abc123DEF456ghi789JKL012mno345",
    "anthropic": "sk-" + "ant-api03-" + "abcdefghijklmnopqrstuvwxyz012345",
    "github": "ghp" + "_" + "abcdefghijklmnopqrstuvwxyz0123456789",
    "slack": "xox" + "b-" + "1234567890-0987654321-AbCdEfGhIj",
    "aws": "AKIA" + "IOSFODNN7EXAMPLE",
    "stripe": "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "jwt": (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
        ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ"
        ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
    ),
    "password": "hunter2-Correct-Horse",
    "bearer": "abcDEF123456ghiJKL789",
    "url_token": "tok3nValue998877",
    "pem_body": "MIIEowIBAAKCAQEA7V1x",
    "email": "alice.smith@example.com",
    "ssn": "123-45-6789",
    "card": "4111 1111 1111 1111",
    "phone": "+1 415 555 2671",
}
# Each secret inside the kind of sentence a run really carries.
SECRET_SENTENCES = [
    f"Use key {SECRETS['openai']} for the call",
    f"ANTHROPIC_API_KEY={SECRETS['anthropic']}",
    f"cloned with {SECRETS['github']}",
    f"slack token {SECRETS['slack']} posted",
    f"aws id {SECRETS['aws']}",
    f"stripe {SECRETS['stripe']}",
    f"session jwt {SECRETS['jwt']}",
    f"login with password: {SECRETS['password']}",
    f"Authorization: Bearer {SECRETS['bearer']}",
    f"GET https://api.example.com/v1?access_token={SECRETS['url_token']}&page=2",
    f"-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['pem_body']}\n-----END RSA PRIVATE KEY-----",
    f"mail {SECRETS['email']} the report",
    f"ssn {SECRETS['ssn']} on file",
    f"card {SECRETS['card']} charged",
    f"call {SECRETS['phone']} tomorrow",
]

TERMINAL = {
    pb.RUN_STATUS_COMPLETED: "completed",
    pb.RUN_STATUS_FAILED: "failed",
    pb.RUN_STATUS_INTERRUPTED: "interrupted",
    pb.RUN_STATUS_CANCELLED: "cancelled",
}
NON_TERMINAL = [
    pb.RUN_STATUS_UNSPECIFIED,
    pb.RUN_STATUS_QUEUED,
    pb.RUN_STATUS_RUNNING,
    pb.RUN_STATUS_WAITING_FOR_APPROVAL,
    pb.RUN_STATUS_WAITING_FOR_USER_QUESTION,
]


# -- helpers -----------------------------------------------------------------


@pytest.fixture
def suite(start_services: Callable[..., Suite]) -> Suite:
    return start_services(["journal"])


@pytest.fixture
def stub(suite: Suite, channel_to: Callable[..., grpc.Channel]) -> Stub:
    return Stub(channel_to(suite))


@pytest.fixture
def sql(database_url: str) -> Iterator[psycopg.Connection[dict[str, Any]]]:
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        yield conn


def complete(
    stub: Stub,
    run_id: str,
    session_id: str = "s1",
    *,
    status: pb.RunStatus.ValueType = pb.RUN_STATUS_COMPLETED,
    request: str = "",
    outcome: str = "",
    error: str = "",
    scope_keys: tuple[str, ...] = (),
    artifacts: tuple[str, ...] = (),
    subject: str = "u1",
    workspace: str = "",
    request_id: str = "",
) -> pb.CompleteRunResponse:
    response: pb.CompleteRunResponse = stub.CompleteRun(
        pb.CompleteRunRequest(
            run_id=run_id,
            session_id=session_id,
            subject=subject,
            workspace=workspace,
            status=status,
            request_text=request or f"request of {run_id}",
            outcome_text=outcome,
            error_text=error,
            scope_keys=list(scope_keys),
            artifact_ids=list(artifacts),
            request_id=request_id or str(uuid.uuid4()),
        )
    )
    return response


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    return info


def expect_error(
    call: Callable[[], object], code: grpc.StatusCode, *, field: str = "", reason: str = ""
) -> error_details_pb2.ErrorInfo:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    err = caught.value
    assert err.code() == code, err.details()
    info = error_info(err)
    if field:
        assert info.metadata["field"] == field
    if reason:
        assert info.reason == reason
    return info


def policy(**changes: Any) -> pb.RunMemoryPolicy:
    values: dict[str, Any] = {
        "enabled": True,
        "retention_seconds": 30 * 86400,
        "max_tracked_per_session": 32,
        "max_prompt_entries": 3,
        "redact_pii": True,
        "search_visibility": pb.SEARCH_VISIBILITY_SESSION_ONLY,
    }
    values.update(changes)
    return pb.RunMemoryPolicy(**values)


def set_policy(stub: Stub, **changes: Any) -> pb.SetRunMemoryPolicyResponse:
    response: pb.SetRunMemoryPolicyResponse = stub.SetRunMemoryPolicy(
        pb.SetRunMemoryPolicyRequest(policy=policy(**changes), request_id=str(uuid.uuid4()))
    )
    return response


def count(sql: psycopg.Connection[dict[str, Any]], query: str, *params: object) -> int:
    row = sql.execute(query, params).fetchone()
    assert row is not None
    return int(next(iter(row.values())))


def run_events(sql: psycopg.Connection[dict[str, Any]], run_id: str) -> list[dict[str, Any]]:
    return sql.execute(
        "SELECT * FROM journal.events WHERE event_type = 'run.completed'"
        " AND payload->>'run_id' = %s",
        (run_id,),
    ).fetchall()


def recovered(
    stub: Stub,
    session_id: str,
    pending: str = "",
    max_entries: int = 0,
    *,
    subject: str = "u1",
    workspace: str = "",
) -> pb.GetRecoveredMemoryResponse:
    response: pb.GetRecoveredMemoryResponse = stub.GetRecoveredMemory(
        pb.GetRecoveredMemoryRequest(
            subject=subject,
            workspace=workspace,
            session_id=session_id,
            pending_input=pending,
            max_entries=max_entries,
        )
    )
    return response


def search(
    stub: Stub,
    session_id: str,
    query: str = "",
    scopes: tuple[str, ...] = (),
    page_size: int = 0,
    page_token: str = "",
    *,
    subject: str = "u1",
    workspace: str = "",
) -> pb.SearchRunMemoryResponse:
    response: pb.SearchRunMemoryResponse = stub.SearchRunMemory(
        pb.SearchRunMemoryRequest(
            subject=subject,
            workspace=workspace,
            session_id=session_id,
            query=query,
            visible_scope_keys=list(scopes),
            page_size=page_size,
            page_token=page_token,
        )
    )
    return response


def ids(records: Any) -> list[str]:
    return [r.record.run_id for r in records]


# -- CompleteRun: statuses ------------------------------------------------------


def test_every_terminal_status_produces_one_record(stub: Stub, sql: Any) -> None:
    for status, label in TERMINAL.items():
        run_id = f"run-{label}"
        done = complete(
            stub,
            run_id,
            status=status,
            request=f"ship the {label} build",
            outcome="" if status == pb.RUN_STATUS_CANCELLED else "built it",
            error="" if status == pb.RUN_STATUS_COMPLETED else "TimeoutError: slow",
        )
        assert done.recorded and not done.replayed
        record = done.record
        assert record.status == status
        assert record.run_id == run_id and record.session_id == "s1"
        assert record.summary.startswith(f"Run {label}.")
        assert record.request_preview == f"ship the {label} build"
        assert record.event_id == done.event_id
        assert record.expires_at.seconds - record.recorded_at.seconds == 30 * 86400
        if status == pb.RUN_STATUS_COMPLETED:
            assert list(record.failure_markers) == []
        else:
            assert list(record.failure_markers) == [f"status:{label}", "error:TimeoutError"]
        fetched = stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1", run_id=run_id)).record
        assert fetched == record
        assert len(run_events(sql, run_id)) == 1
    assert count(sql, "SELECT count(*) FROM journal.run_records") == 4


def test_non_terminal_status_is_rejected_and_nothing_written(stub: Stub, sql: Any) -> None:
    for status in NON_TERMINAL:
        expect_error(
            lambda s=status: complete(stub, "run-x", status=s),  # type: ignore[misc]
            grpc.StatusCode.INVALID_ARGUMENT,
            field="status",
        )
    expect_error(
        lambda: complete(stub, "run-x", status=99),  # type: ignore[arg-type]
        grpc.StatusCode.INVALID_ARGUMENT,
        field="status",
    )
    assert count(sql, "SELECT count(*) FROM journal.events") == 0
    assert count(sql, "SELECT count(*) FROM journal.run_records") == 0


def test_bad_input_names_the_field(stub: Stub, sql: Any) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"run_id": ""}, "run_id"),
        ({"session_id": "bad id"}, "session_id"),
        ({"subject": ""}, "subject"),
        ({"request_text": "x" * 32_769}, "request_text"),
        ({"error_text": "a\x00b"}, "error_text"),
        ({"scope_keys": ["team:x"]}, "scope_keys"),
        ({"scope_keys": ["workspace:other"]}, "scope_keys"),
        ({"artifact_ids": ["has space"]}, "artifact_ids"),
        ({"request_id": "not-a-uuid"}, "request_id"),
    ]
    for change, field in cases:
        values: dict[str, Any] = {
            "run_id": "r1",
            "session_id": "s1",
            "subject": "u1",
            "status": pb.RUN_STATUS_COMPLETED,
            "request_text": "x",
            **change,
        }
        expect_error(
            lambda v=values: stub.CompleteRun(pb.CompleteRunRequest(**v)),  # type: ignore[misc]
            grpc.StatusCode.INVALID_ARGUMENT,
            field=field,
        )
    assert count(sql, "SELECT count(*) FROM journal.events") == 0


# -- the 480 cap on multibyte text -----------------------------------------------


def _starts_grapheme(text: str, index: int) -> bool:
    """True when a cut at `index` splits no grapheme (marks, ZWJ, flags)."""
    if index in (0, len(text)):
        return True
    ch, before = text[index], text[index - 1]
    if unicodedata.category(ch) in ("Mn", "Me", "Mc") or "\u200d" in (ch, before):
        return False
    regional = 0
    while index - regional > 0 and 0x1F1E6 <= ord(text[index - regional - 1]) <= 0x1F1FF:
        regional += 1
    return regional % 2 == 0


@pytest.mark.parametrize(
    "unit",
    [
        "\U0001f469\u200d\U0001f469\u200d\U0001f467 ",  # ZWJ family + space
        "\u6570\u636e\u5e93\u8fc1\u79fb",  # CJK, no spaces
        "e\u0301\u0302",  # stacked combining marks
        "\U0001f1eb\U0001f1f7",  # a flag: two regional indicators
    ],
)
def test_summary_is_capped_at_480_characters(stub: Stub, sql: Any, unit: str) -> None:
    text = unit * 400
    record = complete(
        stub, "run-long", status=pb.RUN_STATUS_FAILED, request=text, outcome=text, error=text
    ).record
    summary = record.summary
    assert len(summary) <= MAX_SUMMARY_CHARS
    assert summary.endswith("\u2026")
    stored = sql.execute(
        "SELECT char_length(summary) AS n, summary FROM journal.run_records"
        " WHERE run_id = 'run-long'"
    ).fetchone()
    assert stored["n"] == len(summary) and stored["summary"] == summary
    source = " ".join(text.split())
    for preview in (record.request_preview, record.outcome_preview):
        body = preview[:-1].rstrip()
        assert preview.endswith("\u2026") and source.startswith(body)
        assert _starts_grapheme(source, len(body))
    error_preview = run_events(sql, "run-long")[0]["payload"]["error_preview"]
    full = assemble_summary("failed", record.request_preview, record.outcome_preview, error_preview)
    body = summary[:-1].rstrip()
    assert full.startswith(body) and _starts_grapheme(full, len(body))


# -- scrubbing ------------------------------------------------------------------------


def test_no_secret_reaches_any_table(stub: Stub, sql: Any) -> None:
    before = stub.GetStatus(pb.GetStatusRequest()).run_memory.redacted_fields_total
    for i, sentence in enumerate(SECRET_SENTENCES):
        complete(
            stub,
            f"run-secret-{i}",
            status=pb.RUN_STATUS_FAILED,
            request=f"Please {sentence} now",
            outcome=f"Done: {sentence}",
            error=f"RuntimeError: {sentence}",
        )
    # And all of them at once, so previews and the summary get cut.
    everything = " ; ".join(SECRET_SENTENCES)
    complete(
        stub,
        "run-secret-all",
        status=pb.RUN_STATUS_FAILED,
        request=everything,
        outcome=everything,
        error=everything,
    )
    dumps = [
        str(row)
        for row in sql.execute(
            "SELECT summary, request_preview, outcome_preview, failure_markers::text AS m"
            " FROM journal.run_records"
        ).fetchall()
    ] + [
        str(row["payload"])
        for row in sql.execute("SELECT payload::text AS payload FROM journal.events").fetchall()
    ]
    assert len(dumps) == 2 * (len(SECRET_SENTENCES) + 1)
    for name, secret in SECRETS.items():
        for dump in dumps:
            assert secret not in dump, f"{name} leaked"
    records = sql.execute("SELECT redaction_count FROM journal.run_records").fetchall()
    total = sum(int(r["redaction_count"]) for r in records)
    assert all(int(r["redaction_count"]) > 0 for r in records)
    status = stub.GetStatus(pb.GetStatusRequest())
    assert status.run_memory.redacted_fields_total - before == total
    assert status.metrics["run_memory.redacted_fields_total"] == total


def test_without_pii_redaction_secrets_are_still_removed(stub: Stub, sql: Any) -> None:
    set_policy(stub, redact_pii=False)
    record = complete(
        stub, "run-pii", request=f"mail {SECRETS['email']} with {SECRETS['openai']}"
    ).record
    assert SECRETS["email"] in record.request_preview
    assert SECRETS["openai"] not in record.request_preview
    payload = run_events(sql, "run-pii")[0]["payload"]
    assert SECRETS["openai"] not in str(payload)


# -- idempotency and the event --------------------------------------------------------


def test_replay_returns_the_original_record(stub: Stub, sql: Any) -> None:
    first = complete(stub, "run-1", request="deploy", outcome="ok")
    again = complete(stub, "run-1", request="deploy", outcome="ok")
    assert again.replayed and again.recorded
    assert again.record == first.record and again.event_id == first.event_id
    same_request = str(uuid.uuid4())
    complete(stub, "run-2", request="x", request_id=same_request)
    assert complete(stub, "run-2", request="x", request_id=same_request).replayed
    assert len(run_events(sql, "run-1")) == 1 and len(run_events(sql, "run-2")) == 1
    expect_error(
        lambda: complete(stub, "run-1", request="deploy", outcome="different"),
        grpc.StatusCode.ALREADY_EXISTS,
        reason="RUN_ALREADY_RECORDED",
    )
    expect_error(
        lambda: complete(stub, "run-1", request="deploy", outcome="ok", subject="someone-else"),
        grpc.StatusCode.ALREADY_EXISTS,
        reason="RUN_ALREADY_RECORDED",
    )
    expect_error(
        lambda: complete(stub, "run-3", request="y", request_id=same_request),
        grpc.StatusCode.ALREADY_EXISTS,
        reason="REQUEST_ID_REUSED",
    )
    assert count(sql, "SELECT count(*) FROM journal.events") == 2
    assert count(sql, "SELECT count(*) FROM journal.run_records") == 2


def test_event_is_written_in_the_same_transaction(stub: Stub, sql: Any) -> None:
    done = complete(
        stub,
        "run-ev",
        status=pb.RUN_STATUS_FAILED,
        request="build the site",
        outcome="half built",
        error="ValueError: bad config",
        scope_keys=("project:p1",),
        artifacts=("art-1",),
    )
    (event,) = run_events(sql, "run-ev")
    record = sql.execute("SELECT * FROM journal.run_records WHERE run_id = 'run-ev'").fetchone()
    assert event["event_id"] == record["event_id"] == done.event_id
    # now() is the transaction's start: equal instants mean one transaction.
    assert event["recorded_at"] == record["recorded_at"]
    assert event["provenance"] == "system"
    payload = event["payload"]
    assert payload["run_id"] == "run-ev" and payload["session_id"] == "s1"
    assert payload["status"] == "failed"
    assert payload["summary"] == record["summary"]
    assert payload["request_preview"] == "build the site"
    assert payload["outcome_preview"] == "half built"
    assert payload["artifact_ids"] == ["art-1"] and payload["scope_keys"] == ["project:p1"]
    assert payload["failure_markers"] == ["status:failed", "error:ValueError"]
    change = sql.execute(
        "SELECT * FROM journal.changes WHERE event_id = %s", (done.event_id,)
    ).fetchone()
    assert change["kind"] == "event_appended" and change["event_type"] == "run.completed"


def test_a_failed_record_write_leaves_no_event(stub: Stub, sql: Any) -> None:
    sql.execute("""
        CREATE FUNCTION journal.test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'test: run_records refuses writes'; END; $$;
        CREATE TRIGGER test_refuse_insert BEFORE INSERT ON journal.run_records
            FOR EACH ROW EXECUTE FUNCTION journal.test_refuse();
    """)
    with pytest.raises(grpc.RpcError):
        complete(stub, "run-atomic", request="anything")
    assert run_events(sql, "run-atomic") == []
    assert count(sql, "SELECT count(*) FROM journal.changes") == 0
    assert (
        count(
            sql,
            "SELECT count(*) FROM journal.counters"
            " WHERE name = 'run_memory.redacted_fields_total' AND value > 0",
        )
        == 0
    )


def test_disabled_policy_appends_the_event_but_stores_nothing(stub: Stub, sql: Any) -> None:
    complete(stub, "run-before", request="kept from before")
    set_policy(stub, enabled=False)
    done = complete(stub, "run-off", request=f"secret {SECRETS['github']}")
    assert not done.recorded and not done.HasField("record") and done.event_id > 0
    (event,) = run_events(sql, "run-off")
    assert event["payload"]["recorded"] is False
    assert SECRETS["github"] not in str(event["payload"])
    assert count(sql, "SELECT count(*) FROM journal.run_records WHERE run_id = 'run-off'") == 0
    replay = complete(stub, "run-off", request=f"secret {SECRETS['github']}")
    assert replay.replayed and not replay.recorded
    expect_error(
        lambda: stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1", run_id="run-off")),
        grpc.StatusCode.NOT_FOUND,
    )
    memory = recovered(stub, "s1", "kept")
    assert len(memory.records) == 0
    assert memory.coverage.outcome == cpb.SEARCH_OUTCOME_NOT_SEARCHED
    assert derive_absence(memory.coverage, 0) == cpb.ABSENCE_STATE_NOT_SEARCHED


# -- policy --------------------------------------------------------------------------


def test_policy_defaults_and_round_trip(stub: Stub, sql: Any) -> None:
    current = stub.GetRunMemoryPolicy(pb.GetRunMemoryPolicyRequest()).policy
    assert (
        current.enabled,
        current.retention_seconds,
        current.max_tracked_per_session,
        current.max_prompt_entries,
        current.redact_pii,
        current.search_visibility,
    ) == (True, 2_592_000, 32, 3, True, pb.SEARCH_VISIBILITY_SESSION_ONLY)
    changed = set_policy(
        stub, max_prompt_entries=5, search_visibility=pb.SEARCH_VISIBILITY_LEARNING_SCOPES
    )
    assert changed.policy.max_prompt_entries == 5
    assert changed.maintenance.trigger == "policy_change" and changed.maintenance.ok
    row = sql.execute("SELECT * FROM journal.run_memory_policy").fetchone()
    assert row["max_prompt_entries"] == 5 and row["search_visibility"] == "learning_scopes"
    again = stub.GetRunMemoryPolicy(pb.GetRunMemoryPolicyRequest()).policy
    assert again.max_prompt_entries == 5 and again.updated_by == "local"
    # AIP-155: a retried request_id replays the first answer; reuse is refused.
    request_id = str(uuid.uuid4())
    first = stub.SetRunMemoryPolicy(
        pb.SetRunMemoryPolicyRequest(policy=policy(max_prompt_entries=4), request_id=request_id)
    )
    retried = stub.SetRunMemoryPolicy(
        pb.SetRunMemoryPolicyRequest(policy=policy(max_prompt_entries=4), request_id=request_id)
    )
    assert retried == first
    assert (
        count(
            sql, "SELECT count(*) FROM journal.maintenance_reports WHERE trigger = 'policy_change'"
        )
        == 2
    )
    expect_error(
        lambda: stub.SetRunMemoryPolicy(
            pb.SetRunMemoryPolicyRequest(policy=policy(max_prompt_entries=2), request_id=request_id)
        ),
        grpc.StatusCode.ALREADY_EXISTS,
        reason="REQUEST_ID_REUSED",
    )


def test_policy_validation_names_the_field(stub: Stub, sql: Any) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"retention_seconds": 0}, "policy.retention_seconds"),
        ({"retention_seconds": -1}, "policy.retention_seconds"),
        ({"retention_seconds": 11 * 365 * 86400}, "policy.retention_seconds"),
        ({"max_tracked_per_session": 0}, "policy.max_tracked_per_session"),
        ({"max_tracked_per_session": 10_001}, "policy.max_tracked_per_session"),
        ({"max_prompt_entries": 0}, "policy.max_prompt_entries"),
        ({"max_prompt_entries": 33}, "policy.max_prompt_entries"),
        ({"search_visibility": pb.SEARCH_VISIBILITY_UNSPECIFIED}, "policy.search_visibility"),
        ({"search_visibility": 7}, "policy.search_visibility"),
    ]
    for change, field in cases:
        expect_error(
            lambda c=change: set_policy(stub, **c),  # type: ignore[misc]
            grpc.StatusCode.INVALID_ARGUMENT,
            field=field,
        )
    expect_error(
        lambda: stub.SetRunMemoryPolicy(pb.SetRunMemoryPolicyRequest()),
        grpc.StatusCode.INVALID_ARGUMENT,
        field="policy",
    )
    row = sql.execute("SELECT * FROM journal.run_memory_policy").fetchone()
    assert row["updated_by"] == "default" and row["max_prompt_entries"] == 3


def test_policy_needs_the_operator_role(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    runtime, operator = "runtime-token-0123456789", "operator-token-0123456789"
    suite = start_services(["journal"], tokens=f"rt:runtime:{runtime},op:operator:{operator}")
    as_runtime = Stub(channel_to(suite, runtime))
    as_operator = Stub(channel_to(suite, operator))
    expect_error(
        lambda: as_runtime.GetRunMemoryPolicy(pb.GetRunMemoryPolicyRequest()),
        grpc.StatusCode.PERMISSION_DENIED,
    )
    expect_error(lambda: set_policy(as_runtime), grpc.StatusCode.PERMISSION_DENIED)
    assert set_policy(as_operator, max_prompt_entries=2).policy.updated_by == "op"
    assert complete(as_runtime, "run-rt").recorded


def test_policy_change_prunes_at_once(stub: Stub, sql: Any) -> None:
    for i in range(5):
        complete(stub, f"run-{i}", session_id="s1")
    complete(stub, "run-other", session_id="s2")
    sql.execute(
        "UPDATE journal.run_records SET recorded_at = recorded_at - interval '2 hours'"
        " WHERE run_id = 'run-other'"
    )
    changed = set_policy(
        stub, retention_seconds=3600, max_tracked_per_session=2, max_prompt_entries=2
    )
    report = changed.maintenance
    assert (report.ok, report.expired_removed, report.overflow_removed) == (True, 1, 3)
    remaining = [
        r["run_id"]
        for r in sql.execute("SELECT run_id FROM journal.run_records ORDER BY run_id").fetchall()
    ]
    assert remaining == ["run-3", "run-4"]
    expires = sql.execute(
        "SELECT expires_at - recorded_at AS ttl FROM journal.run_records"
    ).fetchall()
    assert {r["ttl"].total_seconds() for r in expires} == {3600.0}
    status = stub.GetStatus(pb.GetStatusRequest())
    assert status.run_memory.records_pruned_total == 4
    assert status.run_memory.records_stored == status.run_records == 2
    assert status.last_maintenance.trigger == "policy_change"


def test_pruning_failure_is_returned_and_the_policy_rolled_back(stub: Stub, sql: Any) -> None:
    for i in range(4):
        complete(stub, f"run-{i}")
    sql.execute("""
        CREATE FUNCTION journal.test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'test: run_records refuses deletes'; END; $$;
        CREATE TRIGGER test_refuse_delete BEFORE DELETE ON journal.run_records
            FOR EACH ROW EXECUTE FUNCTION journal.test_refuse();
    """)
    info = expect_error(
        lambda: set_policy(stub, max_tracked_per_session=2, max_prompt_entries=2),
        grpc.StatusCode.INTERNAL,
        reason="PRUNING_FAILED",
    )
    assert info.domain == "engram"
    current = stub.GetRunMemoryPolicy(pb.GetRunMemoryPolicyRequest()).policy
    assert current.max_tracked_per_session == 32 and current.updated_by == "default"
    assert count(sql, "SELECT count(*) FROM journal.run_records") == 4
    report = stub.GetStatus(pb.GetStatusRequest()).last_maintenance
    assert report.trigger == "policy_change" and not report.ok
    assert "refuses deletes" in report.error
    sql.execute("DROP TRIGGER test_refuse_delete ON journal.run_records")
    assert set_policy(stub, max_tracked_per_session=2, max_prompt_entries=2).maintenance.ok
    assert count(sql, "SELECT count(*) FROM journal.run_records") == 2


# -- expiry, overflow, quarantine --------------------------------------------------------


def test_expired_record_is_never_served_even_before_pruning(stub: Stub, sql: Any) -> None:
    complete(stub, "run-old", request="rotate the database credentials")
    complete(stub, "run-new", request="rotate the database credentials again")
    sql.execute(
        "UPDATE journal.run_records SET expires_at = now() - interval '1 second'"
        " WHERE run_id = 'run-old'"
    )
    expect_error(
        lambda: stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1", run_id="run-old")),
        grpc.StatusCode.NOT_FOUND,
    )
    memory = recovered(stub, "s1", "rotate database credentials")
    assert ids(memory.records) == ["run-new"]
    assert memory.coverage.cardinality.matched_before_limit == 1
    assert ids(search(stub, "s1", "rotate").records) == ["run-new"]
    assert ids(search(stub, "s1").records) == ["run-new"]
    # Still stored: nothing pruned it, the reads filtered it.
    assert count(sql, "SELECT count(*) FROM journal.run_records WHERE run_id = 'run-old'") == 1


def test_overflow_keeps_the_newest_32_per_session(stub: Stub, sql: Any) -> None:
    for i in range(35):
        complete(stub, f"run-{i:02d}", session_id="busy")
    complete(stub, "run-quiet", session_id="quiet")
    kept = [
        r["run_id"]
        for r in sql.execute(
            "SELECT run_id FROM journal.run_records WHERE session_id = 'busy' ORDER BY run_id"
        ).fetchall()
    ]
    assert kept == [f"run-{i:02d}" for i in range(3, 35)]
    assert count(sql, "SELECT count(*) FROM journal.run_records WHERE session_id = 'quiet'") == 1
    memory = recovered(stub, "busy")
    assert memory.coverage.cardinality.matched_before_limit == 32
    assert ids(memory.records) == ["run-34", "run-33", "run-32"]
    assert stub.GetStatus(pb.GetStatusRequest()).run_memory.records_pruned_total == 3


def test_quarantined_record_is_never_served(stub: Stub) -> None:
    complete(stub, "run-q", request="leak the launch codes")
    complete(stub, "run-ok", request="launch checklist")
    stub.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_RUN_RECORD,
            record_id="run-q",
            reason="poisoned",
            request_id=str(uuid.uuid4()),
        )
    )
    expect_error(
        lambda: stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1", run_id="run-q")),
        grpc.StatusCode.NOT_FOUND,
    )
    assert ids(recovered(stub, "s1", "launch codes").records) == ["run-ok"]
    assert ids(search(stub, "s1", "launch").records) == ["run-ok"]
    assert ids(search(stub, "s1").records) == ["run-ok"]
    assert complete(stub, "run-q", request="leak the launch codes").replayed


# -- isolation and visibility ----------------------------------------------------------


def test_sessions_never_see_each_other_under_session_only(stub: Stub) -> None:
    complete(
        stub,
        "a-1",
        session_id="A",
        request="tune the postgres vacuum settings",
        scope_keys=("project:shared",),
    )
    complete(
        stub,
        "b-1",
        session_id="B",
        request="tune the postgres vacuum settings",
        scope_keys=("project:shared",),
    )
    complete(
        stub,
        "b-2",
        session_id="B",
        request="postgres replication lag",
        scope_keys=("project:shared",),
    )
    assert ids(recovered(stub, "A", "postgres vacuum replication").records) == ["a-1"]
    assert ids(search(stub, "A", "postgres", scopes=("project:shared",)).records) == ["a-1"]
    assert ids(search(stub, "A", "", scopes=("project:shared",)).records) == ["a-1"]
    assert search(stub, "A", "replication", scopes=("project:shared",)).records == []
    # Widening is a policy decision, and it widens search only.
    set_policy(stub, search_visibility=pb.SEARCH_VISIBILITY_LEARNING_SCOPES)
    widened = search(stub, "A", "postgres", scopes=("project:shared",))
    assert sorted(ids(widened.records)) == ["a-1", "b-1", "b-2"]
    assert ids(search(stub, "A", "replication", scopes=("project:shared",)).records) == ["b-2"]
    assert ids(search(stub, "A", "postgres", scopes=("project:other",)).records) == ["a-1"]
    assert ids(search(stub, "A", "postgres").records) == ["a-1"]
    assert ids(recovered(stub, "A", "postgres vacuum replication").records) == ["a-1"]
    expect_error(
        lambda: search(stub, "A", "x", scopes=("team:x",)),
        grpc.StatusCode.INVALID_ARGUMENT,
        field="visible_scope_keys",
    )


# -- subjects sharing a session id (issue 11 item 3) ----------------------------------


def _two_subjects_in_one_session(stub: Stub) -> None:
    """alice and bob, one session id, one run id pattern, the same words."""
    for subject in ("alice", "bob"):
        for n in (1, 2, 3):
            complete(
                stub,
                f"{subject}-run-{n}",
                session_id="session-1",
                subject=subject,
                request=f"deploy the billing service, attempt {n} by {subject}",
                outcome=f"{subject} deployed billing {n}",
                scope_keys=("project:shared",),
            )
    # alice again, in another workspace, with the same session id.
    complete(
        stub,
        "alice-w2-run-1",
        session_id="session-1",
        subject="alice",
        workspace="w2",
        request="deploy the billing service from w2",
        scope_keys=("project:shared",),
    )


def test_two_subjects_with_one_session_id_see_only_their_own_runs(stub: Stub) -> None:
    _two_subjects_in_one_session(stub)
    own = {s: {f"{s}-run-{n}" for n in (1, 2, 3)} for s in ("alice", "bob")}
    for subject in ("alice", "bob"):
        memory = recovered(stub, "session-1", "deploy billing service", subject=subject)
        assert set(ids(memory.records)) == own[subject]
        # Counted in SQL: the other subject's records are not even matched.
        assert memory.coverage.cardinality.matched_before_limit == 3
        assert memory.omitted_by_limit == 0
        assert all(r.record.subject == subject for r in memory.records)
        for query in ("deploy billing", ""):
            found = search(stub, "session-1", query, subject=subject)
            assert set(ids(found.records)) == own[subject]
            assert found.coverage.cardinality.matched_before_limit == 3
        for n in (1, 2, 3):
            run_id = f"{subject}-run-{n}"
            record = stub.GetRunRecord(pb.GetRunRecordRequest(subject=subject, run_id=run_id))
            assert record.record.subject == subject
            other = "bob" if subject == "alice" else "alice"
            expect_error(
                lambda o=other, r=run_id: stub.GetRunRecord(  # type: ignore[misc]
                    pb.GetRunRecordRequest(subject=o, run_id=r)
                ),
                grpc.StatusCode.NOT_FOUND,
            )
    # Workspaces are separate too, with the same subject and session id.
    w2 = recovered(stub, "session-1", "deploy billing", subject="alice", workspace="w2")
    assert ids(w2.records) == ["alice-w2-run-1"]
    assert ids(search(stub, "session-1", subject="alice", workspace="w2").records) == [
        "alice-w2-run-1"
    ]
    expect_error(
        lambda: stub.GetRunRecord(
            pb.GetRunRecordRequest(subject="alice", workspace="w2", run_id="alice-run-1")
        ),
        grpc.StatusCode.NOT_FOUND,
    )
    # A subject without runs in that session: empty, never someone else's.
    assert recovered(stub, "session-1", "deploy", subject="carol").records == []
    assert search(stub, "session-1", subject="carol").records == []
    # Widening by shared scope keys stays inside the subject and workspace.
    set_policy(stub, search_visibility=pb.SEARCH_VISIBILITY_LEARNING_SCOPES)
    widened = search(stub, "other-session", "deploy", ("project:shared",), subject="bob")
    assert set(ids(widened.records)) == own["bob"]
    assert set(ids(recovered(stub, "session-1", "deploy", subject="bob").records)) == own["bob"]
    # A page token is bound to its subject.
    first = search(stub, "session-1", page_size=1, subject="alice")
    assert first.next_page_token
    token = first.next_page_token
    expect_error(
        lambda: search(stub, "session-1", page_size=1, page_token=token, subject="bob"),
        grpc.StatusCode.INVALID_ARGUMENT,
        field="page_token",
    )


def test_session_keyed_reads_require_the_subject(stub: Stub) -> None:
    complete(stub, "run-1")
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: recovered(stub, "s1", subject=""), "subject"),
        (lambda: recovered(stub, "s1", subject="bad subject"), "subject"),
        (lambda: recovered(stub, "s1", workspace="bad ws"), "workspace"),
        (lambda: search(stub, "s1", subject=""), "subject"),
        (lambda: search(stub, "s1", workspace="bad ws"), "workspace"),
        (lambda: stub.GetRunRecord(pb.GetRunRecordRequest(run_id="run-1")), "subject"),
        (
            lambda: stub.GetRunRecord(
                pb.GetRunRecordRequest(subject="u1", workspace="bad ws", run_id="run-1")
            ),
            "workspace",
        ),
        (lambda: stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1")), "run_id"),
    ]
    for call, field in calls:
        expect_error(call, grpc.StatusCode.INVALID_ARGUMENT, field=field)


def test_complete_run_with_another_subjects_run_id_does_not_touch_it(stub: Stub, sql: Any) -> None:
    alice = {"session_id": "session-1", "request": "rotate the alice vault keys", "outcome": "ok"}
    first = complete(stub, "run-shared", subject="alice", **alice)
    before = sql.execute("SELECT * FROM journal.run_records").fetchall()
    events_before = count(sql, "SELECT count(*) FROM journal.events")
    attempts: list[dict[str, Any]] = [
        # alice's exact content under another subject,
        {**alice, "subject": "bob"},
        # another subject's own content,
        {**alice, "subject": "bob", "request": "bob's own request"},
        # and alice's content in another workspace (another owner as well).
        {**alice, "subject": "alice", "workspace": "w2"},
    ]
    for attempt in attempts:
        with pytest.raises(grpc.RpcError) as caught:
            complete(stub, "run-shared", **attempt)
        assert caught.value.code() == grpc.StatusCode.ALREADY_EXISTS
        assert error_info(caught.value).reason == "RUN_ALREADY_RECORDED"
        assert "vault" not in (caught.value.details() or "")
    # alice's record and the journal are exactly as they were.
    assert sql.execute("SELECT * FROM journal.run_records").fetchall() == before
    assert count(sql, "SELECT count(*) FROM journal.events") == events_before
    assert recovered(stub, "session-1", "vault", subject="bob").records == []
    assert ids(recovered(stub, "session-1", "vault", subject="alice").records) == ["run-shared"]
    # alice's own retry still replays her record.
    again = complete(stub, "run-shared", subject="alice", **alice)
    assert again.replayed and again.record == first.record


def test_one_subjects_runs_never_prune_anothers(stub: Stub, sql: Any) -> None:
    set_policy(stub, max_tracked_per_session=2, max_prompt_entries=2)
    for n in (1, 2):
        complete(stub, f"alice-run-{n}", session_id="session-1", subject="alice")
    # alice's oldest record has expired but is not pruned yet.
    sql.execute(
        "UPDATE journal.run_records SET expires_at = now() - interval '1 second'"
        " WHERE run_id = 'alice-run-1'"
    )
    for n in (1, 2, 3, 4):
        complete(stub, f"bob-run-{n}", session_id="session-1", subject="bob")
    rows = sql.execute(
        "SELECT subject, run_id FROM journal.run_records ORDER BY subject, run_id"
    ).fetchall()
    # bob's writes pruned bob's overflow only; alice's records, even the
    # expired one, were left to alice's own writes and the maintenance passes.
    assert [(r["subject"], r["run_id"]) for r in rows] == [
        ("alice", "alice-run-1"),
        ("alice", "alice-run-2"),
        ("bob", "bob-run-3"),
        ("bob", "bob-run-4"),
    ]
    assert ids(recovered(stub, "session-1", subject="alice").records) == ["alice-run-2"]
    complete(stub, "alice-run-3", session_id="session-1", subject="alice")
    kept = sql.execute(
        "SELECT run_id FROM journal.run_records WHERE subject = 'alice' ORDER BY run_id"
    ).fetchall()
    assert [r["run_id"] for r in kept] == ["alice-run-2", "alice-run-3"]


# -- GetRecoveredMemory -----------------------------------------------------------------


def test_recovered_memory_ranks_limits_and_counts(stub: Stub, sql: Any) -> None:
    texts = [
        "write the quarterly report",
        "database migration failed on users table",
        "renew the TLS certificate",
        "database backup finished",
        "plan the team offsite",
    ]
    for i, text in enumerate(texts):
        complete(stub, f"run-{i}", request=text)
    memory = recovered(stub, "s1", "Why did the database migration fail?")
    assert ids(memory.records) == ["run-1", "run-3", "run-4"]
    assert memory.records[0].score > memory.records[1].score > memory.records[2].score == 0
    assert memory.omitted_by_limit == 2
    coverage = memory.coverage
    validate(coverage)
    assert coverage.read_path == "journal.recovered_memory.v1"
    assert coverage.dimensions.semantic == cpb.DIMENSION_STATE_UNKNOWN
    assert coverage.cardinality.exactness == cpb.EXACTNESS_EXACT
    assert (
        coverage.cardinality.returned,
        coverage.cardinality.limit,
        coverage.cardinality.matched_before_limit,
        coverage.cardinality.truncated,
    ) == (3, 3, 5, True)
    assert derive_absence(coverage, 3) == cpb.ABSENCE_STATE_NOT_ABSENT
    assert len(recovered(stub, "s1", "database", max_entries=1).records) == 1
    assert len(recovered(stub, "s1", "database", max_entries=50).records) == 3
    status = stub.GetStatus(pb.GetStatusRequest()).run_memory
    assert status.prompt_limit_omitted_total == 2 + 4 + 2
    expect_error(
        lambda: recovered(stub, "s1", max_entries=-1),
        grpc.StatusCode.INVALID_ARGUMENT,
        field="max_entries",
    )
    empty = recovered(stub, "nobody", "database")
    assert list(empty.records) == [] and empty.omitted_by_limit == 0
    assert derive_absence(empty.coverage, 0) == cpb.ABSENCE_STATE_COVERAGE_UNKNOWN


def omitted_in_table(sql: Any) -> int:
    row = sql.execute(
        "SELECT value FROM journal.counters WHERE name = 'run_memory.prompt_limit_omitted_total'"
    ).fetchone()
    return int(row["value"]) if row else 0


def test_omission_counter_is_flushed_at_stop(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel], sql: Any
) -> None:
    """The read path adds to the pending sums; stopping the service writes
    them (after in-flight calls drain), so a clean stop loses no count."""
    suite = start_services(["journal"])
    stub = Stub(channel_to(suite))
    for i in range(5):
        complete(stub, f"run-{i}", request=f"database task {i}")
    concurrent = [
        threading.Thread(target=lambda: [recovered(stub, "s1", "database") for _ in range(10)])
        for _ in range(4)
    ]
    for thread in concurrent:
        thread.start()
    for thread in concurrent:
        thread.join()
    suite.stop(grace=0.2)
    # 4 x 10 calls, each cutting 5 records at the policy's 3.
    assert omitted_in_table(sql) == 4 * 10 * 2


def test_pending_counters_lose_nothing(db: Database, database_url: str, sql: Any) -> None:
    counters = PendingCounters(db, Q["counter_add"])
    done = threading.Event()

    def add_many() -> None:
        for _ in range(300):
            counters.add({"run_memory.prompt_limit_omitted_total": 1, "unused": 0})

    def flush_often() -> None:
        while not done.is_set():
            counters.flush()

    flusher = threading.Thread(target=flush_often)
    flusher.start()
    adders = [threading.Thread(target=add_many) for _ in range(6)]
    for t in adders:
        t.start()
    for t in adders:
        t.join()
    done.set()
    flusher.join()

    # A flush that fails keeps its sums for the next one.
    counters.add({"run_memory.prompt_limit_omitted_total": 2})
    closed = Database(database_url, max_size=1).open()
    closed.close()
    counters.db = closed
    with pytest.raises(Exception):  # noqa: B017 - any failure to write
        counters.flush()
    counters.db = db
    counters.flush()
    assert omitted_in_table(sql) == 1802
    assert sql.execute("SELECT 1 FROM journal.counters WHERE name = 'unused'").fetchone() is None


# -- SearchRunMemory ---------------------------------------------------------------------


def test_search_pages_and_browses(stub: Stub) -> None:
    for i in range(7):
        complete(stub, f"run-{i}", request=f"deploy service number {i}")
    complete(stub, "run-x", request="water the plants")
    seen: list[str] = []
    token = ""
    pages = 0
    while True:
        page = search(stub, "s1", "deploy", page_size=3, page_token=token)
        validate(page.coverage)
        assert page.coverage.cardinality.exactness == cpb.EXACTNESS_EXACT
        assert page.coverage.cardinality.matched_before_limit == 7 - len(seen)
        seen += ids(page.records)
        pages += 1
        token = page.next_page_token
        if not token:
            break
    assert pages == 3 and sorted(seen) == [f"run-{i}" for i in range(7)]
    browse = search(stub, "s1", page_size=100)
    assert ids(browse.records)[0] == "run-x" and len(browse.records) == 8
    assert browse.coverage.dimensions.semantic == cpb.DIMENSION_STATE_COMPLETE
    first = search(stub, "s1", "deploy", page_size=3)
    expect_error(
        lambda: search(stub, "s1", "plants", page_size=3, page_token=first.next_page_token),
        grpc.StatusCode.INVALID_ARGUMENT,
        field="page_token",
    )
    nothing = search(stub, "s1", "kubernetes")
    assert list(nothing.records) == []
    assert derive_absence(nothing.coverage, 0) == cpb.ABSENCE_STATE_COVERAGE_UNKNOWN
    expect_error(
        lambda: search(stub, "s1", "the of and"), grpc.StatusCode.INVALID_ARGUMENT, field="query"
    )
    expect_error(
        lambda: search(stub, "s1", "deploy", page_size=101),
        grpc.StatusCode.INVALID_ARGUMENT,
        field="page_size",
    )


# -- boot repair and status ----------------------------------------------------------


def test_boot_repair_removes_orphans_and_reports(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel], sql: Any
) -> None:
    first = start_services(["journal"])
    stub = Stub(channel_to(first))
    complete(stub, "run-good", request="keep me")
    other = stub.AppendEvent(
        pb.AppendEventRequest(
            event_type="tool.call.completed",
            subject="u1",
            session_id="s1",
            provenance=pb.PROVENANCE_SYSTEM,
            request_id=str(uuid.uuid4()),
        )
    ).event.event_id
    insert = (
        "INSERT INTO journal.run_records (run_id, session_id, subject, workspace, status,"
        " summary, event_id, request_sha256, expires_at) VALUES"
        " (%s, 's1', 'u1', 'default', 'completed', 'orphan', %s, 'x',"
        "  now() + interval '1 day')"
    )
    sql.execute(insert, ("run-no-event", 987654))
    sql.execute(insert, ("run-wrong-event", other))
    # A record whose owner no longer matches its run.completed event.
    complete(stub, "run-moved", request="moved")
    sql.execute("UPDATE journal.run_records SET subject = 'u2' WHERE run_id = 'run-moved'")
    first.stop(grace=0)

    second = start_services(["journal"])
    stub = Stub(channel_to(second))
    report = stub.GetStatus(pb.GetStatusRequest()).last_maintenance
    assert (report.trigger, report.ok, report.orphans_removed) == ("boot", True, 3)
    assert any("run-no-event" in w and "missing" in w for w in report.warnings)
    assert any("run-wrong-event" in w for w in report.warnings)
    assert any("run-moved" in w and "another subject" in w for w in report.warnings)
    remaining = [
        r["run_id"] for r in sql.execute("SELECT run_id FROM journal.run_records").fetchall()
    ]
    assert remaining == ["run-good"]
    assert stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1", run_id="run-good")).record.run_id
    assert stub.GetStatus(pb.GetStatusRequest()).run_memory.records_pruned_total == 3


def test_failed_boot_scan_is_reported_and_the_service_serves(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel], sql: Any
) -> None:
    first = start_services(["journal"])
    complete(Stub(channel_to(first)), "run-stale", request="stale")
    first.stop(grace=0)
    sql.execute("UPDATE journal.run_records SET expires_at = now() - interval '1 day'")
    sql.execute("""
        CREATE FUNCTION journal.test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'test: store scan broken'; END; $$;
        CREATE TRIGGER test_refuse_delete BEFORE DELETE ON journal.run_records
            FOR EACH ROW EXECUTE FUNCTION journal.test_refuse();
    """)
    second = start_services(["journal"])
    stub = Stub(channel_to(second))
    report = stub.GetStatus(pb.GetStatusRequest()).last_maintenance
    assert report.trigger == "boot" and not report.ok
    assert "store scan broken" in report.error
    # The service keeps serving; another session's write needs no delete.
    assert complete(stub, "run-after", session_id="s2", request="still serving").recorded
    assert stub.GetRunRecord(pb.GetRunRecordRequest(subject="u1", run_id="run-after")).record.run_id


def test_status_reads_the_injection_counter(stub: Stub, sql: Any) -> None:
    complete(stub, "run-1")
    sql.execute(
        "INSERT INTO journal.counters (name, value) VALUES ('run_memory.injected_total', 5)"
    )
    status = stub.GetStatus(pb.GetStatusRequest())
    assert status.run_memory.injected_total == 5
    assert status.run_memory.records_stored == status.run_records == 1
    assert status.last_maintenance.trigger == "boot" and status.last_maintenance.ok
