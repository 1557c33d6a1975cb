"""GatewayService domain: assembled contexts (with AIP-155 replay and recovery from the
journal) and the release gate with its journal record; the operator views live in
gateway.operator. Raises engram.errors; no servicer code."""

from __future__ import annotations

import enum
import hashlib
import json
import logging
from concurrent.futures import Executor
from dataclasses import asdict, dataclass
from typing import Any

from google.protobuf import struct_pb2
from google.protobuf.json_format import MessageToDict

from engram.auth import current_scope
from engram.common.v1 import common_pb2
from engram.errors import AlreadyExists, NotFound, Unavailable
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.metrics import count_plane_event
from gateway.assemble import AssembleCommand, Assembler, derived_id
from gateway.contexts import (
    CONTEXT_EVENT,
    VERDICT_EVENT,
    ContextState,
    IdempotencyCache,
    LruCache,
    PayloadSeal,
    integral,
)
from gateway.downstream import DownstreamError, Planes
from gateway.gate import DeclaredClaim, GateDecision, Reason, Verdict, decide, unjournaled
from gateway.operator import MemoryContextCommand, OperatorViews, SearchCommand
from gateway.truthfulness import ClaimScope

log = logging.getLogger("engram.gateway")

# The in-process caches: assembled contexts (ContextState, for ReleaseResponse) and the
# responses kept for AIP-155 replay (an AssembleContext response can reach ~130 KB).
# Each is bounded by an approximate byte budget (ContextState.approx_bytes; a
# response's ByteSize()), by age (an entry is dropped CACHE_TTL_SECONDS after it was
# stored) and by count, least recently used first. A context dropped from the cache is
# recovered from the journal when the caller names its session; a request_id dropped
# from a replay cache is computed afresh. These are constants, not Settings fields
# (engram/config.py), to keep the change local; promote them there if operators need
# to tune them.
CONTEXT_CACHE_BYTES = 64 * 1024 * 1024
CONTEXT_CACHE_SIZE = 10_000
REQUEST_CACHE_BYTES = 64 * 1024 * 1024  # per replay cache: AssembleContext, ReleaseResponse
REQUEST_CACHE_SIZE = 1_000
CACHE_TTL_SECONDS = 3600.0
# ReleaseResponse recovery reads at most this many journal pages of the session.
MAX_RECOVERY_PAGES = 50
RECOVERY_PAGE_SIZE = 1000
MAX_CLAUSE_CHARS = 400
MAX_JOURNALED_VIOLATIONS = 20

_VERDICTS = {
    Verdict.RELEASE: gpb.VERDICT_RELEASE,
    Verdict.REGENERATE: gpb.VERDICT_REGENERATE,
    Verdict.FALLBACK: gpb.VERDICT_FALLBACK,
}
_SCOPES = {
    ClaimScope.CORPUS_WIDE: gpb.CLAIM_SCOPE_CORPUS_WIDE,
    ClaimScope.QUERY_SCOPED: gpb.CLAIM_SCOPE_QUERY_SCOPED,
}
_REASONS = {
    Reason.UNLICENSED_ABSENCE: gpb.VIOLATION_REASON_UNLICENSED_ABSENCE,
    Reason.UNSUPPORTED_RECOLLECTION: gpb.VIOLATION_REASON_UNSUPPORTED_RECOLLECTION,
    Reason.UNSURE_CLAIM: gpb.VIOLATION_REASON_UNSURE_CLAIM,
    Reason.DECLARED_CLAIM_REFUSED: gpb.VIOLATION_REASON_DECLARED_CLAIM_REFUSED,
}


@dataclass(frozen=True)
class ReleaseCommand:
    context_id: str
    candidate_text: str
    attempt: int
    request_id: str
    subject: str
    workspace: str
    session_id: str
    declared: tuple[DeclaredClaim, ...] = ()


