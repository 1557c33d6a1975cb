"""RetrievalService through real gRPC, against a real JournalService and
PostgreSQL: resident vs fallback agreement, filters, staleness, visibility of
quarantine and purge, shadow telemetry, persistence across a restart, an
unreachable journal, rebuilds and FindExact."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import grpc
import pytest

from engram import coverage as cov
from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rgrpc
from engram.server import Suite
from engram.timeutil import to_timestamp
from tests.helpers import commit_turn, error_field, error_info, wait_for_embeddings

pytestmark = pytest.mark.integration

T = TypeVar("T")

TOPICS = [
    ("My sister Maya lives in Lisbon and teaches violin.", "Noted: Maya, Lisbon, violin."),
    ("I am allergic to peanuts and shellfish.", "I will remember the peanut allergy."),
    ("Our deployment runs on Kubernetes in the Frankfurt region.", "Kubernetes, Frankfurt."),
    ("The quarterly budget review is every March.", "March budget review, got it."),
    ("I adopted a grey tabby cat named Pixel.", "Pixel the tabby cat sounds lovely."),
    ("My favourite dessert is pistachio ice cream.", "Pistachio ice cream it is."),
    ("The database password rotation happens weekly.", "Weekly rotation noted."),
    ("I run a marathon in Berlin every September.", "Good luck with the Berlin marathon."),
]


def poll(
    check: Callable[[], T | None],
    *,
    timeout: float = 20.0,
    interval: float = 0.05,
    what: str = "condition",
) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{what} not reached within {timeout}s")
        time.sleep(interval)


def when(value: T, condition: Callable[[T], bool]) -> T | None:
    return value if condition(value) else None


class Client:
    def __init__(
        self,
        suite: Suite,
        channel_to: Callable[..., grpc.Channel],
        journal_suite: Suite | None = None,
    ) -> None:
        self.suite = suite
        self.retrieval = rgrpc.RetrievalServiceStub(channel_to(suite))
        self.journal = jgrpc.JournalServiceStub(channel_to(journal_suite or suite))

    def recall(self, text: str, subject: str = "alice", **fields: Any) -> rpb.RecallResponse:
        response: rpb.RecallResponse = self.retrieval.Recall(
            rpb.RecallRequest(query_text=text, subject=subject, **fields)
        )
        return response

    def status(self) -> rpb.GetIndexStatusResponse:
        response: rpb.GetIndexStatusResponse = self.retrieval.GetIndexStatus(
            rpb.GetIndexStatusRequest()
        )
        return response

    def caught_up(self, timeout: float = 20.0) -> rpb.GetIndexStatusResponse:
        """Wait until every committed change is embedded and applied to the index."""
        wait_for_embeddings(self.journal, timeout=timeout)
        watermark = self.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark

        def done() -> rpb.GetIndexStatusResponse | None:
            status = self.status()
            return (
                status
                if status.ready
                and status.applied_cursor >= watermark
                and status.staleness_seconds >= 0
                else None
            )

        return poll(done, timeout=timeout, what=f"index at cursor {watermark}")

    def runtime(self) -> Any:
        binding = next(b for b in self.suite.bindings if b.name == "retrieval")
        return binding.servicer.runtime  # type: ignore[attr-defined]


def ids(response: rpb.RecallResponse) -> list[str]:
    return [h.episode_id for h in response.hits]


def seed(client: Client, subject: str = "alice", session_id: str = "s1") -> dict[str, str]:
    """Commit the TOPICS turns; returns user_text -> episode id."""
    return {
        user: commit_turn(
            client.journal, user, assistant, subject=subject, session_id=session_id
        ).episode_id
        for user, assistant in TOPICS
    }


@pytest.fixture
def suite_client(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> Callable[..., Client]:
    def make(**overrides: Any) -> Client:
        suite = start_services(["journal", "retrieval"], **overrides)
        return Client(suite, channel_to)

    return make


def test_resident_and_fallback_agree_on_a_small_corpus(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    episodes = seed(client)
    status = client.caught_up()
    assert status.episodes == len(TOPICS)
    assert status.dense_index_type == "faiss-flat-ip"

    for query, expected in [
        ("Which city does Maya live in?", TOPICS[0][0]),
        ("what is my cat called", TOPICS[4][0]),
        ("marathon in Berlin", TOPICS[7][0]),
    ]:
        resident = client.recall(query, limit=3)
        assert resident.served_by == rpb.SERVED_BY_RESIDENT
        assert resident.fallback_reason == rpb.FALLBACK_REASON_NONE
        cov.validate(resident.coverage)
        assert resident.coverage.read_path == "retrieval.resident.v1"
        assert list(resident.coverage.source_systems) == ["faiss:faiss-flat-ip", "bm25:memory"]
        assert resident.coverage.snapshot_version == str(client.status().applied_cursor)
        assert resident.absence_state == cpb.ABSENCE_STATE_NOT_ABSENT
        fallback = client.journal.SearchEpisodes(
            jpb.SearchEpisodesRequest(query_text=query, subject="alice", limit=3)
        )
        assert resident.hits[0].episode_id == episodes[expected]
        assert fallback.hits[0].episode.episode_id == episodes[expected]
        assert resident.hits[0].user_text == expected
        assert resident.hits[0].dense_rank >= 1 or resident.hits[0].lexical_rank >= 1


def test_ranked_empty_result_is_coverage_unknown(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    seed(client)
    client.caught_up()
    response = client.recall("anything at all", subject="nobody-here")
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert not response.hits
    assert response.coverage.outcome == cpb.SEARCH_OUTCOME_SEARCHED
    assert response.coverage.dimensions.semantic == cpb.DIMENSION_STATE_UNKNOWN
    assert response.absence_state == cpb.ABSENCE_STATE_COVERAGE_UNKNOWN


def test_filters_never_leak(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    mine = seed(client, subject="alice", session_id="s1")
    theirs = seed(client, subject="bob", session_id="s9")
    other_ws = commit_turn(
        client.journal,
        TOPICS[0][0] + " (other workspace)",
        "ok",
        subject="alice",
        workspace="lab",
        session_id="s1",
    ).episode_id
    old = datetime(2020, 1, 1, tzinfo=UTC)
    dated = commit_turn(
        client.journal,
        "Maya visited Lisbon back in 2020",
        "ok",
        subject="alice",
        session_id="s2",
        occurred_at=old,
    ).episode_id
    client.caught_up()

    response = client.recall("Maya Lisbon violin", limit=100)
    got = set(ids(response))
    assert got and got <= set(mine.values()) | {dated}
    assert not got & set(theirs.values())
    assert other_ws not in got

    lab = client.recall("Maya Lisbon violin", workspace="lab", limit=100)
    assert ids(lab) == [other_ws]

    excluded = client.recall("Maya Lisbon violin", exclude_session_id="s1", limit=100)
    assert ids(excluded) == [dated]
    assert excluded.coverage.dimensions.visibility == cpb.DIMENSION_STATE_PARTIAL

    window = cpb.TimeWindow(
        start_time=to_timestamp(old - timedelta(days=1)),
        end_time=to_timestamp(old + timedelta(days=1)),
    )
    windowed = client.recall("Maya Lisbon", time_window=window, limit=100)
    assert windowed.served_by == rpb.SERVED_BY_RESIDENT
    assert ids(windowed) == [dated]
    assert windowed.coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL


def test_stale_index_falls_back_and_says_so(suite_client: Callable[..., Client]) -> None:
    client = suite_client(index_staleness_seconds=1e-9)
    episodes = seed(client)
    client.caught_up()
    response = client.recall("what is my cat called")
    assert response.served_by == rpb.SERVED_BY_FALLBACK
    assert response.fallback_reason == rpb.FALLBACK_REASON_STALE
    assert response.coverage.read_path == "journal.search_episodes.v1"
    cov.validate(response.coverage)
    assert response.hits[0].episode_id == episodes[TOPICS[4][0]]
    status = client.status()
    assert status.fallbacks_total >= 1
    assert status.staleness_seconds >= 0


def test_paused_feed_goes_stale_and_resumes(suite_client: Callable[..., Client]) -> None:
    client = suite_client(index_staleness_seconds=0.3)
    seed(client)
    client.caught_up()
    follower = client.runtime().follower
    follower.pause()
    stale = poll(
        lambda: when(
            client.recall("cat named Pixel"),
            lambda r: r.fallback_reason == rpb.FALLBACK_REASON_STALE,
        ),
        what="stale fallback",
    )
    assert stale.served_by == rpb.SERVED_BY_FALLBACK
    late = commit_turn(client.journal, "My new bicycle is a red fixie.", "nice").episode_id
    follower.resume()
    client.caught_up()
    fresh = poll(
        lambda: when(
            client.recall("red fixie bicycle"), lambda r: r.served_by == rpb.SERVED_BY_RESIDENT
        ),
        what="resident again",
    )
    assert fresh.hits[0].episode_id == late


def test_quarantine_is_never_served_after_the_call_returned(
    suite_client: Callable[..., Client],
) -> None:
    # A generous staleness limit keeps the resident path serving while its
    # follower is paused, so the visibility check is what must hide the episode.
    client = suite_client(index_staleness_seconds=3600)
    episodes = seed(client)
    client.caught_up()
    target = episodes[TOPICS[1][0]]
    assert target in ids(client.recall("peanut allergy"))

    client.runtime().follower.pause()
    client.journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_EPISODE,
            record_id=target,
            reason="wrong person",
            request_id=str(uuid.uuid4()),
        )
    )
    response = client.recall("peanut allergy", limit=100)
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert target not in ids(response)
    assert client.status().episodes == len(TOPICS)  # the index itself has not caught up

    client.runtime().follower.resume()
    client.caught_up()
    assert client.status().episodes == len(TOPICS) - 1
    client.journal.Restore(
        jpb.RestoreRequest(
            record_kind=jpb.RECORD_KIND_EPISODE,
            record_id=target,
            reason="it was right",
            request_id=str(uuid.uuid4()),
        )
    )
    client.caught_up()
    assert target in ids(client.recall("peanut allergy"))


def test_purge_is_never_served_after_the_call_returned(suite_client: Callable[..., Client]) -> None:
    client = suite_client(index_staleness_seconds=3600)
    seed(client, subject="alice")
    kept = seed(client, subject="bob")
    client.caught_up()
    assert client.recall("cat named Pixel").hits

    client.runtime().follower.pause()
    client.journal.Purge(
        jpb.PurgeRequest(subject="alice", reason="erasure request", request_id=str(uuid.uuid4()))
    )
    response = client.recall("cat named Pixel", limit=100)
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert not response.hits
    assert response.absence_state == cpb.ABSENCE_STATE_COVERAGE_UNKNOWN
    assert client.recall("cat named Pixel", subject="bob").hits[0].episode_id == kept[TOPICS[4][0]]

    client.runtime().follower.resume()
    status = client.caught_up()
    assert status.episodes == len(TOPICS)


def _refuse_rpc_reread(*_args: Any, **_kwargs: Any) -> list[jpb.Episode]:
    raise AssertionError("the visibility re-read went through BatchGetEpisodes")


def _quarantine(client: Client, kind: Any, record_id: str, restore: bool = False) -> None:
    fields = {
        "record_kind": kind,
        "record_id": record_id,
        "reason": "test",
        "request_id": str(uuid.uuid4()),
    }
    if restore:
        client.journal.Restore(jpb.RestoreRequest(**fields))
    else:
        client.journal.Quarantine(jpb.QuarantineRequest(**fields))


def test_visibility_is_read_from_the_database_without_the_rpc_hop(
    suite_client: Callable[..., Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    client = suite_client(index_staleness_seconds=3600)
    receipts = {
        user: commit_turn(client.journal, user, assistant, session_id="s1")
        for user, assistant in TOPICS
    }
    client.caught_up()
    runtime = client.runtime()
    assert runtime.direct is not None
    monkeypatch.setattr(runtime.client, "batch_get", _refuse_rpc_reread)
    target = receipts[TOPICS[4][0]]
    assert ids(client.recall("cat named Pixel"))[0] == target.episode_id

    # The snapshot cannot learn of these: only the read of committed state can.
    runtime.follower.pause()
    _quarantine(client, jpb.RECORD_KIND_EVENT, str(target.event_id))
    response = client.recall("cat named Pixel", limit=100)
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert target.episode_id not in ids(response)
    assert len(response.hits) == len(TOPICS) - 1
    _quarantine(client, jpb.RECORD_KIND_EVENT, str(target.event_id), restore=True)
    response = client.recall("cat named Pixel", limit=3, context_turns=1)
    assert ids(response)[0] == target.episode_id
    assert response.hits[0].user_text == TOPICS[4][0]
    assert response.hits[0].context_turns


def test_without_a_database_url_the_journal_rpc_rereads(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    journal_suite = start_services(["journal"])
    retrieval_suite = start_services(
        ["retrieval"],
        journal_addr=journal_suite.address,
        database_url="",
        index_staleness_seconds=3600,
    )
    client = Client(retrieval_suite, channel_to, journal_suite)
    episodes = seed(client)
    client.caught_up()
    assert client.runtime().direct is None
    target = episodes[TOPICS[1][0]]
    client.runtime().follower.pause()
    _quarantine(client, jpb.RECORD_KIND_EPISODE, target)
    response = client.recall("peanut allergy", limit=100)
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert target not in ids(response)


def test_shadow_mode_serves_fallback_and_records_agreement(
    suite_client: Callable[..., Client],
) -> None:
    client = suite_client(index_shadow_mode=True)
    seed(client)
    client.caught_up()
    for query in ("cat named Pixel", "Maya in Lisbon", "budget review in March"):
        response = client.recall(query, limit=3)
        assert response.served_by == rpb.SERVED_BY_FALLBACK
        assert response.fallback_reason == rpb.FALLBACK_REASON_SHADOW
    status = poll(
        lambda: when(client.status(), lambda s: s.shadow.comparisons >= 3),
        what="three shadow comparisons",
    )
    assert status.shadow_mode
    assert status.shadow.top1_agreement == 1.0
    assert status.shadow.mean_overlap_at_k > 0.3


def test_restart_reloads_the_persisted_snapshot_and_resumes_the_feed(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    first = Client(start_services(["journal", "retrieval"]), channel_to)
    episodes = seed(first)
    before = first.caught_up()
    first.suite.stop(grace=0.5)

    second = Client(start_services(["journal", "retrieval"]), channel_to)
    loaded = poll(lambda: when(second.status(), lambda s: s.ready), what="snapshot loaded")
    assert loaded.rebuild.total == 0 and not loaded.rebuild.HasField("started_at")
    assert loaded.applied_cursor >= before.applied_cursor
    assert loaded.episodes == len(TOPICS)

    late = commit_turn(second.journal, "Our office moved to Rotterdam.", "ok").episode_id
    second.caught_up()
    response = second.recall("where is the office now", limit=3)
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert response.hits[0].episode_id == late
    assert second.recall("cat named Pixel").hits[0].episode_id == episodes[TOPICS[4][0]]


def test_unreachable_journal_is_unavailable_never_an_empty_search(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    suite = start_services(["retrieval"], journal_addr="127.0.0.1:1", downstream_timeout_ms=500)
    client = Client(suite, channel_to)
    response = client.recall("anything")
    assert response.served_by == rpb.SERVED_BY_NONE
    assert response.fallback_reason == rpb.FALLBACK_REASON_NOT_READY
    assert response.coverage.outcome == cpb.SEARCH_OUTCOME_UNAVAILABLE
    assert response.absence_state == cpb.ABSENCE_STATE_UNAVAILABLE
    cov.validate(response.coverage)
    exact = client.retrieval.FindExact(rpb.FindExactRequest(terms=["x"], subject="alice"))
    assert exact.absence_state == cpb.ABSENCE_STATE_UNAVAILABLE
    assert not client.status().ready
    with pytest.raises(grpc.RpcError) as raised:
        list(client.retrieval.RebuildIndex(rpb.RebuildIndexRequest()))
    assert raised.value.code() in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.FAILED_PRECONDITION)


def test_rebuild_streams_progress_and_publishes(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    episodes = seed(client)
    before = client.caught_up()
    request_id = str(uuid.uuid4())
    messages = list(client.retrieval.RebuildIndex(rpb.RebuildIndexRequest(request_id=request_id)))
    final = messages[-1]
    assert final.published
    assert final.progress.done == final.progress.total > 0
    assert final.progress.episodes == len(TOPICS)
    # A snapshot's version is the feed cursor it reflects: nothing changed
    # since `before`, so the rebuilt snapshot has the same one.
    assert final.snapshot_version == before.snapshot_version == before.applied_cursor
    status = client.status()
    assert status.snapshot_version == status.applied_cursor >= final.snapshot_version
    assert status.episodes == len(TOPICS)
    assert not status.rebuild.running
    replay = list(client.retrieval.RebuildIndex(rpb.RebuildIndexRequest(request_id=request_id)))
    assert replay[-1].snapshot_version == final.snapshot_version
    assert client.recall("cat named Pixel").hits[0].episode_id == episodes[TOPICS[4][0]]


def test_find_exact_passes_through_with_a_scope(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    seed(client)
    found = client.retrieval.FindExact(rpb.FindExactRequest(terms=["Pixel"], subject="alice"))
    cov.validate(found.coverage)
    assert [h.user_text for h in found.hits] == [TOPICS[4][0]]
    assert found.absence_state == cpb.ABSENCE_STATE_NOT_ABSENT
    assert "subject alice" in found.scope_description
    missing = client.retrieval.FindExact(rpb.FindExactRequest(terms=["zeppelin"], subject="alice"))
    assert not missing.hits
    assert missing.absence_state == cov.derive_absence(missing.coverage, 0)
    assert missing.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert '"zeppelin"' in missing.scope_description


UNICODE_TOPICS = [
    ("Ich bin letzten Sommer nach Zürich gezogen.", "Grüezi in Zürich!"),
    ("Herr Müller arbeitet bei Ørsted in São Paulo.", "Notiert."),
    ("我住在北京大学附近。", "好的。"),
]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ZÜRICH", UNICODE_TOPICS[0][0]),
        ("zu\u0308rich", UNICODE_TOPICS[0][0]),  # decomposed
        ("Zü\u200brich", UNICODE_TOPICS[0][0]),  # zero-width space inside
        ("MÜLLER ØRSTED", UNICODE_TOPICS[1][0]),
        ("北京", UNICODE_TOPICS[2][0]),
    ],
)
def test_unicode_terms_are_found_lexically_by_the_resident_index(
    suite_client: Callable[..., Client], query: str, expected: str
) -> None:
    client = suite_client()
    seed(client)
    for user, assistant in UNICODE_TOPICS:
        commit_turn(client.journal, user, assistant)
    client.caught_up()
    resident = client.recall(query, limit=5)
    assert resident.served_by == rpb.SERVED_BY_RESIDENT
    by_lexical = {h.lexical_rank: h.user_text for h in resident.hits if h.lexical_rank}
    assert by_lexical[1] == expected


def test_unicode_terms_are_found_lexically_by_the_fallback(
    suite_client: Callable[..., Client],
) -> None:
    client = suite_client()
    seed(client)
    for user, assistant in UNICODE_TOPICS:
        commit_turn(client.journal, user, assistant)
    for query, expected in [("ZÜRICH", UNICODE_TOPICS[0][0]), ("müller", UNICODE_TOPICS[1][0])]:
        fallback = client.journal.SearchEpisodes(
            jpb.SearchEpisodesRequest(query_text=query, subject="alice", limit=5)
        )
        by_lexical = {h.lexical_rank: h.episode.user_text for h in fallback.hits if h.lexical_rank}
        assert by_lexical[1] == expected, query


def test_find_exact_passes_unicode_terms_through(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    seed(client)
    for user, assistant in UNICODE_TOPICS:
        commit_turn(client.journal, user, assistant)

    def find(*terms: str) -> rpb.FindExactResponse:
        response: rpb.FindExactResponse = client.retrieval.FindExact(
            rpb.FindExactRequest(terms=list(terms), subject="alice")
        )
        cov.validate(response.coverage)
        assert response.absence_state == cov.derive_absence(response.coverage, len(response.hits))
        return response

    for spelling in ("zürich", "Zürich", "ZÜRICH"):
        found = find(spelling)
        assert [h.user_text for h in found.hits] == [UNICODE_TOPICS[0][0]]
        assert list(found.normalized_terms) == ["zürich"]
        assert found.absence_state == cpb.ABSENCE_STATE_NOT_ABSENT
    missing = find("Genève")
    assert missing.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert '"genève"' in missing.scope_description
    han = find("北京")
    assert [h.user_text for h in han.hits] == [UNICODE_TOPICS[2][0]]
    assert han.coverage.dimensions.normalization == cpb.DIMENSION_STATE_PARTIAL
    never = find("上海")
    assert never.coverage.dimensions.normalization == cpb.DIMENSION_STATE_PARTIAL
    assert never.absence_state == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"query_text": "", "subject": "alice"}, "query_text"),
        ({"query_text": "x" * 4097, "subject": "alice"}, "query_text"),
        ({"query_text": "hi", "subject": ""}, "subject"),
        ({"query_text": "hi", "subject": "alice", "limit": 101}, "limit"),
        ({"query_text": "hi", "subject": "alice", "limit": -1}, "limit"),
        (
            {"query_text": "hi", "subject": "alice", "query_embedding": [0.1, 0.2]},
            "query_embedding",
        ),
        (
            {
                "query_text": "hi",
                "subject": "alice",
                "time_window": cpb.TimeWindow(
                    start_time=to_timestamp(datetime(2024, 2, 1, tzinfo=UTC)),
                    end_time=to_timestamp(datetime(2024, 1, 1, tzinfo=UTC)),
                ),
            },
            "time_window",
        ),
    ],
)
def test_recall_rejects_bad_input(
    suite_client: Callable[..., Client], fields: dict[str, Any], field: str
) -> None:
    client = suite_client(workers_enabled=False)
    with pytest.raises(grpc.RpcError) as raised:
        client.retrieval.Recall(rpb.RecallRequest(**fields))
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(raised.value) == field
    assert error_info(raised.value).domain == "engram"


def test_disabled_workers_serve_the_fallback(suite_client: Callable[..., Client]) -> None:
    client = suite_client(workers_enabled=False)
    commit_turn(client.journal, "Lexical only: the heron nests by the lake.", "ok")
    response = client.recall("heron lake")
    assert response.served_by == rpb.SERVED_BY_FALLBACK
    assert response.fallback_reason == rpb.FALLBACK_REASON_DISABLED
    assert response.hits


def test_episode_without_vector_is_found_lexically_until_embedded(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    # A journal without its embedding worker: episodes never get vectors.
    journal_suite = start_services(["journal"], workers_enabled=False)
    retrieval_suite = start_services(["retrieval"], journal_addr=journal_suite.address)
    client = Client(retrieval_suite, channel_to, journal_suite)
    episode_id = commit_turn(
        client.journal, "The spare key is under the blue flowerpot.", "ok"
    ).episode_id
    watermark = client.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark
    poll(
        lambda: when(client.status(), lambda s: s.ready and s.applied_cursor >= watermark),
        what="index caught up",
    )
    response = client.recall("where is the spare key")
    assert response.served_by == rpb.SERVED_BY_RESIDENT
    assert [h.episode_id for h in response.hits] == [episode_id]
    assert response.hits[0].dense_rank == 0 and response.hits[0].lexical_rank == 1


# -- engram.ranking on both read paths ------------------------------------------


def _commit_named(
    client: Client, text: str, name: str, when: datetime, session_id: str = "s1"
) -> str:
    request = jpb.CommitTurnRequest(
        subject="alice",
        session_id=session_id,
        user_text=text,
        assistant_text="(acknowledged)",
        user_name=name,
        request_id=str(uuid.uuid4()),
        learning_eligible=True,
    )
    request.occurred_at.CopyFrom(to_timestamp(when))
    receipt: jpb.TurnReceipt = client.journal.CommitTurn(request).receipt
    return receipt.episode_id


def _both_paths(client: Client, text: str, limit: int) -> tuple[list[str], list[str]]:
    resident = client.recall(text, limit=limit)
    assert resident.served_by == rpb.SERVED_BY_RESIDENT
    fallback = client.journal.SearchEpisodes(
        jpb.SearchEpisodesRequest(query_text=text, subject="alice", limit=limit)
    )
    return ids(resident), [h.episode.episode_id for h in fallback.hits]


def test_ranking_is_prefix_stable_on_both_paths(suite_client: Callable[..., Client]) -> None:
    client = suite_client()
    start = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
    for i in range(40):
        _commit_named(
            client,
            f"Note {i}: we talked about trip number {i % 7} and the garden plan {i % 5}.",
            "Melanie" if i % 2 else "Caroline",
            start + timedelta(seconds=i),
            session_id=f"s{i // 10}",
        )
    client.caught_up()
    for question in ("What did Melanie say about the garden plan?", "trip number 3", "garden"):
        long_resident, long_fallback = _both_paths(client, question, 25)
        short_resident, short_fallback = _both_paths(client, question, 5)
        assert long_resident[:5] == short_resident
        assert long_fallback[:5] == short_fallback
        assert len(long_resident) == 25 and len(long_fallback) == 25


def test_speakers_are_a_bonus_never_a_filter_and_dates_resolve(
    suite_client: Callable[..., Client],
) -> None:
    # The first stage's rules (the learned second stage may re-weigh them).
    client = suite_client(recall_ranker="none")
    start = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)
    painted_by_melanie = _commit_named(
        client, "I painted a lake at sunrise last week.", "Melanie", start
    )
    painted_by_caroline = _commit_named(
        client, "I painted a portrait of my grandmother.", "Caroline", start + timedelta(seconds=1)
    )
    hiking = _commit_named(
        client, "We went hiking yesterday, it was lovely.", "Caroline", start + timedelta(seconds=2)
    )
    for i in range(6):
        _commit_named(
            client,
            f"Melanie, the weather was fine on day {i}.",
            "Caroline",
            start + timedelta(seconds=3 + i),
        )
    client.caught_up()
    for answers in _both_paths(client, "What did Melanie paint?", 5):
        assert answers[0] == painted_by_melanie
        assert painted_by_caroline in answers  # another speaker's turn is never filtered out
    for answers in _both_paths(client, "What did Caroline do on 7 May 2023?", 3):
        assert answers[0] == hiking  # "yesterday" said on 8 May 2023
    # The resolved date is part of the lexical view on both paths.
    for answers in _both_paths(client, "1 may 2023", 3):
        assert answers[0] == painted_by_melanie  # "last week" said on 8 May 2023
