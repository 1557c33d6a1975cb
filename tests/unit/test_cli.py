"""The operator CLI without a server: command tree, exit codes, error
decoding and policy files."""

from __future__ import annotations

import socket
from typing import Any

import grpc
import pytest
from click.testing import CliRunner
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from engram.cli.client import (
    EXIT_AUTH,
    EXIT_INVALID,
    EXIT_NOT_FOUND,
    EXIT_OTHER,
    EXIT_PRECONDITION,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    CliError,
    decode_rpc_error,
    exit_code_for,
)
from engram.cli.main import cli
from engram.cli.policy import parse_policy
from engram.common.v1 import common_pb2
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2


def run(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_command_tree_keeps_serve_and_migrate() -> None:
    result = run("--help")
    assert result.exit_code == 0
    for name in (
        "serve", "db", "status", "health", "journal", "runs", "learnings", "candidates",
        "skills", "policy", "context", "quarantine", "index", "import",
    ):  # fmt: skip
        assert f"  {name} " in result.output, name
    assert "--database-url" in run("serve", "--help").output
    assert "--database-url" in run("db", "migrate", "--help").output


@pytest.mark.parametrize(
    "command",
    [
        ["status"],
        ["journal", "read"],
        ["journal", "search"],
        ["runs", "recall"],
        ["runs", "show"],
        ["learnings", "list"],
        ["learnings", "show"],
        ["learnings", "revoke"],
        ["candidates", "list"],
        ["candidates", "show"],
        ["candidates", "publish"],
        ["candidates", "reject"],
        ["skills", "list"],
        ["skills", "show"],
        ["skills", "promote"],
        ["skills", "rollout"],
        ["skills", "revoke"],
        ["skills", "rollback"],
        ["policy", "get"],
        ["policy", "set"],
        ["context", "show"],
        ["quarantine", "add"],
        ["quarantine", "restore"],
        ["quarantine", "list"],
        ["index", "rebuild"],
        ["import", "locomo"],
    ],
)
def test_every_client_command_has_connection_options(command: list[str]) -> None:
    result = run(*command, "--help")
    assert result.exit_code == 0, result.output
    for option in ("--address", "--token", "--json", "ENGRAM_ADDRESS", "ENGRAM_TOKEN"):
        assert option in result.output


def test_usage_errors_exit_1() -> None:
    assert run("journal", "read").exit_code == EXIT_USAGE
    assert run("journal", "read", "a", "b", "--bogus").exit_code == EXIT_USAGE
    assert run("no-such-command").exit_code == EXIT_USAGE
    assert run("quarantine", "add", "planet", "x", "--reason", "r").exit_code == EXIT_USAGE


@pytest.mark.parametrize(
    ("code", "exit_code"),
    [
        (grpc.StatusCode.INVALID_ARGUMENT, EXIT_INVALID),
        (grpc.StatusCode.OUT_OF_RANGE, EXIT_INVALID),
        (grpc.StatusCode.NOT_FOUND, EXIT_NOT_FOUND),
        (grpc.StatusCode.FAILED_PRECONDITION, EXIT_PRECONDITION),
        (grpc.StatusCode.ABORTED, EXIT_PRECONDITION),
        (grpc.StatusCode.ALREADY_EXISTS, EXIT_PRECONDITION),
        (grpc.StatusCode.UNAVAILABLE, EXIT_UNAVAILABLE),
        (grpc.StatusCode.DEADLINE_EXCEEDED, EXIT_UNAVAILABLE),
        (grpc.StatusCode.UNAUTHENTICATED, EXIT_AUTH),
        (grpc.StatusCode.PERMISSION_DENIED, EXIT_AUTH),
        (grpc.StatusCode.INTERNAL, EXIT_OTHER),
        (grpc.StatusCode.UNKNOWN, EXIT_OTHER),
    ],
)
def test_status_code_exit_codes(code: grpc.StatusCode, exit_code: int) -> None:
    assert exit_code_for(code) == exit_code


class FakeRpcError(grpc.RpcError):
    def __init__(self, code: grpc.StatusCode, message: str, details: list[Any]) -> None:
        self._code, self._message = code, message
        packed = []
        for detail in details:
            item = any_pb2.Any()
            item.Pack(detail)
            packed.append(item)
        status = status_pb2.Status(
            code=getattr(code_pb2, code.name), message=message, details=packed
        )
        self._trailers = (("grpc-status-details-bin", status.SerializeToString()),)

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._message

    def trailing_metadata(self) -> Any:
        return self._trailers


def test_decode_invalid_argument_names_the_field() -> None:
    error = FakeRpcError(
        grpc.StatusCode.INVALID_ARGUMENT,
        "must be at most 100",
        [error_details_pb2.ErrorInfo(reason="INVALID_ARGUMENT", metadata={"field": "limit"})],
    )
    failure = decode_rpc_error(error)
    assert failure.field_name == "limit"
    assert failure.reason == "INVALID_ARGUMENT"
    assert failure.describe() == "INVALID_ARGUMENT: limit: must be at most 100"
    # A message that already starts with the field is not prefixed twice.
    same = decode_rpc_error(
        FakeRpcError(
            grpc.StatusCode.INVALID_ARGUMENT,
            "limit: must be at most 100",
            [error_details_pb2.ErrorInfo(metadata={"field": "limit"})],
        )
    )
    assert same.describe() == "INVALID_ARGUMENT: limit: must be at most 100"
    assert same.as_dict()["field"] == "limit"


def test_decode_illegal_transition_detail() -> None:
    error = FakeRpcError(
        grpc.StatusCode.FAILED_PRECONDITION,
        "cannot publish",
        [
            error_details_pb2.ErrorInfo(reason="ILLEGAL_TRANSITION"),
            common_pb2.IllegalTransition(
                entity="candidate",
                entity_id="c1",
                current_state="rejected",
                requested_state="published",
            ),
        ],
    )
    failure = decode_rpc_error(error)
    assert failure.transition is not None
    assert "candidate c1 is rejected; cannot move to published" in failure.describe()
    assert failure.as_dict()["illegal_transition"]["current_state"] == "rejected"


def test_unreachable_server_exits_5() -> None:
    address = f"127.0.0.1:{closed_port()}"
    result = run("journal", "read", "alice", "s1", "--address", address, "--timeout", "5")
    assert result.exit_code == EXIT_UNAVAILABLE
    assert "UNAVAILABLE" in result.output
    status = run("status", "--address", address, "--timeout", "5")
    assert status.exit_code == EXIT_UNAVAILABLE
    assert "UNREACHABLE" in status.output
    health = run("health", "--address", address, "--timeout", "5")
    assert health.exit_code == EXIT_UNAVAILABLE


def test_errors_as_json_for_scripts() -> None:
    address = f"127.0.0.1:{closed_port()}"
    result = run("runs", "recall", "alice", "s1", "--address", address, "--json", "--timeout", "5")
    assert result.exit_code == EXIT_UNAVAILABLE
    assert '"code": "UNAVAILABLE"' in result.output


def test_parse_policy_yaml_and_json() -> None:
    yaml_text = (
        "enabled: true\nretention_seconds: 60\nsearch_visibility: SEARCH_VISIBILITY_SESSION_ONLY\n"
    )
    policy = parse_policy(yaml_text, journal_pb2.RunMemoryPolicy, "p.yaml")
    assert isinstance(policy, journal_pb2.RunMemoryPolicy)
    assert policy.retention_seconds == 60
    wrapped = parse_policy(
        '{"policy": {"mode": "AUTOMATION_MODE_ENABLED"}}', learning_pb2.LearningPolicy, "p.json"
    )
    assert isinstance(wrapped, learning_pb2.LearningPolicy)
    assert wrapped.mode == learning_pb2.AUTOMATION_MODE_ENABLED
    # Server-managed fields printed by `policy get` are accepted and dropped.
    echoed = parse_policy(
        "enabled: true\nupdated_by: alice\nupdated_at: '2026-01-01T00:00:00Z'\n",
        journal_pb2.RunMemoryPolicy,
        "p.yaml",
    )
    assert isinstance(echoed, journal_pb2.RunMemoryPolicy)
    assert echoed.updated_by == ""


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("mode: AUTOMATION_MODE_BOGUS\n", "LearningPolicy.mode"),
        ("no_such_field: 1\n", "no_such_field"),
        ("- a list\n", "mapping"),
        ("mode: [unclosed\n", "not YAML"),
    ],
)
def test_parse_policy_errors_exit_2(text: str, needle: str) -> None:
    with pytest.raises(CliError) as raised:
        parse_policy(text, learning_pb2.LearningPolicy, "p.yaml")
    assert raised.value.exit_code == EXIT_INVALID
    assert needle in raised.value.format_message()


def test_policy_set_bad_file_exits_2_before_any_call(tmp_path: Any) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text("mode: 7\ncapture: {run_summary_enabled: maybe}\n", encoding="utf-8")
    address = f"127.0.0.1:{closed_port()}"  # never reached
    result = run("policy", "set", "learning", str(path), "--address", address)
    assert result.exit_code == EXIT_INVALID
    assert "policy.yaml" in result.output


def test_import_rejects_non_locomo_file(tmp_path: Any) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"not": "a list"}', encoding="utf-8")
    result = run("import", "locomo", str(path), "--address", f"127.0.0.1:{closed_port()}")
    assert result.exit_code == EXIT_INVALID
    assert "expected a list" in result.output
