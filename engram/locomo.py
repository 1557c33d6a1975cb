"""LoCoMo-format conversations and how they map onto the journal.

A LoCoMo file is a JSON list of samples: two speakers talking over numbered
sessions (`session_<N>` turn lists with `session_<N>_date_time` stamps such as
"1:56 pm on 8 May, 2023") plus question/answer pairs whose `evidence` names
the turns (`dia_id` "D<N>:<k>") that hold the answer.

The journal mapping (used by `engram import locomo` and by benchmarks that
need to know which episode holds which dia_id):
- each conversation is one subject, "locomo-<sample_id>";
- each session is one session id, "<sample_id>-session-<N>": unique per
  conversation, so two conversations never share a session id even where a
  read is keyed by session (the LoCoMo files number every conversation's
  sessions from 1);
- each utterance is one committed turn: user_text "<text>" (plus
  " [shared a photo: <caption>]" for image turns) with the speaker in
  user_name, assistant_text "(acknowledged)". One turn per utterance keeps
  one episode per dia_id, so recall can be scored against the evidence ids;
  a fixed assistant text keeps the second speaker's words out of the first
  speaker's episodes; the speaker is a field, not a prefix of the indexed
  text, so a question naming them does not match every turn they spoke;
- occurred_at is the session's time plus one second per turn index, so the
  turns of a session keep their order in time;
- request_id is uuid5(LOCOMO_NAMESPACE, "<sample_id>:<dia_id>"), so a re-run
  replays instead of duplicating.
The date_time strings carry no zone; they are read as UTC.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

LOCOMO_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "engram:import:locomo")
SUBJECT_PREFIX = "locomo-"
ASSISTANT_TEXT = "(acknowledged)"

_SESSION_KEY = re.compile(r"^session_(\d+)$")
_DATE_TIME = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$",
    re.IGNORECASE,
)
_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}
# Evidence strings sometimes hold several ids ("D8:6; D9:17") or stray parentheses.
_EVIDENCE_SPLIT = re.compile(r"[;\s,]+")
_DIA_ID = re.compile(r"^D\d+:\d+$")


class LocomoFormatError(ValueError):
    """The file is not LoCoMo-shaped; the message names where."""


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    # BLIP caption of a shared image, empty for text-only turns.
    image_caption: str = ""


@dataclass(frozen=True)
class Session:
    session_id: str
    occurred_at: datetime
    turns: list[Turn]
    number: int = 0


@dataclass(frozen=True)
class QA:
    question: str
    # Empty for unanswerable (category 5) questions without an answer.
    answer: str
    evidence: list[str]
    category: int


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: list[Session]
    qa: list[QA] = field(default_factory=list)

    @property
    def subject(self) -> str:
        return subject_for(self.sample_id)

    def turn_count(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


@dataclass(frozen=True)
class TurnCommit:
    """One CommitTurn request derived from one utterance."""

    subject: str
    session_id: str
    dia_id: str
    user_text: str
    assistant_text: str
    occurred_at: datetime
    request_id: str
    user_name: str = ""


def subject_for(sample_id: str) -> str:
    return f"{SUBJECT_PREFIX}{sample_id}"


def session_id_for(sample_id: str, number: int) -> str:
    """The session id of session <number> of conversation <sample_id>."""
    return f"{sample_id}-session-{number}"


def request_id_for(sample_id: str, dia_id: str) -> str:
    return str(uuid.uuid5(LOCOMO_NAMESPACE, f"{sample_id}:{dia_id}"))


def parse_date_time(value: str) -> datetime:
    """ "1:56 pm on 8 May, 2023" -> 2023-05-08T13:56:00+00:00."""
    match = _DATE_TIME.match(value)
    if not match:
        raise LocomoFormatError(f"unrecognised date_time {value!r}")
    hour, minute, half, day, month_name, year = match.groups()
    month = _MONTHS.get(month_name.lower())
    if month is None:
        raise LocomoFormatError(f"unknown month in date_time {value!r}")
    hour_24 = int(hour) % 12 + (12 if half.lower() == "p" else 0)
    try:
        return datetime(int(year), month, int(day), hour_24, int(minute), tzinfo=UTC)
    except ValueError as exc:
        raise LocomoFormatError(f"invalid date_time {value!r}: {exc}") from None


def split_evidence(raw: Sequence[str]) -> list[str]:
    """Evidence ids, with multi-id strings split and unparseable ones dropped."""
    ids: list[str] = []
    for item in raw:
        for part in _EVIDENCE_SPLIT.split(str(item).replace("(", " ").replace(")", " ")):
            if _DIA_ID.match(part) and part not in ids:
                ids.append(part)
    return ids


def user_text_for(turn: Turn) -> str:
    text = turn.text
    if turn.image_caption:
        text += f" [shared a photo: {turn.image_caption}]"
    return text


def commits_for(conversation: Conversation) -> Iterator[TurnCommit]:
    """The CommitTurn requests for a conversation, in conversation order."""
    subject = conversation.subject
    for session in conversation.sessions:
        for index, turn in enumerate(session.turns):
            yield TurnCommit(
                subject=subject,
                session_id=session.session_id,
                dia_id=turn.dia_id,
                user_text=user_text_for(turn),
                user_name=turn.speaker,
                assistant_text=ASSISTANT_TEXT,
                occurred_at=session.occurred_at + timedelta(seconds=index),
                request_id=request_id_for(conversation.sample_id, turn.dia_id),
            )


def _require(mapping: Mapping[str, Any], key: str, where: str, kind: type) -> Any:
    if key not in mapping:
        raise LocomoFormatError(f"{where}: missing {key!r}")
    value = mapping[key]
    if not isinstance(value, kind):
        raise LocomoFormatError(f"{where}.{key}: expected {kind.__name__}")
    return value


def _parse_turn(raw: Any, where: str) -> Turn:
    if not isinstance(raw, Mapping):
        raise LocomoFormatError(f"{where}: expected an object")
    caption = raw.get("blip_caption") or ""
    return Turn(
        dia_id=_require(raw, "dia_id", where, str),
        speaker=_require(raw, "speaker", where, str),
        text=_require(raw, "text", where, str),
        image_caption=str(caption),
    )


def _parse_sessions(sample_id: str, conversation: Mapping[str, Any], where: str) -> list[Session]:
    # Iterate over the session lists that exist: some samples carry
    # date_time keys for sessions that have no turn list.
    numbers = sorted(
        int(match.group(1)) for key in conversation if (match := _SESSION_KEY.match(key))
    )
    sessions: list[Session] = []
    for number in numbers:
        key = f"session_{number}"
        turns_raw = _require(conversation, key, where, list)
        stamp = _require(conversation, f"{key}_date_time", where, str)
        sessions.append(
            Session(
                session_id=session_id_for(sample_id, number),
                occurred_at=parse_date_time(stamp),
                turns=[_parse_turn(t, f"{where}.{key}[{i}]") for i, t in enumerate(turns_raw)],
                number=number,
            )
        )
    return sessions


def _parse_qa(raw: Any, where: str) -> QA:
    if not isinstance(raw, Mapping):
        raise LocomoFormatError(f"{where}: expected an object")
    answer = raw.get("answer")
    category = raw.get("category", 0)
    if not isinstance(category, int):
        raise LocomoFormatError(f"{where}.category: expected int")
    return QA(
        question=_require(raw, "question", where, str),
        answer="" if answer is None else str(answer),
        evidence=split_evidence(raw.get("evidence") or []),
        category=category,
    )


def parse_conversation(raw: Any, where: str = "sample") -> Conversation:
    if not isinstance(raw, Mapping):
        raise LocomoFormatError(f"{where}: expected an object")
    sample_id = _require(raw, "sample_id", where, str)
    where = f"{where}[{sample_id}]"
    conversation = _require(raw, "conversation", where, Mapping)
    speakers = (
        _require(conversation, "speaker_a", f"{where}.conversation", str),
        _require(conversation, "speaker_b", f"{where}.conversation", str),
    )
    return Conversation(
        sample_id=sample_id,
        speakers=speakers,
        sessions=_parse_sessions(sample_id, conversation, f"{where}.conversation"),
        qa=[_parse_qa(q, f"{where}.qa[{i}]") for i, q in enumerate(raw.get("qa") or [])],
    )


def parse_conversations(data: Any) -> list[Conversation]:
    if not isinstance(data, list):
        raise LocomoFormatError("top level: expected a list of samples")
    return [parse_conversation(sample, f"sample {i}") for i, sample in enumerate(data)]


def load_conversations(path: str | Path) -> list[Conversation]:
    """Parse a LoCoMo JSON file into conversations, in file order."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise LocomoFormatError(f"{path}: not JSON ({exc})") from None
    return parse_conversations(data)
