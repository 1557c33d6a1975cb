"""Rows and domain dicts -> protobuf messages for the journal servicer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2
from google.protobuf.json_format import ParseDict

from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as pb
from engram.timeutil import to_timestamp

PROVENANCE_TO_PB = {
    "user_input": pb.PROVENANCE_USER_INPUT,
    "generated_output_unverified": pb.PROVENANCE_GENERATED_OUTPUT_UNVERIFIED,
    "system": pb.PROVENANCE_SYSTEM,
    "external": pb.PROVENANCE_EXTERNAL,
}
PROVENANCE_FROM_PB = {v: k for k, v in PROVENANCE_TO_PB.items()}

CHANGE_KIND_TO_PB = {
    "episode_upserted": pb.CHANGE_KIND_EPISODE_UPSERTED,
    "episode_embedded": pb.CHANGE_KIND_EPISODE_EMBEDDED,
    "record_quarantined": pb.CHANGE_KIND_RECORD_QUARANTINED,
    "record_restored": pb.CHANGE_KIND_RECORD_RESTORED,
    "subject_purged": pb.CHANGE_KIND_SUBJECT_PURGED,
    "event_appended": pb.CHANGE_KIND_EVENT_APPENDED,
}
CHANGE_KIND_FROM_PB = {v: k for k, v in CHANGE_KIND_TO_PB.items()}

RECORD_KIND_TO_PB = {
    "episode": pb.RECORD_KIND_EPISODE,
    "event": pb.RECORD_KIND_EVENT,
    "run_record": pb.RECORD_KIND_RUN_RECORD,
    "": pb.RECORD_KIND_UNSPECIFIED,
}
RECORD_KIND_FROM_PB = {v: k for k, v in RECORD_KIND_TO_PB.items() if k}


def struct(data: Mapping[str, Any]) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    ParseDict(dict(data), message)
    return message


def receipt(data: Mapping[str, Any]) -> pb.TurnReceipt:
    return pb.TurnReceipt(
        event_id=int(data["event_id"]),
        episode_id=str(data["episode_id"]),
        user_sha256=str(data["user_sha256"]),
        assistant_sha256=str(data["assistant_sha256"]),
        content_sha256=str(data["content_sha256"]),
        occurrence_count=int(data["occurrence_count"]),
        committed_at=to_timestamp(data["committed_at"]),
        request_id=str(data["request_id"]),
        replayed=bool(data.get("replayed", False)),
    )


def event(row: Mapping[str, Any]) -> pb.Event:
    return pb.Event(
        event_id=int(row["event_id"]),
        event_type=str(row["event_type"]),
        subject=str(row["subject"]),
        workspace=str(row["workspace"]),
        session_id=str(row["session_id"]),
        payload=struct(row["payload"]),
        provenance=PROVENANCE_TO_PB.get(str(row["provenance"]), pb.PROVENANCE_UNSPECIFIED),
        request_id=str(row["request_id"] or ""),
        occurred_at=to_timestamp(row["occurred_at"]),
        recorded_at=to_timestamp(row["recorded_at"]),
        content_sha256=str(row["content_sha256"]),
        # Set by the session read when the content is quarantined (queries.sql).
        withheld=bool(row.get("withheld_reason")),
        withheld_reason=str(row.get("withheld_reason") or ""),
    )


def episode(row: Mapping[str, Any]) -> pb.Episode:
    embedding = row.get("embedding")
    return pb.Episode(
        episode_id=str(row["episode_id"]),
        subject=str(row["subject"]),
        workspace=str(row["workspace"]),
        session_id=str(row["session_id"]),
        user_text=str(row["user_text"]),
        assistant_text=str(row["assistant_text"]),
        content_sha256=str(row["content_sha256"]),
        occurrence_count=int(row["occurrence_count"]),
        first_seen_at=to_timestamp(row["first_seen_at"]),
        last_seen_at=to_timestamp(row["last_seen_at"]),
        embedding=[] if embedding is None else _vector_values(embedding),
        embedding_model=str(row.get("embedding_model") or ""),
        session_ids=list(row.get("session_ids") or []),
        user_name=str(row.get("user_name") or ""),
        assistant_name=str(row.get("assistant_name") or ""),
    )


def context_turn(row: Mapping[str, Any]) -> cpb.ContextTurn:
    payload = row["payload"] or {}
    return cpb.ContextTurn(
        event_id=int(row["event_id"]),
        session_id=str(row["session_id"]),
        offset=int(row["turn_offset"]),
        user_text=str(payload.get("user_text", "")),
        assistant_text=str(payload.get("assistant_text", "")),
        user_name=str(payload.get("user_name", "")),
        assistant_name=str(payload.get("assistant_name", "")),
        occurred_at=to_timestamp(row["occurred_at"]),
    )


def _vector_values(value: Any) -> list[float]:
    # pgvector's psycopg loader yields pgvector.Vector (to_list); numpy arrays have tolist.
    to_list = getattr(value, "to_list", None) or value.tolist
    return [float(v) for v in to_list()]


def change(row: Mapping[str, Any], episode_row: Mapping[str, Any] | None) -> pb.Change:
    message = pb.Change(
        cursor=int(row["cursor"]),
        kind=CHANGE_KIND_TO_PB[str(row["kind"])],
        subject=str(row["subject"]),
        workspace=str(row["workspace"]),
        session_id=str(row["session_id"]),
        record_kind=RECORD_KIND_TO_PB.get(str(row["record_kind"]), pb.RECORD_KIND_UNSPECIFIED),
        record_id=str(row["record_id"]),
        event_type=str(row["event_type"]),
        event_id=int(row["event_id"]),
        committed_at=to_timestamp(row["committed_at"]),
    )
    if episode_row is not None:
        message.episode.CopyFrom(episode(episode_row))
    return message


def quarantine_entry(row: Mapping[str, Any]) -> pb.QuarantineEntry:
    return pb.QuarantineEntry(
        entry_id=int(row["entry_id"]),
        record_kind=RECORD_KIND_TO_PB[str(row["record_kind"])],
        record_id=str(row["record_id"]),
        action=str(row["action"]),
        reason=str(row["reason"]),
        actor=str(row["actor"]),
        recorded_at=to_timestamp(row["recorded_at"]),
        subject=str(row["subject"]),
        workspace=str(row["workspace"]),
    )
