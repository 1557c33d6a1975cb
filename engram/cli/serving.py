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
import grpc
import psycopg
import yaml

from engram import __version__
from engram.config import SERVICES, Settings, split_address
from engram.db.health import describe, one_line
from engram.errors import (
    EngramError,
    FailedPrecondition,
    Internal,
    InvalidArgument,
    Unavailable,
)

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


# -- one line per retry ------------------------------------------------------

_RETRY_WORDS = ("retrying", "reconnecting")


def describe_error(exc: BaseException) -> str:
    """One line: `Class: message`, or `RpcError CODE: details` for a gRPC
    error (whose str() is a multi-line repr)."""
    code, details = getattr(exc, "code", None), getattr(exc, "details", None)
    if isinstance(exc, grpc.RpcError) and callable(code) and callable(details):
        try:
            return f"RpcError {code().name}: {one_line(str(details() or ''))}".rstrip(": ")
        except Exception:  # not a completed call
            pass
    return describe(exc)


_COUNT_FIELDS = ("failures", "attempt", "attempts")


class RetryLogFilter(logging.Filter):
    """Background loops (embedding, capture, review, feed listener, index
    follower) log each failed attempt of a retry. Such a record becomes one
    line: the error as `Class: message` in `error`, a count in `attempt`
    (unless the loop gives one), and the traceback only at DEBUG, once per
    message. A record is a retry record if it carries a count field or its
    message says it retries."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        template = str(record.msg)
        counted = any(hasattr(record, f) for f in _COUNT_FIELDS)
        if not (counted or any(word in template for word in _RETRY_WORDS)):
            return True
        key = (record.name, template)
        seen = self._seen[key] = self._seen.get(key, 0) + 1
        if not counted:
            record.attempt = seen
        if record.exc_info and record.exc_info[1] is not None:
            record.error = describe_error(record.exc_info[1])
            if not (seen == 1 and logging.getLogger(record.name).isEnabledFor(logging.DEBUG)):
                record.exc_info = None
                record.exc_text = None
        return True


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
    """Attach the retry filter to the root handlers configure_logging set up."""
    retry = RetryLogFilter()
    for handler in logging.getLogger().handlers:
        handler.addFilter(retry)
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
