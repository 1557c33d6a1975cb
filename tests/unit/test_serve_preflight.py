"""`engram serve` refuses bad settings before it starts anything: one line on
stderr, the documented exit code, no PostgreSQL started (no data directory)."""

from __future__ import annotations

import json
import logging
import os
import pty
import re
import socket
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from engram.cli.main import exit_code_for_error
from engram.config import Settings
from engram.errors import (
    FailedPrecondition,
    Internal,
    InvalidArgument,
    NotFound,
    Unavailable,
)
from engram.logs import describe_error, log_retry
from engram.server import check_bindable

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
    """Not a terminal: stderr is the JSON log stream, and the refusal one line of it."""
    lines = result.stderr.splitlines()
    assert result.returncode == code, result.stderr
    assert len(lines) == 1, result.stderr
    line = json.loads(lines[0])
    assert line["level"] == "error"
    assert line["msg"].startswith("refusing to start: ")
    assert needle in line["msg"]
    assert line["exit_code"] == code
    assert line["reason"]
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_on_a_terminal_the_refusal_is_one_human_line(tmp_path: Path) -> None:
    primary, secondary = pty.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    try:
        code = subprocess.run(
            [sys.executable, "-m", "engram.cli.main", "serve", "--log-level", "LOUD",
             "--data-dir", str(tmp_path / "data")],
            check=False, env=env, stdout=subprocess.DEVNULL, stderr=secondary, timeout=60,
            cwd=ROOT,
        ).returncode  # fmt: skip
        os.close(secondary)
        output = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # EIO: the other end is closed
                break
            if not chunk:
                break
            output += chunk
    finally:
        os.close(primary)
    lines = output.decode().splitlines()
    assert code == 2
    assert lines == [
        "error: log_level: unknown level 'LOUD'; choose DEBUG, INFO, WARNING, ERROR, CRITICAL"
    ]


def test_plain_text_logs_when_asked(tmp_path: Path) -> None:
    result = serve(tmp_path, "--embedder", "foo", env={"ENGRAM_LOG_JSON": "false"})
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: embedder: unknown embedder 'foo'; choose minilm, hashing"
    ]


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["--log-level", "LOUD"], 2, "log_level: unknown level 'LOUD'"),
        (["--embedder", "foo"], 2, "embedder: unknown embedder 'foo'"),
        (["--listen", "127.0.0.1"], 2, "listen: '127.0.0.1' is not host:port"),
        (["--database-url", "x=1"], 2, "database_url: is not a PostgreSQL URL"),
        (["--tokens-file", "/nonexistent/tokens.yaml"], 2, "tokens_file: cannot read"),
        (["--metrics-port", "70000"], 2, "metrics_port"),
        # A flag of the wrong type is refused as its environment variable is.
        (["--metrics-port", "abc"], 2, "metrics_port: cannot parse 'abc' as int"),
        (["--processes", "0"], 2, "processes: must be at least 1, not 0"),
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


def test_a_port_taken_after_the_check_is_still_one_clean_error(busy_port: int) -> None:
    # The race the preflight cannot close: the port is taken between the
    # check and gRPC's bind. The bind names why, and gRPC prints nothing.
    code = (
        "import engram.cli.main\n"
        "from engram.config import Settings\n"
        "from engram.errors import FailedPrecondition\n"
        "from engram.server import create_server\n"
        "server = create_server(Settings.load({}, env={}))\n"
        "try:\n"
        f"    server.bind('127.0.0.1:{busy_port}')\n"
        "except FailedPrecondition as exc:\n"
        "    print(exc.message)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ENGRAM_", "GRPC_"))}
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=False, env=env, capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert (
        result.stdout.strip()
        == f"listen: 127.0.0.1:{busy_port} is already in use by another process"
    )
    assert result.stderr == ""


def test_python_warnings_go_through_the_json_log(capsys: pytest.CaptureFixture[str]) -> None:
    from engram.cli.serving import install_log_policy
    from engram.logs import configure_logging

    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        configure_logging("INFO", json_format=True)
        install_log_policy()
        with warnings.catch_warnings():  # pytest records (or raises) warnings otherwise
            warnings.simplefilter("always")
            warnings.warn("something is deprecated", UserWarning, stacklevel=1)
    finally:
        logging.captureWarnings(False)
        root.handlers[:], root.level = handlers, level
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["logger"] == "py.warnings"
    assert "something is deprecated" in record["msg"]


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


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def loop_log() -> Iterator[tuple[logging.Logger, _Capture]]:
    logger = logging.getLogger("engram.test.loop")
    capture = _Capture()
    logger.addHandler(capture)
    try:
        yield logger, capture
    finally:
        logger.removeHandler(capture)
        logger.setLevel(logging.NOTSET)


def _raised(exc: Exception) -> Exception:
    try:
        raise exc
    except Exception as caught:
        return caught


def test_retry_records_are_one_line_with_a_count(
    loop_log: tuple[logging.Logger, _Capture],
) -> None:
    logger, capture = loop_log
    logger.setLevel(logging.INFO)
    log_retry(logger, "step failed; retrying", _raised(Unavailable("database\nunavailable")), 1)
    log_retry(logger, "step failed; retrying", _raised(Unavailable("again")), 2)
    first, second = capture.records
    assert first.exc_info is None, "no traceback at INFO"
    assert first.error == "Unavailable: database unavailable"  # type: ignore[attr-defined]
    assert first.attempt == 1  # type: ignore[attr-defined]
    assert second.attempt == 2  # type: ignore[attr-defined]
    assert first.levelno == logging.ERROR
    log_retry(logger, "%s step failed", ValueError("x"), 7, "review", level=logging.INFO)
    counted = capture.records[-1]
    assert counted.getMessage() == "review step failed" and counted.levelno == logging.INFO
    assert counted.attempt == 7  # type: ignore[attr-defined]


def test_retry_traceback_once_at_debug(loop_log: tuple[logging.Logger, _Capture]) -> None:
    logger, capture = loop_log
    logger.setLevel(logging.DEBUG)
    for attempt in (1, 2, 3):
        log_retry(logger, "x; retrying", _raised(ValueError("v")), attempt)
    assert [r.exc_info is not None for r in capture.records] == [True, False, False]


def test_describe_error_of_a_grpc_error() -> None:
    class Failed(grpc.RpcError):
        def code(self) -> grpc.StatusCode:
            return grpc.StatusCode.UNAVAILABLE

        def details(self) -> str:
            return "database\n unavailable"

    assert describe_error(Failed()) == "RpcError UNAVAILABLE: database unavailable"
