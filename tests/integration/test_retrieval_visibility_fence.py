"""The visibility fence (migration 0014, retrieval_service/recall.py): a
resident Recall whose snapshot has applied the feed up to the fence serves
the bodies it holds with no re-read; one behind it re-reads. Whatever the
path, a quarantine or purge acknowledged before a Recall starts is never in
its answer: with the follower paused, with it running concurrently, in one
process and with RetrievalService in a process of its own."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from typing import Any

import grpc
import psycopg
import pytest

from engram import coverage as cov
from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.server import Suite
from retrieval_service import bodies
from retrieval_service.records import split_key
from tests.helpers import commit_turn
from tests.integration.test_retrieval import TOPICS, Client, _quarantine, ids, seed

pytestmark = pytest.mark.integration


def _refuse(*_args: Any, **_kwargs: Any) -> list[jpb.Episode]:
    raise AssertionError("a hit was re-read although the snapshot is current")


def _fence(client: Client) -> int:
    with psycopg.connect(client.suite.database_url) as conn:
        row = conn.execute("SELECT cursor FROM journal.visibility_fence").fetchone()
    assert row is not None
    return int(row[0])


def _counts(client: Client) -> dict[str, int]:
    counts: dict[str, int] = client.runtime().recaller.visibility_counts
    return counts


@pytest.fixture(params=["one process", "split"])
def topology(
    request: pytest.FixtureRequest,
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
) -> Client:
    # A generous staleness limit keeps the resident path serving while its
    # follower is paused: the fence alone must keep quarantined hits out.
    if request.param == "one process":
        suite = start_services(["journal", "retrieval"], index_staleness_seconds=3600)
        return Client(suite, channel_to)
    journal_suite = start_services(["journal"])
    retrieval_suite = start_services(
        ["retrieval"], journal_addr=journal_suite.address, index_staleness_seconds=3600
    )
    return Client(retrieval_suite, channel_to, journal_suite)


def test_a_current_snapshot_serves_the_journal_s_own_bodies(
    topology: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = topology
    seed(client)
    commit_turn(client.journal, *TOPICS[4], session_id="s2")  # the same content again
    client.caught_up()
    runtime = client.runtime()
    assert runtime.direct is not None
    fence = runtime.recaller.fence
    runtime.recaller.fence = None  # the re-read, for comparison
    reread = client.recall("cat named Pixel", limit=len(TOPICS))
    runtime.recaller.fence = fence
    monkeypatch.setattr(runtime.direct, "batch_get", _refuse)
    monkeypatch.setattr(runtime.client, "batch_get", _refuse)
    before = _counts(client)
    served = client.recall("cat named Pixel", limit=len(TOPICS))
    assert _counts(client)["snapshot"] == before["snapshot"] + 1
    assert served.served_by == rpb.SERVED_BY_RESIDENT
    assert len(served.hits) == len(TOPICS)
    assert list(served.hits) == list(reread.hits)  # scores and ranks included
    # Each held body is, field for field, what BatchGetEpisodes returns.
    journal = client.journal.BatchGetEpisodes(jpb.BatchGetEpisodesRequest(episode_ids=ids(served)))
    snapshot = runtime.index.snapshot
    held = []
    for episode_id in ids(served):
        found = snapshot.locate(*split_key(episode_id))
        assert found is not None
        held.append(bodies.episode(snapshot, *found))
    assert held == list(journal.episodes)
    pixel = held[0]
    assert pixel is not None and pixel.session_ids == ["s1", "s2"] and pixel.occurrence_count == 2


@pytest.mark.parametrize("what", ["episode", "turn event", "purge"])
def test_an_acknowledged_removal_is_never_served_while_the_feed_is_paused(
    topology: Client, what: str
) -> None:
    client = topology
    receipts = {
        user: commit_turn(client.journal, user, assistant, session_id="s1")
        for user, assistant in TOPICS
    }
    client.caught_up()
    target = receipts[TOPICS[4][0]]
    assert ids(client.recall("cat named Pixel"))[0] == target.episode_id
    assert _counts(client)["snapshot"] >= 1
    fence = _fence(client)

    client.runtime().follower.pause()
    if what == "episode":
        _quarantine(client, jpb.RECORD_KIND_EPISODE, target.episode_id)
    elif what == "turn event":
        _quarantine(client, jpb.RECORD_KIND_EVENT, str(target.event_id))
    else:
        client.journal.Purge(
            jpb.PurgeRequest(subject="alice", reason="erasure", request_id=str(uuid.uuid4()))
        )
    assert _fence(client) > max(fence, client.status().applied_cursor)
    before = _counts(client)
    response = client.recall("cat named Pixel", limit=100)
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert target.episode_id not in ids(response)
    assert _counts(client)["reread"] == before["reread"] + 1
    assert client.status().episodes == len(TOPICS)  # the index itself has not caught up

    # The fence is what keeps it out: pushed back below the snapshot, the
    # stale snapshot serves its own (now wrong) body.
    with psycopg.connect(client.suite.database_url) as conn:
        conn.execute("UPDATE journal.visibility_fence SET cursor = 0")
    assert target.episode_id in ids(client.recall("cat named Pixel", limit=100))
    with psycopg.connect(client.suite.database_url) as conn:
        conn.execute(
            "UPDATE journal.visibility_fence SET cursor = (SELECT max(cursor) FROM journal.changes"
            " WHERE kind IN ('record_quarantined', 'record_restored', 'subject_purged'))"
        )

    client.runtime().follower.resume()
    client.caught_up()
    before = _counts(client)
    response = client.recall("cat named Pixel", limit=100)
    assert target.episode_id not in ids(response)
    assert _counts(client)["snapshot"] == before["snapshot"] + 1


def test_quarantines_racing_recalls_are_never_served(topology: Client) -> None:
    """The follower runs; each Recall must omit every quarantine acknowledged
    before it started, whichever of the snapshot or the re-read serves it."""
    client = topology
    episodes = seed(client)
    client.caught_up()
    targets = [episodes[user] for user, _ in TOPICS]
    acknowledged: list[str] = []
    stop = threading.Event()
    leaks: list[tuple[str, list[str]]] = []
    recalls = 0

    def recall_loop() -> None:
        nonlocal recalls
        while not stop.is_set():
            hidden = list(acknowledged)
            response = client.recall("the", limit=100, query_embedding=[0.0] * 383 + [1.0])
            recalls += 1
            leaked = set(hidden) & set(ids(response))
            if leaked:
                leaks.append((response.coverage.snapshot_version, sorted(leaked)))

    worker = threading.Thread(target=recall_loop)
    worker.start()
    try:
        for target in targets:
            _quarantine(client, jpb.RECORD_KIND_EPISODE, target)
            acknowledged.append(target)
    finally:
        stop.set()
        worker.join()
    assert not leaks
    assert recalls > len(targets)
    counts = _counts(client)
    assert counts["snapshot"] + counts["reread"] >= recalls


def test_a_fence_that_cannot_be_read_serves_nothing(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    """The journal serves the feed, but this process's database URL leads
    nowhere: an unverified snapshot is never served, nor an empty SEARCHED."""
    journal_suite = start_services(["journal"])
    retrieval_suite = start_services(
        ["retrieval"],
        journal_addr=journal_suite.address,
        database_url="postgresql://engram@127.0.0.1:1/engram?connect_timeout=1",
        index_staleness_seconds=3600,
    )
    client = Client(retrieval_suite, channel_to, journal_suite)
    seed(client)
    client.caught_up()
    response = client.recall("cat named Pixel")
    assert response.served_by == rpb.SERVED_BY_NONE
    assert not response.hits
    assert response.coverage.outcome == cpb.SEARCH_OUTCOME_UNAVAILABLE
    assert response.absence_state == cpb.ABSENCE_STATE_UNAVAILABLE
    cov.validate(response.coverage)
