"""LearningService transport: validate requests, call the domain, build responses.

Thin on purpose: the rules live in the domain modules; errors are domain
exceptions that the shared interceptor maps to status codes. Every read of
candidates, learnings or skills first syncs the journal's quarantine state
(learning_service.quarantine), after validating the request; the learned
context does it while its query runs (ContextReader, read_current).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar
from uuid import UUID

import grpc

from engram.errors import InvalidArgument
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import learning_pb2_grpc as pb_grpc
from engram.pagination import decode, encode
from engram.timeutil import from_timestamp, to_timestamp
from engram.validation import (
    optional_id,
    page_size,
    require_id,
    require_request_id,
    workspace_or_default,
)
from learning_service import convert
from learning_service.candidates import CandidateBook, NewCandidate, SourceRef
from learning_service.context import DEFAULT_MAX_ENTRIES, MAX_ENTRIES, ContextReader
from learning_service.learnings import LearningBook, StatusFilter
from learning_service.model import (
    OPEN_CANDIDATE_STATUSES,
    Kind,
    Mode,
    Origin,
    ScopeKind,
    Sensitivity,
    SkillState,
    make_scope,
    parse_scope_key,
    resolve_scopes,
)
from learning_service.plugins import KIND_FROM_PB
from learning_service.policy_store import PolicyStore
from learning_service.quarantine import SourceQuarantine
from learning_service.skills import SkillBook

SERVICE = pb.DESCRIPTOR.services_by_name["LearningService"].full_name
MAX_INPUT = 32_768
MAX_QUERY = 2_000

LEARNING_FILTERS = {
    pb.LEARNING_STATUS_FILTER_UNSPECIFIED: StatusFilter.ALL,
    pb.LEARNING_STATUS_FILTER_ALL: StatusFilter.ALL,
    pb.LEARNING_STATUS_FILTER_ACTIVE: StatusFilter.ACTIVE,
    pb.LEARNING_STATUS_FILTER_PROVISIONAL: StatusFilter.PROVISIONAL,
    pb.LEARNING_STATUS_FILTER_REVOKED: StatusFilter.REVOKED,
    pb.LEARNING_STATUS_FILTER_SUPERSEDED: StatusFilter.SUPERSEDED,
}

E = TypeVar("E")


def require_uuid(field: str, value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise InvalidArgument(field, "must be a UUID" if value else "must not be empty") from None


def _enum(mapping: Mapping[Any, E], field: str, value: int, *, required: bool) -> E | None:
    if value == 0:
        if required:
            raise InvalidArgument(field, "must be set")
        return None
    found = mapping.get(value)
    if found is None:
        raise InvalidArgument(field, f"unknown value {value}")
    return found


def session_owner(session_id: str, subject: str, workspace: str) -> tuple[str, str]:
    """(subject, workspace) of a session-keyed read: a session id is only
    unique within one subject's workspace, so a session_id needs a subject
    (INVALID_ARGUMENT naming it); an empty workspace is "default"."""
    if session_id and not subject:
        raise InvalidArgument("subject", "must be set with session_id: whose session it is")
    return optional_id("subject", subject), workspace_or_default("workspace", workspace)


def _page(
    rows: Sequence[Any], limit: int, make_token: Callable[[Any], str]
) -> tuple[list[Any], str]:
    """Rows were fetched with limit + 1; the extra one means another page."""
    if len(rows) > limit:
        return list(rows[:limit]), make_token(rows[limit - 1])
    return list(rows), ""


class LearningServicer(pb_grpc.LearningServiceServicer):
    def __init__(
        self,
        candidates: CandidateBook,
        learnings: LearningBook,
        policies: PolicyStore,
        reader: ContextReader,
        skills: SkillBook,
        quarantine: SourceQuarantine,
        on_new_candidate: Callable[[], None] = lambda: None,
    ) -> None:
        self.candidates = candidates
        self.learnings = learnings
        self.policies = policies
        self.reader = reader
        self.skills = skills
        self.quarantine = quarantine
        self.on_new_candidate = on_new_candidate

    # -- scopes ---------------------------------------------------------------

    def ResolveScopes(
        self, request: pb.ResolveScopesRequest, context: grpc.ServicerContext
    ) -> pb.ResolveScopesResponse:
        scopes = resolve_scopes(request.session_id, request.persona_id, request.project_ids)
        session_owner(request.session_id, request.subject, request.workspace)
        return pb.ResolveScopesResponse(
            scopes=[convert.scope(s.kind, s.id) for s in scopes],
            scope_keys=[s.key for s in scopes],
        )

    # -- candidates -----------------------------------------------------------

    def CreateCandidate(
        self, request: pb.CreateCandidateRequest, context: grpc.ServicerContext
    ) -> pb.CreateCandidateResponse:
        kind = _enum(KIND_FROM_PB, "kind", request.kind, required=True)
        assert kind is not None
        scope_kind = _enum(
            convert.SCOPE_KIND_FROM_PB, "scope.kind", request.scope.kind, required=True
        )
        sensitivity = _enum(
            convert.SENSITIVITY_FROM_PB, "sensitivity", request.sensitivity, required=False
        )
        if request.source.event_id < 0:
            raise InvalidArgument("source.event_id", "must not be negative")
        new = NewCandidate(
            origin=Origin.API,
            scope=make_scope("scope", scope_kind, request.scope.id),
            kind=kind,
            content=request.content,
            confidence=request.confidence,
            source=SourceRef(
                run_id=optional_id("source.run_id", request.source.run_id),
                session_id=optional_id("source.session_id", request.source.session_id),
                subject=optional_id("source.subject", request.source.subject),
                workspace=optional_id("source.workspace", request.source.workspace),
                event_id=request.source.event_id,
            ),
            evidence_refs=tuple(request.evidence_refs),
            sensitivity=sensitivity or Sensitivity.NORMAL,
            expires_at=from_timestamp(request.expires_at, "expires_at"),
        )
        row = self.candidates.create(
            new, require_request_id("request_id", request.request_id, required=False)
        )
        self.on_new_candidate()
        return pb.CreateCandidateResponse(candidate=convert.candidate(row))

    def ListCandidates(
        self, request: pb.ListCandidatesRequest, context: grpc.ServicerContext
    ) -> pb.ListCandidatesResponse:
        statuses = sorted(
            {
                s
                for s in (
                    _enum(convert.CANDIDATE_STATUS_FROM_PB, "statuses", v, required=True)
                    for v in request.statuses
                )
                if s is not None
            }
        ) or list(OPEN_CANDIDATE_STATUSES)
        kind = _enum(KIND_FROM_PB, "kind", request.kind, required=False)
        limit = page_size("page_size", request.page_size, default=50, maximum=500)
        query = {"statuses": [s.value for s in statuses], "kind": kind.value if kind else ""}
        before = decode(request.page_token, query, {"before": int}).get("before", 2**62)
        self.quarantine.sync()
        rows, token = _page(
            self.candidates.list(statuses, kind, before, limit + 1),
            limit,
            lambda r: encode(query, {"before": int(r["seq"])}),
        )
        return pb.ListCandidatesResponse(
            candidates=[convert.candidate(r) for r in rows], next_page_token=token
        )

    def GetCandidate(
        self, request: pb.GetCandidateRequest, context: grpc.ServicerContext
    ) -> pb.GetCandidateResponse:
        candidate_id = require_uuid("candidate_id", request.candidate_id)
        self.quarantine.sync()
        row = self.candidates.get(candidate_id)
        return pb.GetCandidateResponse(candidate=convert.candidate(row))

    def PublishCandidate(
        self, request: pb.PublishCandidateRequest, context: grpc.ServicerContext
    ) -> pb.PublishCandidateResponse:
        candidate_id = require_uuid("candidate_id", request.candidate_id)
        tier = _enum(convert.TIER_FROM_PB, "publish_tier", request.publish_tier, required=True)
        assert tier is not None
        supersedes = require_uuid("supersedes", request.supersedes) if request.supersedes else None
        learning, history, candidate = self.learnings.publish_candidate(
            candidate_id,
            tier,
            supersedes,
            request.reason,
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.PublishCandidateResponse(
            learning=convert.learning(learning, history), candidate=convert.candidate(candidate)
        )

    def RejectCandidate(
        self, request: pb.RejectCandidateRequest, context: grpc.ServicerContext
    ) -> pb.RejectCandidateResponse:
        row = self.candidates.reject(
            require_uuid("candidate_id", request.candidate_id),
            request.reason,
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.RejectCandidateResponse(candidate=convert.candidate(row))

    # -- policy ---------------------------------------------------------------

    def GetLearningPolicy(
        self, request: pb.GetLearningPolicyRequest, context: grpc.ServicerContext
    ) -> pb.GetLearningPolicyResponse:
        return pb.GetLearningPolicyResponse(policy=convert.policy(self.policies.get()))

    def SetLearningPolicy(
        self, request: pb.SetLearningPolicyRequest, context: grpc.ServicerContext
    ) -> pb.SetLearningPolicyResponse:
        if not request.HasField("policy"):
            raise InvalidArgument("policy", "must be set")
        document = convert.policy_document(request.policy)
        if request.validate_only:
            return pb.SetLearningPolicyResponse(
                policy=convert.policy(self.policies.check(document))
            )
        stored = self.policies.set(
            document, require_request_id("request_id", request.request_id, required=False)
        )
        return pb.SetLearningPolicyResponse(policy=convert.policy(stored))

    # -- learnings ------------------------------------------------------------

    def ListLearnings(
        self, request: pb.ListLearningsRequest, context: grpc.ServicerContext
    ) -> pb.ListLearningsResponse:
        status = LEARNING_FILTERS.get(request.status)
        if status is None:
            raise InvalidArgument("status", f"unknown value {request.status}")
        kind = _enum(KIND_FROM_PB, "kind", request.kind, required=False)
        scope = parse_scope_key("scope_key", request.scope_key) if request.scope_key else None
        limit = page_size("page_size", request.page_size, default=50, maximum=500)
        query = {
            "status": int(request.status),
            "kind": kind.value if kind else "",
            "scope_key": scope.key if scope else "",
        }
        before = decode(request.page_token, query, {"before": int}).get("before", 2**62)
        self.quarantine.sync()
        rows, token = _page(
            self.learnings.list(status, kind, scope, before, limit + 1),
            limit,
            lambda r: encode(query, {"before": int(r["seq"])}),
        )
        return pb.ListLearningsResponse(
            learnings=[convert.learning(r) for r in rows], next_page_token=token
        )

    def GetLearning(
        self, request: pb.GetLearningRequest, context: grpc.ServicerContext
    ) -> pb.GetLearningResponse:
        learning_id = require_uuid("learning_id", request.learning_id)
        self.quarantine.sync()
        row, history = self.learnings.get(learning_id)
        return pb.GetLearningResponse(learning=convert.learning(row, history))

    def RevokeLearning(
        self, request: pb.RevokeLearningRequest, context: grpc.ServicerContext
    ) -> pb.RevokeLearningResponse:
        row, history, revoked = self.learnings.revoke(
            require_uuid("learning_id", request.learning_id),
            request.reason,
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.RevokeLearningResponse(
            learning=convert.learning(row, history), revoked_skills=revoked
        )

    # -- read paths -----------------------------------------------------------

    def GetLearnedContext(
        self, request: pb.GetLearnedContextRequest, context: grpc.ServicerContext
    ) -> pb.GetLearnedContextResponse:
        scopes = resolve_scopes(request.session_id, request.persona_id, request.project_ids)
        subject, workspace = session_owner(request.session_id, request.subject, request.workspace)
        if len(request.pending_input) > MAX_INPUT:
            raise InvalidArgument("pending_input", f"at most {MAX_INPUT} characters")
        if not 0 <= request.max_entries <= MAX_ENTRIES:
            raise InvalidArgument(
                "max_entries", f"must be 0..{MAX_ENTRIES} (0 means {DEFAULT_MAX_ENTRIES})"
            )
        # The reader makes the quarantine state current while it reads.
        result = self.reader.learned_context(
            scopes,
            request.pending_input,
            request.max_entries or DEFAULT_MAX_ENTRIES,
            subject=subject,
            workspace=workspace,
        )
        return pb.GetLearnedContextResponse(
            entries=[
                pb.LearnedContextEntry(learning=convert.learning(e.row), score=e.score)
                for e in result.entries
            ],
            scope_keys=result.scope_keys,
            coverage=result.coverage,
            omitted_zero_score=result.omitted_zero_score,
            omitted_by_limit=result.omitted_by_limit,
            recency_fallback=result.recency_fallback,
        )

    def SearchLearnings(
        self, request: pb.SearchLearningsRequest, context: grpc.ServicerContext
    ) -> pb.SearchLearningsResponse:
        scopes = {parse_scope_key(f"scope_keys[{i}]", k) for i, k in enumerate(request.scope_keys)}
        keys = sorted(s.key for s in scopes)
        sessions = [s.id for s in scopes if s.kind is ScopeKind.SESSION]
        subject, workspace = session_owner(
            sessions[0] if sessions else "", request.subject, request.workspace
        )
        if len(request.query) > MAX_QUERY:
            raise InvalidArgument("query", f"at most {MAX_QUERY} characters")
        limit = page_size("page_size", request.page_size, default=20, maximum=100)
        query: dict[str, object] = {"scope_keys": keys, "query": request.query}
        if subject:
            query |= {"subject": subject, "workspace": workspace}
        offset = decode(request.page_token, query, {"offset": int}).get("offset", 0)
        self.quarantine.sync()
        hits = self.reader.search(
            keys, request.query, subject=subject, workspace=workspace if subject else ""
        )
        page = hits[offset : offset + limit]
        token = encode(query, {"offset": offset + limit}) if len(hits) > offset + limit else ""
        return pb.SearchLearningsResponse(
            hits=[
                pb.LearningSearchHit(
                    hit_kind=h["hit_kind"],
                    id=h["id"],
                    title=h["title"],
                    excerpt=h["excerpt"],
                    scope_key=h["scope_key"],
                    score=h["score"],
                    prompt_eligible=h["prompt_eligible"],
                    updated_at=to_timestamp(h["updated_at"]),
                    kind=convert.KIND_TO_PB[Kind(h["kind"])],
                )
                for h in page
            ],
            next_page_token=token,
        )

    # -- skills ---------------------------------------------------------------

    def PromoteToSkill(
        self, request: pb.PromoteToSkillRequest, context: grpc.ServicerContext
    ) -> pb.PromoteToSkillResponse:
        view = self.skills.promote(
            require_uuid("learning_id", request.learning_id),
            request.skill_name,
            convert.EXECUTION_CONTEXT_FROM_PB.get(request.execution_context, ""),
            request.verification_profile,
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.PromoteToSkillResponse(skill=convert.skill(view))

    def _list_skills(
        self,
        states: list[SkillState],
        page_size_value: int,
        page_token: str,
        *,
        include_withheld: bool,
    ) -> tuple[list[pb.Skill], str]:
        limit = page_size("page_size", page_size_value, default=50, maximum=500)
        query = {"states": [s.value for s in states]}
        after = decode(page_token, query, {"after": str}).get("after", "")
        self.quarantine.sync()
        views, token = _page(
            self.skills.list(states, after, limit + 1, include_withheld=include_withheld),
            limit,
            lambda v: encode(query, {"after": v.skill["skill_name"]}),
        )
        return [convert.skill(v) for v in views], token

    def ListSkills(
        self, request: pb.ListSkillsRequest, context: grpc.ServicerContext
    ) -> pb.ListSkillsResponse:
        states = sorted(
            {
                s
                for s in (
                    _enum(convert.SKILL_STATE_FROM_PB, "states", v, required=True)
                    for v in request.states
                )
                if s is not None
            }
        )
        skills, token = self._list_skills(
            states, request.page_size, request.page_token, include_withheld=True
        )
        return pb.ListSkillsResponse(skills=skills, next_page_token=token)

    def ListActiveSkills(
        self, request: pb.ListActiveSkillsRequest, context: grpc.ServicerContext
    ) -> pb.ListActiveSkillsResponse:
        skills, token = self._list_skills(
            [SkillState.ACTIVE], request.page_size, request.page_token, include_withheld=False
        )
        return pb.ListActiveSkillsResponse(skills=skills, next_page_token=token)

    def GetSkill(
        self, request: pb.GetSkillRequest, context: grpc.ServicerContext
    ) -> pb.GetSkillResponse:
        self.quarantine.sync()
        return pb.GetSkillResponse(skill=convert.skill(self.skills.get(request.skill_name)))

    def RecordRolloutResult(
        self, request: pb.RecordRolloutResultRequest, context: grpc.ServicerContext
    ) -> pb.RecordRolloutResultResponse:
        stage = _enum(convert.STAGE_FROM_PB, "stage", request.stage, required=True)
        assert stage is not None
        view, success = self.skills.record_rollout(
            request.skill_name,
            stage,
            require_id("run_id", request.run_id),
            request.expected_marker,
            request.definition_fingerprint,
            require_request_id("request_id", request.request_id, required=False),
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
        )
        return pb.RecordRolloutResultResponse(skill=convert.skill(view), success=success)

    def RevokeSkill(
        self, request: pb.RevokeSkillRequest, context: grpc.ServicerContext
    ) -> pb.RevokeSkillResponse:
        view = self.skills.revoke(
            request.skill_name,
            request.reason,
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.RevokeSkillResponse(skill=convert.skill(view))

    def RollbackSkill(
        self, request: pb.RollbackSkillRequest, context: grpc.ServicerContext
    ) -> pb.RollbackSkillResponse:
        view = self.skills.rollback(
            request.skill_name,
            request.reason,
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.RollbackSkillResponse(skill=convert.skill(view))

    # -- status ---------------------------------------------------------------

    def GetLearningStatus(
        self, request: pb.GetLearningStatusRequest, context: grpc.ServicerContext
    ) -> pb.GetLearningStatusResponse:
        counts, metrics = self.reader.status()
        mode = Mode(self.policies.get().mode)
        metrics["review_cursor"] = int(counts["review_cursor"])
        return pb.GetLearningStatusResponse(
            candidates_pending=int(counts["candidates_pending"]),
            candidates_escalated=int(counts["candidates_escalated"]),
            learnings_active=int(counts["learnings_active"]),
            learnings_provisional=int(counts["learnings_provisional"]),
            skills_active=int(counts["skills_active"]),
            capture_cursor=int(counts["capture_cursor"]),
            mode=convert.MODE_TO_PB[mode],
            metrics=metrics,
            learnings_withheld=int(counts["learnings_withheld"]),
            # The stored cursor, or where this process has since caught up to
            # without writing it (SourceQuarantine bounds those writes).
            quarantine_cursor=max(int(counts["quarantine_cursor"] or 0), self.quarantine.known),
        )
