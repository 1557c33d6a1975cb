"""Transcript-plane RPCs (GetSessionContext, Get/SetCompactionPolicy) and the
analyzer client (built-in, or a configured AnalyzerService). Thin: validate,
call TranscriptStore, convert."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import grpc

from engram.auth import current_actor
from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage
from engram.errors import InvalidArgument
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.journal.v1 import plugins_pb2 as ppb
from engram.journal.v1 import plugins_pb2_grpc as ppb_grpc
from engram.journal.v1 import transcript_pb2 as tpb
from engram.timeutil import to_timestamp
from engram.validation import require_id, require_request_id, workspace_or_default
from memory_service import transcript as tr
from memory_service.planes import Lifecycle, PlaneContext
from memory_service.transcript_store import (
    Analysis,
    SessionContext,
    TranscriptStore,
    builtin_analyzer,
)

log = logging.getLogger("engram.journal.transcript")

SESSION_CONTEXT_PATH = "journal.session_context.v1"
EVENTS_SOURCE = "postgresql:journal.events"
MAX_BUDGET_TOKENS = 1_000_000

OUTCOME_TO_PB = {
    tr.NOT_NEEDED: tpb.COMPACTION_OUTCOME_NOT_NEEDED,
    tr.COMPACTED: tpb.COMPACTION_OUTCOME_COMPACTED,
    tr.DECLINED: tpb.COMPACTION_OUTCOME_DECLINED,
}
REASON_TO_PB = {
    tr.MISSING_ANALYSIS: tpb.COMPACTION_ISSUE_REASON_MISSING_ANALYSIS,
    tr.HASH_MISMATCH: tpb.COMPACTION_ISSUE_REASON_HASH_MISMATCH,
    tr.MALFORMED_ROLES: tpb.COMPACTION_ISSUE_REASON_MALFORMED_ROLES,
    tr.TOOL_EVENTS_IN_RANGE: tpb.COMPACTION_ISSUE_REASON_TOOL_EVENTS_IN_RANGE,
    tr.QUARANTINED_IN_RANGE: tpb.COMPACTION_ISSUE_REASON_QUARANTINED_IN_RANGE,
}


class TranscriptRpcs(pb_grpc.JournalServiceServicer):
    plane: PlaneContext

    @property
    def transcript(self) -> TranscriptStore:
        return TranscriptStore(self.plane.db, self.plane.journal)

    def GetSessionContext(
        self, request: tpb.GetSessionContextRequest, context: grpc.ServicerContext
    ) -> tpb.GetSessionContextResponse:
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        session_id = require_id("session_id", request.session_id)
        if request.budget_tokens < 0:
            raise InvalidArgument("budget_tokens", "must not be negative (0: unbounded)")
        if request.budget_tokens > MAX_BUDGET_TOKENS:
            raise InvalidArgument("budget_tokens", f"must be at most {MAX_BUDGET_TOKENS}")
        if not 0 <= request.tail_turns <= tr.MAX_TAIL_TURNS:
            raise InvalidArgument(
                "tail_turns", f"must be between 0 (policy) and {tr.MAX_TAIL_TURNS}"
            )
        result = self.transcript.session_context(
            subject,
            workspace,
            session_id,
            budget_tokens=request.budget_tokens,
            tail_turns=request.tail_turns,
            dry_run=request.dry_run,
            analyzer=analyzer_clients(self.plane).analyse,
        )
        query = {
            "subject": subject,
            "workspace": workspace,
            "session_id": session_id,
            "budget_tokens": request.budget_tokens,
            "tail_turns": request.tail_turns or result.policy.tail_turns,
            "policy_version": result.policy.version,
        }
        return session_context_response(result, query)

    def GetCompactionPolicy(
        self, request: tpb.GetCompactionPolicyRequest, context: grpc.ServicerContext
    ) -> tpb.GetCompactionPolicyResponse:
        return tpb.GetCompactionPolicyResponse(policy=policy_message(self.transcript.policy()))

    def SetCompactionPolicy(
        self, request: tpb.SetCompactionPolicyRequest, context: grpc.ServicerContext
    ) -> tpb.SetCompactionPolicyResponse:
        if not request.HasField("policy"):
            raise InvalidArgument("policy", "must be set")
        wanted = request.policy
        policy = tr.validate_policy(
            tail_turns=wanted.tail_turns,
            trigger_chars=wanted.trigger_chars,
            checkpoint_max_chars=wanted.checkpoint_max_chars,
            analyzer_address=wanted.analyzer_address,
            analyzer_timeout_ms=wanted.analyzer_timeout_ms,
        )
        request_id = require_request_id("request_id", request.request_id, required=False)
        stored = self.transcript.set_policy(policy, current_actor(), request_id)
        return tpb.SetCompactionPolicyResponse(policy=policy_message(stored))


# ------------------------------------------------------------------ conversion


def policy_message(policy: tr.CompactionPolicy) -> tpb.CompactionPolicy:
    return tpb.CompactionPolicy(
        tail_turns=policy.tail_turns,
        trigger_chars=policy.trigger_chars,
        checkpoint_max_chars=policy.checkpoint_max_chars,
        analyzer_address=policy.analyzer_address,
        analyzer_timeout_ms=policy.analyzer_timeout_ms,
        version=policy.version,
        updated_at=to_timestamp(policy.updated_at),
        updated_by=policy.updated_by,
    )


def session_context_response(
    result: SessionContext, query: Mapping[str, object]
) -> tpb.GetSessionContextResponse:
    plan = result.plan
    represented = result.represented
    compacted = result.checkpoint is not None
    coverage = build_coverage(
        read_path=SESSION_CONTEXT_PATH,
        source_systems=[EVENTS_SOURCE],
        query=dict(query),
        returned=represented,
        limit=0,
        matched_before_limit=result.matched,
        exactness=cpb.EXACTNESS_EXACT,
        # Summaries stand in for the checkpoint's turns: their meaning is
        # represented, not reproduced.
        semantic=cpb.DIMENSION_STATE_PARTIAL if compacted else cpb.DIMENSION_STATE_COMPLETE,
        field=cpb.DIMENSION_STATE_COMPLETE,
        temporal=(
            cpb.DIMENSION_STATE_COMPLETE
            if represented == result.matched
            else cpb.DIMENSION_STATE_PARTIAL
        ),
        visibility=cpb.DIMENSION_STATE_COMPLETE,
        normalization=cpb.DIMENSION_STATE_COMPLETE,
        snapshot_version=str(result.watermark),
    )
    response = tpb.GetSessionContextResponse(
        tail=[
            tpb.TranscriptTurn(
                event_id=t.event_id,
                content_sha256=t.content_sha256,
                user_text=t.user_text,
                assistant_text=t.assistant_text,
                user_name=t.user_name,
                assistant_name=t.assistant_name,
                occurred_at=to_timestamp(t.occurred_at),
            )
            for t in result.tail
        ],
        outcome=OUTCOME_TO_PB[plan.outcome],
        issues=[
            tpb.CompactionIssue(reason=REASON_TO_PB[i.reason], event_id=i.event_id, detail=i.detail)
            for i in plan.issues[: tr.MAX_ISSUES]
        ],
        issues_omitted=max(0, len(plan.issues) - tr.MAX_ISSUES),
        pruned_turns=len(plan.pruned),
        older_turns_omitted=(len(plan.literal) + len(plan.pruned)) - represented,
        tail_turns_dropped_budget=result.tail_dropped,
        checkpoint_dropped_budget=result.checkpoint_dropped,
        quarantined_turns_excluded=plan.quarantined,
        policy_version=result.policy.version,
        coverage=coverage,
        turns_verified=result.verified_turns,
    )
    if result.checkpoint is not None:
        response.checkpoint.MergeFromString(checkpoint_sources(result))
        response.checkpoint.MergeFrom(
            tpb.SessionCheckpoint(
                text=result.checkpoint.text,
                sha256=result.checkpoint.sha256,
                through_event_id=result.checkpoint.through_event_id,
                turns_elided_by_cap=result.checkpoint.elided,
                policy_version=result.policy.version,
                from_projection=result.from_projection,
            )
        )
    return response


# Serialised `SessionCheckpoint.sources` by input digest, the latest few:
# building 10,000 CheckpointSource messages costs tens of milliseconds, parsing
# their bytes well under one. Equal digests, equal sources (the digest chains
# every source's turn id, content hash and analysis id).
SOURCES_CACHE_ENTRIES = 8
_SOURCES: OrderedDict[str, bytes] = OrderedDict()
_SOURCES_LOCK = threading.Lock()


def checkpoint_sources(result: SessionContext) -> bytes:
    """A SessionCheckpoint holding only the result's sources, serialised."""
    key = result.sources_digest
    with _SOURCES_LOCK:
        cached = _SOURCES.get(key) if key else None
        if cached is not None:
            _SOURCES.move_to_end(key)
            return cached
    blob = tpb.SessionCheckpoint(
        sources=[
            tpb.CheckpointSource(
                turn_event_id=turn_id, content_sha256=sha, analysis_event_id=analysis_id
            )
            for turn_id, sha, analysis_id in result.sources.sources()
        ]
    ).SerializeToString()
    if key:
        with _SOURCES_LOCK:
            _SOURCES[key] = blob
            while len(_SOURCES) > SOURCES_CACHE_ENTRIES:
                _SOURCES.popitem(last=False)
    return blob


