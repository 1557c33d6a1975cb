"""`engram serve`: refuse bad settings before anything starts, start the
suite, and keep background retry logs to one line each.

Exit codes of `engram serve` (docs/operators.md, "Exit codes of engram
serve"), one line on stderr each (a JSON log line unless stderr is a
terminal):

  1  an unexpected crash (a bug)
  2  usage (unknown flag or service) or an invalid setting: a value that
     cannot work (log level, embedder, listen address, an unreadable tokens
     file, ...)
  4  the listen or metrics address is already in use; a migration changed
     after it was applied
  5  the database is unreachable (an external URL that does not answer, an
     embedded PostgreSQL that does not start)
  7  anything else while starting (logged with its traceback)
  130 / 143  a second SIGINT / SIGTERM while starting (the first one stops
     gracefully once start-up is complete, exit 0); what had started, the
     embedded PostgreSQL included, is stopped
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import sys
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Any, NoReturn

import click
import psycopg
import yaml

from engram import __version__
from engram.config import SERVICES, Settings, split_address
from engram.errors import (
    EngramError,
    FailedPrecondition,
    Internal,
    InvalidArgument,
    Unavailable,
)
from engram.logs import describe, one_line
from engram.server import check_bindable

log = logging.getLogger("engram.cli.serve")

EXIT_TERMINATED = 143
DATABASE_CHECK_TIMEOUT_SECONDS = 5


class Terminated(BaseException):
    """SIGTERM arrived while starting (a BaseException, like KeyboardInterrupt,
    so that it unwinds through every `except Exception`)."""


# -- refusing bad settings ---------------------------------------------------


def _check_tokens(settings: Settings) -> None:
    from engram.server import build_authenticator

    try:
        build_authenticator(settings)
    except OSError as exc:
        message = f"cannot read {exc.filename}: {exc.strerror}"
        raise InvalidArgument("tokens_file", message) from None
    except (ValueError, yaml.YAMLError) as exc:  # JSON and YAML syntax
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InvalidArgument("tokens_file", f"cannot parse: {first}") from None


def preflight(settings: Settings, services: Sequence[str]) -> None:
    """Every check that needs nothing started: settings, tokens, addresses and
    (for an external URL) the database. Raises EngramError."""
    settings.validate()
    _check_tokens(settings)
    check_bindable("listen", settings.listen)
    if settings.metrics_port > 0:
        check_bindable("metrics_port", f"{settings.metrics_host}:{settings.metrics_port}")
    from engram.server import DATABASE_SERVICES

    if settings.database_url and any(s in DATABASE_SERVICES for s in services):
        from engram.db.health import check_reachable

        check_reachable(settings.database_url, DATABASE_CHECK_TIMEOUT_SECONDS)


# -- logs ----------------------------------------------------------------------


class _PoolNoise(logging.Filter):
    """psycopg-pool warns on every failed reconnect attempt and every
    connection an outage broke (libpq's messages, several lines); the
    database health monitor reports an outage in one line with a count."""

    _PREFIXES = (
        "error connecting in",
        "reconnection attempt in pool",
        "discarding broken connection",
        "discarding closed connection",
    )

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self._PREFIXES)


def install_log_policy() -> None:
    """Mute psycopg-pool's per-attempt reconnect warnings (the health monitor reports
    an outage in one line with a count), and send Python warnings through
    logging: printed as they are, they would be plain text in the JSON stream."""
    logging.getLogger("psycopg.pool").addFilter(_PoolNoise())
    logging.captureWarnings(True)


# -- serve ---------------------------------------------------------------------


class _Signals:
    """SIGTERM/SIGINT: once serving, a graceful stop. While starting, the
    first one asks for a graceful stop as soon as start-up is complete (so no
    step is cut in half); a second one interrupts start-up at once, which
    unwinds and stops what had started."""

    def __init__(self) -> None:
        self.serving = False
        self.done = threading.Event()

    def __call__(self, signum: int, _frame: FrameType | None) -> None:
        name = signal.Signals(signum).name
        if self.serving:
            log.info("received %s", name)
        elif not self.done.is_set():
            log.warning("received %s while starting; stopping once started (again: at once)", name)
        else:
            raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
        self.done.set()


def human_stderr() -> bool:
    """Whether a person reads stderr: only then do human lines go there
    (otherwise it is the JSON log stream a collector parses)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def refuse(exc: EngramError, json_lines: bool = True) -> NoReturn:
    """One line for a refusal, exit with its documented code: `error: ...`
    for a person, a JSON log line (with field, reason and exit_code) else."""
    from engram.cli.client import exit_code_for
    from engram.interceptors import status_for

    code = exit_code_for(status_for(exc)[0])
    if human_stderr() or not json_lines:
        click.echo(f"error: {exc.message}", err=True)
    else:
        from engram.logs import JsonFormatter

        record = log.makeRecord(
            log.name,
            logging.ERROR,
            __file__,
            0,
            "refusing to start: %s",
            (exc.message,),
            None,
            extra={"reason": exc.reason, **exc.metadata, "exit_code": code},
        )
        click.echo(JsonFormatter().format(record), err=True)
    raise SystemExit(code)


