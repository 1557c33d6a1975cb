"""Search, the per-session memory card and quarantine."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import json_format
from starlette.responses import Response

from engram.cli.client import coverage_summary
from engram.common.v1 import common_pb2 as cpb
from engram.console.suite import SuiteError, new_request_id
from engram.console.web import Operator, page
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from engram.validation import DEFAULT_WORKSPACE

CONTEXT_EVENT = "gateway.context.assembled"
# The session card shows this many of the session's latest assembled contexts.
RECENT_CONTEXTS = 5
MAX_JOURNAL_PAGES = 20
RECORD_KINDS = {
    "run_record": jpb.RECORD_KIND_RUN_RECORD,
    "event": jpb.RECORD_KIND_EVENT,
    "episode": jpb.RECORD_KIND_EPISODE,
}


@dataclass(frozen=True)
class SessionRef:
    """Which session a read is for; subject is whose session it is."""

    subject: str
    session_id: str
    workspace: str = ""
    persona_id: str = ""
    project_ids: tuple[str, ...] = ()

    @classmethod
    def of(cls, operator: Operator) -> SessionRef:
        projects = operator.field("projects").replace(",", " ").split()
        return cls(
            operator.field("subject"),
            operator.field("session_id"),
            operator.field("workspace"),
            operator.field("persona_id"),
            tuple(projects),
        )

    @property
    def given(self) -> bool:
        return bool(self.subject and self.session_id)

    def request_fields(self) -> dict[str, Any]:
        """The fields SearchMemory and GetMemoryContext requests share."""
        return {
            "subject": self.subject,
            "session_id": self.session_id,
            "workspace": self.workspace,
            "persona_id": self.persona_id,
            "project_ids": self.project_ids,
        }

    def fields(self) -> dict[str, str]:
        """The picker's form fields (a page link's query)."""
        fields = self.request_fields()
        projects = fields.pop("project_ids")
        return {**fields, "projects": " ".join(projects)}


async def recent_sessions(operator: Operator) -> list[SessionRef]:
    """Sessions named by recent candidates and learnings, newest first: the
    picker's choices (the suite has no list of sessions of its own)."""
    learning = operator.console.suite.learning
    seen: dict[tuple[str, str, str], None] = {}
    statuses = [
        lpb.CANDIDATE_STATUS_PENDING,
        lpb.CANDIDATE_STATUS_ESCALATED,
        lpb.CANDIDATE_STATUS_PUBLISHED,
        lpb.CANDIDATE_STATUS_REJECTED,
    ]
    candidates, _ = await operator.attempt(
        learning.ListCandidates,
        lpb.ListCandidatesRequest(statuses=statuses, page_size=200),
    )
    learnings, _ = await operator.attempt(
        learning.ListLearnings,
        lpb.ListLearningsRequest(status=lpb.LEARNING_STATUS_FILTER_ALL, page_size=200),
    )
    records = [*(candidates.candidates if candidates else [])]
    records += [*(learnings.learnings if learnings else [])]
    for record in records:
        source = record.source
        # A session-scoped record names its session in the scope.
        session_id = source.session_id or (
            record.scope.id if record.scope.kind == cpb.SCOPE_KIND_SESSION else ""
        )
        if source.subject and session_id:
            workspace = source.workspace or DEFAULT_WORKSPACE
            seen.setdefault((source.subject, session_id, workspace), None)
    return [SessionRef(s, i, w) for s, i, w in list(seen)[:30]]


@page
async def search(operator: Operator) -> Response:
    ref = SessionRef.of(operator)
    query = operator.field("q")
    hits: list[gpb.MemoryHit] = []
    next_page_token = ""
    failure = None
    if ref.given:
        response, failure = await operator.attempt(
            operator.console.suite.gateway.SearchMemory,
            gpb.SearchMemoryRequest(
                **ref.request_fields(),
                query=query,
                page_size=25,
                page_token=operator.field("page_token"),
            ),
        )
        if response is not None:
            hits, next_page_token = list(response.hits), response.next_page_token
    return await operator.render(
        "search.html",
        ref=ref,
        query=query,
        hits=hits,
        next_page_token=next_page_token,
        failure=failure,
        sessions=await recent_sessions(operator),
    )


@dataclass
class SectionReceipt:
    name: str
    status: str
    absence_state: str
    coverage: str
    records: int


@dataclass
class ContextReceipt:
    context_id: str
    assembled_at: str
    input_excerpt: str
    sections: list[SectionReceipt] = field(default_factory=list)
    exact_lookup: str = ""
    receipts: int = 0


