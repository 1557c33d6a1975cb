"""Without a database: the health monitor's state machine and the embedded
server's bookkeeping of handles and postmaster.pid after an unclean exit."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil  # type: ignore[import-untyped]

from engram.db import health
from engram.db.embedded import (
    HANDLES_FILE,
    OWNERS_FILE,
    PIDFILE,
    clear_stale_pidfile,
    forget_dead_handles,
)
from engram.db.health import HealthMonitor
from engram.logs import describe


def wait_for(condition: object, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


class FakeServer:
    def __init__(self) -> None:
        self.up = True
        self.probes = 0

    def probe(self, _url: str) -> Exception | None:
        self.probes += 1
        return None if self.up else ConnectionError("refused\n\tIs the server running?")


def test_monitor_marks_down_on_a_failed_probe_and_up_when_it_answers() -> None:
    server = FakeServer()
    recovered = threading.Event()
    monitor = HealthMonitor("u", "t", on_recovered=recovered.set, probe_fn=server.probe)
    monitor.start()
    try:
        assert not monitor.down
        assert server.probes == 0, "no probing while nothing is suspect"
        server.up = False
        monitor.suspect(broken=True)
        wait_for(lambda: monitor.down)
        started = time.monotonic()
        server.up = True
        wait_for(lambda: not monitor.down)
        assert time.monotonic() - started < health.PROBE_INTERVAL_SECONDS + 0.5
        assert recovered.is_set(), "broken connections are replaced before callers come back"
    finally:
        monitor.close()


def test_a_pooled_connection_that_works_ends_the_outage() -> None:
    server = FakeServer()
    server.up = False
    monitor = HealthMonitor("u", "t", probe_fn=server.probe)
    monitor.start()
    try:
        monitor.suspect()
        wait_for(lambda: monitor.down)
        monitor.alive()
        assert not monitor.down
    finally:
        monitor.close()


def test_a_suspicion_with_the_server_up_changes_nothing() -> None:
    server = FakeServer()
    recovered = threading.Event()
    monitor = HealthMonitor("u", "t", on_recovered=recovered.set, probe_fn=server.probe)
    monitor.start()
    try:
        for _ in range(50):
            monitor.suspect()
        wait_for(lambda: server.probes >= 1)
        time.sleep(0.1)
        assert not monitor.down
        assert server.probes <= 2, "suspicions coalesce"
        assert not recovered.is_set(), "nothing to refresh without a broken connection"
    finally:
        monitor.close()


def test_describe_is_one_line() -> None:
    assert describe(OSError("a\n\tb")) == "OSError: a b"
    assert describe(KeyError()) == "KeyError"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_forget_dead_handles(tmp_path: Path) -> None:
    me = os.getpid()
    my_start = psutil.Process(me).create_time()
    parent = os.getppid()
    dead = _dead_pid()
    (tmp_path / HANDLES_FILE).write_text(json.dumps([dead, me, parent]))
    # parent's recorded start time is wrong: its pid was reused since.
    owners = {str(me): my_start, str(parent): 12.0, str(dead): 1.0}
    (tmp_path / OWNERS_FILE).write_text(json.dumps(owners))
    assert sorted(forget_dead_handles(tmp_path)) == sorted([dead, parent])
    assert json.loads((tmp_path / HANDLES_FILE).read_text()) == [me]
    assert json.loads((tmp_path / OWNERS_FILE).read_text()) == {str(me): my_start}
    assert forget_dead_handles(tmp_path) == []


def test_handles_without_a_record_are_kept_while_alive(tmp_path: Path) -> None:
    (tmp_path / HANDLES_FILE).write_text(json.dumps([os.getppid()]))
    assert forget_dead_handles(tmp_path) == []
    (tmp_path / HANDLES_FILE).write_text("not json")
    assert forget_dead_handles(tmp_path) == []
    assert json.loads((tmp_path / HANDLES_FILE).read_text()) == []


def _pidfile(tmp_path: Path, pid: int, lines: int = 8) -> Path:
    content = [str(pid), str(tmp_path), "1700000000", "5432", str(tmp_path), "", "1 2", "ready"]
    path = tmp_path / PIDFILE
    path.write_text("\n".join(content[:lines]) + "\n")
    return path


def test_pidfile_of_a_reused_pid_is_removed(tmp_path: Path) -> None:
    path = _pidfile(tmp_path, os.getpid())  # this pid is python, not postgres
    assert clear_stale_pidfile(tmp_path) == "removed"
    assert not path.exists()


def test_pidfile_of_a_dead_server_is_left_to_postgres(tmp_path: Path) -> None:
    path = _pidfile(tmp_path, _dead_pid())
    assert clear_stale_pidfile(tmp_path) == "dead"
    assert path.exists()


def test_torn_pidfile_of_a_dead_server_is_removed(tmp_path: Path) -> None:
    path = _pidfile(tmp_path, _dead_pid(), lines=3)
    assert clear_stale_pidfile(tmp_path) == "removed"
    assert not path.exists()
    (tmp_path / PIDFILE).write_text("garbage\n")
    assert clear_stale_pidfile(tmp_path) == "removed"
    assert clear_stale_pidfile(tmp_path) == "none"
