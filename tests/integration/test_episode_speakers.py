"""Speakers as fields: CommitTurn's user_name / assistant_name reach the
episode, the feed and Recall, take part in the episode's identity, and stay
out of its indexed text."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import grpc
import pytest

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc
from engram.server import Suite
from memory_service.journal import canonical_content
from tests.helpers import error_field, wait_for_embeddings

pytestmark = pytest.mark.integration


@pytest.fixture
def channel(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> grpc.Channel:
    return channel_to(start_services(["journal", "retrieval"]))


def commit(
    journal: pb_grpc.JournalServiceStub, user_text: str, user_name: str = "", **extra: str
) -> pb.TurnReceipt:
    return journal.CommitTurn(
        pb.CommitTurnRequest(
            subject="alice",
            session_id="s1",
            user_text=user_text,
            assistant_text="(acknowledged)",
            user_name=user_name,
            request_id=extra.pop("request_id", str(uuid.uuid4())),
            learning_eligible=True,
            **extra,
        )
    ).receipt


def test_names_are_part_of_the_identity_not_of_the_indexed_text(channel: grpc.Channel) -> None:
    journal = pb_grpc.JournalServiceStub(channel)
    zoe = commit(journal, "Thanks, see you on Friday!", "Zoë")
    joao = commit(journal, "Thanks, see you on Friday!", "João")
    again = commit(journal, "Thanks, see you on Friday!", "Zoë")
    unnamed = commit(journal, "Thanks, see you on Friday!")
    assert len({zoe.episode_id, joao.episode_id, unnamed.episode_id}) == 3
    assert again.episode_id == zoe.episode_id and again.occurrence_count == 2
    assert zoe.content_sha256 != unnamed.content_sha256
    episodes = {
        e.episode_id: e
        for e in journal.BatchGetEpisodes(
            pb.BatchGetEpisodesRequest(episode_ids=[zoe.episode_id, joao.episode_id])
        ).episodes
    }
    assert episodes[zoe.episode_id].user_name == "Zoë"
    assert episodes[joao.episode_id].user_name == "João"
    assert episodes[zoe.episode_id].user_text == "Thanks, see you on Friday!"
    # The name is not a term of the episode: asking for it finds nothing.
    wait_for_embeddings(journal)
    hits = journal.SearchEpisodes(
        pb.SearchEpisodesRequest(query_text="Zoë", subject="alice", limit=10)
    ).hits
    assert [h.episode.episode_id for h in hits if h.lexical_rank] == []


def test_the_canonical_content_names_the_speakers_only_when_given() -> None:
    assert canonical_content("a", "b") == "User: a\nAssistant: b"
    assert canonical_content("a", "b", "Zoë", "Ana") == "User (Zoë): a\nAssistant (Ana): b"


def test_an_unnamed_commit_replays_as_before(channel: grpc.Channel) -> None:
    journal = pb_grpc.JournalServiceStub(channel)
    request_id = str(uuid.uuid4())
    first = commit(journal, "My locker code is 4412.", request_id=request_id)
    replay = journal.CommitTurn(
        pb.CommitTurnRequest(
            subject="alice",
            session_id="s1",
            user_text="My locker code is 4412.",
            assistant_text="(acknowledged)",
            request_id=request_id,
            learning_eligible=True,
        )
    ).receipt
    assert replay.replayed and replay.event_id == first.event_id


def test_recall_hits_carry_the_speakers(channel: grpc.Channel) -> None:
    journal = pb_grpc.JournalServiceStub(channel)
    retrieval = rpb_grpc.RetrievalServiceStub(channel)
    receipt = commit(journal, "I adopted a greyhound called Pixel.", "Zoë")
    wait_for_embeddings(journal)
    deadline = time.monotonic() + 20
    while True:
        hits = retrieval.Recall(
            rpb.RecallRequest(query_text="greyhound Pixel", subject="alice", limit=5)
        ).hits
        if hits:
            break
        assert time.monotonic() < deadline, "the index never served the episode"
        time.sleep(0.05)
    assert hits[0].episode_id == receipt.episode_id
    assert hits[0].user_name == "Zoë" and hits[0].assistant_name == ""


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("x" * 129, "limit is 128"),
        ("Zoë\nAnn", "control characters or line breaks"),
        (" Zoë", "whitespace"),
    ],
)
def test_a_bad_name_is_invalid_and_writes_nothing(
    channel: grpc.Channel, name: str, problem: str
) -> None:
    journal = pb_grpc.JournalServiceStub(channel)
    with pytest.raises(grpc.RpcError) as err:
        commit(journal, "Hello there.", name)
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(err.value) == "user_name" and problem in (err.value.details() or "")
    events = journal.ReadSessionJournal(
        pb.ReadSessionJournalRequest(subject="alice", session_id="s1")
    ).events
    assert list(events) == []


def test_context_turns_come_with_hits_on_both_read_paths(channel: grpc.Channel) -> None:
    journal = pb_grpc.JournalServiceStub(channel)
    retrieval = rpb_grpc.RetrievalServiceStub(channel)
    texts = [
        "We drove up to the lake on Saturday.",
        "It felt crazy, honestly.",
        "The water was freezing but we swam anyway.",
        "Then we had dinner at the cabin.",
        "Next weekend is the marathon.",
    ]
    receipts = [commit(journal, t, "Zoë" if i % 2 else "João") for i, t in enumerate(texts)]
    wait_for_embeddings(journal)
    middle = receipts[2]
    # Quarantining one neighbour hides it from every context list.
    journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EVENT, record_id=str(receipts[3].event_id), reason="t"
        )
    )
    episode = journal.BatchGetEpisodes(
        pb.BatchGetEpisodesRequest(episode_ids=[middle.episode_id], context_turns=2)
    ).episodes[0]
    around = [(c.offset, c.user_text, c.user_name) for c in episode.context_turns]
    assert around == [
        (-2, texts[0], "João"),
        (-1, texts[1], "Zoë"),
        (1, texts[4], "João"),
    ]
    hits = journal.SearchEpisodes(
        pb.SearchEpisodesRequest(
            query_text="freezing water swam", subject="alice", limit=1, context_turns=1
        )
    ).hits
    assert hits[0].episode.episode_id == middle.episode_id
    assert [c.user_text for c in hits[0].episode.context_turns] == [texts[1], texts[4]]
    deadline = time.monotonic() + 20
    while True:
        recalled = retrieval.Recall(
            rpb.RecallRequest(
                query_text="freezing water swam", subject="alice", limit=1, context_turns=1
            )
        ).hits
        if recalled:
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert [c.offset for c in recalled[0].context_turns] == [-1, 1]
    # Without asking, no neighbours travel.
    plain = journal.BatchGetEpisodes(pb.BatchGetEpisodesRequest(episode_ids=[middle.episode_id]))
    assert not plain.episodes[0].context_turns


@pytest.mark.parametrize("turns", [-1, 6])
def test_context_turns_out_of_range_is_invalid(channel: grpc.Channel, turns: int) -> None:
    retrieval = rpb_grpc.RetrievalServiceStub(channel)
    with pytest.raises(grpc.RpcError) as err:
        retrieval.Recall(rpb.RecallRequest(query_text="lake", subject="alice", context_turns=turns))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(err.value) == "context_turns"
