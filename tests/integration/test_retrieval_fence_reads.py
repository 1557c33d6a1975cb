"""Fence reads on connections of their own (retrieval_service.direct): sent
before the search and collected after it, bounded in number, reused, and
replaced by a read through the pool when one fails; a read nobody used is
still collected, so its connection is not lost."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import grpc
import psycopg
import pytest

from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.server import Suite
from retrieval_service.direct import FENCE_APPLICATION_NAME, FENCE_CONNECTIONS
from tests.integration.test_retrieval import Client, ids, seed

pytestmark = pytest.mark.integration

FENCE_BACKENDS = (
    "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND datname = current_database()"
)


@pytest.fixture
def client(start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]) -> Client:
    suite = start_services(["journal", "retrieval"], index_staleness_seconds=3600)
    client = Client(suite, channel_to)
    seed(client)
    client.caught_up()
    return client


def _snapshot_served(client: Client) -> int:
    counts: dict[str, int] = client.runtime().recaller.visibility_counts
    return counts["snapshot"]


def test_a_dropped_fence_connection_is_replaced_without_a_failed_recall(client: Client) -> None:
    expected = ids(client.recall("cat named Pixel"))
    assert expected
    direct = client.runtime().direct
    assert direct.fence_connections == (1, 1)
    with psycopg.connect(client.suite.database_url, autocommit=True) as conn:
        pids = [
            row[0] for row in conn.execute(FENCE_BACKENDS, (FENCE_APPLICATION_NAME,)).fetchall()
        ]
        assert pids
        for pid in pids:
            conn.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))
    before = _snapshot_served(client)
    for _ in range(3):
        response = client.recall("cat named Pixel")
        assert response.served_by == rpb.SERVED_BY_RESIDENT
        assert ids(response) == expected
    assert _snapshot_served(client) == before + 3
    open_, idle = direct.fence_connections
    assert open_ == idle == 1  # the broken one closed, one new one kept


def test_concurrent_recalls_share_a_bounded_set_of_fence_connections(client: Client) -> None:
    expected = ids(client.recall("cat named Pixel"))
    failures: list[Any] = []

    def work() -> None:
        for _ in range(15):
            response = client.recall("cat named Pixel")
            if response.served_by != rpb.SERVED_BY_RESIDENT or ids(response) != expected:
                failures.append(response)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    open_, idle = client.runtime().direct.fence_connections
    assert 1 <= open_ <= FENCE_CONNECTIONS and idle == open_
    with psycopg.connect(client.suite.database_url, autocommit=True) as conn:
        assert len(conn.execute(FENCE_BACKENDS, (FENCE_APPLICATION_NAME,)).fetchall()) == open_


def test_a_fence_read_nobody_used_is_still_collected(client: Client) -> None:
    recaller = client.runtime().recaller

    def fail() -> None:
        raise RuntimeError("injected")

    recaller._resident_guard = fail
    try:
        for _ in range(FENCE_CONNECTIONS + 2):
            response = client.recall("cat named Pixel")
            assert response.fallback_reason == rpb.FALLBACK_REASON_INDEX_ERROR
    finally:
        recaller._resident_guard = None
    assert client.runtime().direct.fence_connections == (1, 1)
    before = _snapshot_served(client)
    assert client.recall("cat named Pixel").served_by == rpb.SERVED_BY_RESIDENT
    assert _snapshot_served(client) == before + 1
