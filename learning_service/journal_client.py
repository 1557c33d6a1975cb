"""JournalService, as the learning plane sees it: run records for
verification and rollout evidence, run.completed events for capture, and the
change feed (which also announces subject purges, and quarantines and
restores for the read paths' quarantine sync). The only way this service
reaches the journal is gRPC, through the kernel client (engram.downstream):
its deadline, call id and errors (DownstreamError, also the domain exception
of the status code) are the kernel's."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.json_format import MessageToDict

from engram.downstream import ChangeStream, DownstreamError, change_stream, journal_client
from engram.errors import NotFound
from engram.journal.v1 import journal_pb2 as jpb
from learning_service.quarantine import QuarantineChange, journal_state_unavailable
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
PAGE_SIZE = 200

__all__ = ["ChangeStream", "JournalClient", "RunCompletion"]


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


class PendingQuarantineChanges:
    """A StreamChanges call (follow = false) under way: gRPC receives its
    batches in the background."""

    def __init__(self, stream: ChangeStream, after_cursor: int) -> None:
        self._stream = stream
        self._after = after_cursor

    def result(self) -> tuple[list[QuarantineChange], int]:
        """(the changes after the cursor, in commit order; the watermark they
        are complete up to). The stream ends once caught up."""
        changes: list[QuarantineChange] = []
        watermark = self._after
        try:
            for batch in self._stream:
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
        except DownstreamError as exc:
            raise journal_state_unavailable(exc) from exc
        return changes, watermark

    def cancel(self) -> None:
        self._stream.cancel()


class JournalClient:
    def __init__(self, address: str, token: str, timeout_s: float) -> None:
        self._journal = journal_client(address, token, timeout_s)

    def close(self) -> None:
        self._journal.close()

    def get_run_record(self, subject: str, workspace: str, run_id: str) -> RunEvidence | None:
        """The daemon-owned run record of this subject/workspace's run, or None
        when the journal has none (another subject's run id is NOT_FOUND)."""
        try:
            response = self._journal.call(
                "GetRunRecord",
                jpb.GetRunRecordRequest(subject=subject, workspace=workspace, run_id=run_id),
                jpb.GetRunRecordResponse,
            )
        except NotFound:
            return None
        return evidence_from_record(response.record)

    def read_run_completion(
        self, subject: str, workspace: str, session_id: str, event_id: int
    ) -> RunCompletion | None:
        """The run.completed event `event_id`, read from its session journal;
        None when it is no longer readable (quarantined, withheld because its
        run record is quarantined, or purged)."""
        token = ""
        while True:
            page = self._journal.call(
                "ReadSessionJournal",
                jpb.ReadSessionJournalRequest(
                    subject=subject,
                    workspace=workspace,
                    session_id=session_id,
                    event_types=[RUN_EVENT],
                    page_size=PAGE_SIZE,
                    page_token=token,
                ),
                jpb.ReadSessionJournalResponse,
            )
            for event in page.events:
                if event.event_id == event_id:
                    return None if event.withheld else completion_from_event(event)
                if event.event_id > event_id:
                    return None
            if not page.next_page_token:
                return None
            token = page.next_page_token

    def begin_quarantine_changes(self, after_cursor: int) -> PendingQuarantineChanges:
        """Ask for the quarantines and restores of run records and events
        after the cursor; the call proceeds while the caller does other work
        (PendingQuarantineChanges.result waits for it)."""
        stream = change_stream(
            self._journal,
            after_cursor,
            follow=False,
            kinds=QUARANTINE_KINDS,
            timeout_s=self._journal.timeout_s,
        )
        return PendingQuarantineChanges(stream, after_cursor)

    def follow_capture_changes(self, after_cursor: int) -> ChangeStream:
        """Event-appended and subject-purged changes after the cursor, in
        commit order, followed live."""
        return change_stream(
            self._journal,
            after_cursor,
            follow=True,
            kinds=(jpb.CHANGE_KIND_EVENT_APPENDED, jpb.CHANGE_KIND_SUBJECT_PURGED),
        )