def _jsonable(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    return list(value)  # type: ignore[call-overload]


def fingerprint(fields: dict[str, Any]) -> str:
    text = json.dumps(fields, sort_keys=True, default=_jsonable)
    return hashlib.sha256(text.encode()).hexdigest()


class GatewayService:
    def __init__(self, planes: Planes, executor: Executor, service_token: str = "") -> None:
        self._planes = planes
        self._executor = executor
        self._seal = PayloadSeal(service_token)
        self._assembler = Assembler(planes, executor, self._seal.seal)
        self._operator = OperatorViews(planes, executor)
        self._contexts: LruCache[str, ContextState] = LruCache(
            CONTEXT_CACHE_SIZE,
            max_bytes=CONTEXT_CACHE_BYTES,
            ttl_seconds=CACHE_TTL_SECONDS,
            sizer=ContextState.approx_bytes,
        )
        self._assembled: IdempotencyCache[gpb.AssembleContextResponse] = IdempotencyCache(
            REQUEST_CACHE_SIZE,
            max_bytes=REQUEST_CACHE_BYTES,
            ttl_seconds=CACHE_TTL_SECONDS,
            sizer=gpb.AssembleContextResponse.ByteSize,
        )
        self._released: IdempotencyCache[gpb.ReleaseResponseResponse] = IdempotencyCache(
            REQUEST_CACHE_SIZE,
            max_bytes=REQUEST_CACHE_BYTES,
            ttl_seconds=CACHE_TTL_SECONDS,
            sizer=gpb.ReleaseResponseResponse.ByteSize,
        )

    # ------------------------------------------------------------ AssembleContext

    def assemble(self, cmd: AssembleCommand) -> gpb.AssembleContextResponse:
        if not cmd.request_id:
            return self._assemble(cmd)
        fields = {k: v for k, v in asdict(cmd).items() if k != "request_id"}
        return self._assembled.run(cmd.request_id, fingerprint(fields), lambda: self._assemble(cmd))

    def _assemble(self, cmd: AssembleCommand) -> gpb.AssembleContextResponse:
        response, state = self._assembler.assemble(cmd)
        self._contexts.put(state.context_id, state)
        return response

    # ------------------------------------------------------------ ReleaseResponse

    def release(self, cmd: ReleaseCommand) -> gpb.ReleaseResponseResponse:
        if not cmd.request_id:
            return self._release(cmd)
        fields = {
            k: v
            for k, v in asdict(cmd).items()
            if k in ("context_id", "candidate_text", "attempt", "declared")
        }
        return self._released.run(cmd.request_id, fingerprint(fields), lambda: self._release(cmd))

    def _release(self, cmd: ReleaseCommand) -> gpb.ReleaseResponseResponse:
        state = self.context(cmd.context_id, cmd.subject, cmd.workspace, cmd.session_id)
        decision = decide(
            state.evidence,
            cmd.candidate_text,
            cmd.attempt,
            declared=cmd.declared,
            lookup=self._assembler.exact_lookup(state.subject, state.workspace),
        )
        event_id, error = self._journal_verdict(state, cmd, decision)
        if error:
            decision = unjournaled(decision, error)
            count_plane_event("gateway", "verdict_not_journaled")
        state.record_attempt(cmd.attempt, decision.verdict.value)
        count_plane_event("gateway", f"verdict_{decision.verdict.value}")
        return gpb.ReleaseResponseResponse(
            verdict=_VERDICTS[decision.verdict],
            released_text=decision.released_text,
            repair_directive=decision.repair_directive,
            violations=[
                gpb.ViolatingClause(
                    clause=v.claim.clause.text,
                    scope=_SCOPES.get(v.claim.scope, gpb.CLAIM_SCOPE_UNSPECIFIED)
                    if v.claim.scope
                    else gpb.CLAIM_SCOPE_UNSPECIFIED,
                    absence_state=v.judged.state,  # type: ignore[arg-type]
                    start=v.claim.clause.start,
                    end=v.claim.clause.end,
                    reason=_REASONS[v.reason] if v.reason else gpb.VIOLATION_REASON_UNSPECIFIED,
                )
                for v in decision.violations
            ],
            evidence_state=decision.evidence.state,  # type: ignore[arg-type]
            verdict_event_id=event_id,
            detail=decision.detail,
        )

    def _journal_verdict(
        self, state: ContextState, cmd: ReleaseCommand, decision: GateDecision
    ) -> tuple[int, str]:
        """(event id, "") or (0, error). A reused request_id is ALREADY_EXISTS."""
        candidate_sha = hashlib.sha256(cmd.candidate_text.encode()).hexdigest()
        payload = struct_pb2.Struct()
        payload.update(
            {
                "context_id": state.context_id,
                "attempt": cmd.attempt,
                "verdict": decision.verdict.value,
                "evidence_state": common_pb2.AbsenceState.Name(decision.evidence.state),  # type: ignore[arg-type]
                "evidence_path": decision.evidence.path,
                "evidence_summary": decision.evidence.summary[:1000],
                "candidate_sha256": candidate_sha,
                "released_sha256": hashlib.sha256(decision.released_text.encode()).hexdigest(),
                "claims": len(decision.judgements),
                "violations": [
                    {
                        "clause": v.claim.clause.text[:MAX_CLAUSE_CHARS],
                        "scope": v.claim.scope.value if v.claim.scope else "",
                        "pattern": v.claim.source,
                        "reason": v.reason.value if v.reason else "",
                        "absence_state": common_pb2.AbsenceState.Name(v.judged.state),  # type: ignore[arg-type]
                        "start": v.claim.clause.start,
                        "end": v.claim.clause.end,
                    }
                    for v in decision.violations[:MAX_JOURNALED_VIOLATIONS]
                ],
            }
        )
        request_id = cmd.request_id or derived_id(
            state.context_id, f"verdict:{cmd.attempt}:{candidate_sha}"
        )
        try:
            response = self._planes.call(
                "journal",
                "AppendEvent",
                jpb.AppendEventRequest(
                    event_type=VERDICT_EVENT,
                    subject=state.subject,
                    workspace=state.workspace,
                    session_id=state.session_id,
                    payload=payload,
                    provenance=jpb.PROVENANCE_SYSTEM,
                    request_id=request_id,
                ),
                jpb.AppendEventResponse,
            )
        except DownstreamError as exc:
            if exc.code == "ALREADY_EXISTS":
                raise AlreadyExists(
                    f"request_id {cmd.request_id} was already used for a different verdict",
                    reason="REQUEST_ID_REUSED",
                    metadata={"field": "request_id"},
                ) from None
            return 0, str(exc)
        return int(response.event.event_id), ""

    # ------------------------------------------------------------ context lookup

    def context(
        self, context_id: str, subject: str, workspace: str, session_id: str
    ) -> ContextState:
        """The cached context, or the one recovered from the journal via the locator.

        A context outside the calling token's scope is unknown (NOT_FOUND), the
        same as one that does not exist.
        """
        state = self._contexts.get(context_id)
        if state is not None:
            locator = (subject, workspace, session_id)
            if subject and locator != (state.subject, state.workspace, state.session_id):
                raise self._unknown(context_id)
            if not current_scope().permits(state.subject, state.workspace):
                raise self._unknown(context_id)
            return state
        if not (subject and session_id):
            raise self._unknown(context_id, hint=True)
        state = self._recover(context_id, subject, workspace, session_id)
        if state is None:
            raise self._unknown(context_id)
        self._contexts.put(context_id, state)
        count_plane_event("gateway", "context_recovered")
        return state

    @staticmethod
    def _unknown(context_id: str, hint: bool = False) -> NotFound:
        message = f"context {context_id} is unknown to this gateway"
        if hint:
            message += (
                "; pass subject/workspace/session_id to recover it from the journal, route "
                "by context_id to the replica that assembled it, or assemble it again"
            )
        return NotFound(message, reason="CONTEXT_UNKNOWN", metadata={"context_id": context_id})

    def _recover(
        self, context_id: str, subject: str, workspace: str, session_id: str
    ) -> ContextState | None:
        state: ContextState | None = None
        attempts: list[tuple[int, str]] = []
        token = ""
        for _ in range(MAX_RECOVERY_PAGES):
            try:
                page = self._planes.call(
                    "journal",
                    "ReadSessionJournal",
                    jpb.ReadSessionJournalRequest(
                        subject=subject,
                        workspace=workspace,
                        session_id=session_id,
                        page_size=RECOVERY_PAGE_SIZE,
                        page_token=token,
                        event_types=[CONTEXT_EVENT, VERDICT_EVENT],
                    ),
                    jpb.ReadSessionJournalResponse,
                )
            except DownstreamError as exc:
                if exc.code == "INVALID_ARGUMENT":
                    return None
                raise Unavailable(f"cannot recover context {context_id}: {exc}") from None
            for event in page.events:
                payload = integral(MessageToDict(event.payload))
                if payload.get("context_id") != context_id:
                    continue
                if (
                    event.event_type == CONTEXT_EVENT
                    and state is None
                    and event.provenance == jpb.PROVENANCE_SYSTEM
                    and self._seal.verify(payload)
                ):
                    state = ContextState.from_payload(
                        payload,
                        subject=event.subject,
                        workspace=event.workspace,
                        session_id=event.session_id,
                        event_id=int(event.event_id),
                    )
                elif event.event_type == VERDICT_EVENT:
                    attempts.append(
                        (int(payload.get("attempt", 0)), str(payload.get("verdict", "")))
                    )
            token = page.next_page_token
            if not token:
                break
        if state is not None:
            state.attempts.extend(attempts)
        return state

    # ------------------------------------------------------------ operator views

    def search_memory(self, cmd: SearchCommand) -> gpb.SearchMemoryResponse:
        return self._operator.search_memory(cmd)

    def memory_context(self, cmd: MemoryContextCommand) -> gpb.GetMemoryContextResponse:
        return self._operator.memory_context(cmd)
