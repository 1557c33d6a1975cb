"""``engram cluster up``: the split topology on one host, from one file.

Start order (stop is the reverse, PostgreSQL last):

1. a PostgreSQL primary on TCP from the embedded wheel (engram.db.instance)
   and, with ``standby: true``, a streaming standby cloned from it, whose URL
   the journal gets as ENGRAM_READ_DATABASE_URL;
2. the migrations, once (``engram db migrate``);
3. the journal; then learning and the retrieval replicas (each with its own
   ``--data-dir``); then the gateway replicas; then the router, the one front
   address (engram.cluster.router). Each is an ``engram serve <service>``
   subprocess, and ``up`` waits until its grpc.health.v1 says SERVING.

Addresses between services are comma-separated lists (engram.channels), so
every gateway balances over every retrieval replica. The tokens file is
generated into the data directory: a ``service`` token the processes present
to each other and an ``operator`` token (``<data-dir>/operator-token``) for
operations and tests. ``<data-dir>/cluster.json`` says where everything
listens and its process ids.

A child that exits is reported and, with ``on_exit: restart`` (the default),
started again, up to ``max_restarts`` times within
``restart_window_seconds``; past that, or with ``on_exit: stop``, the whole
cluster stops and ``up`` exits 1. PostgreSQL going down stops the cluster.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engram import pagination
from engram.cluster.config import ClusterConfig
from engram.cluster.processes import Child, free_port, stop_all
from engram.cluster.router import ROUTED_SERVICES
from engram.db.instance import Instance, clone_standby, init_primary
from engram.errors import Unavailable

log = logging.getLogger("engram.cluster")

ROUTER = "router"
DATABASE = "engram"
POSTGRES_CHECK_SECONDS = 5.0
SUPERVISE_POLL_SECONDS = 0.5
STATE_VERSION = 1


def _secret(path: Path, nbytes: int = 32) -> str:
    """The secret in ``path``, created (mode 0600) on first use."""
    if path.exists():
        return path.read_text("utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(nbytes)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(value + "\n")
    return value


def _write_json(path: Path, data: dict[str, Any]) -> None:
    scratch = path.with_name(f".{path.name}.{os.getpid()}")
    scratch.write_text(json.dumps(data, indent=2) + "\n", "utf-8")
    scratch.replace(path)


def read_state(config: ClusterConfig) -> dict[str, Any]:
    """The last cluster.json written for this data directory ({} if none)."""
    try:
        data = json.loads(config.state_file.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def spawn_up(config_path: Path, log_path: Path) -> subprocess.Popen[bytes]:
    """For scripts and tests: ``engram cluster up --config config_path`` in
    the background (output to ``log_path``, no ENGRAM_* variables passed on)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    with log_path.open("wb") as sink:
        return subprocess.Popen(
            _engram("cluster", "up", "--config", str(config_path)),
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=sink,
        )


def wait_ready(
    state_file: Path, process: subprocess.Popen[bytes], timeout_s: float
) -> dict[str, Any]:
    """For scripts and tests that started ``engram cluster up`` as ``process``:
    its cluster.json once the state is ready. Unavailable when the launcher
    exits first or the time runs out."""
    deadline = time.monotonic() + timeout_s
    while process.poll() is None and time.monotonic() < deadline:
        try:
            state = json.loads(state_file.read_text("utf-8"))
        except (OSError, ValueError):
            state = {}
        if isinstance(state, dict) and state.get("state") == "ready":
            return state
        time.sleep(0.2)
    code = process.poll()
    raise Unavailable(
        f"engram cluster up did not become ready (exit code {code})", reason="CLUSTER_NOT_READY"
    )


@dataclass(frozen=True)
class Ports:
    router: int
    journal: int
    learning: int
    retrieval: tuple[int, ...]
    gateway: tuple[int, ...]
    primary: int
    standby: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "router": self.router,
            "journal": self.journal,
            "learning": self.learning,
            "retrieval": list(self.retrieval),
            "gateway": list(self.gateway),
            "primary": self.primary,
            "standby": self.standby,
        }


