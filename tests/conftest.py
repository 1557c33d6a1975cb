"""Shared fixtures: a real PostgreSQL with pgvector (the embedded one unless
ENGRAM_TEST_DATABASE_URL names another), a template database migrated once
per session and cloned per test, and in-process gRPC suites on port 0."""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy is imported
import tempfile
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import grpc
import psycopg
import pytest
from psycopg import sql

from engram.config import Settings
from engram.db import Database, migrations
from engram.db.embedded import start_embedded
from engram.db.urls import with_database
from engram.server import Suite, start_suite
from tests.helpers import server_scratch_dir

ROOT = Path(__file__).resolve().parent.parent
# Components that own a schema, in dependency order.
MIGRATION_DIRS = [
    (name, ROOT / package / "migrations")
    for name, package in (("journal", "memory_service"), ("learning", "learning_service"))
    if (ROOT / package / "migrations").is_dir()
]


@pytest.fixture
def server_tmp_path() -> Iterator[Path]:
    """Like tmp_path, for tests whose directory holds a PostgreSQL server."""
    with server_scratch_dir("engram-test-server-") as path:
        yield path


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    external = os.environ.get("ENGRAM_TEST_DATABASE_URL")
    if external:
        yield external
        return
    # Outside /root: as root the embedded server runs as another user.
    data_dir = Path(tempfile.mkdtemp(prefix="engram-test-pg-", dir="/tmp"))
    server = start_embedded(data_dir)
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def template_database(pg_server_url: str) -> str:
    name = f"engram_template_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = with_database(pg_server_url, name)
    for component, directory in MIGRATION_DIRS:
        migrations.apply(url, component, directory)
    return name


@pytest.fixture
def database_url(pg_server_url: str, template_database: str) -> Iterator[str]:
    """A fresh database cloned from the migrated template."""
    name = f"engram_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template_database)
            )
        )
    try:
        yield with_database(pg_server_url, name)
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    database = Database(database_url, max_size=8).open()
    try:
        yield database
    finally:
        database.close()


SuiteFactory = Callable[..., Suite]


@pytest.fixture
def start_services(database_url: str, tmp_path: Path) -> Iterator[SuiteFactory]:
    """Start engram services in-process on 127.0.0.1:0 against the test database."""
    started: list[Suite] = []

    def factory(services: Sequence[str] = ("journal",), **overrides: object) -> Suite:
        settings = Settings.load(
            {
                "listen": "127.0.0.1:0",
                "database_url": database_url,
                "data_dir": str(tmp_path / "data"),
                "embedder": "hashing",
                "grace_seconds": 1.0,
                "max_workers": 32,
                "pool_max_size": 8,
                "metrics_port": -1,
                **overrides,
            },
            env={},
        )
        suite = start_suite(settings, services)
        started.append(suite)
        return suite

    yield factory
    for suite in reversed(started):
        suite.stop(grace=0.2)


@pytest.fixture
def channel_to() -> Iterator[Callable[..., grpc.Channel]]:
    channels: list[grpc.Channel] = []

    def open_(suite: Suite, token: str = "") -> grpc.Channel:
        from engram.channels import open_channel

        channel = open_channel(suite.address, token)
        channels.append(channel)
        return channel

    yield open_
    for channel in channels:
        channel.close()


@pytest.fixture
def live_target(request: pytest.FixtureRequest) -> Iterator[grpc.Channel]:
    """A channel to a running deployment when ENGRAM_E2E_TARGET=host:port is
    set (bearer token from ENGRAM_E2E_TOKEN; the target must serve all four
    services), else to the full suite started in-process."""
    from engram.channels import open_channel

    target = os.environ.get("ENGRAM_E2E_TARGET", "")
    if not target:
        factory = request.getfixturevalue("start_services")
        target = factory(["journal", "learning", "retrieval", "gateway"]).address
    channel = open_channel(target, os.environ.get("ENGRAM_E2E_TOKEN", ""))
    try:
        yield channel
    finally:
        channel.close()


@pytest.fixture
def rules_settle_every_presupposition(monkeypatch: pytest.MonkeyPatch) -> None:
    """For tests of the rule library: every presupposed fact the rules read settles as a
    recollection, as if each sentence named the user (gateway.claims.PRESUPPOSED_NEEDS_YOU
    off); the gate itself leaves one in a sentence without the user to the classifier."""
    monkeypatch.setattr("gateway.claims.PRESUPPOSED_NEEDS_YOU", False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark tests by directory so `-m "not integration"` etc. work."""
    for item in items:
        parts = Path(str(item.fspath)).parts
        if "integration" in parts:
            item.add_marker(pytest.mark.integration)
        elif "e2e" in parts:
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    """Name pytest-randomly's seed at the end of a failing run: the header that
    shows it is hidden under -q (as `make test` runs), and an order-dependent
    failure is replayed only with the same seed."""
    if exitstatus == 0 or not config.pluginmanager.hasplugin("randomly"):
        return
    seed = config.getoption("randomly_seed", default=None)
    if isinstance(seed, int):
        terminalreporter.write_line(
            f"Test order: --randomly-seed={seed} (replay with -p randomly --randomly-seed={seed})"
        )