def run_serve(service: str | None, flags: dict[str, Any]) -> None:
    """`engram serve`: every EngramError (a refusal, a failed start) ends as
    one line and its exit code."""
    json_lines = True
    try:
        settings = Settings.load(flags)
        json_lines = settings.log_json
        _run_serve(service, settings.validate())
    except EngramError as exc:
        refuse(exc, json_lines)


def _run_serve(service: str | None, settings: Settings) -> None:
    from engram.logs import configure_logging

    services = [service] if service else list(SERVICES)
    configure_logging(settings.log_level, json_format=settings.log_json)
    install_log_policy()
    preflight(settings, services)
    signals = _Signals()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signals)
    if settings.processes > 1:
        _serve_processes(service, services, settings, signals)
        return
    suite = _start(settings, services)
    try:
        signals.serving = True
        if human_stderr():
            click.echo(
                f"engram {__version__} serving {service or 'all services'} on "
                f"{settings.listen.rsplit(':', 1)[0]}:{suite.port}",
                err=True,
            )
        signals.done.wait()
    finally:
        suite.stop()


def _start(settings: Settings, services: Sequence[str]) -> Any:
    """start_suite, its failures mapped to the exit codes above."""
    from engram.db.migrations import MigrationError
    from engram.server import start_suite

    try:
        return start_suite(settings, services)
    except EngramError:
        raise
    except MigrationError as exc:
        raise FailedPrecondition(str(exc), reason="MIGRATION_CHANGED") from None
    except psycopg.OperationalError as exc:
        raise Unavailable(
            f"database unreachable: {one_line(str(exc))}", reason="DATABASE_UNREACHABLE"
        ) from None
    except Exception as exc:
        log.error("startup failed", exc_info=True)
        raise Internal(f"startup failed: {describe(exc)}") from None


# -- serve --processes N ------------------------------------------------------
#
# Python serves one request at a time per interpreter (the GIL), so past about
# one core a process is the bound. With --processes N the parent starts the
# embedded PostgreSQL (when no URL is given), applies migrations and creates
# what the processes must share (the page-token secret, the internal service
# token), then starts N serving processes that listen on the same port with
# SO_REUSEPORT: the kernel spreads incoming connections over them. Each has its
# own database pools, background workers (they already coordinate as replicas
# do) and resident index; only the first persists index snapshots (one writer
# per data directory) and serves metrics on --metrics-port, the next ones on
# the ports after it. A gRPC channel is one connection, so one client channel
# talks to one process: open several to use them all.

CHILD_START_TIMEOUT_SECONDS = 120.0


def _child_settings(settings: Settings, index: int, port: int) -> Settings:
    host = settings.listen.rsplit(":", 1)[0]
    metrics = settings.metrics_port
    if metrics > 0:
        metrics += index
    return settings.with_(
        listen=f"{host}:{port}",
        metrics_port=metrics,
        index_persist=settings.index_persist and index == 0,
    )


