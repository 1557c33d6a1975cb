"""Review, Learnings and Skills: the learning plane's governance tasks."""

from __future__ import annotations

from typing import Any, TypeAlias
from urllib.parse import quote, urlencode

from starlette.responses import Response

from engram.cli.client import RpcFailure
from engram.common.v1 import common_pb2 as cpb
from engram.console.suite import SuiteError, new_request_id
from engram.console.web import Operator, local_path, page
from engram.learning.v1 import learning_pb2 as lpb

CandidateStatus: TypeAlias = lpb.CandidateStatus.ValueType
OPEN: list[CandidateStatus] = [lpb.CANDIDATE_STATUS_PENDING, lpb.CANDIDATE_STATUS_ESCALATED]
CANDIDATE_FILTERS: dict[str, list[CandidateStatus]] = {
    "open": OPEN,
    "pending": [lpb.CANDIDATE_STATUS_PENDING],
    "escalated": [lpb.CANDIDATE_STATUS_ESCALATED],
    "published": [lpb.CANDIDATE_STATUS_PUBLISHED],
    "rejected": [lpb.CANDIDATE_STATUS_REJECTED],
}
LEARNING_FILTERS: dict[str, lpb.LearningStatusFilter.ValueType] = {
    "active": lpb.LEARNING_STATUS_FILTER_ACTIVE,
    "provisional": lpb.LEARNING_STATUS_FILTER_PROVISIONAL,
    "revoked": lpb.LEARNING_STATUS_FILTER_REVOKED,
    "superseded": lpb.LEARNING_STATUS_FILTER_SUPERSEDED,
    "all": lpb.LEARNING_STATUS_FILTER_ALL,
}
KINDS = ["fact", "preference", "decision", "run_summary", "procedure"]
TIERS: dict[str, lpb.PublishTier.ValueType] = {
    "active": lpb.PUBLISH_TIER_ACTIVE,
    "provisional": lpb.PUBLISH_TIER_PROVISIONAL,
}
LADDER = ["draft", "verified", "canary", "active"]
STAGES: dict[str, lpb.RolloutStage.ValueType] = {
    "verification": lpb.ROLLOUT_STAGE_VERIFICATION,
    "canary": lpb.ROLLOUT_STAGE_CANARY,
}
SKILL_STATES = ["draft", "verified", "canary", "active", "revoked"]
# Candidates the Review search looks through (newest first).
REVIEW_SEARCH_WINDOW = 500


def kind_value(name: str) -> lpb.LearningKind.ValueType:
    if name not in KINDS:
        return lpb.LEARNING_KIND_UNSPECIFIED
    return lpb.LearningKind.Value(f"LEARNING_KIND_{name.upper()}")


def promotable(learning: lpb.Learning) -> bool:
    """The narrow promotion path: an active, active-tier, workspace procedure."""
    return (
        learning.kind == lpb.LEARNING_KIND_PROCEDURE
        and learning.status == lpb.LEARNING_STATUS_ACTIVE
        and learning.publish_tier == lpb.PUBLISH_TIER_ACTIVE
        and learning.scope.kind == cpb.SCOPE_KIND_WORKSPACE
    )


def _back(operator: Operator, fallback: str) -> str:
    return local_path(operator.field("back", fallback), fallback)


# ------------------------------------------------------------------- Review


@page
async def review(operator: Operator) -> Response:
    status = operator.field("status", "open")
    kind = operator.field("kind")
    query = operator.field("q")
    request = lpb.ListCandidatesRequest(
        statuses=CANDIDATE_FILTERS.get(status, OPEN),
        kind=kind_value(kind),
        page_size=REVIEW_SEARCH_WINDOW if query else 50,
        page_token=operator.field("page_token"),
    )
    response = await operator.call(operator.console.suite.learning.ListCandidates, request)
    candidates = list(response.candidates)
    if query:
        needle = query.casefold()
        candidates = [c for c in candidates if needle in c.content.casefold()]
    return await operator.render(
        "review.html",
        candidates=candidates,
        next_page_token="" if query else response.next_page_token,
        filters={"status": status, "kind": kind, "q": query},
        statuses=list(CANDIDATE_FILTERS),
        kinds=KINDS,
        searched_window=REVIEW_SEARCH_WINDOW if query else 0,
        back=operator.request.url.path + "?" + operator.request.url.query,
    )


async def _conflicting(operator: Operator, failure: RpcFailure) -> Any:
    if failure.conflict is None or not failure.conflict.existing_id:
        return None
    found, _ = await operator.attempt(
        operator.console.suite.learning.GetLearning,
        lpb.GetLearningRequest(learning_id=failure.conflict.existing_id),
    )
    return found.learning if found is not None else None


