"""One supervised child of ``engram cluster``: a subprocess with its own log
file, health-checked with grpc.health.v1, stopped with SIGTERM (SIGKILL after
the grace period), restarted when it dies unless it restarts too often."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from engram.errors import Unavailable

HEALTH_POLL_SECONDS = 0.2


def _bound_to_parent(command: Sequence[str]) -> list[str]:
    """``command`` run so that the kernel sends it SIGTERM when the launcher
    dies, even by SIGKILL, and a lost launcher leaves nothing serving: through
    util-linux's ``setpriv --pdeathsig`` where there is one (Linux). Not a
    ``preexec_fn``: Python code between fork and exec can deadlock on a lock
    another thread (gRPC's) held at the fork."""
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return list(command)
    return [setpriv, "--pdeathsig", "TERM", "--", *command]


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def serving(address: str, service: str, timeout: float = 2.0) -> bool:
    """Whether ``address`` answers grpc.health.v1 Check(service) with SERVING."""
    channel = grpc.insecure_channel(address)
    try:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=timeout
        )
        return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)
    except grpc.RpcError:
        return False
    finally:
        channel.close()


@dataclass
class Child:
    """A service process: ``command`` with ``env``, listening on ``address``
    and healthy when Check(``health_name``) says SERVING."""

    name: str
    service: str
    address: str
    health_name: str
    command: Sequence[str]
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    restarts: deque[float] = field(default_factory=deque)
    exit_codes: list[int] = field(default_factory=list)

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def spawn(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as sink:
            self.process = subprocess.Popen(
                _bound_to_parent(self.command),
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=sink,
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def wait_serving(self, timeout_s: float, cancelled: Callable[[], bool] = lambda: False) -> None:
        """Until healthy; Unavailable (with the log's tail) when the process
        exits, the time runs out or ``cancelled()`` turns true."""
        deadline = time.monotonic() + timeout_s
        while not serving(self.address, self.health_name):
            if not self.alive():
                code = self.process.returncode if self.process is not None else None
                raise Unavailable(
                    f"{self.name} exited with code {code} while starting: {self.log_tail()}",
                    reason="CLUSTER_CHILD_FAILED",
                )
            if cancelled():
                raise Unavailable(f"{self.name}: start cancelled", reason="CLUSTER_STOPPING")
            if time.monotonic() > deadline:
                raise Unavailable(
                    f"{self.name} not serving after {timeout_s:.0f}s: {self.log_tail()}",
                    reason="CLUSTER_CHILD_FAILED",
                )
            time.sleep(HEALTH_POLL_SECONDS)

    def terminate(self) -> None:
        if self.alive() and self.process is not None:
            self.process.send_signal(signal.SIGTERM)

    def wait_stopped(self, timeout_s: float) -> int | None:
        """Wait for the exit after terminate(); SIGKILL past ``timeout_s``."""
        if self.process is None:
            return None
        try:
            return self.process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()

    def note_restart(self, window_s: float) -> int:
        """Record a restart now; returns the restarts within the last ``window_s``."""
        now = time.monotonic()
        self.restarts.append(now)
        while self.restarts and now - self.restarts[0] > window_s:
            self.restarts.popleft()
        return len(self.restarts)

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:].strip()
        except OSError:
            return ""

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "service": self.service,
            "address": self.address,
            "pid": self.pid,
            "log": str(self.log_path),
            "restarts": len(self.exit_codes),
        }


def stop_all(children: Sequence[Child], timeout_s: float) -> None:
    """SIGTERM every child at once, then wait for each (SIGKILL past the timeout)."""
    for child in children:
        child.terminate()
    deadline = time.monotonic() + timeout_s
    for child in children:
        child.wait_stopped(max(0.1, deadline - time.monotonic()))


def pid_alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