def choose_ports(config: ClusterConfig, previous: dict[str, Any]) -> Ports:
    """``base_port`` and the ports after it; with 0, the ports of the last run
    of this data directory (a standby keeps its primary's port), new free
    ones for the rest."""
    r, g = config.retrieval_replicas, config.gateway_replicas
    if config.base_port:
        b = config.base_port
        return Ports(
            b, b + 1, b + 2, tuple(range(b + 3, b + 3 + r)),
            tuple(range(b + 3 + r, b + 3 + r + g)), b + 3 + r + g, b + 4 + r + g,
        )  # fmt: skip
    old = previous.get("ports", {}) if isinstance(previous.get("ports"), dict) else {}

    def one(key: str) -> int:
        value = old.get(key)
        return value if isinstance(value, int) and value > 0 else free_port(config.host)

    def many(key: str, count: int) -> tuple[int, ...]:
        values = [v for v in old.get(key, []) if isinstance(v, int) and v > 0][:count]
        return tuple(values + [free_port(config.host) for _ in range(count - len(values))])

    return Ports(
        one("router"), one("journal"), one("learning"), many("retrieval", r),
        many("gateway", g), one("primary"), one("standby"),
    )  # fmt: skip


def _tokens_file(config: ClusterConfig, service_token: str, operator_token: str) -> Path:
    entries = [
        {"name": "cluster-services", "role": "service", "token": service_token},
        {"name": "cluster-operator", "role": "operator", "token": operator_token},
        *config.tokens,
    ]
    path = config.data_dir / "tokens.yaml"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        yaml.safe_dump(entries, out, sort_keys=False)
    return path


def _engram(*args: str) -> list[str]:
    return [sys.executable, "-m", "engram.cli.main", *args]


