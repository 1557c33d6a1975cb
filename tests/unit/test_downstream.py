"""The kernel client layer (engram.downstream) against real gRPC servers on
port 0: status codes read back as the domain exceptions of the one table,
the caller's call id on every attempt, gRPC's retry policy, the change-stream
reader's errors, and fan-out threads that keep the caller's context."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent import futures
from typing import Any

import grpc
import pytest
from google.protobuf import empty_pb2

from engram import errors
from engram.auth import Role, TokenAuthenticator
from engram.channels import open_channel
from engram.downstream import (
    ContextThreadPool,
    DownstreamError,
    ServiceClient,
    downstream_error,
)
from engram.interceptors import (
    EXCEPTION_TO_STATUS,
    NO_ANSWER_CODES,
    EngramServerInterceptor,
    status_for,
)
from engram.logs import request_id_var

DOMAIN_CODES = sorted(
    {code for cls, code in EXCEPTION_TO_STATUS if issubclass(cls, errors.EngramError)},
    key=lambda c: c.name,
)


@pytest.mark.parametrize("code", DOMAIN_CODES, ids=lambda c: c.name)
def test_a_status_reads_back_as_the_domain_error_of_the_one_table(code: grpc.StatusCode) -> None:
    error = downstream_error("journal", "GetRunRecord", code, "it failed", request_id="r1")
    assert isinstance(error, DownstreamError) and isinstance(error, errors.EngramError)
    # Let through a handler, the error answers the caller with the same code.
    assert status_for(error)[0] is code
    assert error.unreachable is (code is grpc.StatusCode.UNAVAILABLE)
    assert str(error).startswith(f"journal.GetRunRecord: {code.name}")


@pytest.mark.parametrize("code", sorted(NO_ANSWER_CODES, key=lambda c: c.name), ids=str)
def test_no_answer_is_unavailable(code: grpc.StatusCode) -> None:
    error = downstream_error("learning", "GetLearnedContext", code, "")
    assert isinstance(error, errors.Unavailable) and error.unreachable


def test_a_refused_token_is_not_unreachable_and_unknown_is_internal() -> None:
    refused = downstream_error("journal", "X", grpc.StatusCode.PERMISSION_DENIED, "no")
    assert isinstance(refused, errors.PermissionDenied) and not refused.unreachable
    unknown = downstream_error("journal", "X", grpc.StatusCode.UNKNOWN, "?")
    assert isinstance(unknown, errors.Internal) and not unknown.unreachable


RAISE = "/test.Downstream/Raise"
FLAKY = "/test.Downstream/Flaky"
MOVE = "/test.Downstream/Move"
CLASH = "/test.Downstream/Clash"


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ids: list[str] = []
        self.flaky_failures = 0

    def seen(self, context: grpc.ServicerContext) -> None:
        metadata = dict(context.invocation_metadata())
        with self.lock:
            self.ids.append(str(metadata.get("x-request-id", "")))


@pytest.fixture
def server() -> Iterator[tuple[str, Recorder]]:
    recorder = Recorder()

    def raise_(request: bytes, context: grpc.ServicerContext) -> bytes:
        recorder.seen(context)
        raise errors.InvalidArgument("query_text", "is longer than 4096 characters")

    def flaky(request: bytes, context: grpc.ServicerContext) -> bytes:
        recorder.seen(context)
        with recorder.lock:
            fail = recorder.flaky_failures > 0
            recorder.flaky_failures -= 1
        if fail:
            raise errors.Unavailable("warming up")
        return empty_pb2.Empty().SerializeToString()

    def move(request: bytes, context: grpc.ServicerContext) -> bytes:
        detail = errors.TransitionDetail("skill", "s1", "draft", "active", ("verified",))
        raise errors.IllegalTransition(detail)

    def clash(request: bytes, context: grpc.ServicerContext) -> bytes:
        raise errors.Conflict(errors.ConflictInfo("l-1", "codename", "supersede it"), "conflicts")

    handlers = {
        "Raise": grpc.unary_unary_rpc_method_handler(raise_),
        "Move": grpc.unary_unary_rpc_method_handler(move),
        "Clash": grpc.unary_unary_rpc_method_handler(clash),
        "Flaky": grpc.unary_unary_rpc_method_handler(flaky),
    }
    grpc_server = grpc.server(
        futures.ThreadPoolExecutor(4),
        interceptors=[
            EngramServerInterceptor(
                TokenAuthenticator([]), {m: Role.RUNTIME for m in (RAISE, FLAKY, MOVE, CLASH)}
            )
        ],
    )
    grpc_server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("test.Downstream", handlers),)
    )
    port = grpc_server.add_insecure_port("127.0.0.1:0")
    grpc_server.start()
    yield f"127.0.0.1:{port}", recorder
    grpc_server.stop(0)


class _Stub:
    def __init__(self, channel: grpc.Channel) -> None:
        for name, method in (("Raise", RAISE), ("Flaky", FLAKY), ("Move", MOVE), ("Clash", CLASH)):
            setattr(
                self,
                name,
                channel.unary_unary(
                    method,
                    request_serializer=empty_pb2.Empty.SerializeToString,
                    response_deserializer=empty_pb2.Empty.FromString,
                ),
            )


def _client(address: str) -> ServiceClient:
    return ServiceClient.connect("test", address, "", _Stub, 5.0)


def test_invalid_argument_keeps_the_field_and_the_callers_id(
    server: tuple[str, Recorder],
) -> None:
    address, recorder = server
    client = _client(address)
    bound = request_id_var.set("caller-1")
    try:
        with pytest.raises(errors.InvalidArgument) as raised:
            client.call("Raise", empty_pb2.Empty(), empty_pb2.Empty)
    finally:
        request_id_var.reset(bound)
        client.close()
    error = raised.value
    assert isinstance(error, DownstreamError)
    assert error.field == "query_text" and error.description == "is longer than 4096 characters"
    assert error.request_id == "caller-1" and recorder.ids == ["caller-1"]
    assert status_for(error)[0] is grpc.StatusCode.INVALID_ARGUMENT


def test_typed_details_survive_the_hop(server: tuple[str, Recorder]) -> None:
    address, _recorder = server
    client = _client(address)
    try:
        with pytest.raises(errors.IllegalTransition) as moved:
            client.call("Move", empty_pb2.Empty(), empty_pb2.Empty)
        with pytest.raises(errors.Conflict) as clashed:
            client.call("Clash", empty_pb2.Empty(), empty_pb2.Empty)
    finally:
        client.close()
    detail = moved.value.detail
    assert (detail.entity_id, detail.current_state, tuple(detail.allowed_states)) == (
        "s1",
        "draft",
        ("verified",),
    )
    assert status_for(moved.value)[:2] == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "ILLEGAL_TRANSITION",
    )
    assert clashed.value.info == errors.ConflictInfo("l-1", "codename", "supersede it")


def test_unavailable_is_retried_under_the_same_id(server: tuple[str, Recorder]) -> None:
    address, recorder = server
    recorder.flaky_failures = 1
    client = _client(address)
    bound = request_id_var.set("caller-2")
    try:
        assert isinstance(client.call("Flaky", empty_pb2.Empty(), empty_pb2.Empty), empty_pb2.Empty)
    finally:
        request_id_var.reset(bound)
        client.close()
    assert recorder.ids == ["caller-2", "caller-2"]


def test_retries_are_bounded(server: tuple[str, Recorder]) -> None:
    address, recorder = server
    recorder.flaky_failures = 100
    client = _client(address)
    try:
        with pytest.raises(errors.Unavailable) as raised:
            client.call("Flaky", empty_pb2.Empty(), empty_pb2.Empty)
    finally:
        client.close()
    assert isinstance(raised.value, DownstreamError) and raised.value.unreachable
    assert len(recorder.ids) == 3  # channels.RETRY_ATTEMPTS
    assert len(set(recorder.ids)) == 1 and recorder.ids[0]  # a minted id, the same each time


def test_a_channel_without_a_bound_id_mints_one_per_call(server: tuple[str, Recorder]) -> None:
    address, recorder = server
    recorder.flaky_failures = 0
    channel = open_channel(address)
    try:
        call: Callable[..., Any] = channel.unary_unary(FLAKY)
        call(b"")
        call(b"")
    finally:
        channel.close()
    assert len(set(recorder.ids)) == 2 and all(recorder.ids)


def test_an_unreachable_stream_is_unavailable() -> None:
    from engram.downstream import change_stream, journal_client

    client = journal_client("127.0.0.1:1", "", 0.5)
    try:
        stream = change_stream(client, 0, follow=False, timeout_s=0.5)
        with pytest.raises(errors.Unavailable) as raised:
            list(stream)
    finally:
        client.close()
    assert isinstance(raised.value, DownstreamError)
    assert raised.value.method == "StreamChanges"


def test_fanned_out_tasks_keep_the_callers_context() -> None:
    pool = ContextThreadPool(max_workers=2)
    try:
        bound = request_id_var.set("caller-3")
        try:
            seen = [pool.submit(request_id_var.get).result(timeout=5) for _ in range(4)]
        finally:
            request_id_var.reset(bound)
        after = pool.submit(request_id_var.get).result(timeout=5)
    finally:
        pool.shutdown()
    assert seen == ["caller-3"] * 4
    assert after == ""
