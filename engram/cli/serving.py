"""`engram serve`: refuse bad settings before anything starts, start the
suite, and keep background retry logs to one line each.

Exit codes of `engram serve` (docs/operators.md, "Exit codes of engram
serve"), one line on stderr each:

  1  usage (unknown flag or service)
  2  invalid setting: a value that cannot work (log level, embedder, listen
     address, an unreadable tokens file, ...)
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

import errno
import logging
import signal
import socket
import threading
from collections.abc import Sequence
from types import FrameType
from typing import Any

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

log = logging.getLogger("engram.cli.serve")

EXIT_TERMINATED = 143
DATABASE_CHECK_TIMEOUT_SECONDS = 5


class Terminated(BaseException):
    """SIGTERM arrived while starting (a BaseException, like KeyboardInterrupt,
    so that it unwinds through every `except Exception`)."""


# -- refusing bad settings ---------------------------------------------------


def check_bindable(name: str, address: str) -> None:
    """Refuse an address this host cannot listen on, as gRPC would, but with
    the reason: FailedPrecondition when it is in use, InvalidArgument else."""
    host, port = split_address(name, address)
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise InvalidArgument(name, f"cannot resolve {host!r}: {exc.strerror}") from None
    errors: list[OSError] = []
    for family, kind, proto, _, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                # gRPC listens with SO_REUSEADDR: a port in TIME_WAIT is free to it.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(sockaddr)
                sock.listen(1)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise FailedPrecondition(
                    f"{name}: {address} is already in use by another process",
                    reason="ADDRESS_IN_USE",
                    metadata={"field": name},
                ) from None
            errors.append(exc)
    if errors and len(errors) == len(infos):  # not one address could be bound
        raise InvalidArgument(name, f"cannot listen on {address}: {errors[0].strerror}") from None


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
    an outage in one line with a count)."""
    logging.getLogger("psycopg.pool").addFilter(_PoolNoise())


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


def run_serve(service: str | None, flags: dict[str, Any]) -> None:
    from engram.db.migrations import MigrationError
    from engram.logs import configure_logging
    from engram.server import start_suite

    services = [service] if service else list(SERVICES)
    settings = Settings.load(flags).validate()
    configure_logging(settings.log_level, json_format=settings.log_json)
    install_log_policy()
    preflight(settings, services)
    signals = _Signals()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, signals)
    try:
        suite = start_suite(settings, services)
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
    try:
        signals.serving = True
        click.echo(
            f"engram {__version__} serving {service or 'all services'} on "
            f"{settings.listen.rsplit(':', 1)[0]}:{suite.port}",
            err=True,
        )
        signals.done.wait()
    finally:
        suite.stop()