@page
async def publish_candidate(operator: Operator) -> Response:
    candidate_id = operator.request.path_params["candidate_id"]
    tier = operator.field("tier", "active")
    request = lpb.PublishCandidateRequest(
        candidate_id=candidate_id,
        publish_tier=TIERS.get(tier, lpb.PUBLISH_TIER_UNSPECIFIED),
        supersedes=operator.field("supersedes"),
        reason=operator.field("reason"),
        request_id=new_request_id(),
    )
    try:
        response = await operator.call(operator.console.suite.learning.PublishCandidate, request)
    except SuiteError as exc:
        operator.flash_failure(
            f"Publishing candidate {candidate_id} was refused",
            exc.failure,
            conflicting=await _conflicting(operator, exc.failure),
            candidate_id=candidate_id,
            tier=tier,
            back=_back(operator, "/review"),
        )
    else:
        learning = response.learning
        operator.flash_ok(f"Published {learning.learning_id} ({tier}).")
    return operator.redirect(_back(operator, "/review"))


@page
async def reject_candidate(operator: Operator) -> Response:
    candidate_id = operator.request.path_params["candidate_id"]
    return await operator.act(
        operator.console.suite.learning.RejectCandidate,
        lpb.RejectCandidateRequest(
            candidate_id=candidate_id, reason=operator.field("reason"), request_id=new_request_id()
        ),
        refused=f"Rejecting candidate {candidate_id} was refused",
        done=lambda _: f"Rejected candidate {candidate_id}.",
        then=_back(operator, "/review"),
    )


# ---------------------------------------------------------------- Learnings


@page
async def learnings(operator: Operator) -> Response:
    status = operator.field("status", "active")
    kind = operator.field("kind")
    scope_key = operator.field("scope")
    request = lpb.ListLearningsRequest(
        status=LEARNING_FILTERS.get(status, lpb.LEARNING_STATUS_FILTER_ALL),
        kind=kind_value(kind),
        scope_key=scope_key,
        page_size=50,
        page_token=operator.field("page_token"),
    )
    response = await operator.call(operator.console.suite.learning.ListLearnings, request)
    return await operator.render(
        "learnings.html",
        learnings=list(response.learnings),
        next_page_token=response.next_page_token,
        filters={"status": status, "kind": kind, "scope": scope_key},
        statuses=list(LEARNING_FILTERS),
        kinds=KINDS,
        promotable=promotable,
    )


@page
async def learning_detail(operator: Operator) -> Response:
    learning_id = operator.request.path_params["learning_id"]
    response = await operator.call(
        operator.console.suite.learning.GetLearning, lpb.GetLearningRequest(learning_id=learning_id)
    )
    return await operator.render(
        "learning.html", learning=response.learning, promotable=promotable(response.learning)
    )


def _learning_url(learning_id: str) -> str:
    return f"/learnings/{quote(learning_id, safe='')}"


def _revoked_text(learning_id: str, response: lpb.RevokeLearningResponse) -> str:
    skills = ", ".join(response.revoked_skills)
    return f"Revoked {learning_id}." + (f" Skills revoked with it: {skills}." if skills else "")


def _confirmed(operator: Operator) -> bool:
    """The second step of a two-step confirm was taken."""
    if operator.field("confirm") == "yes":
        return True
    operator.session.flash(level="error", text="Revoking needs the second, confirming step.")
    return False


@page
async def revoke_learning(operator: Operator) -> Response:
    learning_id = operator.request.path_params["learning_id"]
    if not _confirmed(operator):
        return operator.redirect(_learning_url(learning_id))
    return await operator.act(
        operator.console.suite.learning.RevokeLearning,
        lpb.RevokeLearningRequest(
            learning_id=learning_id, reason=operator.field("reason"), request_id=new_request_id()
        ),
        refused=f"Revoking {learning_id} was refused",
        done=lambda response: _revoked_text(learning_id, response),
        then=_learning_url(learning_id),
    )


