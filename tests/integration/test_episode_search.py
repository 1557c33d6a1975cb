"""The embedding worker and the PostgreSQL episode read path (SearchEpisodes,
BatchGetEpisodes) through a real JournalService."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import grpc
import numpy as np
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import derive_absence, validate
from engram.db import Database
from engram.embedding import HashingEmbedder
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.metrics import PLANE_EVENTS
from engram.timeutil import to_timestamp
from memory_service.embed_worker import Backoff, EmbeddingWorker
from memory_service.feed import FeedNotifier
from tests.helpers import commit_turn, error_field, wait_for_embeddings

pytestmark = pytest.mark.integration

HASHING = HashingEmbedder()


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))


@pytest.fixture
def idle_journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    """A journal without background workers: nothing embeds unless a test says so."""
    suite = start_services(["journal"], workers_enabled=False)
    return pb_grpc.JournalServiceStub(channel_to(suite))


def search(
    stub: pb_grpc.JournalServiceStub, text: str = "", **fields: object
) -> pb.SearchEpisodesResponse:
    fields.setdefault("subject", "alice")
    return stub.SearchEpisodes(pb.SearchEpisodesRequest(query_text=text, **fields))


def episode_ids(response: pb.SearchEpisodesResponse) -> list[str]:
    return [h.episode.episode_id for h in response.hits]


def drain_changes(
    stub: pb_grpc.JournalServiceStub, kinds: list[int], include_embeddings: bool
) -> list[pb.Change]:
    changes: list[pb.Change] = []
    for batch in stub.StreamChanges(
        pb.StreamChangesRequest(
            after_cursor=0, follow=False, kinds=kinds, include_embeddings=include_embeddings
        )
    ):
        changes.extend(batch.changes)
    return changes


# -- the embedding worker -------------------------------------------------------


def test_worker_embeds_after_commit_and_announces_the_vector(journal):
    receipt = commit_turn(journal, "I adopted a beagle named Biscuit", "What a lovely name!")
    status = wait_for_embeddings(journal)
    assert status.episodes_embedded == 1
    assert status.metrics["embedding.embedded_total"] == 1
    assert status.embedding_model == HASHING.name

    (change,) = drain_changes(journal, [pb.CHANGE_KIND_EPISODE_EMBEDDED], True)
    assert change.record_id == receipt.episode_id
    assert change.subject == "alice" and change.session_id == "s1"
    expected = HASHING.embed_one(
        "User: I adopted a beagle named Biscuit\nAssistant: What a lovely name!"
    )
    assert change.episode.embedding_model == HASHING.name
    np.testing.assert_allclose(np.array(change.episode.embedding), expected, atol=1e-6)

    (without,) = drain_changes(journal, [pb.CHANGE_KIND_EPISODE_EMBEDDED], False)
    assert len(without.episode.embedding) == 0
    # The upsert is announced before the embedding, in commit order.
    kinds = [
        c.kind for c in drain_changes(journal, [], False) if c.record_kind == pb.RECORD_KIND_EPISODE
    ]
    assert kinds == [pb.CHANGE_KIND_EPISODE_UPSERTED, pb.CHANGE_KIND_EPISODE_EMBEDDED]


def test_commit_does_not_embed_and_a_batch_catches_up(idle_journal, database_url):
    for i in range(5):
        commit_turn(idle_journal, f"note number {i} about gardening")
    commit_turn(idle_journal, "not for learning", learning_eligible=False)
    status = idle_journal.GetStatus(pb.GetStatusRequest())
    assert (status.episodes, status.episodes_pending_embedding) == (5, 5)

    db = Database(database_url, max_size=2).open()
    try:
        worker = EmbeddingWorker(db, FeedNotifier(database_url), "hashing", batch_size=2)
        assert [worker.run_once() for _ in range(4)] == [2, 2, 1, 0]
    finally:
        db.close()
    status = idle_journal.GetStatus(pb.GetStatusRequest())
    assert (status.episodes_embedded, status.episodes_pending_embedding) == (5, 0)
    assert status.metrics["embedding.embedded_total"] == 5
    embedded = drain_changes(idle_journal, [pb.CHANGE_KIND_EPISODE_EMBEDDED], False)
    assert len({c.record_id for c in embedded}) == 5


def test_replicas_skip_episodes_another_replica_has_claimed(idle_journal, database_url):
    first = commit_turn(idle_journal, "the oldest pending turn")
    commit_turn(idle_journal, "a newer pending turn")
    db = Database(database_url, max_size=3).open()
    try:
        worker = EmbeddingWorker(db, FeedNotifier(database_url), "hashing", batch_size=10)
        with psycopg.connect(database_url) as other_replica:
            other_replica.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended('engram.embed:' || %s, 0))",
                (first.episode_id,),
            )
            assert worker.run_once() == 1  # only the unclaimed one
        # The other replica's transaction ended without embedding: it is free again.
        assert worker.run_once() == 1
    finally:
        db.close()
    assert idle_journal.GetStatus(pb.GetStatusRequest()).episodes_pending_embedding == 0


def test_worker_survives_database_errors(journal, database_url):
    def failures() -> float:
        return PLANE_EVENTS.labels(plane="journal", event="embedding_batch_failed")._value.get()

    before = failures()
    with psycopg.connect(database_url, autocommit=True) as admin:
        admin.execute("ALTER TABLE journal.episodes RENAME COLUMN embedded_at TO embedded_at_x")
        try:
            commit_turn(journal, "committed while embedding is broken")
            deadline = time.monotonic() + 20
            while failures() == before:
                assert time.monotonic() < deadline, "the worker never attempted the batch"
                time.sleep(0.05)
            assert journal.GetStatus(pb.GetStatusRequest()).episodes_pending_embedding == 1
        finally:
            admin.execute("ALTER TABLE journal.episodes RENAME COLUMN embedded_at_x TO embedded_at")
    wait_for_embeddings(journal, timeout=60)


def test_backoff_doubles_up_to_its_cap():
    backoff = Backoff(initial=0.5, maximum=4.0)
    assert [backoff.delay(n) for n in range(1, 6)] == [0.5, 1.0, 2.0, 4.0, 4.0]


def test_stopping_the_worker_ends_its_thread(database_url):
    notifier = FeedNotifier(database_url)
    notifier.start()
    db = Database(database_url, max_size=2).open()
    try:
        worker = EmbeddingWorker(db, notifier, "hashing", batch_size=4, poll_seconds=30)
        worker.start()
        assert worker.running
        worker.stop()
        assert not worker.running
    finally:
        db.close()
        notifier.stop()


# -- SearchEpisodes ---------------------------------------------------------------


def test_search_finds_by_words_and_by_vector(journal):
    beagle = commit_turn(journal, "I adopted a beagle named Biscuit", "Lovely!")
    commit_turn(journal, "My car needs new tyres", "I can find a garage.")
    wait_for_embeddings(journal)

    by_words = search(journal, "beagle")
    assert episode_ids(by_words)[0] == beagle.episode_id
    top = by_words.hits[0]
    assert top.lexical_rank == 1 and top.dense_rank >= 1
    # engram.ranking's score: decreasing along the hits.
    scores = [h.score for h in by_words.hits]
    assert scores == sorted(scores, reverse=True)
    assert top.episode.user_text == "I adopted a beagle named Biscuit"

    vector = HASHING.embed_one("adopted beagle Biscuit")
    by_vector = search(journal, query_embedding=vector.tolist())
    assert episode_ids(by_vector)[0] == beagle.episode_id
    assert all(h.lexical_rank == 0 and h.dense_rank > 0 for h in by_vector.hits)


def test_search_finds_by_meaning_with_the_minilm_model(start_services, channel_to):
    stub = pb_grpc.JournalServiceStub(channel_to(start_services(["journal"], embedder="minilm")))
    pasta = commit_turn(stub, "My favourite dish is spaghetti carbonara", "Noted.")
    commit_turn(stub, "The car needs new tyres before winter", "I will book the garage.")
    wait_for_embeddings(stub, timeout=60)
    hits = search(stub, "which pasta do I like?").hits
    assert hits[0].episode.episode_id == pasta.episode_id
    assert hits[0].lexical_rank == 0 and hits[0].dense_rank == 1  # no shared word


def test_unembedded_episodes_are_reachable_by_words(idle_journal):
    receipt = commit_turn(idle_journal, "the quarterly budget review is on Friday")
    (hit,) = search(idle_journal, "budget").hits
    assert hit.episode.episode_id == receipt.episode_id
    assert (hit.dense_rank, hit.lexical_rank) == (0, 1)
    assert len(hit.episode.embedding) == 0


def test_subjects_and_workspaces_never_leak(journal):
    commit_turn(journal, "secret plan about the zeppelin", subject="alice")
    commit_turn(journal, "secret plan about the zeppelin", subject="alice", workspace="lab")
    commit_turn(journal, "secret plan about the zeppelin", subject="bob")
    wait_for_embeddings(journal)
    for subject, workspace in (("alice", ""), ("alice", "lab"), ("bob", "default")):
        response = search(journal, "zeppelin plan", subject=subject, workspace=workspace)
        assert len(response.hits) == 1
        episode = response.hits[0].episode
        assert episode.subject == subject
        assert episode.workspace == (workspace or "default")
    assert search(journal, "zeppelin", subject="carol").hits == []


def test_exclude_session_hides_only_content_never_said_elsewhere(journal):
    only_here = commit_turn(journal, "walrus facts from this session", session_id="active")
    commit_turn(journal, "walrus facts said twice", session_id="older")
    twice = commit_turn(journal, "walrus facts said twice", session_id="active")
    older = commit_turn(journal, "walrus facts from the past", session_id="older")
    wait_for_embeddings(journal)
    response = search(journal, "walrus facts", exclude_session_id="active")
    found = set(episode_ids(response))
    assert only_here.episode_id not in found
    assert {twice.episode_id, older.episode_id} <= found
    assert response.coverage.dimensions.visibility == cpb.DIMENSION_STATE_PARTIAL
    # The episode said in both sessions reports its latest session and both ids.
    hit = next(h for h in response.hits if h.episode.episode_id == twice.episode_id)
    assert hit.episode.session_id == "active"
    assert sorted(hit.episode.session_ids) == ["active", "older"]


def test_time_window_applies_to_last_seen(journal):
    old = commit_turn(journal, "tulip bulbs planted", occurred_at=datetime(2020, 3, 1, tzinfo=UTC))
    recent = commit_turn(journal, "tulip bulbs bloomed")
    wait_for_embeddings(journal)
    window = cpb.TimeWindow(
        start_time=to_timestamp(datetime(2020, 1, 1, tzinfo=UTC)),
        end_time=to_timestamp(datetime(2021, 1, 1, tzinfo=UTC)),
    )
    response = search(journal, "tulip bulbs", time_window=window)
    assert episode_ids(response) == [old.episode_id]
    assert response.coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL
    since = cpb.TimeWindow(start_time=to_timestamp(datetime(2021, 1, 1, tzinfo=UTC)))
    assert episode_ids(search(journal, "tulip bulbs", time_window=since)) == [recent.episode_id]
    assert search(journal, "tulip").coverage.dimensions.temporal == cpb.DIMENSION_STATE_COMPLETE


def test_quarantined_episodes_are_excluded_until_restored(journal):
    receipt = commit_turn(journal, "poisoned memory about volcanoes")
    wait_for_embeddings(journal)
    assert episode_ids(search(journal, "volcanoes")) == [receipt.episode_id]
    journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="poisoned"
        )
    )
    assert search(journal, "volcanoes").hits == []
    vector = HASHING.embed_one("User: poisoned memory about volcanoes\nAssistant: ok")
    assert search(journal, query_embedding=vector.tolist()).hits == []
    batch = journal.BatchGetEpisodes(pb.BatchGetEpisodesRequest(episode_ids=[receipt.episode_id]))
    assert list(batch.episodes) == []
    journal.Restore(
        pb.RestoreRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="cleared"
        )
    )
    assert episode_ids(search(journal, "volcanoes")) == [receipt.episode_id]


def test_coverage_is_sealed_ranked_and_never_licenses_absence(journal):
    commit_turn(journal, "notes on the harpsichord")
    wait_for_embeddings(journal)
    found = search(journal, "harpsichord", limit=5)
    # Nearest neighbours always find something once anything is embedded, so
    # the empty case is a subject with no episodes.
    empty = search(journal, "harpsichord", subject="nobody", limit=5)
    watermark = journal.GetStatus(pb.GetStatusRequest()).feed_watermark
    for response in (found, empty):
        coverage = response.coverage
        validate(coverage)
        assert coverage.read_path == "journal.search_episodes.v1"
        assert list(coverage.source_systems) == ["postgresql:journal.episodes"]
        assert coverage.cardinality.exactness == cpb.EXACTNESS_UNKNOWN
        assert not coverage.cardinality.HasField("matched_before_limit")
        assert coverage.cardinality.limit == 5
        assert coverage.dimensions.semantic == cpb.DIMENSION_STATE_UNKNOWN
        assert coverage.dimensions.field == cpb.DIMENSION_STATE_COMPLETE
        assert coverage.dimensions.visibility == cpb.DIMENSION_STATE_COMPLETE
        assert coverage.dimensions.normalization == cpb.DIMENSION_STATE_PARTIAL
        assert coverage.outcome == cpb.SEARCH_OUTCOME_SEARCHED
        assert coverage.snapshot_version == str(watermark)
    assert derive_absence(found.coverage, len(found.hits)) == cpb.ABSENCE_STATE_NOT_ABSENT
    assert empty.hits == []
    assert derive_absence(empty.coverage, 0) == cpb.ABSENCE_STATE_COVERAGE_UNKNOWN


def test_limit_caps_hits_and_defaults_to_ten(journal):
    for i in range(12):
        commit_turn(journal, f"lighthouse log entry {i}")
    wait_for_embeddings(journal)
    assert len(search(journal, "lighthouse").hits) == 10
    three = search(journal, "lighthouse", limit=3)
    assert len(three.hits) == 3
    assert three.coverage.cardinality.truncated
    scores = [h.score for h in search(journal, "lighthouse", limit=100).hits]
    assert len(scores) == 12 and scores == sorted(scores, reverse=True)


# -- BatchGetEpisodes ---------------------------------------------------------------


def test_batch_get_returns_episodes_in_request_order(journal):
    a = commit_turn(journal, "first")
    b = commit_turn(journal, "second")
    wait_for_embeddings(journal)
    ids = [b.episode_id, a.episode_id, b.episode_id, "00000000-0000-0000-0000-000000000000"]
    plain = journal.BatchGetEpisodes(pb.BatchGetEpisodesRequest(episode_ids=ids))
    assert [e.episode_id for e in plain.episodes] == [b.episode_id, a.episode_id]
    assert all(len(e.embedding) == 0 for e in plain.episodes)
    full = journal.BatchGetEpisodes(
        pb.BatchGetEpisodesRequest(episode_ids=ids, include_embeddings=True)
    )
    assert all(len(e.embedding) == 384 and e.embedding_model == HASHING.name for e in full.episodes)


# -- bad input ----------------------------------------------------------------------


SEARCH_INPUT_CASES = [
    ({"subject": ""}, "subject"),
    ({"workspace": "bad workspace"}, "workspace"),
    ({"limit": 101}, "limit"),
    ({"limit": -1}, "limit"),
    ({"query_text": ""}, "query_text"),
    ({"query_text": "   "}, "query_text"),
    ({"query_text": "x" * 4097}, "query_text"),
    ({"query_embedding": [0.5] * 3}, "query_embedding"),
    ({"query_embedding": [0.0] * 384}, "query_embedding"),
    ({"query_embedding": [float("nan")] * 384}, "query_embedding"),
    ({"exclude_session_id": "no spaces"}, "exclude_session_id"),
    (
        {
            "time_window": cpb.TimeWindow(
                start_time=to_timestamp(datetime(2022, 1, 1, tzinfo=UTC)),
                end_time=to_timestamp(datetime(2021, 1, 1, tzinfo=UTC)),
            )
        },
        "time_window",
    ),
]


def test_bad_input_names_the_field(idle_journal):
    # One server for every case (each is a read that must be refused).
    for request_fields, field in SEARCH_INPUT_CASES:
        fields = {"subject": "alice", "query_text": "hello", **request_fields}
        with pytest.raises(grpc.RpcError) as caught:
            idle_journal.SearchEpisodes(pb.SearchEpisodesRequest(**fields))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, request_fields
        assert error_field(caught.value) == field, request_fields
    for ids in (["not-a-uuid"], ["00000000-0000-0000-0000-000000000000"] * 1001):
        with pytest.raises(grpc.RpcError) as caught:
            idle_journal.BatchGetEpisodes(pb.BatchGetEpisodesRequest(episode_ids=ids))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_field(caught.value) == "episode_ids"
