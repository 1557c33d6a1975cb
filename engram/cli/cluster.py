"""`engram cluster`: the split topology on one host (engram.cluster).

engram cluster up --config deploy/cluster.example.yaml    # foreground; Ctrl-C stops
engram cluster status --config deploy/cluster.example.yaml
engram cluster stop --config deploy/cluster.example.yaml
"""

from __future__ import annotations

import signal
import socket
import threading
import time
from pathlib import Path
from types import FrameType
from typing import Any

import click

from engram.errors import EngramError, InvalidArgument

STOP_TIMEOUT_SECONDS = 120.0


def _load(config_path: str) -> Any:
    from engram.cluster.config import load

    return load(Path(config_path))


def _exit_for(exc: EngramError) -> int:
    from engram.cli.client import exit_code_for
    from engram.interceptors import status_for

    return exit_code_for(status_for(exc)[0])


@click.group("cluster")
def cluster_group() -> None:
    """Run journal, learning, retrieval and gateway replicas, PostgreSQL and a
    front router on this host, from one file (docs/deploy.md, "One-host cluster")."""


_config_option = click.option(
    "--config",
    "config_path",
    required=True,
    type=click.Path(dir_okay=False),
    help="cluster file (deploy/cluster.example.yaml)",
)


@cluster_group.command("up")
@_config_option
def up_command(config_path: str) -> None:
    """Start the cluster and supervise it in the foreground until SIGTERM/SIGINT,
    which stop every process in reverse order (PostgreSQL last)."""
    from engram.cli.serving import human_stderr
    from engram.cluster.launcher import ROUTER, Cluster
    from engram.logs import configure_logging

    config = _load(config_path)
    configure_logging(config.log_level, json_format=not human_stderr())
    cluster = Cluster(config)

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        if not cluster.stopping.is_set():
            click.echo(f"received {signal.Signals(signum).name}: stopping the cluster", err=True)
        cluster.stop()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    code = 0
    try:
        cluster.up()
        click.echo(
            f"cluster ready in {cluster.ready_seconds:.1f}s: router "
            f"{cluster.addresses()[ROUTER][0]} (addresses in {config.state_file}, "
            f"operator token in {config.data_dir / 'operator-token'})",
            err=True,
        )
        code = cluster.supervise()
    except EngramError as exc:
        click.echo(f"error: {exc.message}", err=True)
        code = 1 if cluster.stopping.is_set() else _exit_for(exc)
    finally:
        cluster.down()
    raise SystemExit(code)


def _port_open(port: int, host: str) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


@cluster_group.command("status")
@_config_option
def status_command(config_path: str) -> None:
    """Each process of the cluster: pid, address, health. Exit 0 when every
    one serves, 1 otherwise."""
    from engram.cluster.launcher import read_state
    from engram.cluster.processes import pid_alive, serving
    from engram.cluster.router import ROUTED_SERVICES

    config = _load(config_path)
    state = read_state(config)
    if not state:
        raise InvalidArgument("config", f"no cluster has run in {config.data_dir}")
    launcher_up = pid_alive(state.get("launcher_pid"))
    click.echo(f"cluster {state.get('state')}" + ("" if launcher_up else " (launcher not running)"))
    healthy = launcher_up and state.get("state") == "ready"
    for name, pg in state.get("postgres", {}).items():
        up = _port_open(int(pg["port"]), config.host)
        healthy &= up
        click.echo(f"  postgres-{name:<11} {config.host}:{pg['port']:<6} {'up' if up else 'DOWN'}")
    for process in state.get("processes", []):
        health_name = ROUTED_SERVICES.get(process["service"], "")
        alive = pid_alive(process.get("pid"))
        ok = alive and serving(process["address"], health_name)
        healthy &= ok
        click.echo(
            f"  {process['name']:<20} {process['address']:<21} pid {process.get('pid')!s:<8} "
            f"{'SERVING' if ok else ('NOT_SERVING' if alive else 'EXITED')}"
            + (f" (restarts {process['restarts']})" if process.get("restarts") else "")
        )
    raise SystemExit(0 if healthy else 1)


@cluster_group.command("stop")
@_config_option
def stop_command(config_path: str) -> None:
    """SIGTERM the running `engram cluster up` and wait until it has stopped."""
    import os

    from engram.cluster.launcher import read_state
    from engram.cluster.processes import pid_alive

    config = _load(config_path)
    pid = read_state(config).get("launcher_pid")
    if not isinstance(pid, int) or not pid_alive(pid):
        click.echo("not running")
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if pid_alive(pid):
        raise SystemExit(f"engram cluster up (pid {pid}) still running")
    click.echo("stopped")


@cluster_group.command("router")
@click.option("--listen", required=True, help="host:port to serve on")
@click.option("--journal-addr", default="", help="JournalService address or list")
@click.option("--learning-addr", default="", help="LearningService address or list")
@click.option("--retrieval-addr", default="", help="RetrievalService address or list")
@click.option("--gateway-addr", default="", help="GatewayService address or list")
@click.option("--grace-seconds", default=5.0, type=float, help="drain time on shutdown")
def router_command(
    listen: str,
    journal_addr: str,
    learning_addr: str,
    retrieval_addr: str,
    gateway_addr: str,
    grace_seconds: float,
) -> None:
    """Serve one address in front of the services' backends, forwarding each
    call by its service path, round-robin over each service's list."""
    import logging

    from engram.cli.serving import human_stderr
    from engram.cluster.router import start_router
    from engram.config import split_address
    from engram.logs import configure_logging

    configure_logging("INFO", json_format=not human_stderr())
    split_address("listen", listen)
    backends = {
        name: address
        for name, address in (
            ("journal", journal_addr),
            ("learning", learning_addr),
            ("retrieval", retrieval_addr),
            ("gateway", gateway_addr),
        )
        if address
    }
    if not backends:
        raise InvalidArgument("journal_addr", "give at least one service's address")
    done = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda _s, _f: done.set())
    running = start_router(listen, backends)
    log = logging.getLogger("engram.cluster.router")
    log.info(
        "engram router serving %s on %s:%d",
        ",".join(backends),
        listen.rsplit(":", 1)[0],
        running.port,
        extra={"port": running.port},
    )
    try:
        done.wait()
    finally:
        running.stop(grace_seconds)