def _coverage_text(encoded: Any, hits: int) -> str:
    coverage = cpb.Coverage()
    try:
        coverage.ParseFromString(base64.b64decode(str(encoded or ""), validate=True))
    except (binascii.Error, ValueError):
        return "coverage unreadable"
    return coverage_summary(coverage, hits)


def _context_receipt(event: jpb.Event) -> ContextReceipt:
    payload = json_format.MessageToDict(event.payload)
    receipt = ContextReceipt(
        str(payload.get("context_id", "")),
        str(payload.get("assembled_at", "")),
        str(payload.get("input_excerpt", "")),
    )
    for section in payload.get("sections") or []:
        hits = int(section.get("hit_count") or 0)
        receipt.sections.append(
            SectionReceipt(
                str(section.get("name", "")),
                str(section.get("packed_status", "")),
                str(section.get("absence_state", "")),
                _coverage_text(section.get("coverage"), hits),
                len(section.get("record_ids") or []),
            )
        )
    exact = payload.get("exact_lookup")
    if isinstance(exact, dict):
        terms = " ".join(str(t) for t in exact.get("terms") or [])
        receipt.exact_lookup = f"exact lookup for “{terms}”: {exact.get('absence_state', '')}"
    return receipt


async def _recent_contexts(operator: Operator, ref: SessionRef) -> list[ContextReceipt]:
    journal = operator.console.suite.journal
    events: list[jpb.Event] = []
    page_token = ""
    for _ in range(MAX_JOURNAL_PAGES):
        response = await operator.call(
            journal.ReadSessionJournal,
            jpb.ReadSessionJournalRequest(
                subject=ref.subject,
                workspace=ref.workspace,
                session_id=ref.session_id,
                event_types=[CONTEXT_EVENT],
                page_size=1000,
                page_token=page_token,
            ),
        )
        events = [*events, *response.events][-RECENT_CONTEXTS:]
        page_token = response.next_page_token
        if not page_token:
            break
    contexts = [_context_receipt(e) for e in reversed(events) if not e.withheld]
    for context in contexts:
        found, _ = await operator.attempt(
            journal.ListReceipts, jpb.ListReceiptsRequest(context_id=context.context_id)
        )
        context.receipts = len(found.receipts) if found is not None else 0
    return contexts


@page
async def session_card(operator: Operator) -> Response:
    ref = SessionRef.of(operator)
    memory = None
    failure = None
    contexts: list[ContextReceipt] = []
    contexts_failure = None
    if ref.given:
        memory, failure = await operator.attempt(
            operator.console.suite.gateway.GetMemoryContext,
            gpb.GetMemoryContextRequest(
                **ref.request_fields(), pending_input=operator.field("input")
            ),
        )
        try:
            contexts = await _recent_contexts(operator, ref)
        except SuiteError as exc:
            contexts_failure = exc.failure
    return await operator.render(
        "session.html",
        ref=ref,
        memory=memory,
        failure=failure,
        contexts=contexts,
        contexts_failure=contexts_failure,
        pending_input=operator.field("input"),
        sessions=await recent_sessions(operator),
    )


@page
async def quarantine(operator: Operator) -> Response:
    active_only = operator.field("view", "active") == "active"
    response = await operator.call(
        operator.console.suite.journal.ListQuarantine,
        jpb.ListQuarantineRequest(
            active_only=active_only, page_size=100, page_token=operator.field("page_token")
        ),
    )
    return await operator.render(
        "quarantine.html",
        entries=list(response.entries),
        next_page_token=response.next_page_token,
        active_only=active_only,
        record_kinds=list(RECORD_KINDS),
    )


async def _ledger_call(operator: Operator, verb: str) -> Response:
    kind_name = operator.field("record_kind")
    record_id = operator.field("record_id")
    fields: dict[str, Any] = {
        "record_kind": RECORD_KINDS.get(kind_name, jpb.RECORD_KIND_UNSPECIFIED),
        "record_id": record_id,
        "reason": operator.field("reason"),
        "request_id": new_request_id(),
    }
    journal = operator.console.suite.journal
    quarantining = verb == "quarantine"
    done = "Quarantined" if quarantining else "Restored"
    return await operator.act(
        journal.Quarantine if quarantining else journal.Restore,
        jpb.QuarantineRequest(**fields) if quarantining else jpb.RestoreRequest(**fields),
        refused=f"The {verb} of {kind_name} {record_id} was refused",
        done=lambda _: f"{done} {kind_name} {record_id}.",
        then="/quarantine",
    )


@page
async def quarantine_add(operator: Operator) -> Response:
    return await _ledger_call(operator, "quarantine")


@page
async def quarantine_restore(operator: Operator) -> Response:
    return await _ledger_call(operator, "restore")
