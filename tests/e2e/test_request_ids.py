"""One call id (x-request-id) ties a call together: an AssembleContext sent with
an id reaches every plane it fans out to, and every plane those call, under
the same id, on three real servers; the id comes back in the trailers on
success and on error, and the CLI sends one and prints it with an error."""

from __future__ import annotations

import io
import json
import logging
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from click.testing import CliRunner
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram.cli.client import EXIT_NOT_FOUND
from engram.cli.main import cli
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.logs import ContextFilter, JsonFormatter
from engram.server import Suite
from tests.helpers import commit_turn

GATEWAY = "/engram.gateway.v1.GatewayService/"
JOURNAL = "/engram.journal.v1.JournalService/"
LEARNING = "/engram.learning.v1.LearningService/"
RETRIEVAL = "/engram.retrieval.v1.RetrievalService/"


@pytest.fixture
def log_lines() -> Iterator[Callable[[], list[dict[str, Any]]]]:
    """Every engram log line in the production JSON form, DEBUG included (each
    served RPC logs `rpc done` / `stream done` under the call's id and method)."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("engram")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)

    def lines() -> list[dict[str, Any]]:
        handler.flush()
        return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]

    try:
        yield lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


@pytest.fixture
def fanned_out(
    start_services: Callable[..., Suite],
) -> tuple[Suite, Suite, Suite]:
    """Three servers: the journal; learning and retrieval (background workers
    off, so Recall is served by the journal's search: retrieval calls the
    journal on every Recall); the gateway in front of both."""
    journal = start_services(["journal"])
    planes = start_services(
        ["learning", "retrieval"], journal_addr=journal.address, workers_enabled=False
    )
    gateway = start_services(
        ["gateway"],
        journal_addr=journal.address,
        learning_addr=planes.address,
        retrieval_addr=planes.address,
        downstream_timeout_ms=5000,
    )
    return journal, planes, gateway


def _trailer(call_or_error: Any) -> str:
    return next((v for k, v in call_or_error.trailing_metadata() or () if k == "x-request-id"), "")


def test_one_id_follows_an_assemble_context_fan_out(
    fanned_out: tuple[Suite, Suite, Suite],
    channel_to: Callable[..., grpc.Channel],
    log_lines: Callable[[], list[dict[str, Any]]],
) -> None:
    journal_suite, _planes, gateway_suite = fanned_out
    journal = jpb_grpc.JournalServiceStub(channel_to(journal_suite))
    commit_turn(journal, "My sister Zelda lives in Porto.", "Noted.", session_id="s0")
    gateway = gpb_grpc.GatewayServiceStub(channel_to(gateway_suite))
    call_id = f"trace-{uuid.uuid4()}"
    request = gpb.AssembleContextRequest(
        subject="alice",
        session_id="s1",
        input_text="where does Zelda live?",
        request_id=str(uuid.uuid4()),
    )
    _response, call = gateway.AssembleContext.with_call(
        request, metadata=(("x-request-id", call_id),)
    )
    assert _trailer(call) == call_id

    ours = [line for line in log_lines() if line.get("request_id") == call_id]
    served = {line["method"] for line in ours if line["msg"] in ("rpc done", "stream done")}
    assert {
        GATEWAY + "AssembleContext",
        # the gateway's fan-out
        LEARNING + "GetLearnedContext",
        JOURNAL + "GetRecoveredMemory",
        JOURNAL + "GetSessionContext",
        RETRIEVAL + "Recall",
        # (learning reads the journal's quarantine tables itself on a shared database,
        # so the learned context makes no journal call)
        # retrieval -> journal: Recall served by the journal's search
        JOURNAL + "SearchEpisodes",
    } <= served, sorted(served)
    # No line of the call went out under another id: every line naming one of
    # these downstream methods for this request carries the caller's id.
    assert all(line["request_id"] == call_id for line in ours)

    # Another call gets another id (nothing leaks between calls).
    _, other = gateway.AssembleContext.with_call(
        gpb.AssembleContextRequest(
            subject="alice", session_id="s1", input_text="hi", request_id=str(uuid.uuid4())
        )
    )
    assert _trailer(other) not in ("", call_id)


def test_the_id_comes_back_on_an_error(
    fanned_out: tuple[Suite, Suite, Suite],
    channel_to: Callable[..., grpc.Channel],
    log_lines: Callable[[], list[dict[str, Any]]],
) -> None:
    gateway = gpb_grpc.GatewayServiceStub(channel_to(fanned_out[2]))
    call_id = f"bad-{uuid.uuid4()}"
    with pytest.raises(grpc.RpcError) as raised:
        gateway.AssembleContext(
            gpb.AssembleContextRequest(session_id="s1", input_text="x"),
            metadata=(("x-request-id", call_id),),
        )
    error: Any = raised.value
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert _trailer(error) == call_id
    status = rpc_status.from_call(error)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details)
    assert info.metadata["request_id"] == call_id
    failed = [line for line in log_lines() if line.get("request_id") == call_id]
    assert any(line["msg"] == "rpc error" for line in failed), failed


def test_the_cli_sends_one_id_and_prints_it_with_an_error(
    start_services: Callable[..., Suite], log_lines: Callable[[], list[dict[str, Any]]]
) -> None:
    suite = start_services(["journal"])
    runner = CliRunner()
    result = runner.invoke(
        cli, ["runs", "show", "alice", "run-missing", "--address", suite.address]
    )
    assert result.exit_code == EXIT_NOT_FOUND, result.output
    printed = [
        line.split("request id:", 1)[1].strip()
        for line in result.output.splitlines()
        if "request id:" in line
    ]
    assert len(printed) == 1 and printed[0], result.output
    served = {line["method"] for line in log_lines() if line.get("request_id") == printed[0]}
    assert JOURNAL + "GetRunRecord" in served, served

    as_json = runner.invoke(
        cli, ["runs", "show", "alice", "run-missing", "--json", "--address", suite.address]
    )
    assert as_json.exit_code == EXIT_NOT_FOUND
    body = json.loads(as_json.stderr.strip().splitlines()[-1])
    assert body["error"]["request_id"] and body["error"]["request_id"] != printed[0]