@dataclass
class Cluster:
    config: ClusterConfig
    primary: Instance | None = None
    standby: Instance | None = None
    children: list[Child] = field(default_factory=list)
    ports: Ports | None = None
    stopping: threading.Event = field(default_factory=threading.Event)
    started_at: float = 0.0
    ready_seconds: float | None = None
    state: str = "starting"

    # -- addresses ------------------------------------------------------------

    def _addr(self, port: int) -> str:
        host = f"[{self.config.host}]" if ":" in self.config.host else self.config.host
        return f"{host}:{port}"

    def addresses(self) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for child in self.children:
            found.setdefault(child.service, []).append(child.address)
        return found

    def write_state(self) -> None:
        services = self.addresses()
        router = services.pop(ROUTER, [""])[0]
        data: dict[str, Any] = {
            "version": STATE_VERSION,
            "state": self.state,
            "launcher_pid": os.getpid(),
            "ready_seconds": self.ready_seconds,
            "router": router,
            "services": services,
            "processes": [child.describe() for child in self.children],
            "postgres": {
                name: {"port": inst.port, "pgdata": str(inst.pgdata), "log": str(inst.logfile)}
                for name, inst in (("primary", self.primary), ("standby", self.standby))
                if inst is not None
            },
            "tokens_file": str(self.config.data_dir / "tokens.yaml"),
            "operator_token_file": str(self.config.data_dir / "operator-token"),
            "ports": self.ports.as_dict() if self.ports else {},
        }
        _write_json(self.config.state_file, data)

    # -- start ------------------------------------------------------------------

    def up(self) -> None:
        """Start everything and return once every process is serving; on any
        failure stop what had started and raise."""
        self.started_at = time.monotonic()
        config = self.config
        config.data_dir.mkdir(parents=True, exist_ok=True)
        self.ports = ports = choose_ports(config, read_state(config))
        self.write_state()
        try:
            database_url, read_url = self._start_postgres(ports)
            self._migrate(database_url)
            self._start_services(ports, database_url, read_url)
        except BaseException:
            self.state = "failed"
            self.down()
            raise
        self.ready_seconds = time.monotonic() - self.started_at
        self.state = "ready"
        self.write_state()
        log.info(
            "cluster ready in %.1fs: router %s",
            self.ready_seconds,
            self.addresses()[ROUTER][0],
            extra={"ready_seconds": round(self.ready_seconds, 3)},
        )

    def _start_postgres(self, ports: Ports) -> tuple[str, str]:
        pg = self.config.data_dir / "postgres"
        self.primary = init_primary(pg / "primary", ports.primary, self.config.host)
        if not self.primary.running():
            self.primary.start()
        database_url = self.primary.create_database(DATABASE)
        read_url = ""
        if self.config.standby:
            self.standby = clone_standby(self.primary, pg / "standby", ports.standby)
            if not self.standby.running():
                self.standby.start()
            read_url = self.standby.url(DATABASE)
        self.write_state()
        return database_url, read_url

    def _migrate(self, database_url: str) -> None:
        done = subprocess.run(
            _engram("db", "migrate", "--database-url", database_url),
            env=self._base_env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise Unavailable(
                f"engram db migrate failed: {(done.stderr or done.stdout).strip()[-2000:]}",
                reason="CLUSTER_MIGRATE_FAILED",
            )

    def _base_env(self) -> dict[str, str]:
        """The launcher's environment without its ENGRAM_* settings (the cluster
        file decides those), plus the cluster file's ``env``."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        return env | self.config.env

    @functools.cached_property
    def _shared_env(self) -> dict[str, str]:
        """What every service process gets (secrets made on first use)."""
        config = self.config
        service_token = _secret(config.data_dir / "service-token")
        operator_token = _secret(config.data_dir / "operator-token")
        tokens = _tokens_file(config, service_token, operator_token)
        return self._base_env() | {
            "ENGRAM_TOKENS_FILE": str(tokens),
            "ENGRAM_SERVICE_TOKEN": service_token,
            # Replicas behind one address must accept each other's page tokens.
            "ENGRAM_PAGE_TOKEN_SECRET": pagination.load_secret("", config.data_dir).decode(),
            "ENGRAM_EMBEDDER": config.embedder,
            "ENGRAM_LOG_LEVEL": config.log_level,
            "ENGRAM_GRACE_SECONDS": str(config.grace_seconds),
        }

    def _child(self, name: str, service: str, port: int, args: Sequence[str], **env: str) -> Child:
        address = self._addr(port)
        data_dir = self.config.data_dir / "services" / name
        command = (
            _engram("serve", service, "--listen", address, *args)
            if service != ROUTER
            else _engram("cluster", "router", "--listen", address, *args)
        )
        health_name = "" if service == ROUTER else ROUTED_SERVICES[service]
        child = Child(
            name=name,
            service=service,
            address=address,
            health_name=health_name,
            command=command,
            env=self._shared_env | {"ENGRAM_DATA_DIR": str(data_dir)} | env,
            log_path=self.config.data_dir / "logs" / f"{name}.log",
        )
        self.children.append(child)
        return child

    def _start_group(self, group: Sequence[Child]) -> None:
        for child in group:
            log.info("starting %s on %s", child.name, child.address)
            child.spawn()
        self.write_state()
        deadline = time.monotonic() + self.config.start_timeout_seconds
        for child in group:
            child.wait_serving(max(1.0, deadline - time.monotonic()), self.stopping.is_set)

    def _start_services(self, ports: Ports, database_url: str, read_url: str) -> None:
        journal_env = {"ENGRAM_DATABASE_URL": database_url}
        if read_url:
            journal_env["ENGRAM_READ_DATABASE_URL"] = read_url
        journal = self._child("journal", "journal", ports.journal, [], **journal_env)
        self._start_group([journal])
        journal_addr = journal.address
        learning = self._child(
            "learning",
            "learning",
            ports.learning,
            ["--journal-addr", journal_addr],
            ENGRAM_DATABASE_URL=database_url,
        )
        retrieval = [
            self._child(f"retrieval-{i + 1}", "retrieval", port, ["--journal-addr", journal_addr])
            for i, port in enumerate(ports.retrieval)
        ]
        self._start_group([learning, *retrieval])
        retrieval_addr = ",".join(child.address for child in retrieval)
        gateway = [
            self._child(
                f"gateway-{i + 1}",
                "gateway",
                port,
                [
                    "--journal-addr",
                    journal_addr,
                    "--learning-addr",
                    learning.address,
                    "--retrieval-addr",
                    retrieval_addr,
                ],
            )
            for i, port in enumerate(ports.gateway)
        ]
        self._start_group(gateway)
        router = self._child(
            ROUTER,
            ROUTER,
            ports.router,
            [
                "--journal-addr", journal_addr,
                "--learning-addr", learning.address,
                "--retrieval-addr", retrieval_addr,
                "--gateway-addr", ",".join(child.address for child in gateway),
            ],
        )  # fmt: skip
        self._start_group([router])

    # -- run and stop -------------------------------------------------------------

    def supervise(self) -> int:
        """Until stop(): restart (or give up on) children that exit. Returns
        the exit code of ``up``: 0 after a requested stop, 1 when the cluster
        stopped itself."""
        next_pg_check = time.monotonic() + POSTGRES_CHECK_SECONDS
        while not self.stopping.wait(SUPERVISE_POLL_SECONDS):
            exited = [c for c in self.children if c.process is not None and not c.alive()]
            for child in exited:
                code = child.process.returncode if child.process is not None else None
                child.exit_codes.append(code if code is not None else 0)
                log.error(
                    "%s (pid %s) exited with code %s",
                    child.name,
                    child.pid,
                    code,
                    extra={"child": child.name, "exit_code": code},
                )
                recent = child.note_restart(self.config.restart_window_seconds)
                if self.config.on_exit == "stop" or recent > self.config.max_restarts:
                    log.error(
                        "stopping the cluster: %s exited (%d recent restarts)",
                        child.name,
                        recent - 1,
                    )
                    return 1
            if exited and not self.stopping.is_set():
                self._restart(exited)
            if time.monotonic() >= next_pg_check:
                next_pg_check = time.monotonic() + POSTGRES_CHECK_SECONDS
                for instance in (self.primary, self.standby):
                    if (
                        instance is not None
                        and not self.stopping.is_set()
                        and not instance.running()
                    ):
                        log.error(
                            "PostgreSQL on port %d is down; stopping the cluster", instance.port
                        )
                        return 1
        return 0

    def _restart(self, children: Sequence[Child]) -> None:
        """Start ``children`` again together, then wait for each to serve."""
        for child in children:
            log.warning("restarting %s", child.name)
            child.spawn()
        self.write_state()
        for child in children:
            try:
                child.wait_serving(self.config.start_timeout_seconds, self.stopping.is_set)
            except Unavailable as exc:
                log.error("%s", exc.message)  # the next round sees it exited (or stopping)
                continue
            log.info("%s serving again on %s (pid %s)", child.name, child.address, child.pid)

    def stop(self) -> None:
        """Ask supervise() (or a start in progress) to end; down() follows."""
        self.stopping.set()

    def down(self) -> None:
        """Stop every process in reverse start order, gracefully, PostgreSQL
        last (once; later calls do nothing)."""
        if self.state == "stopped":
            return
        self.state = "stopping"
        if self.config.state_file.exists():
            self.write_state()
        timeout = self.config.grace_seconds + 15
        order = [ROUTER, "gateway", "retrieval", "learning", "journal"]
        for service in order:
            group = [c for c in self.children if c.service == service and c.process is not None]
            if group:
                log.info("stopping %s", ", ".join(c.name for c in group))
                stop_all(group, timeout)
        for instance in (self.standby, self.primary):
            if instance is not None:
                try:
                    instance.stop()
                except Unavailable as exc:
                    log.error("stopping PostgreSQL on port %d: %s", instance.port, exc.message)
        self.state = "stopped"
        self.write_state()
        log.info("cluster stopped")
