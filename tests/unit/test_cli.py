"""The operator CLI without a server: command tree, exit codes, error
decoding and policy files."""

from __future__ import annotations

import re
import socket
from pathlib import Path
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
    STATUS_EXIT_CODES,
    decode_rpc_error,
    exit_code_for,
)
from engram.cli.main import cli
from engram.common.v1 import common_pb2


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


def test_usage_errors_exit_2_as_documented(tmp_path: Any) -> None:
    assert EXIT_USAGE == 2
    assert run("journal", "read").exit_code == EXIT_USAGE
    assert run("journal", "read", "a", "b", "--bogus").exit_code == EXIT_USAGE
    assert run("no-such-command").exit_code == EXIT_USAGE
    assert run("quarantine", "add", "planet", "x", "--reason", "r").exit_code == EXIT_USAGE
    assert run("learnings", "list", "--limit", "many").exit_code == EXIT_USAGE
    # "an unreadable policy file" is exit 2 in docs/operators.md.
    missing = run("policy", "set", "learning", str(tmp_path / "missing.yaml"))
    assert missing.exit_code == EXIT_INVALID == 2
    assert run("serve", "--metrics-port", "abc").exit_code == 2


def test_exit_code_table_matches_the_docs() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "operators.md").read_text()
    section = docs[docs.index("### Exit codes\n") : docs.index("### Exit codes of `engram serve`")]
    documented = {
        int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| (.*)$", section, re.M)
    }
    assert sorted(documented) == [0, 1, 2, 3, 4, 5, 6, 7]
    assert "usage error" in documented[EXIT_USAGE]
    for code, exit_code in STATUS_EXIT_CODES.items():
        if code is not grpc.StatusCode.OK:
            assert f"`{code.name}`" in documented[exit_code], code.name


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


def test_import_rejects_non_locomo_file(tmp_path: Any) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"not": "a list"}', encoding="utf-8")
    result = run("import", "locomo", str(path), "--address", f"127.0.0.1:{closed_port()}")
    assert result.exit_code == EXIT_INVALID
    assert "expected a list" in result.output
