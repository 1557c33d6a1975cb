"""`engram serve` refuses bad settings before it starts anything: one line on
stderr, the documented exit code, no PostgreSQL started (no data directory)."""

from __future__ import annotations

import logging
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from engram.cli.main import exit_code_for_error
from engram.cli.serving import RetryLogFilter, check_bindable, describe_error
from engram.config import Settings
from engram.errors import (
    FailedPrecondition,
    Internal,
    InvalidArgument,
    NotFound,
    Unavailable,
)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "operators.md"


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        yield int(sock.getsockname()[1])


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(
    tmp_path: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")} | (env or {})
    return subprocess.run(
        [sys.executable, "-m", "engram.cli.main", "serve", "--data-dir", str(tmp_path / "data"),
         "--listen", "127.0.0.1:0", *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )  # fmt: skip


def assert_refused(result: subprocess.CompletedProcess[str], code: int, needle: str) -> None:
    lines = result.stderr.splitlines()
    assert result.returncode == code, result.stderr
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert needle in lines[0]
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["--log-level", "LOUD"], 2, "log_level: unknown level 'LOUD'"),
        (["--embedder", "foo"], 2, "embedder: unknown embedder 'foo'"),
        (["--listen", "127.0.0.1"], 2, "listen: '127.0.0.1' is not host:port"),
        (["--database-url", "x=1"], 2, "database_url: is not a PostgreSQL URL"),
        (["--tokens-file", "/nonexistent/tokens.yaml"], 2, "tokens_file: cannot read"),
        (["--metrics-port", "70000"], 2, "metrics_port"),
    ],
)
def test_bad_settings_exit_2_before_anything_starts(
    tmp_path: Path, args: list[str], code: int, needle: str
) -> None:
    assert_refused(serve(tmp_path, *args), code, needle)
    assert not (tmp_path / "data").exists(), "nothing may be started or created"


def test_bad_environment_value_exits_2(tmp_path: Path) -> None:
    result = serve(tmp_path, env={"ENGRAM_GRACE_SECONDS": "soon", "ENGRAM_LOG_LEVEL": "INFO"})
    assert_refused(result, 2, "grace_seconds: cannot parse 'soon'")
    assert not (tmp_path / "data").exists()


def test_busy_listen_port_exits_4_before_postgres(tmp_path: Path, busy_port: int) -> None:
    result = serve(tmp_path, "--listen", f"127.0.0.1:{busy_port}")
    assert_refused(result, 4, f"127.0.0.1:{busy_port} is already in use")
    assert not (tmp_path / "data").exists()


def test_busy_metrics_port_exits_4_before_postgres(tmp_path: Path, busy_port: int) -> None:
    result = serve(tmp_path, "--metrics-port", str(busy_port), "--embedder", "hashing")
    assert_refused(result, 4, "metrics_port")
    assert not (tmp_path / "data").exists()


def test_unreachable_database_exits_5(tmp_path: Path) -> None:
    url = f"postgresql://engram:secret-password@127.0.0.1:{closed_port()}/engram"
    result = serve(tmp_path, "journal", "--database-url", url)
    assert_refused(result, 5, "database unreachable")
    assert "secret-password" not in result.stderr
    assert not (tmp_path / "data" / "pg").exists()


def test_a_service_without_database_does_not_check_it(tmp_path: Path, busy_port: int) -> None:
    # gateway needs no database: a bad URL is not its concern, the port is.
    url = f"postgresql://u@127.0.0.1:{closed_port()}/x"
    result = serve(tmp_path, "gateway", "--database-url", url, "--listen", f"127.0.0.1:{busy_port}")
    assert_refused(result, 4, "already in use")


def test_exit_codes_follow_the_status_table() -> None:
    assert exit_code_for_error(InvalidArgument("listen", "bad")) == 2
    assert exit_code_for_error(NotFound("x")) == 3
    assert exit_code_for_error(FailedPrecondition("in use")) == 4
    assert exit_code_for_error(Unavailable("down")) == 5
    assert exit_code_for_error(Internal("boom")) == 7


def test_exit_codes_are_documented() -> None:
    text = DOCS.read_text()
    section = text[text.index("### Exit codes of `engram serve`") :]
    section = section[: section.index("\n## ")]
    for code in ("1", "2", "4", "5", "7", "130", "143"):
        assert re.search(rf"^\| {code} \|", section, re.MULTILINE), code


def test_validate_accepts_defaults_and_names_the_bad_field() -> None:
    assert Settings.load({}, env={}).validate()
    with pytest.raises(InvalidArgument) as err:
        Settings.load({"pool_max_size": 0}, env={}).validate()
    assert err.value.field == "pool_max_size"
    with pytest.raises(InvalidArgument) as err:
        Settings.load({"database_url": "postgresql://u:hunter2@h/x?bogus=1"}, env={}).validate()
    assert "hunter2" not in err.value.message


def test_check_bindable(busy_port: int) -> None:
    check_bindable("listen", "127.0.0.1:0")
    check_bindable("listen", f"127.0.0.1:{closed_port()}")
    with pytest.raises(FailedPrecondition, match="already in use"):
        check_bindable("listen", f"127.0.0.1:{busy_port}")
    with pytest.raises(InvalidArgument, match="cannot resolve"):
        check_bindable("listen", "nonexistent.invalid:5000")


def _record(msg: str, exc: BaseException | None = None, **extra: object) -> logging.LogRecord:
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    record = logging.LogRecord("engram.test.loop", logging.ERROR, __file__, 1, msg, (), exc_info)
    for key, value in extra.items():
        setattr(record, key, value)
    return record


def _raised(exc: Exception) -> Exception:
    try:
        raise exc
    except Exception as caught:
        return caught


def test_retry_records_are_one_line_with_a_count() -> None:
    retry = RetryLogFilter()
    logging.getLogger("engram.test.loop").setLevel(logging.INFO)
    first = _record("step failed; retrying", _raised(Unavailable("database\nunavailable")))
    assert retry.filter(first)
    assert first.exc_info is None, "no traceback at INFO"
    assert first.error == "Unavailable: database unavailable"  # type: ignore[attr-defined]
    assert first.attempt == 1  # type: ignore[attr-defined]
    second = _record("step failed; retrying")
    retry.filter(second)
    assert second.attempt == 2  # type: ignore[attr-defined]
    counted = _record("batch failed", _raised(ValueError("x")), failures=7)
    retry.filter(counted)
    assert counted.exc_info is None
    assert not hasattr(counted, "attempt"), "the loop's own count is kept"
    other = _record("rpc failed", _raised(ValueError("bug")))
    retry.filter(other)
    assert other.exc_info is not None, "not a retry: the traceback stays"


def test_retry_traceback_once_at_debug() -> None:
    retry = RetryLogFilter()
    logging.getLogger("engram.test.loop").setLevel(logging.DEBUG)
    try:
        records = [_record("x; retrying", _raised(ValueError("v"))) for _ in range(3)]
        for record in records:
            retry.filter(record)
        assert [r.exc_info is not None for r in records] == [True, False, False]
    finally:
        logging.getLogger("engram.test.loop").setLevel(logging.NOTSET)


def test_describe_error_of_a_grpc_error() -> None:
    class Failed(grpc.RpcError):
        def code(self) -> grpc.StatusCode:
            return grpc.StatusCode.UNAVAILABLE

        def details(self) -> str:
            return "database\n unavailable"

    assert describe_error(Failed()) == "RpcError UNAVAILABLE: database unavailable"