def _serve_child(services: list[str], settings: Settings, index: int, pipe: Any) -> None:
    """One serving process (the target of multiprocessing's spawn)."""
    from engram.logs import configure_logging

    configure_logging(settings.log_level, json_format=settings.log_json)
    install_log_policy()
    done = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda _signum, _frame: done.set())
    try:
        suite = _start(settings, services)
    except BaseException as exc:
        pipe.send(("failed", str(exc) or type(exc).__name__))
        raise SystemExit(1) from None
    pipe.send(("ready", suite.port))
    parent = os.getppid()
    try:
        # Until SIGTERM, or the parent is gone (killed): never serve orphaned.
        while not done.wait(1.0) and os.getppid() == parent:
            pass
    finally:
        suite.stop()


def _reserve_port(listen: str) -> tuple[int, socket.socket | None]:
    """The port the processes share; for port 0, one reserved (bound with
    SO_REUSEPORT, never listening) until they all listen on it."""
    host, port = split_address("listen", listen)
    if port:
        return port, None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host or "0.0.0.0", 0))
    return int(sock.getsockname()[1]), sock


def _serve_processes(
    service: str | None, services: list[str], settings: Settings, signals: _Signals
) -> None:
    import multiprocessing
    import secrets

    from engram import pagination
    from engram.db.embedded import start_embedded
    from engram.server import CALLERS, DATABASE_SERVICES, build_authenticator, migrate

    embedded = None
    reserved: socket.socket | None = None
    children: list[Any] = []
    try:
        if any(s in DATABASE_SERVICES for s in services):
            if not settings.database_url:
                embedded = start_embedded(settings.data_path)
                settings = settings.with_(database_url=embedded.url)
            migrate(settings.database_url, [s for s in services if s in DATABASE_SERVICES])
        # Shared by every process: page tokens one signs, another accepts.
        pagination.load_secret(settings.page_token_secret, settings.data_path)
        if (
            build_authenticator(settings).enabled
            and not settings.service_token
            and any(s in CALLERS for s in services)
        ):
            # One internal token for calls between the processes' services
            # (a call may land on any of them).
            token = secrets.token_urlsafe(32)
            spec = ",".join(filter(None, [settings.tokens, f"internal:service:{token}"]))
            settings = settings.with_(tokens=spec, service_token=token)
        port, reserved = _reserve_port(settings.listen)
        context = multiprocessing.get_context("spawn")
        pipes = []
        for index in range(settings.processes):
            parent_end, child_end = context.Pipe()
            child = context.Process(
                target=_serve_child,
                args=(services, _child_settings(settings, index, port), index, child_end),
                name=f"engram-serve-{index}",
            )
            child.start()
            children.append(child)
            pipes.append(parent_end)
        for index, pipe in enumerate(pipes):
            if not pipe.poll(CHILD_START_TIMEOUT_SECONDS):
                raise Internal(f"serving process {index} did not start")
            state, detail = pipe.recv()
            if state != "ready":
                raise Internal(f"serving process {index} failed to start: {detail}")
        if reserved is not None:
            reserved.close()
            reserved = None
        signals.serving = True
        host = settings.listen.rsplit(":", 1)[0]
        log.info(
            "engram %s serving %s on %s:%d (%d processes)",
            __version__,
            ",".join(services),
            host,
            port,
            settings.processes,
            extra={"port": port, "processes": settings.processes},
        )
        if human_stderr():
            click.echo(
                f"engram {__version__} serving {service or 'all services'} on "
                f"{host}:{port} ({settings.processes} processes)",
                err=True,
            )
        while not signals.done.wait(1.0):
            gone = [c.name for c in children if not c.is_alive()]
            if gone:
                raise Internal(f"serving process {gone[0]} exited; stopping the others")
    finally:
        for child in children:
            if child.is_alive() and child.pid is not None:
                os.kill(child.pid, signal.SIGTERM)
        for child in children:
            child.join(settings.grace_seconds + 10)
            if child.is_alive():
                child.kill()
                child.join()
        if reserved is not None:
            reserved.close()
        if embedded is not None:
            embedded.stop()
