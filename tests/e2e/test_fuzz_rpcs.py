"""Fuzzing every RPC of every service from its descriptor: no input, well-typed
or not, may be answered INTERNAL or UNKNOWN.

For each method of the role table (so a new RPC is fuzzed without touching
this file), hypothesis builds requests from the request descriptor (strings
with NUL, newlines and odd Unicode, NaN and infinities, out-of-range
timestamps, undefined enum values, long lists) and also sends raw bytes (a
valid request with bytes flipped or cut, invalid UTF-8) through an identity
serializer. Examples are few and derandomized so CI stays fast and stable;
ENGRAM_FUZZ_EXAMPLES raises the count and ENGRAM_FUZZ_RANDOM=1 draws new
examples each run, for a longer local hunt.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import message_factory, struct_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor, MethodDescriptor
from google.protobuf.message import Message
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram import roles
from tests.integration.test_learning_support import shared_suite

pytestmark = pytest.mark.e2e

EXAMPLES = int(os.environ.get("ENGRAM_FUZZ_EXAMPLES", "25"))
FORBIDDEN = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN}
TIMEOUT_S = 10.0
MAX_STREAM_MESSAGES = 3
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not os.environ.get("ENGRAM_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)

# Each request is built plausible field by field (by name: ids look like ids,
# request ids are UUIDs, counts are small), then up to two fields are made
# wild (NUL, newlines, odd Unicode, huge or empty, NaN, out-of-range times,
# undefined enums, 300 items), so requests get past the first check and reach
# the code behind it.

VALID_UUID = st.uuids().map(str)
PLAUSIBLE_TEXT: dict[str, st.SearchStrategy[str]] = {
    "subject": st.sampled_from(["alice", "bob"]),
    "workspace": st.sampled_from(["", "default"]),
    "event_type": st.sampled_from(["tool.call.completed", "gateway.response.verdict"]),
    "section": st.sampled_from(["episodic_recall", "learned_context", "recovered_memory"]),
    "record_kind": st.sampled_from(["episode", "learning", "run_record"]),
    "skill_name": st.sampled_from(["release-checklist", "deploy"]),
    "scope_key": st.sampled_from(["", "workspace:default", "session:s-1", "project:p1"]),
    "scope_keys": st.sampled_from(["workspace:default", "session:s-1", "project:p1"]),
    "visible_scope_keys": st.sampled_from(["workspace:default", "project:p1"]),
    "block_sha256": st.just("0" * 64),
    "context_id": st.sampled_from(["ctx-8f14e45f-ceea-467a-9f5e-2c1b2a3d4e5f", "ctx-1"]),
    "address": st.just("127.0.0.1:1"),
    "page_token": st.just(""),
    "expected_content_sha256": st.just(""),
    "terms": st.sampled_from(["Lisbon", "release", "cat"]),
    "topic_terms": st.sampled_from(["Lisbon", "sister"]),
    "event_types": st.sampled_from(["tool.call.completed", "gateway.context.assembled"]),
    "name": st.sampled_from(["rule-a", "rule-b"]),
    "quarantined_rule_names": st.just("rule-a"),
    "record_id": st.sampled_from(["1", "4591cc03-f3ab-476b-bf9c-e61e0a38b7f1", "run-1"]),
    "id": st.sampled_from(["default", "s-1", "p1"]),
}
WORDS = st.sampled_from(
    ["hello", "I moved to Lisbon.", "You never told me that.", "Lisbon", "the release"]
)
WILD_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        ["", "abc\n", " lead", "x" * 129, "a\u0301", "\u202e", "\U0001f600", "not-a-uuid"]
    ),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12).map(lambda s: s + "\x00"),
    st.integers(0, 70_000).map(lambda n: "w " * (n // 2)),
)
PLAUSIBLE_INT: dict[str, st.SearchStrategy[int]] = {
    "confidence": st.integers(0, 100),
    "min_confidence": st.integers(0, 100),
    "attempt": st.integers(1, 3),
    "budget_tokens": st.sampled_from([0, 800, 4000]),
    "retention_seconds": st.sampled_from([3600, 86_400]),
    "timeout_ms": st.sampled_from([100, 2000]),
    "after_cursor": st.integers(0, 3),
    "event_id": st.integers(0, 3),
}
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
# Fields a client usually leaves unset.
USUALLY_UNSET = {
    "occurred_at",
    "expires_at",
    "updated_at",
    "time_window",
    "query_embedding",
    "declared_claims",
    "supersedes",
    "exclude_session_id",
    "persona_id",
    "learning_scopes",
}


def _plausible(field: FieldDescriptor) -> st.SearchStrategy[Any]:
    name, kind = field.name, field.type
    if kind == FieldDescriptor.TYPE_STRING:
        if name in PLAUSIBLE_TEXT:
            return PLAUSIBLE_TEXT[name]
        if name in ("request_id", "candidate_id", "learning_id", "supersedes", "episode_ids"):
            return VALID_UUID
        if "session" in name:
            return st.sampled_from(["s-1", "s-2"])
        if name.endswith(("_id", "_ids")):
            return st.sampled_from(["p1", "run-1", "r9"])
        return WORDS
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return st.floats(-1, 1, width=32)
    if kind in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64):
        return PLAUSIBLE_INT.get(name, st.integers(0, 20))
    if kind == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        values = [v.number for v in field.enum_type.values if v.number] or [0]
        return st.sampled_from(values)
    return st.binary(max_size=8)


def _wild(field: FieldDescriptor) -> st.SearchStrategy[Any]:
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        return WILD_TEXT
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind == FieldDescriptor.TYPE_DOUBLE:
        return st.floats(allow_nan=True, allow_infinity=True)
    if kind == FieldDescriptor.TYPE_FLOAT:
        return st.floats(width=32, allow_nan=True, allow_infinity=True)
    if kind in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64):
        low, high = INT32 if kind == FieldDescriptor.TYPE_INT32 else INT64
        return st.one_of(st.sampled_from([low, high, -1, 0, 101, 1001]), st.integers(low, high))
    if kind == FieldDescriptor.TYPE_ENUM:
        return st.integers(-2, 1000)
    return st.binary(max_size=64)


JSON = st.recursive(
    st.none() | st.booleans() | st.floats(-1e6, 1e6) | WORDS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORDS, inner, max_size=3),
    max_leaves=8,
)
WILD_JSON = st.recursive(
    st.none() | st.booleans() | st.floats(allow_nan=True) | WILD_TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WILD_TEXT, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def _message(
    draw: st.DrawFn, descriptor: Descriptor, depth: int = 0, wild: bool = False
) -> Message:
    cls = message_factory.GetMessageClass(descriptor)
    if descriptor.full_name == "google.protobuf.Struct":
        struct = struct_pb2.Struct()
        values = WILD_JSON if wild else JSON
        struct.update(draw(st.dictionaries(WILD_TEXT if wild else WORDS, values, max_size=4)))
        return struct
    if descriptor.full_name == "google.protobuf.Timestamp":
        if wild:
            seconds = st.integers(-(2**40), 2**40)
            nanos = st.sampled_from([-1, 0, 1_000_000_000, 2**31 - 1])
        else:
            seconds, nanos = st.integers(1_600_000_000, 1_800_000_000), st.integers(0, 10**9 - 1)
        return cls(seconds=draw(seconds), nanos=draw(nanos))
    fields = list(descriptor.fields)
    wild_fields = (
        draw(st.sets(st.sampled_from([f.name for f in fields]), max_size=2))
        if (fields and (wild or depth == 0))
        else set()
    )
    message = cls()
    for field in fields:
        is_wild = field.name in wild_fields
        if is_wild and draw(st.integers(0, 4)) == 0:
            continue  # unset is one way of being wrong
        if not is_wild and field.name in USUALLY_UNSET and draw(st.integers(0, 3)) < 3:
            continue
        if field.message_type is not None:
            if depth > 3:
                continue
            inner = _message(field.message_type, depth + 1, wild=is_wild)
            if field.is_repeated:
                for value in draw(st.lists(inner, min_size=0 if is_wild else 1, max_size=3)):
                    getattr(message, field.name).add().CopyFrom(value)
            else:
                getattr(message, field.name).CopyFrom(draw(inner))
        elif field.is_repeated:
            if field.type == FieldDescriptor.TYPE_FLOAT and not is_wild:
                size = 384  # the hashing embedder's dimension
            else:
                size = draw(st.sampled_from([0, 1, 3, 300])) if is_wild else draw(st.integers(1, 2))
            strategy = _wild(field) if is_wild else _plausible(field)
            getattr(message, field.name).extend(
                draw(st.lists(strategy, min_size=size, max_size=size))
            )
        else:
            setattr(message, field.name, draw(_wild(field) if is_wild else _plausible(field)))
    return message


@st.composite
def _wire(draw: st.DrawFn, descriptor: Descriptor) -> bytes:
    """Bytes that are often almost a valid request."""
    data = bytearray(draw(_message(descriptor)).SerializeToString())
    how = draw(st.sampled_from(["flip", "cut", "utf8", "random"]))
    if how == "flip" and data:
        for _ in range(draw(st.integers(1, 4))):
            data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    elif how == "cut" and data:
        data = data[: draw(st.integers(0, len(data) - 1))]
    elif how == "utf8":
        strings = [f for f in descriptor.fields if f.type == FieldDescriptor.TYPE_STRING]
        if strings:
            field = draw(st.sampled_from(strings))
            raw = draw(st.sampled_from([b"\xff", b"\xed\xa0\x80", b"caf\xc3", b"\xc0\xaf"]))
            data += bytes([field.number << 3 | 2, len(raw)]) + raw
    else:
        data = bytearray(draw(st.binary(max_size=64)))
    return bytes(data)


def _request(method: MethodDescriptor) -> st.SearchStrategy[Message]:
    strategy = _message(method.input_type)
    if method.name == "StreamChanges":
        # A following stream never ends by itself; the fuzz wants answers.
        return strategy.map(lambda m: _set(m, follow=False))
    return strategy


def _set(message: Message, **fields: Any) -> Message:
    for name, value in fields.items():
        setattr(message, name, value)
    return message


@pytest.fixture(scope="module")
def channel(pg_server_url: str, template_database: str) -> Iterator[grpc.Channel]:
    with shared_suite(
        pg_server_url,
        template_database,
        ["journal", "learning", "retrieval", "gateway"],
        workers_enabled=False,
        index_persist=False,
        downstream_timeout_ms=3000,
        max_workers=16,
    ) as (_suite, opened):
        yield opened


def _call(channel: grpc.Channel, method: MethodDescriptor, path: str, data: bytes) -> None:
    """Send raw request bytes; fail on INTERNAL or UNKNOWN."""
    if method.server_streaming:
        stream = channel.unary_stream(path)(data, timeout=TIMEOUT_S)
        try:
            for count, _ in enumerate(stream, start=1):
                if count >= MAX_STREAM_MESSAGES:
                    stream.cancel()
                    break
        except grpc.RpcError as err:
            _check(err, path, data)
        return
    try:
        channel.unary_unary(path)(data, timeout=TIMEOUT_S)
    except grpc.RpcError as err:
        _check(err, path, data)


def _check(err: grpc.RpcError, path: str, data: bytes) -> None:
    code = err.code()  # type: ignore[attr-defined]
    if code == grpc.StatusCode.CANCELLED:
        return
    assert code not in FORBIDDEN, f"{path} answered {code.name}: {err.details()} for {data!r:.300}"  # type: ignore[attr-defined]


METHODS = sorted(roles.METHODS.items())


# The server's connection pool draws jitter from the global random module in its own
# threads; Hypothesis notices the state change during a draw and would warn (an error
# here). The strategies themselves use no global randomness.
@pytest.mark.filterwarnings("ignore:Do not use the:hypothesis.errors.HypothesisDeprecationWarning")
@pytest.mark.parametrize(
    ("path", "method"), METHODS, ids=[p.rsplit(".", 1)[-1] for p, _ in METHODS]
)
def test_no_request_is_answered_internal(
    channel: grpc.Channel, path: str, method: MethodDescriptor
) -> None:
    @FUZZ
    @given(request=_request(method), raw=_wire(method.input_type))
    def run(request: Message, raw: bytes) -> None:
        _call(channel, method, path, request.SerializeToString())
        _call(channel, method, path, raw)

    run()
