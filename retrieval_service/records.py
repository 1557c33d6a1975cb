"""What the index is fed: episode records and the operations a change-feed
batch turns into. Strings that repeat across episodes (subject, workspace,
session ids, speaker names, embedding model) are interned to int32 so
per-episode metadata stays numeric; the texts are kept as UTF-8 bytes."""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from engram import dates as dates_mod
from engram.ranking import text_shape
from retrieval_service.text import term_counts

FloatVector = npt.NDArray[np.float32]
_MASK64 = (1 << 64) - 1

# Ranking metadata per episode (engram.ranking): one int64 row of these columns.
META_FIRST_SEEN = 0  # first_seen_at, microseconds (first-occurrence order in its thread)
META_USER = 1  # interned user_name ("" interned too)
META_ASSISTANT = 2  # interned assistant_name
META_THREAD = 3  # interned "subject \x1f workspace \x1f first session": neighbours share it
META_LENGTH = 4  # length of the user text without an image caption
META_FLAGS = 5  # bit 0: ends with "?"; bit 1: has an image caption
META_DATES = 6  # up to MAX_DATES engram.dates codes (0 = none)
MAX_DATES = 3
META_COLUMNS = META_DATES + MAX_DATES

# The rest of an episode's body (what Recall returns), one int64 row per episode.
BODY_HELD = 0  # 1 when the row carries its body (texts, hash, these columns)
BODY_OCCURRENCES = 1  # occurrence_count
BODY_MODEL = 2  # interned embedding_model
BODY_USER = 3  # interned user_name as the journal stores it
BODY_ASSISTANT = 4  # interned assistant_name
BODY_COLUMNS = 5
SHA256_BYTES = 32
NO_BODY: tuple[int, ...] = (0,) * BODY_COLUMNS


class Interner:
    """Append-only string <-> int32 table shared by every snapshot.

    Only the applier thread interns; readers only look up. Ids never change
    and the value list grows before the dict learns a new id, so a reader
    that finds an id can always resolve it.
    """

    def __init__(self, values: list[str] | None = None) -> None:
        self._values: list[str] = list(values or [])
        self._ids: dict[str, int] = {v: i for i, v in enumerate(self._values)}
        self._lock = threading.Lock()

    def intern(self, value: str) -> int:
        found = self._ids.get(value)
        if found is not None:
            return found
        with self._lock:
            found = self._ids.get(value)
            if found is None:
                found = len(self._values)
                self._values.append(value)
                self._ids[value] = found
        return found

    def lookup(self, value: str) -> int:
        """The id of `value`, or -1 when no episode ever carried it."""
        return self._ids.get(value, -1)

    def value(self, ident: int) -> str:
        return self._values[ident]

    def values(self) -> list[str]:
        return list(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def approx_bytes(self) -> int:
        # str object + dict slot + list slot, roughly.
        return sum(49 + len(v) + 24 for v in self._values)


def split_key(episode_id: str) -> tuple[int, int]:
    """A UUID as (high 64 bits, low 64 bits)."""
    value = uuid.UUID(episode_id).int
    return value >> 64, value & _MASK64


def join_key(hi: int, lo: int) -> str:
    return str(uuid.UUID(int=(int(hi) << 64) | int(lo)))


@dataclass(frozen=True, slots=True)
class EpisodeRecord:
    """One episode as the index holds it: search metadata and, when the feed
    gave it, the body Recall returns (texts, content hash, BODY_* columns)."""

    key_hi: int
    key_lo: int
    subject: int
    workspace: int
    session: int
    sessions: tuple[int, ...]
    last_seen_us: int
    vector: FloatVector | None
    terms: Counter[str]
    meta: tuple[int, ...] = (0,) * META_COLUMNS
    user_text: bytes = b""
    assistant_text: bytes = b""
    sha256: bytes = bytes(SHA256_BYTES)
    body: tuple[int, ...] = NO_BODY

    @property
    def episode_id(self) -> str:
        return join_key(self.key_hi, self.key_lo)


def make_record(
    interner: Interner,
    *,
    episode_id: str,
    subject: str,
    workspace: str,
    session_id: str,
    session_ids: list[str],
    last_seen_us: int,
    user_text: str,
    assistant_text: str,
    vector: FloatVector | None,
    first_seen_us: int = 0,
    user_name: str = "",
    assistant_name: str = "",
    content_sha256: str = "",
    occurrence_count: int = 0,
    embedding_model: str = "",
) -> EpisodeRecord:
    """The record of an episode; its body is held when `content_sha256` (the
    journal's hex digest) is given."""
    hi, lo = split_key(episode_id)
    sessions = tuple(interner.intern(s) for s in (session_ids or [session_id]))
    first_session = (session_ids or [session_id])[0]
    codes = episode_dates(user_text, assistant_text, first_seen_us)
    length, question, image = text_shape(user_text)
    meta = (
        first_seen_us,
        interner.intern(user_name.strip()),
        interner.intern(assistant_name.strip()),
        interner.intern(f"{subject}\x1f{workspace}\x1f{first_session}"),
        length,
        int(question) | (int(image) << 1),
        *(codes[:MAX_DATES] + [0] * (MAX_DATES - len(codes[:MAX_DATES]))),
    )
    return EpisodeRecord(
        key_hi=hi,
        key_lo=lo,
        subject=interner.intern(subject),
        workspace=interner.intern(workspace),
        session=interner.intern(session_id),
        sessions=sessions,
        last_seen_us=last_seen_us,
        vector=vector,
        terms=term_counts(user_text, assistant_text, dates_mod.date_text(codes)),
        meta=meta,
        **_body(
            interner,
            user_text,
            assistant_text,
            content_sha256,
            occurrence_count,
            embedding_model,
            user_name,
            assistant_name,
        ),
    )


class _Body(TypedDict, total=False):
    user_text: bytes
    assistant_text: bytes
    sha256: bytes
    body: tuple[int, ...]


def _body(
    interner: Interner,
    user_text: str,
    assistant_text: str,
    content_sha256: str,
    occurrence_count: int,
    embedding_model: str,
    user_name: str,
    assistant_name: str,
) -> _Body:
    try:
        digest = bytes.fromhex(content_sha256)
    except ValueError:
        digest = b""
    if len(digest) != SHA256_BYTES:
        return {}  # not held: Recall re-reads this episode from the journal
    return {
        "user_text": user_text.encode("utf-8"),
        "assistant_text": assistant_text.encode("utf-8"),
        "sha256": digest,
        "body": (
            1,
            occurrence_count,
            interner.intern(embedding_model),
            interner.intern(user_name),
            interner.intern(assistant_name),
        ),
    }


def episode_dates(user_text: str, assistant_text: str, first_seen_us: int) -> list[int]:
    """engram.dates codes of an episode, resolved against its first occurrence
    (what the journal stores in journal.episodes.resolved_dates)."""
    if not first_seen_us:
        return []
    when = datetime.fromtimestamp(first_seen_us / 1_000_000, tz=UTC)
    return dates_mod.resolve_codes(episode_date_source(user_text, assistant_text), when)


def episode_date_source(user_text: str, assistant_text: str) -> str:
    return dates_mod.episode_source(user_text, assistant_text)


@dataclass(frozen=True, slots=True)
class Upsert:
    cursor: int
    record: EpisodeRecord


@dataclass(frozen=True, slots=True)
class Remove:
    cursor: int
    key_hi: int
    key_lo: int


@dataclass(frozen=True, slots=True)
class RemoveScope:
    """Every episode of a subject (one workspace, or all when workspace is -1)."""

    cursor: int
    subject: int
    workspace: int


Op = Upsert | Remove | RemoveScope
