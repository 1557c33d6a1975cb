"""Recovered run memory RPCs: CompleteRun, GetRunRecord, the run-memory
policy, GetRecoveredMemory and SearchRunMemory, plus the boot-repair hook.
Thin: validate, call RunMemoryStore, convert."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

import grpc

from engram.auth import current_actor
from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage, unavailable_coverage
from engram.errors import InvalidArgument, NotFound
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.pagination import decode, encode
from engram.timeutil import to_timestamp
from engram.validation import (
    page_size,
    require_id,
    require_request_id,
    require_text,
    workspace_or_default,
)
from memory_service import run_memory as rm
from memory_service.planes import Lifecycle, PlaneContext
from memory_service.run_memory_store import (
    COUNTER_INJECTED,
    COUNTER_OMITTED,
    COUNTER_PRUNED,
    COUNTER_REDACTED,
    RunMemoryStore,
)

RECOVERED_PATH = "journal.recovered_memory.v1"
SEARCH_PATH = "journal.run_memory_search.v1"
RUN_RECORDS_SOURCE = "postgresql:journal.run_records"
MAX_PENDING_INPUT = 32_768
MAX_QUERY = 1_000
# SearchRunMemory pages by (score, recorded_at, run_id) descending.
RUN_SEARCH_POSITION = {"score": float, "at": datetime, "run": str}

STATUS_TO_PB = {
    "queued": pb.RUN_STATUS_QUEUED,
    "running": pb.RUN_STATUS_RUNNING,
    "waiting_for_approval": pb.RUN_STATUS_WAITING_FOR_APPROVAL,
    "waiting_for_user_question": pb.RUN_STATUS_WAITING_FOR_USER_QUESTION,
    "completed": pb.RUN_STATUS_COMPLETED,
    "failed": pb.RUN_STATUS_FAILED,
    "interrupted": pb.RUN_STATUS_INTERRUPTED,
    "cancelled": pb.RUN_STATUS_CANCELLED,
}
STATUS_FROM_PB = {v: k for k, v in STATUS_TO_PB.items()}
VISIBILITY_TO_PB = {
    rm.SESSION_ONLY: pb.SEARCH_VISIBILITY_SESSION_ONLY,
    rm.LEARNING_SCOPES: pb.SEARCH_VISIBILITY_LEARNING_SCOPES,
}
VISIBILITY_FROM_PB = {v: k for k, v in VISIBILITY_TO_PB.items()}


class RunMemoryRpcs(pb_grpc.JournalServiceServicer):
    plane: PlaneContext

    @property
    def run_memory(self) -> RunMemoryStore:
        return RunMemoryStore(self.plane.db, self.plane.journal, self.plane.counters)

    def CompleteRun(
        self, request: pb.CompleteRunRequest, context: grpc.ServicerContext
    ) -> pb.CompleteRunResponse:
        status = STATUS_FROM_PB.get(request.status)
        if status is None:
            raise InvalidArgument("status", "must be set to a terminal run status")
        run = rm.RunInput(
            run_id=require_id("run_id", request.run_id),
            session_id=require_id("session_id", request.session_id),
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            status=rm.require_status(status),
            request_text=rm.optional_text("request_text", request.request_text),
            outcome_text=rm.optional_text("outcome_text", request.outcome_text),
            error_text=rm.optional_text("error_text", request.error_text),
            artifact_ids=rm.artifact_ids("artifact_ids", request.artifact_ids),
            scope_keys=rm.scope_keys("scope_keys", request.scope_keys),
        )
        request_id = require_request_id("request_id", request.request_id, required=False)
        done = self.run_memory.complete_run(run, request_id)
        response = pb.CompleteRunResponse(
            replayed=done.replayed, recorded=done.recorded, event_id=done.event_id
        )
        if done.record is not None:
            response.record.CopyFrom(run_record(done.record))
        return response

    def GetRunRecord(
        self, request: pb.GetRunRecordRequest, context: grpc.ServicerContext
    ) -> pb.GetRunRecordResponse:
        run_id = require_id("run_id", request.run_id)
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        row = self.run_memory.get_record(subject, workspace, run_id)
        if row is None:
            # The same answer for an unknown run and for another subject's.
            raise NotFound(f"no run record {run_id} for this subject and workspace")
        return pb.GetRunRecordResponse(record=run_record(row))

    def GetRunMemoryPolicy(
        self, request: pb.GetRunMemoryPolicyRequest, context: grpc.ServicerContext
    ) -> pb.GetRunMemoryPolicyResponse:
        return pb.GetRunMemoryPolicyResponse(policy=policy_message(self.run_memory.policy()))

    def SetRunMemoryPolicy(
        self, request: pb.SetRunMemoryPolicyRequest, context: grpc.ServicerContext
    ) -> pb.SetRunMemoryPolicyResponse:
        if not request.HasField("policy"):
            raise InvalidArgument("policy", "must be set")
        wanted = request.policy
        visibility = VISIBILITY_FROM_PB.get(wanted.search_visibility, "")
        if wanted.search_visibility and not visibility:
            raise InvalidArgument("policy.search_visibility", "is not a known visibility")
        policy = rm.validate_policy(
            enabled=wanted.enabled,
            retention_seconds=wanted.retention_seconds,
            max_tracked_per_session=wanted.max_tracked_per_session,
            max_prompt_entries=wanted.max_prompt_entries,
            redact_pii=wanted.redact_pii,
            search_visibility=visibility,
        )
        if request.validate_only:
            return pb.SetRunMemoryPolicyResponse(
                policy=policy_message(policy),
                maintenance=maintenance_report(self.run_memory.preview_policy(policy)),
            )
        request_id = require_request_id("request_id", request.request_id, required=False)
        stored, report = self.run_memory.set_policy(policy, current_actor(), request_id)
        return pb.SetRunMemoryPolicyResponse(
            policy=policy_message(stored), maintenance=maintenance_report(report)
        )

    def GetRecoveredMemory(
        self, request: pb.GetRecoveredMemoryRequest, context: grpc.ServicerContext
    ) -> pb.GetRecoveredMemoryResponse:
        session_id = require_id("session_id", request.session_id)
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        pending = require_text(
            "pending_input", request.pending_input, max_chars=MAX_PENDING_INPUT, min_chars=0
        )
        result = self.run_memory.recovered(
            subject, workspace, session_id, pending, request.max_entries
        )
        query = {
            "subject": subject,
            "workspace": workspace,
            "session_id": session_id,
            "pending_input": pending,
            "limit": result.limit,
        }
        if not result.enabled:
            # Run memory is switched off: nothing was searched, which says
            # nothing about what this session did.
            coverage = unavailable_coverage(
                RECOVERED_PATH, [RUN_RECORDS_SOURCE], query, not_searched=True
            )
            return pb.GetRecoveredMemoryResponse(coverage=coverage)
        coverage = build_coverage(
            read_path=RECOVERED_PATH,
            source_systems=[RUN_RECORDS_SOURCE],
            query=query,
            returned=len(result.ranked),
            limit=result.limit,
            matched_before_limit=result.matched,
            exactness=cpb.EXACTNESS_EXACT,
            # Lexical ranking: relevance by meaning is not established.
            semantic=cpb.DIMENSION_STATE_UNKNOWN,
            field=cpb.DIMENSION_STATE_COMPLETE,
            # Retention and the per-session cap bound what is kept.
            temporal=cpb.DIMENSION_STATE_PARTIAL,
            visibility=cpb.DIMENSION_STATE_COMPLETE,
            normalization=cpb.DIMENSION_STATE_PARTIAL,
        )
        return pb.GetRecoveredMemoryResponse(
            records=[pb.RankedRunRecord(record=run_record(r), score=s) for r, s in result.ranked],
            coverage=coverage,
            omitted_by_limit=result.omitted,
        )

    def SearchRunMemory(
        self, request: pb.SearchRunMemoryRequest, context: grpc.ServicerContext
    ) -> pb.SearchRunMemoryResponse:
        session_id = require_id("session_id", request.session_id)
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        text = require_text("query", request.query, max_chars=MAX_QUERY, min_chars=0)
        visible = sorted(
            rm.scope_keys("visible_scope_keys", request.visible_scope_keys, check_secrets=False)
        )
        limit = page_size("page_size", request.page_size, default=20, maximum=100)
        query = {
            "subject": subject,
            "workspace": workspace,
            "session_id": session_id,
            "query": text,
            "visible_scope_keys": visible,
        }
        # The token is bound to the subject too: it never pages another's records.
        position = decode(request.page_token, query, RUN_SEARCH_POSITION)
        page = self.run_memory.search(
            subject, workspace, session_id, text, visible, limit, position
        )
        has_query = bool(text.strip())
        coverage = build_coverage(
            read_path=SEARCH_PATH,
            source_systems=[RUN_RECORDS_SOURCE],
            query={**query, "widened": page.widened, "position": position, "limit": limit},
            returned=len(page.rows),
            limit=limit,
            matched_before_limit=page.matched,
            exactness=cpb.EXACTNESS_EXACT,
            # Browsing enumerates every visible record; a query matches words.
            semantic=cpb.DIMENSION_STATE_UNKNOWN if has_query else cpb.DIMENSION_STATE_COMPLETE,
            field=cpb.DIMENSION_STATE_COMPLETE,
            temporal=cpb.DIMENSION_STATE_PARTIAL,
            visibility=cpb.DIMENSION_STATE_COMPLETE,
            normalization=(
                cpb.DIMENSION_STATE_PARTIAL if has_query else cpb.DIMENSION_STATE_COMPLETE
            ),
        )
        token = encode(query, page.next_position) if page.next_position else ""
        return pb.SearchRunMemoryResponse(
            records=[
                pb.RankedRunRecord(record=run_record(r), score=float(r["score"])) for r in page.rows
            ],
            next_page_token=token,
            coverage=coverage,
        )

    def extend_status(self, response: pb.GetStatusResponse) -> None:
        chained = getattr(super(), "extend_status", None)
        if chained is not None:
            chained(response)
        stored, counters, report = self.run_memory.status()
        response.run_records = stored
        response.run_memory.CopyFrom(
            pb.RunMemoryMetrics(
                records_stored=stored,
                records_pruned_total=counters.get(COUNTER_PRUNED, 0),
                redacted_fields_total=counters.get(COUNTER_REDACTED, 0),
                prompt_limit_omitted_total=counters.get(COUNTER_OMITTED, 0),
                injected_total=counters.get(COUNTER_INJECTED, 0),
            )
        )
        if report is not None:
            response.last_maintenance.CopyFrom(maintenance_report(report))


def attach(plane: PlaneContext, lifecycle: Lifecycle) -> None:
    store = RunMemoryStore(plane.db, plane.journal)

    def boot_repair() -> None:
        store.repair("boot")

    lifecycle.start.append(boot_repair)


# ------------------------------------------------------------------ conversion


def run_record(row: Mapping[str, Any]) -> pb.RunRecord:
    return pb.RunRecord(
        run_id=str(row["run_id"]),
        session_id=str(row["session_id"]),
        subject=str(row["subject"]),
        workspace=str(row["workspace"]),
        status=STATUS_TO_PB[str(row["status"])],
        summary=str(row["summary"]),
        request_preview=str(row["request_preview"]),
        outcome_preview=str(row["outcome_preview"]),
        failure_markers=list(row["failure_markers"]),
        artifact_ids=list(row["artifact_ids"]),
        scope_keys=list(row["scope_keys"]),
        recorded_at=to_timestamp(row["recorded_at"]),
        redaction_count=int(row["redaction_count"]),
        event_id=int(row["event_id"]),
        expires_at=to_timestamp(row["expires_at"]),
    )


def policy_message(policy: rm.RunMemoryPolicy) -> pb.RunMemoryPolicy:
    return pb.RunMemoryPolicy(
        enabled=policy.enabled,
        retention_seconds=policy.retention_seconds,
        max_tracked_per_session=policy.max_tracked_per_session,
        max_prompt_entries=policy.max_prompt_entries,
        redact_pii=policy.redact_pii,
        search_visibility=VISIBILITY_TO_PB[policy.search_visibility],
        updated_at=to_timestamp(policy.updated_at),
        updated_by=policy.updated_by,
    )


def maintenance_report(report: Mapping[str, Any]) -> pb.MaintenanceReport:
    return pb.MaintenanceReport(
        trigger=str(report.get("trigger", "")),
        ran_at=to_timestamp(report.get("ran_at")),
        ok=bool(report.get("ok", False)),
        expired_removed=int(report.get("expired_removed", 0)),
        overflow_removed=int(report.get("overflow_removed", 0)),
        orphans_removed=int(report.get("orphans_removed", 0)),
        warnings=list(report.get("warnings", [])),
        error=str(report.get("error", "")),
    )
