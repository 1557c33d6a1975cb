"""`engram serve` killed with SIGKILL under an 8-client CommitTurn load and
started again on the same port and database: no acknowledged turn is lost,
no request_id retried after the kill is in the journal twice, and the time
from the kill to the first acknowledged commit is reported (a figure, not an
assertion: docs/benchmarks.md, "Faults: recovery under load")."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.faults.harness import Load, Server, assert_exactly_once, free_port, judge, read_journal

pytestmark = [pytest.mark.slow, pytest.mark.integration]

LOAD_SECONDS = 2.5
AFTER_RECOVERY_SECONDS = 1.0
# A liveness bound, not a timing claim: start-up takes a few seconds.
RECOVER_WITHIN = 60.0


# `engram serve journal`, and `engram serve` (all four services in one process).
@pytest.fixture(params=[("journal",), ()], ids=["journal", "all"])
def server(database_url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Server]:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    serve = Server(
        port=free_port(),
        database_url=database_url,
        data_dir=data_dir,
        log_dir=tmp_path,
        services=request.param,
    )
    try:
        yield serve
    finally:
        serve.stop()


def test_sigkill_under_load_loses_and_duplicates_nothing(
    server: Server, record_property: Callable[[str, object], None]
) -> None:
    server.start()
    load = Load(server.address).start()
    try:
        time.sleep(LOAD_SECONDS)
        before = load.oks()
        assert before > 0, "no commit was acknowledged before the kill"
        killed_at = time.monotonic()
        server.kill()
        startup = server.start()
        first = load.wait_for_ok_after(killed_at, RECOVER_WITHIN)
        assert first is not None, (
            f"no commit acknowledged within {RECOVER_WITHIN}s of the kill: "
            f"{load.failures_after(killed_at).most_common(5)}; {server.log_text()}"
        )
        time.sleep(AFTER_RECOVERY_SECONDS)
    finally:
        load.stop()
    every = load.every_client_ok_after(killed_at)
    verdict = judge(load, read_journal(server.address))

    recovery = first - killed_at
    record_property("recovery_seconds", round(recovery, 3))
    record_property("restart_startup_seconds", round(startup, 3))
    record_property("acknowledged", verdict.acknowledged)
    record_property("retried", verdict.retried)
    print(
        f"\nSIGKILL under load ({server.name}): {before} acknowledged before the kill; "
        f"restart took "
        f"{startup:.2f}s; first acknowledged commit {recovery:.2f}s after the kill, "
        f"all {load.clients} clients {((every or first) - killed_at):.2f}s; "
        f"{verdict.summary()}"
    )
    assert server.alive(), server.log_text()
    assert_exactly_once(load, verdict)