@page
async def supersede_learning(operator: Operator) -> Response:
    """A corrected value: a new candidate in the same scope and kind, published
    manually at the active tier naming the old record in supersedes."""
    learning_id = operator.request.path_params["learning_id"]
    suite = operator.console.suite
    try:
        old = (
            await operator.call(
                suite.learning.GetLearning, lpb.GetLearningRequest(learning_id=learning_id)
            )
        ).learning
        created = await operator.call(
            suite.learning.CreateCandidate,
            lpb.CreateCandidateRequest(
                scope=old.scope,
                kind=old.kind,
                content=operator.field("content"),
                confidence=100,
                source=lpb.Source(subject=old.source.subject, workspace=old.source.workspace),
                sensitivity=old.sensitivity,
                request_id=new_request_id(),
            ),
        )
        published = await operator.call(
            suite.learning.PublishCandidate,
            lpb.PublishCandidateRequest(
                candidate_id=created.candidate.candidate_id,
                publish_tier=lpb.PUBLISH_TIER_ACTIVE,
                supersedes=learning_id,
                reason=operator.field("reason"),
                request_id=new_request_id(),
            ),
        )
    except SuiteError as exc:
        operator.flash_failure(f"Superseding {learning_id} was refused", exc.failure)
        return operator.redirect(_learning_url(learning_id))
    new_id = published.learning.learning_id
    operator.flash_ok(f"{new_id} supersedes {learning_id}.")
    return operator.redirect(_learning_url(new_id))


@page
async def promote_learning(operator: Operator) -> Response:
    learning_id = operator.request.path_params["learning_id"]
    request = lpb.PromoteToSkillRequest(
        learning_id=learning_id,
        skill_name=operator.field("skill_name"),
        execution_context=lpb.EXECUTION_CONTEXT_FORK,
        verification_profile="verification",
        request_id=new_request_id(),
    )
    try:
        response = await operator.call(operator.console.suite.learning.PromoteToSkill, request)
    except SuiteError as exc:
        operator.flash_failure(f"Promoting {learning_id} was refused", exc.failure)
        return operator.redirect(_learning_url(learning_id))
    operator.flash_ok(f"Promoted {learning_id} to draft skill {response.skill.skill_name}.")
    return operator.redirect("/skills")


# ------------------------------------------------------------------- Skills


@page
async def skills(operator: Operator) -> Response:
    state = operator.field("state")
    states = [lpb.SkillState.Value(f"SKILL_STATE_{state.upper()}")] if state in SKILL_STATES else []
    response = await operator.call(
        operator.console.suite.learning.ListSkills,
        lpb.ListSkillsRequest(
            states=states,
            page_size=50,
            page_token=operator.field("page_token"),
        ),
    )
    return await operator.render(
        "skills.html",
        skills=list(response.skills),
        next_page_token=response.next_page_token,
        state=state,
        states=SKILL_STATES,
        ladder=LADDER,
    )


def _skills_url(operator: Operator) -> str:
    state = operator.field("state")
    return "/skills" + (f"?{urlencode({'state': state})}" if state else "")


def _rollout_text(name: str, stage: str, response: lpb.RecordRolloutResultResponse) -> str:
    outcome = "marker found" if response.success else "marker NOT found (canary failure)"
    state = lpb.SkillState.Name(response.skill.state).removeprefix("SKILL_STATE_").lower()
    return f"Recorded {stage} run for {name}: {outcome}; skill is now {state}."


@page
async def record_rollout(operator: Operator) -> Response:
    name = operator.request.path_params["skill_name"]
    stage = operator.field("stage", "verification")
    request = lpb.RecordRolloutResultRequest(
        skill_name=name,
        stage=STAGES.get(stage, lpb.ROLLOUT_STAGE_UNSPECIFIED),
        run_id=operator.field("run_id"),
        expected_marker=operator.field("expected_marker"),
        definition_fingerprint=operator.field("fingerprint") if operator.checked("pin") else "",
        subject=operator.field("subject"),
        workspace=operator.field("workspace"),
        request_id=new_request_id(),
    )
    return await operator.act(
        operator.console.suite.learning.RecordRolloutResult,
        request,
        refused=f"The {stage} result for {name} was refused",
        done=lambda response: _rollout_text(name, stage, response),
        then=_skills_url(operator),
    )


@page
async def revoke_skill(operator: Operator) -> Response:
    name = operator.request.path_params["skill_name"]
    if not _confirmed(operator):
        return operator.redirect(_skills_url(operator))
    return await operator.act(
        operator.console.suite.learning.RevokeSkill,
        lpb.RevokeSkillRequest(
            skill_name=name, reason=operator.field("reason"), request_id=new_request_id()
        ),
        refused=f"Revoking skill {name} was refused",
        done=lambda _: f"Revoked skill {name}.",
        then=_skills_url(operator),
    )


@page
async def rollback_skill(operator: Operator) -> Response:
    name = operator.request.path_params["skill_name"]
    return await operator.act(
        operator.console.suite.learning.RollbackSkill,
        lpb.RollbackSkillRequest(
            skill_name=name, reason=operator.field("reason"), request_id=new_request_id()
        ),
        refused=f"Rolling back skill {name} was refused",
        done=lambda _: f"Rolled back skill {name} to its last active snapshot.",
        then=_skills_url(operator),
    )
