"""Episodes as Recall returns them, made from the bodies a snapshot holds.

The same fields BatchGetEpisodes gives (memory_service.convert.episode, no
embedding, no context turns), as the feed delivered them when the row was
applied: a snapshot at change cursor c returns each hit as of c. A served
hit is made straight into its ``RecallHit`` (:func:`recall_hit`, the fields
the servicer copies from an episode, retrieval_service.servicer.recall_hit),
without the episode in between.
"""

from __future__ import annotations

from typing import TypedDict

from google.protobuf import timestamp_pb2

from engram.journal.v1 import journal_pb2 as jpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from retrieval_service import records as records_mod
from retrieval_service.snapshot import Snapshot


def _timestamp(us: int) -> timestamp_pb2.Timestamp:
    seconds, micros = divmod(us, 1_000_000)
    return timestamp_pb2.Timestamp(seconds=seconds, nanos=micros * 1000)


class _Shared(TypedDict):
    episode_id: str
    subject: str
    workspace: str
    session_id: str
    user_text: str
    assistant_text: str
    user_name: str
    assistant_name: str


def _fields(snapshot: Snapshot, segment_index: int, row: int) -> _Shared | None:
    """The fields an episode and a RecallHit share, or None when the row holds
    no body."""
    segment = snapshot.segments[segment_index]
    body = segment.body[row].tolist()
    if not body[records_mod.BODY_HELD]:
        return None
    value = snapshot.interner.value
    user_text, assistant_text = segment.texts_of(row)
    return _Shared(
        episode_id=segment.episode_id(row),
        subject=value(int(segment.subject[row])),
        workspace=value(int(segment.workspace[row])),
        session_id=value(int(segment.session[row])),
        user_text=user_text,
        assistant_text=assistant_text,
        user_name=value(body[records_mod.BODY_USER]),
        assistant_name=value(body[records_mod.BODY_ASSISTANT]),
    )


def episode(snapshot: Snapshot, segment_index: int, row: int) -> jpb.Episode | None:
    """The episode of a row, or None when the row holds no body."""
    shared = _fields(snapshot, segment_index, row)
    if shared is None:
        return None
    segment = snapshot.segments[segment_index]
    body = segment.body[row].tolist()
    value = snapshot.interner.value
    return jpb.Episode(
        content_sha256=segment.sha256[row].tobytes().hex(),
        occurrence_count=body[records_mod.BODY_OCCURRENCES],
        first_seen_at=_timestamp(int(segment.rank_meta[row, records_mod.META_FIRST_SEEN])),
        last_seen_at=_timestamp(int(segment.last_seen_us[row])),
        embedding_model=value(body[records_mod.BODY_MODEL]),
        session_ids=[value(int(s)) for s in segment.sessions_of(row)],
        **shared,
    )


def recall_hit(
    snapshot: Snapshot,
    segment_index: int,
    row: int,
    score: float,
    dense_rank: int,
    lexical_rank: int,
) -> rpb.RecallHit | None:
    """A row as Recall's hit, or None when the row holds no body."""
    shared = _fields(snapshot, segment_index, row)
    if shared is None:
        return None
    hit = rpb.RecallHit(score=score, dense_rank=dense_rank, lexical_rank=lexical_rank, **shared)
    seconds, micros = divmod(int(snapshot.segments[segment_index].last_seen_us[row]), 1_000_000)
    hit.last_seen_at.seconds = seconds
    hit.last_seen_at.nanos = micros * 1000
    return hit


def hit_from_episode(
    episode: jpb.Episode, score: float, dense_rank: int, lexical_rank: int
) -> rpb.RecallHit:
    """A re-read or fallback episode as Recall's hit (the fields of :func:`recall_hit`,
    and the context turns the read supplied)."""
    return rpb.RecallHit(
        episode_id=episode.episode_id,
        subject=episode.subject,
        workspace=episode.workspace,
        session_id=episode.session_id,
        user_text=episode.user_text,
        assistant_text=episode.assistant_text,
        score=score,
        dense_rank=dense_rank,
        lexical_rank=lexical_rank,
        last_seen_at=episode.last_seen_at,
        user_name=episode.user_name,
        assistant_name=episode.assistant_name,
        context_turns=episode.context_turns,
    )
