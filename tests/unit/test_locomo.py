"""engram.locomo: parsing LoCoMo-shaped files and the journal mapping."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from engram.locomo import (
    ASSISTANT_TEXT,
    LOCOMO_NAMESPACE,
    QA,
    LocomoFormatError,
    commits_for,
    load_conversations,
    parse_date_time,
    split_evidence,
)
from engram.validation import require_id


def tiny_locomo() -> list[dict[str, Any]]:
    """Two conversations shaped like LoCoMo, including its quirks: a
    date_time key without a session list, an image turn, an int answer, a
    category-5 question without an answer and multi-id evidence strings."""
    return [
        {
            "sample_id": "conv-1",
            "conversation": {
                "speaker_a": "Ana",
                "speaker_b": "Ben",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": [
                    {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat named Miso."},
                    {
                        "speaker": "Ben",
                        "dia_id": "D1:2",
                        "text": "Lovely! Here is my dog.",
                        "img_url": ["http://example.invalid/dog.jpg"],
                        "blip_caption": "a photo of a dog on a beach",
                        "query": "dog beach",
                    },
                ],
                "session_2_date_time": "12:05 am on 10 June, 2023",
                "session_2": [
                    {"speaker": "Ben", "dia_id": "D2:1", "text": "How is Miso?"},
                ],
                "session_3_date_time": "9:00 am on 1 July, 2023",
            },
            "qa": [
                {
                    "question": "What is Ana's cat called?",
                    "answer": "Miso",
                    "evidence": ["D1:1"],
                    "category": 4,
                },
                {"question": "When?", "answer": 2023, "evidence": ["D1:1; D2:1"], "category": 2},
                {
                    "question": "What is Ben's cat called?",
                    "adversarial_answer": "Miso",
                    "evidence": ["D1:1"],
                    "category": 5,
                },
            ],
            "observation": {},
            "session_summary": {},
        },
        {
            "sample_id": "conv-2",
            "conversation": {
                "speaker_a": "Cy",
                "speaker_b": "Di",
                "session_1_date_time": "3:30 pm on 1 January, 2024",
                "session_1": [{"speaker": "Cy", "dia_id": "D1:1", "text": "Happy new year."}],
            },
            "qa": [],
        },
    ]


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "tiny_locomo.json"
    path.write_text(json.dumps(tiny_locomo()), encoding="utf-8")
    return path


def test_load_conversations_shapes(locomo_file: Path) -> None:
    conversations = load_conversations(locomo_file)
    assert [c.sample_id for c in conversations] == ["conv-1", "conv-2"]
    first = conversations[0]
    assert first.speakers == ("Ana", "Ben")
    assert first.subject == "locomo-conv-1"
    # session_3 has a date_time but no turn list: it is not a session.
    assert [s.session_id for s in first.sessions] == ["conv-1-session-1", "conv-1-session-2"]
    assert first.sessions[0].occurred_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert first.sessions[1].occurred_at == datetime(2023, 6, 10, 0, 5, tzinfo=UTC)
    turns = first.sessions[0].turns
    assert [t.dia_id for t in turns] == ["D1:1", "D1:2"]
    assert turns[1].image_caption == "a photo of a dog on a beach"
    assert first.turn_count() == 3
    assert first.qa[0] == QA("What is Ana's cat called?", "Miso", ["D1:1"], 4)
    assert first.qa[1].answer == "2023"
    assert first.qa[1].evidence == ["D1:1", "D2:1"]
    assert first.qa[2].answer == ""
    assert first.qa[2].category == 5


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
        ("12:05 am on 10 June, 2023", datetime(2023, 6, 10, 0, 5, tzinfo=UTC)),
        ("12:30 pm on 1 Jan, 2024", datetime(2024, 1, 1, 12, 30, tzinfo=UTC)),
        ("7:00 AM on 31 December 2022", datetime(2022, 12, 31, 7, 0, tzinfo=UTC)),
    ],
)
def test_parse_date_time(text: str, expected: datetime) -> None:
    assert parse_date_time(text) == expected


@pytest.mark.parametrize("text", ["yesterday", "13:00 on 8 May, 2023", "1:00 pm on 31 Foo, 2023"])
def test_parse_date_time_rejects(text: str) -> None:
    with pytest.raises(LocomoFormatError):
        parse_date_time(text)


def test_split_evidence_handles_quirks() -> None:
    raw = ["D8:6; D9:17", "D9:1 D4:4", "(D3:2)", "D", "D:11:26", "D8:6"]
    assert split_evidence(raw) == ["D8:6", "D9:17", "D9:1", "D4:4", "D3:2"]


def test_commit_mapping_is_deterministic(locomo_file: Path) -> None:
    conversation = load_conversations(locomo_file)[0]
    commits = list(commits_for(conversation))
    assert [c.dia_id for c in commits] == ["D1:1", "D1:2", "D2:1"]
    first, image, later = commits
    assert first.subject == "locomo-conv-1"
    assert first.session_id == "conv-1-session-1"
    assert (first.user_text, first.user_name) == ("I adopted a cat named Miso.", "Ana")
    assert first.assistant_text == ASSISTANT_TEXT
    assert (
        image.user_text == "Lovely! Here is my dog. [shared a photo: a photo of a dog on a beach]"
    )
    assert image.user_name == "Ben"
    # Turns of a session keep their order in time.
    assert image.occurred_at == first.occurred_at + timedelta(seconds=1)
    assert later.session_id == "conv-1-session-2"
    assert first.request_id == str(uuid.uuid5(LOCOMO_NAMESPACE, "conv-1:D1:1"))
    assert len({c.request_id for c in commits}) == 3
    again = list(commits_for(load_conversations(locomo_file)[0]))
    assert [c.request_id for c in again] == [c.request_id for c in commits]


def test_same_dia_id_in_two_conversations_gets_distinct_request_ids(locomo_file: Path) -> None:
    one, two = load_conversations(locomo_file)
    assert next(commits_for(one)).dia_id == next(commits_for(two)).dia_id == "D1:1"
    assert next(commits_for(one)).request_id != next(commits_for(two)).request_id


def test_session_ids_are_unique_per_conversation(locomo_file: Path) -> None:
    # Both conversations number their sessions from 1: the ids must still differ,
    # so no read keyed by session id can mix two conversations.
    one, two = load_conversations(locomo_file)
    assert one.sessions[0].number == two.sessions[0].number == 1
    assert one.sessions[0].session_id == "conv-1-session-1"
    assert two.sessions[0].session_id == "conv-2-session-1"
    every = [c.session_id for conv in (one, two) for c in commits_for(conv)]
    by_subject = {(c.subject, c.session_id) for conv in (one, two) for c in commits_for(conv)}
    # One session id belongs to exactly one conversation (one subject).
    assert len({session for _, session in by_subject}) == len(by_subject)
    assert set(every) == {"conv-1-session-1", "conv-1-session-2", "conv-2-session-1"}
    # Every session id is a valid journal id.
    for session_id in every:
        assert require_id("session_id", session_id) == session_id


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"sample_id": "x"}, "top level"),
        ([{"conversation": {}}], "sample_id"),
        ([{"sample_id": "c", "conversation": {"speaker_a": "A"}}], "speaker_b"),
        (
            [
                {
                    "sample_id": "c",
                    "conversation": {"speaker_a": "A", "speaker_b": "B", "session_1": []},
                }
            ],
            "session_1_date_time",
        ),
        (
            [
                {
                    "sample_id": "c",
                    "conversation": {
                        "speaker_a": "A",
                        "speaker_b": "B",
                        "session_1_date_time": "1:00 pm on 1 May, 2023",
                        "session_1": [{"speaker": "A", "text": "hi"}],
                    },
                }
            ],
            "dia_id",
        ),
    ],
)
def test_malformed_files_name_the_place(tmp_path: Path, data: Any, where: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(LocomoFormatError, match=where):
        load_conversations(path)


def test_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{nope", encoding="utf-8")
    with pytest.raises(LocomoFormatError, match="not JSON"):
        load_conversations(path)
