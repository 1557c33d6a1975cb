"""GatewayService transport: validate requests, call the domain, return responses."""

from __future__ import annotations

from collections.abc import Sequence

import grpc

from engram.errors import InvalidArgument
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.validation import (
    optional_id,
    page_size,
    require_id,
    require_request_id,
    require_text,
    workspace_or_default,
)
from gateway.assemble import AssembleCommand
from gateway.gate import DeclaredAbsence, DeclaredClaim, DeclaredRecollection
from gateway.operator import MemoryContextCommand, SearchCommand
from gateway.packing import DEFAULT_BUDGET_TOKENS, MAX_BUDGET_TOKENS, MIN_BUDGET_TOKENS
from gateway.service import GatewayService, ReleaseCommand
from gateway.transcript import DEFAULT_TRANSCRIPT_BUDGET_TOKENS, MAX_TRANSCRIPT_BUDGET_TOKENS
from gateway.truthfulness import ClaimScope

SERVICE = gpb.DESCRIPTOR.services_by_name["GatewayService"].full_name
MAX_INPUT_CHARS = 16_384
MAX_CANDIDATE_CHARS = 65_536
# The strictest plane limit (run-memory search) so a valid query is valid downstream.
MAX_QUERY_CHARS = 1000
MAX_PROJECTS = 32
MAX_DECLARED_TERM_CHARS = 200


