"""Retrieval replicas: several RetrievalService processes following one
journal give the same answer for a snapshot they have both applied.

One replica starts from a snapshot persisted in its data directory and
follows the feed on top of it (a base segment, small feed segments and
tombstones); the other builds from the feed (one fresh base, no tombstones).
Once both have applied the journal's watermark, every Recall and FindExact
must return the same hits, in the same order, with the same scores and the
same coverage (snapshot_version included)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import pytest

from engram import coverage as cov
from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.server import Suite
from tests.helpers import commit_turn, error_field
from tests.integration.test_retrieval import TOPICS, Client, poll
from tests.integration.test_retrieval import _quarantine as quarantine

pytestmark = pytest.mark.integration

# Scores are bit-identical by construction (the same float64 arithmetic on
# the same rows in the same order, whatever the segment layout); the
# tolerance only absorbs the float32 wire encoding of RecallHit.score.
SCORE_TOLERANCE = 1e-6

SUBJECTS = ("alice", "bob")
SESSIONS = ("s1", "s2", "s3")
FILLER = [
    "We talked about the weather in Lisbon again today.",
    "The violin lesson moved to Thursday afternoon.",
    "Pixel knocked the pistachio ice cream off the table.",
    "Remind me to book the Berlin hotel before September.",
    "The Kubernetes upgrade broke the Frankfurt staging cluster.",
    "Budget numbers for March look better than expected.",
    "Maya sent a recording of her violin students.",
    "ok",
    "ok",
    "Thanks, that is all for now.",
    "Привет, как дела? Мы говорили о Лиссабоне.",
    "東京の天気は晴れです。",
]

QUERIES: list[dict[str, Any]] = [
    {"query_text": "cat named Pixel"},
    {"query_text": "violin lessons with Maya", "limit": 5},
    {"query_text": "Berlin marathon in September", "limit": 3, "context_turns": 1},
    {"query_text": "ok", "limit": 20},
    {"query_text": "Kubernetes Frankfurt cluster", "exclude_session_id": "s2"},
    {"query_text": "Лиссабон", "limit": 4},
    {"query_text": "budget March", "limit": 100},
]


def _commit_corpus(client: Client, round_: int) -> dict[str, str]:
    """Turns over two subjects and three sessions, with repeated texts
    (an episode seen again in another session)."""
    episodes: dict[str, str] = {}
    texts = [u for u, _ in TOPICS] + FILLER
    for i, text in enumerate(texts):
        for subject in SUBJECTS:
            session = SESSIONS[(i + round_) % len(SESSIONS)]
            receipt = commit_turn(
                client.journal, text, "noted", subject=subject, session_id=session
            )
            episodes[f"{subject}:{text}"] = receipt.episode_id
    return episodes


def _quarantine(client: Client, episode_id: str) -> None:
    quarantine(client, jpb.RECORD_KIND_EPISODE, episode_id)


def start_replica(
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
    journal: Suite,
    data_dir: Path,
    **overrides: Any,
) -> Client:
    """A retrieval replica following `journal`, with its own data directory."""
    suite = start_services(
        ["retrieval"],
        journal_addr=journal.address,
        data_dir=str(data_dir),
        index_staleness_seconds=3600,
        **overrides,
    )
    return Client(suite, channel_to, journal)


def _both_at_watermark(replicas: list[Client]) -> int:
    replicas[0].caught_up()
    watermark = int(replicas[0].journal.GetStatus(jpb.GetStatusRequest()).feed_watermark)
    for replica in replicas:

        def applied(r: Client = replica) -> rpb.GetIndexStatusResponse | None:
            status = r.status()
            return status if status.applied_cursor == watermark else None

        poll(applied, what=f"replica at cursor {watermark}")
    return watermark


def _comparable(coverage: cpb.Coverage) -> cpb.Coverage:
    """The coverage with its computation time fixed and re-sealed: the seal
    covers computed_at, which is the one field two replicas must not share."""
    copy = cpb.Coverage()
    copy.CopyFrom(coverage)
    copy.computed_at.Clear()
    copy.digest = cov.compute_digest(copy)
    return copy


def _assert_same_recall(first: rpb.RecallResponse, second: rpb.RecallResponse) -> None:
    assert first.served_by == second.served_by == rpb.SERVED_BY_RESIDENT
    assert [h.episode_id for h in first.hits] == [h.episode_id for h in second.hits]
    for a, b in zip(first.hits, second.hits, strict=True):
        assert a.score == pytest.approx(b.score, abs=SCORE_TOLERANCE)
        assert (a.dense_rank, a.lexical_rank) == (b.dense_rank, b.lexical_rank)
        assert (a.user_text, a.assistant_text, list(a.context_turns)) == (
            b.user_text,
            b.assistant_text,
            list(b.context_turns),
        )
    cov.validate(first.coverage)
    cov.validate(second.coverage)
    assert _comparable(first.coverage) == _comparable(second.coverage)
    assert first.absence_state == second.absence_state


def _assert_same_answers(replicas: list[Client], watermark: int) -> None:
    week = datetime.now(UTC) - timedelta(days=7)
    windowed = {"query_text": "violin", "limit": 10}
    for replica in replicas:
        status = replica.status()
        assert status.snapshot_version == status.applied_cursor == watermark
    for subject in SUBJECTS:
        for fields in [*QUERIES, windowed]:
            request = rpb.RecallRequest(subject=subject, **fields)
            if fields is windowed:
                request.time_window.start_time.FromDatetime(week)
            first, second = (r.retrieval.Recall(request) for r in replicas)
            assert first.hits or fields["query_text"] == "Лиссабон"
            assert first.coverage.snapshot_version == str(watermark)
            _assert_same_recall(first, second)
        exact = rpb.FindExactRequest(terms=["violin"], subject=subject)
        a, b = (r.retrieval.FindExact(exact) for r in replicas)
        assert [h.event_id for h in a.hits] == [h.event_id for h in b.hits] != []
        assert _comparable(a.coverage) == _comparable(b.coverage)


def test_replicas_agree_for_a_snapshot_both_applied(
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
    tmp_path: Path,
) -> None:
    journal = start_services(["journal"])
    writer = Client(journal, channel_to)
    first_round = _commit_corpus(writer, 0)
    persisted = start_replica(start_services, channel_to, journal, tmp_path / "persisted")
    persisted.caught_up()
    persisted.suite.stop(grace=0.5)  # saves its snapshot

    # While it is down the journal moves on: new turns, repeated turns in
    # other sessions (rows replaced in the persisted base), a quarantine.
    second_round = _commit_corpus(writer, 1)
    _quarantine(writer, first_round["alice:" + TOPICS[4][0]])

    restarted = start_replica(start_services, channel_to, journal, tmp_path / "persisted")
    fresh = start_replica(start_services, channel_to, journal, tmp_path / "fresh")
    replicas = [restarted, fresh]
    loaded = poll(lambda: restarted.status() if restarted.status().ready else None, what="load")
    assert loaded.rebuild.total == 0  # the persisted replica did not rebuild
    watermark = _both_at_watermark(replicas)
    assert fresh.status().rebuild.total > 0  # the other one did
    assert len(restarted.runtime().index.snapshot.segments) > 1
    assert restarted.runtime().index.snapshot.tombstones > 0
    assert fresh.runtime().index.snapshot.tombstones == 0
    _assert_same_answers(replicas, watermark)

    # After a quarantine both follow to the new watermark and still agree.
    _quarantine(writer, second_round["bob:" + FILLER[1]])
    _quarantine(writer, second_round["alice:" + TOPICS[0][0]])
    watermark = _both_at_watermark(replicas)
    _assert_same_answers(replicas, watermark)
    hidden = second_round["alice:" + TOPICS[0][0]]
    for replica in replicas:
        response = replica.recall(TOPICS[0][0], limit=100)
        assert hidden not in [h.episode_id for h in response.hits]


def test_min_snapshot_version_is_a_read_your_writes_floor(
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
    tmp_path: Path,
) -> None:
    journal = start_services(["journal"])
    writer = Client(journal, channel_to)
    _commit_corpus(writer, 0)
    replica = start_replica(start_services, channel_to, journal, tmp_path / "r")
    replica.caught_up()

    # A replica that cannot reach the floor answers from the journal, which
    # holds the write, and says so.
    replica.runtime().follower.pause()
    late = commit_turn(writer.journal, "Our office moved to Rotterdam.", "noted").episode_id
    floor = int(writer.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark)
    assert replica.status().applied_cursor < floor
    behind = replica.recall("office Rotterdam", limit=3, min_snapshot_version=floor)
    assert behind.served_by == rpb.SERVED_BY_FALLBACK
    assert behind.fallback_reason == rpb.FALLBACK_REASON_BELOW_MIN_SNAPSHOT
    assert int(behind.coverage.snapshot_version) >= floor
    assert behind.hits[0].episode_id == late
    cov.validate(behind.coverage)
    # Without a floor the same replica serves its older snapshot.
    older = replica.recall("office Rotterdam", limit=3)
    assert older.served_by == rpb.SERVED_BY_RESIDENT
    assert int(older.coverage.snapshot_version) < floor

    # Once the feed flows the replica waits for its follower and serves resident.
    replica.runtime().follower.resume()
    served = replica.recall("office Rotterdam", limit=3, min_snapshot_version=floor)
    assert served.hits[0].episode_id == late
    if served.served_by == rpb.SERVED_BY_RESIDENT:
        assert int(served.coverage.snapshot_version) >= floor
    replica.caught_up()
    caught = replica.recall("office Rotterdam", limit=3, min_snapshot_version=floor)
    assert caught.served_by == rpb.SERVED_BY_RESIDENT
    assert int(caught.coverage.snapshot_version) >= floor

    with pytest.raises(grpc.RpcError) as raised:
        replica.recall("office", min_snapshot_version=-1)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(raised.value) == "min_snapshot_version"
