"""The pool's checkout rule (engram.db.pool): a connection returned less than
CHECK_IDLE_SECONDS ago is handed out without a check round trip, one idle
longer is checked first, and while the pool is marked down every one is;
a recently returned connection lost since fails its statement as
Unavailable, marks the pool suspect and is replaced. The outage behaviour
as a whole is tests/integration/test_db_outage.py."""

from __future__ import annotations

import time
from collections.abc import Iterator

import psycopg
import pytest
from psycopg_pool import ConnectionPool

from engram.db import Database, pool
from engram.errors import Unavailable

pytestmark = pytest.mark.integration

# Long enough that back-to-back calls on a loaded machine stay within it.
IDLE = 2.0


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the connections given a check round trip, in order."""
    seen: list[int] = []
    real = ConnectionPool.check_connection

    def counted(conn: psycopg.Connection[object]) -> None:
        seen.append(conn.info.backend_pid)
        real(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(counted))
    monkeypatch.setattr(pool, "CHECK_IDLE_SECONDS", IDLE)
    return seen


@pytest.fixture
def one_connection(database_url: str) -> Iterator[Database]:
    db = Database(database_url, max_size=1, name="check-rule").open()
    try:
        yield db
    finally:
        db.close()


def backend(db: Database) -> int:
    with db.connection() as conn:
        row = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()
    assert row is not None
    return int(row["pid"])


def test_only_a_connection_idle_past_the_threshold_is_checked(
    checks: list[int], one_connection: Database
) -> None:
    db = one_connection
    first = backend(db)  # fresh from the pool: never returned, so checked
    assert checks == [first]
    for _ in range(5):
        assert backend(db) == first
    assert checks == [first]  # returned moments ago each time: no round trip
    time.sleep(IDLE * 1.5)
    assert backend(db) == first
    assert checks == [first, first]
    # While the pool is marked down a checkout is always checked: only a
    # real check may end an outage (and this one does).
    assert backend(db) == first
    assert checks == [first, first]
    db.health._mark_down(RuntimeError("as a failed probe would"))
    assert backend(db) == first
    assert checks == [first, first, first]
    assert not db.health.down


def test_a_recent_connection_lost_since_fails_unavailable_and_is_replaced(
    checks: list[int],
    one_connection: Database,
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool, "CHECK_IDLE_SECONDS", 60.0)
    db = one_connection
    lost = backend(db)
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (lost,))
    # Handed out unchecked (returned moments ago): its statement fails.
    with pytest.raises(Unavailable) as raised:
        backend(db)
    assert raised.value.reason == "DATABASE_UNAVAILABLE"
    assert isinstance(raised.value.__cause__, psycopg.OperationalError)
    # The server is up: the monitor's probe finds it so and the pool serves
    # a new connection.
    deadline = time.monotonic() + 5
    while True:
        try:
            replaced = backend(db)
            break
        except Unavailable:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    assert replaced != lost
    assert not db.health.down