def _projects(values: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    if len(values) > MAX_PROJECTS:
        raise InvalidArgument("project_ids", f"at most {MAX_PROJECTS}")
    return tuple(require_id("project_ids", v) for v in values)


MAX_DECLARED_CLAIMS = 16
MAX_DECLARED_TERMS = 8
MAX_DECLARED_RECORDS = 16
_DECLARED_SCOPES = {
    gpb.CLAIM_SCOPE_CORPUS_WIDE: ClaimScope.CORPUS_WIDE,
    gpb.CLAIM_SCOPE_QUERY_SCOPED: ClaimScope.QUERY_SCOPED,
}


def _declared_terms(field: str, values: Sequence[str]) -> tuple[str, ...]:
    if not values:
        raise InvalidArgument(field, "must name at least one term")
    if len(values) > MAX_DECLARED_TERMS:
        raise InvalidArgument(field, f"has {len(values)} terms; the limit is {MAX_DECLARED_TERMS}")
    return tuple(
        require_text(f"{field}[{i}]", v, max_chars=MAX_DECLARED_TERM_CHARS)
        for i, v in enumerate(values)
    )


def declared_claims(claims: Sequence[gpb.DeclaredClaim]) -> tuple[DeclaredClaim, ...]:
    """Validated declared claims of a ReleaseResponse request."""
    if len(claims) > MAX_DECLARED_CLAIMS:
        raise InvalidArgument(
            "declared_claims", f"has {len(claims)} claims; the limit is {MAX_DECLARED_CLAIMS}"
        )
    out: list[DeclaredClaim] = []
    for i, claim in enumerate(claims):
        field = f"declared_claims[{i}]"
        kind = claim.WhichOneof("claim")
        if kind == "absence":
            scope = _DECLARED_SCOPES.get(claim.absence.scope)
            if scope is None:
                raise InvalidArgument(
                    f"{field}.absence.scope", "must be CORPUS_WIDE or QUERY_SCOPED"
                )
            terms = _declared_terms(f"{field}.absence.topic_terms", claim.absence.topic_terms)
            out.append(DeclaredAbsence(terms, scope))
        elif kind == "recollection":
            rec = claim.recollection
            terms = _declared_terms(f"{field}.recollection.topic_terms", rec.topic_terms)
            if len(rec.record_ids) > MAX_DECLARED_RECORDS:
                raise InvalidArgument(
                    f"{field}.recollection.record_ids",
                    f"has {len(rec.record_ids)} ids; the limit is {MAX_DECLARED_RECORDS}",
                )
            ids = tuple(
                require_text(f"{field}.recollection.record_ids[{j}]", r, max_chars=128)
                for j, r in enumerate(rec.record_ids)
            )
            out.append(DeclaredRecollection(terms, ids))
        else:
            raise InvalidArgument(field, "must set absence or recollection")
    return tuple(out)


def _request_id(value: str) -> str:
    parsed = require_request_id("request_id", value, required=False)
    return str(parsed) if parsed is not None else ""


def _budget(value: int) -> int:
    if value == 0:
        return DEFAULT_BUDGET_TOKENS
    if not MIN_BUDGET_TOKENS <= value <= MAX_BUDGET_TOKENS:
        raise InvalidArgument(
            "budget_tokens",
            f"must be {MIN_BUDGET_TOKENS}..{MAX_BUDGET_TOKENS} (0 = {DEFAULT_BUDGET_TOKENS})",
        )
    return value


def _transcript_budget(value: int) -> int:
    if value == 0:
        return DEFAULT_TRANSCRIPT_BUDGET_TOKENS
    if not 0 < value <= MAX_TRANSCRIPT_BUDGET_TOKENS:
        raise InvalidArgument(
            "transcript_budget_tokens",
            f"must be 0..{MAX_TRANSCRIPT_BUDGET_TOKENS} (0 = {DEFAULT_TRANSCRIPT_BUDGET_TOKENS})",
        )
    return value


class GatewayServicer(gpb_grpc.GatewayServiceServicer):
    def __init__(self, service: GatewayService) -> None:
        self.service = service

    def AssembleContext(
        self, request: gpb.AssembleContextRequest, context: grpc.ServicerContext
    ) -> gpb.AssembleContextResponse:
        command = AssembleCommand(
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            session_id=require_id("session_id", request.session_id),
            persona_id=optional_id("persona_id", request.persona_id),
            project_ids=_projects(list(request.project_ids)),
            input_text=require_text("input_text", request.input_text, max_chars=MAX_INPUT_CHARS),
            budget_tokens=_budget(request.budget_tokens),
            request_id=_request_id(request.request_id),
            transcript_budget_tokens=_transcript_budget(request.transcript_budget_tokens),
        )
        return self.service.assemble(command)

    def ReleaseResponse(
        self, request: gpb.ReleaseResponseRequest, context: grpc.ServicerContext
    ) -> gpb.ReleaseResponseResponse:
        if request.attempt < 1:
            raise InvalidArgument("attempt", "must be at least 1")
        command = ReleaseCommand(
            context_id=require_text("context_id", request.context_id, max_chars=128),
            candidate_text=require_text(
                "candidate_text", request.candidate_text, max_chars=MAX_CANDIDATE_CHARS
            ),
            attempt=request.attempt,
            request_id=_request_id(request.request_id),
            subject=optional_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            session_id=optional_id("session_id", request.session_id),
            declared=declared_claims(request.declared_claims),
        )
        return self.service.release(command)

    def SearchMemory(
        self, request: gpb.SearchMemoryRequest, context: grpc.ServicerContext
    ) -> gpb.SearchMemoryResponse:
        command = SearchCommand(
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            session_id=require_id("session_id", request.session_id),
            persona_id=optional_id("persona_id", request.persona_id),
            project_ids=_projects(list(request.project_ids)),
            query=require_text("query", request.query, max_chars=MAX_QUERY_CHARS, min_chars=0),
            page_size=page_size("page_size", request.page_size, default=20, maximum=100),
            page_token=request.page_token,
        )
        return self.service.search_memory(command)

    def GetMemoryContext(
        self, request: gpb.GetMemoryContextRequest, context: grpc.ServicerContext
    ) -> gpb.GetMemoryContextResponse:
        command = MemoryContextCommand(
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            session_id=require_id("session_id", request.session_id),
            persona_id=optional_id("persona_id", request.persona_id),
            project_ids=_projects(list(request.project_ids)),
            pending_input=require_text(
                "pending_input", request.pending_input, max_chars=MAX_INPUT_CHARS, min_chars=0
            ),
        )
        return self.service.memory_context(command)
