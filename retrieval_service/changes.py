"""Change-feed entries -> index operations.

The journal's feed reflects current state: an episode change carries the
episode's body as it is when the batch is read, and no body once the episode
is quarantined or purged. So:

* EPISODE_UPSERTED / EPISODE_EMBEDDED / RECORD_RESTORED of an episode with a
  body -> upsert (replace the row). An episode whose vector has not arrived
  yet (or was made by another embedding model) is indexed lexically only
  and gains its vector on the EPISODE_EMBEDDED change; that is also what the
  journal's own search does (its dense side only sees embedded rows).
* any episode change without a body, RECORD_QUARANTINED of an episode ->
  remove. (Quarantining or restoring a turn event also announces its
  episode this way, with the episode's current body, since the event's
  quarantine hides the episode's content.)
* SUBJECT_PURGED -> remove every episode of the subject (one workspace or all).
* everything else (events, run records) -> nothing.

A replica that serves a declared set of workspaces (settings.serve_workspaces)
drops upserts of episodes of any other workspace here, at ingest, so its
resident index never holds them; removals need no filter (removing an
absent episode is a no-op).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from engram.journal.v1 import journal_pb2 as jpb
from engram.validation import DEFAULT_WORKSPACE
from retrieval_service.records import (
    Interner,
    Op,
    Remove,
    RemoveScope,
    Upsert,
    make_record,
    split_key,
)

_EPISODE_BODY_KINDS = frozenset(
    {
        jpb.CHANGE_KIND_EPISODE_UPSERTED,
        jpb.CHANGE_KIND_EPISODE_EMBEDDED,
        jpb.CHANGE_KIND_RECORD_RESTORED,
    }
)


def timestamp_us(ts: object) -> int:
    seconds = int(getattr(ts, "seconds", 0))
    nanos = int(getattr(ts, "nanos", 0))
    return seconds * 1_000_000 + nanos // 1000


def _is_episode_id(value: str) -> bool:
    try:
        split_key(value)
    except ValueError:
        return False
    return True


def ops_from_change(
    change: jpb.Change,
    interner: Interner,
    dim: int,
    model: str,
    workspaces: frozenset[str] = frozenset(),
) -> list[Op]:
    kind = change.kind
    if kind == jpb.CHANGE_KIND_SUBJECT_PURGED:
        subject = interner.lookup(change.subject)
        if subject < 0:
            return []
        if change.workspace:
            workspace = interner.lookup(change.workspace)
            if workspace < 0:
                return []
        else:
            workspace = -1
        return [RemoveScope(change.cursor, subject, workspace)]
    if change.record_kind != jpb.RECORD_KIND_EPISODE or not _is_episode_id(change.record_id):
        return []
    if kind == jpb.CHANGE_KIND_RECORD_QUARANTINED:
        hi, lo = split_key(change.record_id)
        return [Remove(change.cursor, hi, lo)]
    if kind not in _EPISODE_BODY_KINDS:
        return []
    episode = change.episode
    if not change.HasField("episode") or episode.episode_id != change.record_id:
        hi, lo = split_key(change.record_id)
        return [Remove(change.cursor, hi, lo)]
    if workspaces and (episode.workspace or DEFAULT_WORKSPACE) not in workspaces:
        return []
    vector = None
    if len(episode.embedding) == dim and (episode.embedding_model in ("", model)):
        vector = np.asarray(episode.embedding, dtype=np.float32)
    record = make_record(
        interner,
        episode_id=episode.episode_id,
        subject=episode.subject,
        workspace=episode.workspace,
        session_id=episode.session_id,
        session_ids=list(episode.session_ids),
        last_seen_us=timestamp_us(episode.last_seen_at),
        user_text=episode.user_text,
        assistant_text=episode.assistant_text,
        vector=vector,
        first_seen_us=timestamp_us(episode.first_seen_at),
        user_name=episode.user_name,
        assistant_name=episode.assistant_name,
        content_sha256=episode.content_sha256,
        occurrence_count=episode.occurrence_count,
        embedding_model=episode.embedding_model,
    )
    return [Upsert(change.cursor, record)]


def ops_from_changes(
    changes: Iterable[jpb.Change],
    interner: Interner,
    dim: int,
    model: str,
    workspaces: frozenset[str] = frozenset(),
) -> list[Op]:
    """Index operations of a feed batch; with `workspaces`, only theirs."""
    ops: list[Op] = []
    for change in changes:
        ops.extend(ops_from_change(change, interner, dim, model, workspaces))
    return ops
