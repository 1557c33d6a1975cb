"""The embedded PostgreSQL is stopped on every graceful exit, also after an
earlier unclean one: `engram serve` killed with SIGKILL leaves its server
running; the next `engram serve` on the data directory adopts it and stops
it on SIGTERM."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil  # type: ignore[import-untyped]
import pytest

from engram.db.embedded import HANDLES_FILE

ROOT = Path(__file__).resolve().parents[2]


def _serve(data_dir: Path, log: Path) -> subprocess.Popen[bytes]:
    """`engram serve journal`, once it says it serves (stderr goes to `log`:
    a pipe nobody reads could fill up and block the server)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    env |= {"ENGRAM_EMBEDDER": "hashing", "ENGRAM_INDEX_PERSIST": "false"}
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, "-m", "engram.cli.main", "serve", "journal",
             "--data-dir", str(data_dir), "--listen", "127.0.0.1:0"],
            env=env,
            stderr=sink,
            cwd=ROOT,
        )  # fmt: skip
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and process.poll() is None:
        # The JSON log line that says so comes once start-up is complete.
        if re.search(r'"msg": "engram \S+ serving journal on', log.read_text()):
            return process
        time.sleep(0.05)
    process.kill()
    raise AssertionError(f"serve did not start (exit {process.poll()}): {log.read_text()}")


def _postmaster(pgdata: Path) -> psutil.Process | None:
    pidfile = pgdata / "postmaster.pid"
    if not pidfile.exists():
        return None
    try:
        process = psutil.Process(int(pidfile.read_text().splitlines()[0]))
    except (psutil.NoSuchProcess, ValueError, IndexError):
        return None
    return process if process.name().startswith("postgres") else None


@pytest.fixture
def data_dir() -> Iterator[Path]:
    # Not under tmp_path: as root the server runs as another user, who must
    # traverse every parent, and pytest keeps its base directory private.
    path = Path(tempfile.mkdtemp(prefix="engram-recovery-", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_sigkill_then_serve_and_sigterm_leaves_no_postmaster(
    data_dir: Path, tmp_path: Path
) -> None:
    pgdata = data_dir / "pg"
    first = _serve(data_dir, tmp_path / "first.log")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    orphan = _postmaster(pgdata)
    assert orphan is not None, "SIGKILL leaves the server running"
    assert json.loads((pgdata / HANDLES_FILE).read_text()) == [first.pid]

    log = tmp_path / "second.log"
    second = _serve(data_dir, log)
    try:
        adopted = _postmaster(pgdata)
        assert adopted is not None and adopted.pid == orphan.pid
        assert json.loads((pgdata / HANDLES_FILE).read_text()) == [second.pid]
        assert "adopting the embedded PostgreSQL" in log.read_text()
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=60) == 0, log.read_text()
    finally:
        if second.poll() is None:
            second.kill()
            second.wait()
    orphan.wait(timeout=10)  # the adopted postmaster exits
    assert _postmaster(pgdata) is None
    assert not orphan.is_running()
    assert json.loads((pgdata / HANDLES_FILE).read_text()) == []
    assert "embedded PostgreSQL stopped" in log.read_text()
