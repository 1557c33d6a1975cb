"""JournalService, as the learning plane sees it: run records for
verification and rollout evidence, run.completed events for capture, and the
change feed (which also announces subject purges, and quarantines and
restores for the read paths' quarantine sync). The only way this service
reaches the journal is gRPC."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.json_format import MessageToDict

from engram.channels import open_channel
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from learning_service.quarantine import QuarantineChange
from learning_service.skills import RunEvidence

log = logging.getLogger("engram.learning.journal")

RUN_EVENT = "run.completed"
SUBJECT_PURGED = jpb.CHANGE_KIND_SUBJECT_PURGED
QUARANTINE_KINDS = (jpb.CHANGE_KIND_RECORD_QUARANTINED, jpb.CHANGE_KIND_RECORD_RESTORED)
# The journal record kinds a learning source names (run id, event id).
SOURCE_RECORD_KINDS: dict[int, str] = {
    jpb.RECORD_KIND_RUN_RECORD: "run_record",
    jpb.RECORD_KIND_EVENT: "event",
}
CALL_TIMEOUT_SECONDS = 5.0
PAGE_SIZE = 200


@dataclass(frozen=True)
class RunCompletion:
    """A run.completed event: what capture reads."""

    event_id: int
    run_id: str
    session_id: str
    subject: str
    workspace: str
    status: str
    request_text: str
    outcome_text: str
    summary: str
    scope_keys: tuple[str, ...] = field(default_factory=tuple)


def _status_word(value: Any) -> str:
    text = str(value or "").lower()
    return text.removeprefix("run_status_")


def _text(payload: dict[str, Any], *keys: str) -> str:
    for key in keys:
        value = payload.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def completion_from_event(event: jpb.Event) -> RunCompletion:
    """Tolerant of payload spellings: previews are preferred (they are what the
    journal scrubbed), raw text fields are accepted when previews are absent."""
    payload = MessageToDict(event.payload, preserving_proto_field_name=True)
    nested = payload.get("record")
    record: dict[str, Any] = nested if isinstance(nested, dict) else {}
    merged = {**record, **payload}
    scope_keys = merged.get("scope_keys") or []
    return RunCompletion(
        event_id=int(event.event_id),
        run_id=_text(merged, "run_id"),
        session_id=_text(merged, "session_id") or event.session_id,
        subject=event.subject,
        workspace=event.workspace,
        status=_status_word(merged.get("status")),
        request_text=_text(merged, "request_preview", "request_text"),
        outcome_text=_text(merged, "outcome_preview", "outcome_text"),
        summary=_text(merged, "summary"),
        scope_keys=tuple(str(k) for k in scope_keys if isinstance(k, str)),
    )


def evidence_from_record(record: jpb.RunRecord) -> RunEvidence:
    return RunEvidence(
        run_id=record.run_id,
        session_id=record.session_id,
        status=_status_word(jpb.RunStatus.Name(record.status)),
        summary=record.summary,
        request_preview=record.request_preview,
        outcome_preview=record.outcome_preview,
    )


class ChangeStream:
    """A followed StreamChanges call that another thread can cancel."""

    def __init__(self, call: Any) -> None:
        self._call = call

    def __iter__(self) -> Iterator[jpb.StreamChangesResponse]:
        return iter(self._call)

    def cancel(self) -> None:
        self._call.cancel()


class JournalClient:
    def __init__(self, address: str, token: str) -> None:
        self._channel = open_channel(address, token)
        self._stub = jpb_grpc.JournalServiceStub(self._channel)

    def close(self) -> None:
        self._channel.close()

    def get_run_record(self, subject: str, workspace: str, run_id: str) -> RunEvidence | None:
        """The daemon-owned run record of this subject/workspace's run, or None
        when the journal has none (another subject's run id is NOT_FOUND)."""
        try:
            response = self._stub.GetRunRecord(
                jpb.GetRunRecordRequest(subject=subject, workspace=workspace, run_id=run_id),
                timeout=CALL_TIMEOUT_SECONDS,
            )
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                return None
            raise Unavailable(f"journal GetRunRecord failed: {exc.code().name}") from exc
        return evidence_from_record(response.record)

    def read_run_completion(
        self, subject: str, workspace: str, session_id: str, event_id: int
    ) -> RunCompletion | None:
        """The run.completed event `event_id`, read from its session journal;
        None when it is no longer readable (quarantined, withheld because its
        run record is quarantined, or purged)."""
        token = ""
        while True:
            try:
                page = self._stub.ReadSessionJournal(
                    jpb.ReadSessionJournalRequest(
                        subject=subject,
                        workspace=workspace,
                        session_id=session_id,
                        event_types=[RUN_EVENT],
                        page_size=PAGE_SIZE,
                        page_token=token,
                    ),
                    timeout=CALL_TIMEOUT_SECONDS,
                )
            except grpc.RpcError as exc:
                raise Unavailable(f"journal ReadSessionJournal failed: {exc.code().name}") from exc
            for event in page.events:
                if event.event_id == event_id:
                    return None if event.withheld else completion_from_event(event)
                if event.event_id > event_id:
                    return None
            if not page.next_page_token:
                return None
            token = page.next_page_token

    def quarantine_changes(self, after_cursor: int) -> tuple[list[QuarantineChange], int]:
        """(quarantines and restores of run records and events after the
        cursor, in commit order; the watermark they are complete up to). The
        stream ends once caught up (follow = false)."""
        changes: list[QuarantineChange] = []
        watermark = after_cursor
        try:
            for batch in self._stub.StreamChanges(
                jpb.StreamChangesRequest(
                    after_cursor=after_cursor, follow=False, kinds=list(QUARANTINE_KINDS)
                ),
                timeout=CALL_TIMEOUT_SECONDS,
            ):
                watermark = max(watermark, int(batch.watermark))
                for change in batch.changes:
                    kind = SOURCE_RECORD_KINDS.get(change.record_kind)
                    if kind is not None:
                        changes.append(
                            QuarantineChange(
                                cursor=int(change.cursor),
                                record_kind=kind,
                                record_id=change.record_id,
                                quarantined=change.kind == jpb.CHANGE_KIND_RECORD_QUARANTINED,
                            )
                        )
        except grpc.RpcError as exc:
            raise Unavailable(
                f"cannot read the journal's quarantine state: StreamChanges failed "
                f"({exc.code().name})",
                reason="QUARANTINE_STATE_UNAVAILABLE",
            ) from exc
        return changes, watermark

    def follow_capture_changes(self, after_cursor: int) -> ChangeStream:
        """Event-appended and subject-purged changes after the cursor, in
        commit order, followed live."""
        call = self._stub.StreamChanges(
            jpb.StreamChangesRequest(
                after_cursor=after_cursor,
                follow=True,
                kinds=[jpb.CHANGE_KIND_EVENT_APPENDED, jpb.CHANGE_KIND_SUBJECT_PURGED],
            )
        )
        return ChangeStream(call)
