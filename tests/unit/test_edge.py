"""Edge validation without a server: the descriptor-driven request check,
malformed wire bytes, and signed, typed page tokens."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import stat
from pathlib import Path

import pytest
from google.protobuf import struct_pb2, timestamp_pb2
from google.protobuf.descriptor import FieldDescriptor

from engram import edge, errors, pagination, roles
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from engram.retrieval.v1 import retrieval_pb2 as rpb


def field_of(request: object) -> str:
    with pytest.raises(errors.InvalidArgument) as err:
        edge.check(request)  # type: ignore[arg-type]
    return err.value.field


def test_a_valid_request_passes() -> None:
    payload = struct_pb2.Struct()
    payload.update({"tool": "grep", "hits": 3, "ok": True, "tags": ["a", "b"], "x": None})
    edge.check(
        jpb.AppendEventRequest(
            event_type="tool.call.completed",
            subject="alice",
            payload=payload,
            provenance=jpb.PROVENANCE_USER_INPUT,
            occurred_at=timestamp_pb2.Timestamp(seconds=1_700_000_000, nanos=999_999_999),
        )
    )


@pytest.mark.parametrize("bad", ["a\x00b", "\x00"])
def test_nul_is_refused_naming_the_field(bad: str) -> None:
    assert field_of(jpb.CommitTurnRequest(subject="a", user_text=bad)) == "user_text"
    nested = jpb.RecordRetrievalAuditRequest(
        entries=[jpb.RetrievalAuditEntry(), jpb.RetrievalAuditEntry(record_kind=bad)]
    )
    assert field_of(nested) == "entries[1].record_kind"
    assert field_of(jpb.ReadSessionJournalRequest(event_types=["a.b", bad])) == "event_types"


def test_struct_values_and_keys_are_checked_by_path() -> None:
    payload = struct_pb2.Struct()
    payload.update({"outer": {"list": [1, "ok", "bad\x00"]}})
    assert field_of(jpb.AppendEventRequest(payload=payload)) == "payload.outer.list[2]"
    keyed = struct_pb2.Struct()
    keyed.update({"k\x00": 1})
    assert field_of(jpb.AppendEventRequest(payload=keyed)) == "payload"


@pytest.mark.parametrize("number", [math.nan, math.inf, -math.inf])
def test_nan_and_infinity_are_refused(number: float) -> None:
    entry = jpb.RetrievalAuditEntry(section="episodic_recall", score=number)
    assert field_of(jpb.RecordRetrievalAuditRequest(entries=[entry])) == "entries[0].score"
    assert field_of(rpb.RecallRequest(query_embedding=[0.5, number])) == "query_embedding"
    payload = struct_pb2.Struct()
    payload.fields["score"].number_value = number
    assert field_of(jpb.AppendEventRequest(payload=payload)) == "payload.score"


@pytest.mark.parametrize(
    ("seconds", "nanos", "field"),
    [
        (edge.MAX_TIMESTAMP_SECONDS + 1, 0, "occurred_at.seconds"),
        (edge.MIN_TIMESTAMP_SECONDS - 1, 0, "occurred_at.seconds"),
        (0, -1, "occurred_at.nanos"),
        (0, 1_000_000_000, "occurred_at.nanos"),
    ],
)
def test_timestamps_are_range_checked(seconds: int, nanos: int, field: str) -> None:
    stamp = timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos)
    assert field_of(jpb.CommitTurnRequest(occurred_at=stamp)) == field
    window = lpb.CreateCandidateRequest(expires_at=stamp)
    assert field_of(window) == field.replace("occurred_at", "expires_at")
    edge.check(
        jpb.CommitTurnRequest(
            occurred_at=timestamp_pb2.Timestamp(seconds=edge.MAX_TIMESTAMP_SECONDS, nanos=0)
        )
    )


def test_strings_and_repeated_fields_are_bounded() -> None:
    five_mb = jpb.RetrievalAuditEntry(record_kind="k" * 5_000_000)
    assert field_of(jpb.RecordRetrievalAuditRequest(entries=[five_mb])) == "entries[0].record_kind"
    many = [jpb.RetrievalAuditEntry(section="episodic_recall")] * 1000
    assert field_of(jpb.RecordRetrievalAuditRequest(entries=many)) == "entries"
    assert field_of(jpb.PurgeRequest(reason="r" * (edge.DEFAULT_MAX_CHARS + 1))) == "reason"
    ids = [f"p{i}" for i in range(edge.DEFAULT_MAX_ITEMS + 1)]
    assert field_of(lpb.ResolveScopesRequest(project_ids=ids)) == "project_ids"
    # Long texts keep their own, larger bound.
    edge.check(jpb.CommitTurnRequest(user_text="u" * 32_768))
    edge.check(rpb.RecallRequest(query_embedding=[0.1] * 384))


def test_scalar_list_items_are_named_in_the_message() -> None:
    with pytest.raises(errors.InvalidArgument) as err:
        edge.check(jpb.RecordContextInjectionRequest(record_ids=["a", "b", "c\x00"]))
    assert err.value.field == "record_ids"
    assert "item 2 must not contain NUL" in err.value.message


def test_undefined_enum_values_are_refused() -> None:
    request = jpb.QuarantineRequest()
    request.record_kind = 999  # type: ignore[assignment]
    assert field_of(request) == "record_kind"
    listing = lpb.ListCandidatesRequest()
    listing.statuses.append(77)  # type: ignore[arg-type]
    assert field_of(listing) == "statuses"


def test_every_limit_names_a_real_field() -> None:
    names = set()
    pending = [m.input_type for m in roles.METHODS.values()]
    pending += [struct_pb2.Struct.DESCRIPTOR, struct_pb2.Value.DESCRIPTOR]
    seen = set()
    while pending:
        descriptor = pending.pop()
        if descriptor.full_name in seen:
            continue
        seen.add(descriptor.full_name)
        for field in descriptor.fields:
            names.add(field.full_name)
            if field.message_type is not None:
                pending.append(field.message_type)
    assert set(edge.LIMITS) - names == set()


def test_edge_bounds_never_undercut_the_services_own_limits() -> None:
    from gateway import servicer as gateway_servicer
    from learning_service import servicer as learning_servicer
    from memory_service import journal, receipt_rpcs, run_memory, run_memory_rpcs, search_rpcs

    limits = {name.split(".v1.", 1)[1]: n for name, n in edge.LIMITS.items() if ".v1." in name}
    pairs = [
        ("CommitTurnRequest.user_text", journal.MAX_TURN_TEXT),
        ("CompleteRunRequest.outcome_text", run_memory.MAX_RUN_TEXT),
        (
            "GetRecoveredMemoryRequest.pending_input",
            run_memory_rpcs.MAX_PENDING_INPUT,
        ),
        ("GetLearnedContextRequest.pending_input", learning_servicer.MAX_INPUT),
        ("AssembleContextRequest.input_text", gateway_servicer.MAX_INPUT_CHARS),
        (
            "ReleaseResponseRequest.candidate_text",
            gateway_servicer.MAX_CANDIDATE_CHARS,
        ),
        ("BatchGetEpisodesRequest.episode_ids", search_rpcs.MAX_BATCH_IDS),
        ("RecordRetrievalAuditRequest.entries", receipt_rpcs.MAX_ENTRIES),
    ]
    for name, service_limit in pairs:
        assert limits[name] >= service_limit, name
    assert edge.DEFAULT_MAX_CHARS >= search_rpcs.MAX_QUERY_TEXT
    assert edge.DEFAULT_MAX_CHARS >= journal.MAX_REASON
    assert edge.LIMITS["google.protobuf.Value.string_value"] >= journal.MAX_PAYLOAD_BYTES


def test_a_clean_request_takes_the_walk_without_field_paths() -> None:
    # The fast walk must accept what the naming walk accepts (or every clean
    # request pays for both walks) and reject what it rejects.
    payload = struct_pb2.Struct()
    payload.update({"context_id": "ctx", "sections": [{"ids": ["a", "b"], "n": 2}], "x": None})
    clean = jpb.RecordContextReceiptsRequest(
        context_id="ctx",
        subject="alice",
        audit_entries=[
            jpb.RetrievalAuditEntry(
                section="episodic_recall", record_id="e1", decision=jpb.AUDIT_DECISION_EVALUATED
            )
        ],
        injections=[jpb.ContextInjection(section="episodic_recall", record_ids=["e1", "Größe"])],
        trace_event=jpb.ContextTraceEvent(event_type="gateway.context.assembled", payload=payload),
    )
    assert edge._clean(clean, 0)
    edge.check(clean)
    dirty = jpb.RecordContextReceiptsRequest()
    dirty.CopyFrom(clean)
    dirty.injections[0].record_ids.append("nul\x00")
    assert not edge._clean(dirty, 0)
    assert field_of(dirty) == "injections[0].record_ids"
    dirty.CopyFrom(clean)
    dirty.trace_event.payload["bad"] = math.nan
    assert not edge._clean(dirty, 0)
    assert field_of(dirty) == "trace_event.payload.bad"


# -- malformed wire bytes ---------------------------------------------------


def _string_field(number: int, raw: bytes) -> bytes:
    return bytes([number << 3 | 2, len(raw)]) + raw


def test_lone_surrogates_are_refused_naming_the_field() -> None:
    # A message cannot hold one (protobuf refuses to encode it); on the wire
    # it is invalid UTF-8 (below). The check stays for any other way in.
    with pytest.raises(UnicodeEncodeError):
        jpb.CommitTurnRequest(user_text="\ud800")
    number = jpb.CommitTurnRequest.DESCRIPTOR.fields_by_name["user_text"].number
    error = edge.malformed(jpb.CommitTurnRequest.DESCRIPTOR, _string_field(number, b"\xed\xa0\x80"))
    assert error.field == "user_text"


def test_invalid_utf8_names_the_field() -> None:
    number = jpb.CommitTurnRequest.DESCRIPTOR.fields_by_name["user_text"].number
    data = _string_field(1, b"alice") + _string_field(number, b"caf\xc3")
    error = edge.malformed(jpb.CommitTurnRequest.DESCRIPTOR, data)
    assert (error.field, error.reason) == ("user_text", "MALFORMED_REQUEST")
    entry = _string_field(
        jpb.RetrievalAuditEntry.DESCRIPTOR.fields_by_name["record_kind"].number, b"\xed\xa0\x80"
    )
    entries = jpb.RecordRetrievalAuditRequest.DESCRIPTOR.fields_by_name["entries"].number
    data = _string_field(entries, b"") + _string_field(entries, entry)
    error = edge.malformed(jpb.RecordRetrievalAuditRequest.DESCRIPTOR, data)
    assert error.field == "entries[1].record_kind"


def test_truncated_bytes_are_named_as_best_possible() -> None:
    assert edge.malformed(gpb.ReleaseResponseRequest.DESCRIPTOR, b"\x0a\x7fab").field
    assert edge.malformed(gpb.ReleaseResponseRequest.DESCRIPTOR, b"\xff").field == "request"


def test_every_request_field_type_is_handled() -> None:
    handled = {
        FieldDescriptor.TYPE_STRING,
        FieldDescriptor.TYPE_DOUBLE,
        FieldDescriptor.TYPE_FLOAT,
        FieldDescriptor.TYPE_ENUM,
        FieldDescriptor.TYPE_BYTES,
        FieldDescriptor.TYPE_MESSAGE,
        # Integers and bools cannot be malformed once parsed; services range-check them.
        FieldDescriptor.TYPE_BOOL,
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_INT64,
    }
    seen: set[str] = set()
    pending = [m.input_type for m in roles.METHODS.values()]
    while pending:
        descriptor = pending.pop()
        if descriptor.full_name in seen:
            continue
        seen.add(descriptor.full_name)
        for field in descriptor.fields:
            assert field.type in handled, field.full_name
            if field.message_type is not None:
                pending.append(field.message_type)


# -- page tokens --------------------------------------------------------------


def _forge(key: bytes, query: dict[str, object], position: dict[str, object]) -> str:
    digest = hashlib.sha256(
        json.dumps(query, sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()[:16]
    body = json.dumps({"q": digest, "p": position}, separators=(",", ":"), sort_keys=True).encode()
    mac = hmac.new(key, b"engram-page-token-v2." + body, hashlib.sha256).hexdigest()
    return base64.urlsafe_b64encode(body + b"." + mac.encode()).decode().rstrip("=")


def test_page_tokens_are_signed_with_the_deployment_secret() -> None:
    query = {"context_id": "c"}
    secret = b"deployment-secret-0123456789"
    token = pagination.secret_var.set(secret)
    try:
        issued = pagination.encode(query, {"after": 7})
        assert pagination.decode(issued, query, {"after": int}) == {"after": 7}
        # Correctly signed (the secret leaked), but the position is not an int.
        for position in ({"after": "abc"}, {"after": -1}, {"after": True}, {"after": 2**64}, {}):
            forged = _forge(secret, query, position)
            with pytest.raises(errors.InvalidArgument, match="page_token"):
                pagination.decode(forged, query, {"after": int})
        # The old public constant key no longer signs anything.
        old = base64.urlsafe_b64encode(b'{"p":{"after":1},"q":"x"}.0000').decode()
        with pytest.raises(errors.InvalidArgument):
            pagination.decode(old, query, {"after": int})
    finally:
        pagination.secret_var.reset(token)
    # Another deployment (or the per-process default) does not accept it.
    with pytest.raises(errors.InvalidArgument, match="not a token"):
        pagination.decode(issued, query, {"after": int})


def test_typed_positions() -> None:
    from datetime import UTC, datetime

    schema = {"score": float, "at": datetime, "run": str}
    at = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    token = pagination.encode({}, {"score": 0.5, "at": at.isoformat(), "run": "r1"})
    assert pagination.decode(token, {}, schema) == {"score": 0.5, "at": at, "run": "r1"}
    secret = b"another-secret-0123456789"
    var = pagination.secret_var.set(secret)
    try:
        for position in (
            {"score": "x", "at": at.isoformat(), "run": "r"},
            {"score": 1.0, "at": "yesterday", "run": "r"},
            {"score": 1.0, "at": "2026-01-02T03:04:05", "run": "r"},  # no timezone
            {"score": 1.0, "at": at.isoformat(), "run": 5},
            {"score": 1.0, "at": at.isoformat(), "run": "r", "extra": 1},
        ):
            with pytest.raises(errors.InvalidArgument):
                pagination.decode(_forge(secret, {}, position), {}, schema)
    finally:
        pagination.secret_var.reset(var)
    with pytest.raises(errors.InvalidArgument):
        pagination.decode("x" * 5000, {}, schema)
    with pytest.raises(errors.InvalidArgument):
        pagination.decode("!!!not-base64", {}, schema)


def test_the_secret_is_generated_once_into_the_data_dir(tmp_path: Path) -> None:
    first = pagination.load_secret("", tmp_path / "data")
    path = tmp_path / "data" / pagination.SECRET_FILE
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert pagination.load_secret("", tmp_path / "data") == first
    assert len(first) >= 32
    assert pagination.load_secret("configured-secret-0123", tmp_path) == b"configured-secret-0123"
    with pytest.raises(errors.InvalidArgument, match="page_token_secret"):
        pagination.load_secret("short", tmp_path)
    path.write_text("x\n")
    with pytest.raises(errors.InvalidArgument, match="page_token_secret"):
        pagination.load_secret("", tmp_path / "data")
    assert list((tmp_path / "data").iterdir()) == [path]