# -------------------------------------------------------------- the analyzer


class AnalyzerClients:
    """The configured AnalyzerService (one channel per address), else built-in."""

    def __init__(self, token: str) -> None:
        self._token = token
        self._channels: dict[str, grpc.Channel] = {}
        self._lock = threading.Lock()

    def _stub(self, address: str) -> ppb_grpc.AnalyzerServiceStub:
        from engram.channels import open_channel

        with self._lock:
            channel = self._channels.get(address)
            if channel is None:
                channel = self._channels[address] = open_channel(address, self._token)
        return ppb_grpc.AnalyzerServiceStub(channel)

    def analyse(self, policy: tr.CompactionPolicy, row: Mapping[str, Any]) -> Analysis:
        if not policy.analyzer_address:
            return builtin_analyzer(policy, row)
        try:
            response = self._stub(policy.analyzer_address).AnalyzeTurn(
                ppb.AnalyzeTurnRequest(
                    event_id=int(row["event_id"]),
                    content_sha256=str(row["content_sha256"]),
                    user_text=str(row["user_text"]),
                    assistant_text=str(row["assistant_text"]),
                    user_name=str(row["user_name"]),
                    assistant_name=str(row["assistant_name"]),
                    max_summary_chars=tr.MAX_SUMMARY_CHARS,
                ),
                timeout=policy.analyzer_timeout_ms / 1000.0,
            )
        except grpc.RpcError as exc:
            raise RuntimeError(
                f"analyzer {policy.analyzer_address} failed: {exc.code().name}"
            ) from exc
        if len(response.summary) > tr.MAX_SUMMARY_CHARS:
            raise RuntimeError(
                f"analyzer summary is {len(response.summary)} chars; "
                f"the limit is {tr.MAX_SUMMARY_CHARS}"
            )
        name = tr.one_line(response.analyzer)[:200] or f"grpc:{policy.analyzer_address}"
        return Analysis(response.summary, response.content_sha256, name)

    def close(self) -> None:
        with self._lock:
            for channel in self._channels.values():
                channel.close()
            self._channels.clear()


def attach(plane: PlaneContext, lifecycle: Lifecycle) -> None:
    """Nothing runs in the background: GetSessionContext analyses the pruned
    turns it needs (bounded per call). The analyzer channels close at stop."""
    lifecycle.stop.append(analyzer_clients(plane).close)


_CLIENTS: dict[int, AnalyzerClients] = {}
_CLIENTS_LOCK = threading.Lock()


def analyzer_clients(plane: PlaneContext) -> AnalyzerClients:
    """One AnalyzerClients per journal plane (per process, in practice)."""
    with _CLIENTS_LOCK:
        clients = _CLIENTS.get(id(plane))
        if clients is None:
            clients = _CLIENTS[id(plane)] = AnalyzerClients(plane.ctx.settings.service_token)
        return clients
