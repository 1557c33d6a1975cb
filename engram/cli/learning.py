"""`engram learnings|candidates|skills`: govern the learning plane."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import click

from engram.cli.client import (
    Client,
    client_options,
    console,
    emit_json,
    enum_choices,
    enum_name,
    enum_value,
    new_request_id,
    print_table,
    request_id_option,
    shorten,
    timestamp_text,
    to_dict,
)
from engram.cli.text import count
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import learning_pb2_grpc as pb_grpc


def learning_stub(client: Client) -> pb_grpc.LearningServiceStub:
    stub: pb_grpc.LearningServiceStub = client.stub(pb_grpc.LearningServiceStub)
    return stub


def scope_key(scope: Any) -> str:
    from engram.common.v1 import common_pb2

    return f"{enum_name(common_pb2.ScopeKind, scope.kind, 'SCOPE_KIND_')}:{scope.id}"


def paginate(
    client: Client,
    method: Callable[..., Any],
    request: Any,
    items: str,
    limit: int,
) -> Iterator[Any]:
    """Follow next_page_token until `limit` items (0 = all) have been yielded."""
    seen = 0
    while True:
        response = client.call(method, request)
        for item in getattr(response, items):
            yield item
            seen += 1
            if limit and seen >= limit:
                return
        if not response.next_page_token:
            return
        request.page_token = response.next_page_token


def _kind(value: str | None) -> Any:
    return enum_value(pb.LearningKind, "LEARNING_KIND_", value) if value else 0


KIND_CHOICE = click.Choice(enum_choices(pb.LearningKind, "LEARNING_KIND_"))


def _limit_option(fn: Any) -> Any:
    return click.option(
        "--limit", type=int, default=50, show_default=True, help="at most this many (0 = all)"
    )(fn)


# ------------------------------------------------------------------ learnings


@click.group("learnings")
def learnings_group() -> None:
    """Published learnings: list, show, revoke."""


def _learning_rows(learnings: list[pb.Learning]) -> list[tuple[Any, ...]]:
    return [
        (
            item.learning_id,
            enum_name(pb.LearningKind, item.kind, "LEARNING_KIND_"),
            scope_key(item.scope),
            enum_name(pb.LearningStatus, item.status, "LEARNING_STATUS_"),
            enum_name(pb.PublishTier, item.publish_tier, "PUBLISH_TIER_"),
            shorten(item.content, 100),
        )
        for item in learnings
    ]


@learnings_group.command("list")
@click.option(
    "--status",
    type=click.Choice(enum_choices(pb.LearningStatusFilter, "LEARNING_STATUS_FILTER_")),
    default="active",
    show_default=True,
)
@click.option("--kind", type=KIND_CHOICE, default=None)
@click.option("--scope", "scope", default="", help='only this scope key, e.g. "project:p1"')
@_limit_option
@client_options
def learnings_list(client: Client, status: str, kind: str | None, scope: str, limit: int) -> None:
    """List learnings by status."""
    request = pb.ListLearningsRequest(
        status=enum_value(pb.LearningStatusFilter, "LEARNING_STATUS_FILTER_", status),
        kind=_kind(kind),
        scope_key=scope,
        page_size=min(limit or 100, 100),
    )
    items = list(paginate(client, learning_stub(client).ListLearnings, request, "learnings", limit))
    if client.as_json:
        emit_json({"learnings": [to_dict(i) for i in items]})
        return
    print_table(
        _learnings_title(len(items), status),
        ("id", "kind", "scope", "status", "tier", "content"),
        _learning_rows(items),
    )


def _learnings_title(n: int, status: str) -> str:
    """ "2 active learnings", "1 learning (every status)"."""
    if status == "all":
        return f"{count(n, 'learning')} (every status)"
    return count(n, f"{status} learning")


def print_learning(learning: pb.Learning) -> None:
    print_table(
        f"learning {learning.learning_id}",
        ("field", "value"),
        [
            ("kind", enum_name(pb.LearningKind, learning.kind, "LEARNING_KIND_")),
            ("scope", scope_key(learning.scope)),
            ("content", learning.content),
            ("status", enum_name(pb.LearningStatus, learning.status, "LEARNING_STATUS_")),
            ("tier", enum_name(pb.PublishTier, learning.publish_tier, "PUBLISH_TIER_")),
            (
                "verification",
                enum_name(
                    pb.VerificationStatus, learning.verification_status, "VERIFICATION_STATUS_"
                ),
            ),
            (
                "decision",
                f"{enum_name(pb.PolicyDecision, learning.policy_decision, 'POLICY_DECISION_')}"
                f" by {learning.policy_actor}",
            ),
            ("origin", enum_name(pb.CandidateOrigin, learning.origin, "CANDIDATE_ORIGIN_")),
            ("confidence", learning.confidence),
            ("candidate", learning.candidate_id),
            ("supersedes", learning.supersedes),
            ("superseded by", learning.superseded_by),
            ("source run", learning.source.run_id),
            ("created", timestamp_text(learning.created_at)),
            ("expires", timestamp_text(learning.expires_at)),
        ],
    )
    if learning.history:
        print_table(
            "history",
            ("rev", "action", "status", "tier", "actor", "reason", "at"),
            [
                (
                    h.revision,
                    h.action,
                    enum_name(pb.LearningStatus, h.status, "LEARNING_STATUS_"),
                    enum_name(pb.PublishTier, h.publish_tier, "PUBLISH_TIER_"),
                    h.actor,
                    h.reason,
                    timestamp_text(h.recorded_at),
                )
                for h in learning.history
            ],
        )


@learnings_group.command("show")
@click.argument("learning_id")
@client_options
def learnings_show(client: Client, learning_id: str) -> None:
    """One learning with its revision history."""
    response = client.call(
        learning_stub(client).GetLearning, pb.GetLearningRequest(learning_id=learning_id)
    )
    if client.as_json:
        emit_json(response)
        return
    print_learning(response.learning)


@learnings_group.command("revoke")
@click.argument("learning_id")
@click.option("--reason", required=True, help="kept in the learning's history")
@request_id_option
@client_options
def learnings_revoke(client: Client, learning_id: str, reason: str, request_id: str | None) -> None:
    """Revoke a learning (and any skill promoted from it)."""
    response = client.call(
        learning_stub(client).RevokeLearning,
        pb.RevokeLearningRequest(
            learning_id=learning_id, reason=reason, request_id=new_request_id(request_id)
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    console().print(f"revoked {response.learning.learning_id}")
    for skill in response.revoked_skills:
        console().print(f"revoked skill {skill}")


# ----------------------------------------------------------------- candidates


@click.group("candidates")
def candidates_group() -> None:
    """Learning candidates: list, show, publish, reject."""


@candidates_group.command("list")
@click.option(
    "--status",
    "statuses",
    type=click.Choice(enum_choices(pb.CandidateStatus, "CANDIDATE_STATUS_")),
    multiple=True,
    help="repeatable [default: pending and escalated]",
)
@click.option("--kind", type=KIND_CHOICE, default=None)
@_limit_option
@client_options
def candidates_list(
    client: Client, statuses: tuple[str, ...], kind: str | None, limit: int
) -> None:
    """List candidates, newest first."""
    request = pb.ListCandidatesRequest(
        statuses=[enum_value(pb.CandidateStatus, "CANDIDATE_STATUS_", s) for s in statuses],
        kind=_kind(kind),
        page_size=min(limit or 100, 100),
    )
    items = list(
        paginate(client, learning_stub(client).ListCandidates, request, "candidates", limit)
    )
    if client.as_json:
        emit_json({"candidates": [to_dict(i) for i in items]})
        return
    rows = [
        (
            c.candidate_id,
            enum_name(pb.CandidateStatus, c.status, "CANDIDATE_STATUS_"),
            enum_name(pb.LearningKind, c.kind, "LEARNING_KIND_"),
            scope_key(c.scope),
            enum_name(pb.CandidateOrigin, c.origin, "CANDIDATE_ORIGIN_"),
            c.confidence,
            enum_name(pb.PublicationAction, c.review.final_action, "PUBLICATION_ACTION_")
            if c.HasField("review")
            else "",
            shorten(c.content, 80),
        )
        for c in items
    ]
    print_table(
        count(len(items), "candidate"),
        ("id", "status", "kind", "scope", "origin", "conf", "review", "content"),
        rows,
    )


@candidates_group.command("show")
@click.argument("candidate_id")
@client_options
def candidates_show(client: Client, candidate_id: str) -> None:
    """One candidate with its automation review."""
    response = client.call(
        learning_stub(client).GetCandidate, pb.GetCandidateRequest(candidate_id=candidate_id)
    )
    if client.as_json:
        emit_json(response)
        return
    c = response.candidate
    review = c.review
    print_table(
        f"candidate {c.candidate_id}",
        ("field", "value"),
        [
            ("status", enum_name(pb.CandidateStatus, c.status, "CANDIDATE_STATUS_")),
            ("kind", enum_name(pb.LearningKind, c.kind, "LEARNING_KIND_")),
            ("scope", scope_key(c.scope)),
            ("content", c.content),
            ("origin", enum_name(pb.CandidateOrigin, c.origin, "CANDIDATE_ORIGIN_")),
            ("confidence", c.confidence),
            ("evidence", ", ".join(c.evidence_refs)),
            ("source run", c.source.run_id),
            ("status reason", c.status_reason),
            ("learning", c.learning_id),
            ("review: rule", review.matched_rule or "(default)"),
            (
                "review: action",
                enum_name(pb.PublicationAction, review.final_action, "PUBLICATION_ACTION_"),
            ),
            ("review: reason", review.reason),
            ("created", timestamp_text(c.created_at)),
        ],
    )


@candidates_group.command("publish")
@click.argument("candidate_id")
@click.option(
    "--tier",
    type=click.Choice(enum_choices(pb.PublishTier, "PUBLISH_TIER_")),
    default="active",
    show_default=True,
)
@click.option("--supersedes", default="", help="id of the learning this one replaces")
@click.option("--reason", default="", help="kept in the learning's history")
@request_id_option
@client_options
def candidates_publish(
    client: Client,
    candidate_id: str,
    tier: str,
    supersedes: str,
    reason: str,
    request_id: str | None,
) -> None:
    """Publish a pending or escalated candidate as a learning."""
    response = client.call(
        learning_stub(client).PublishCandidate,
        pb.PublishCandidateRequest(
            candidate_id=candidate_id,
            publish_tier=enum_value(pb.PublishTier, "PUBLISH_TIER_", tier),
            supersedes=supersedes,
            reason=reason,
            request_id=new_request_id(request_id),
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    learning = response.learning
    tier_name = enum_name(pb.PublishTier, learning.publish_tier, "PUBLISH_TIER_")
    console().print(f"published {candidate_id} as {learning.learning_id} ({tier_name})")


@candidates_group.command("reject")
@click.argument("candidate_id")
@click.option("--reason", required=True)
@request_id_option
@client_options
def candidates_reject(
    client: Client, candidate_id: str, reason: str, request_id: str | None
) -> None:
    """Reject a pending or escalated candidate."""
    response = client.call(
        learning_stub(client).RejectCandidate,
        pb.RejectCandidateRequest(
            candidate_id=candidate_id, reason=reason, request_id=new_request_id(request_id)
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    console().print(f"rejected {response.candidate.candidate_id}")


# --------------------------------------------------------------------- skills


@click.group("skills")
def skills_group() -> None:
    """Promoted skills: list, show, promote, rollout, revoke, rollback."""


def _skill_summary(skill: pb.Skill) -> str:
    state = enum_name(pb.SkillState, skill.state, "SKILL_STATE_")
    return f"skill {skill.skill_name} v{skill.version}: {state}"


def print_skill(skill: pb.Skill) -> None:
    print_table(
        f"skill {skill.skill_name}",
        ("field", "value"),
        [
            ("state", enum_name(pb.SkillState, skill.state, "SKILL_STATE_")),
            ("version", skill.version),
            ("source learning", skill.source_learning_id),
            ("fingerprint", skill.definition_fingerprint),
            (
                "execution",
                enum_name(pb.ExecutionContext, skill.execution_context, "EXECUTION_CONTEXT_"),
            ),
            ("verification profile", skill.verification_profile),
            ("verified", skill.verified),
            ("successful runs", skill.successful_runs),
            ("distinct sessions", skill.distinct_sessions),
            ("canary", f"{skill.canary_successes} ok / {skill.canary_failures} failed"),
            ("instructions", skill.instructions),
            ("updated", timestamp_text(skill.updated_at)),
        ],
    )
    if skill.lifecycle_events:
        print_table(
            "lifecycle",
            ("action", "from", "to", "run", "ok", "actor", "note", "at"),
            [
                (
                    e.action,
                    enum_name(pb.SkillState, e.from_state, "SKILL_STATE_"),
                    enum_name(pb.SkillState, e.to_state, "SKILL_STATE_"),
                    e.run_id,
                    e.success,
                    e.actor,
                    e.note,
                    timestamp_text(e.recorded_at),
                )
                for e in skill.lifecycle_events
            ],
        )


def _emit_skill(client: Client, response: Any) -> None:
    if client.as_json:
        emit_json(response)
    else:
        console().print(_skill_summary(response.skill))


@skills_group.command("list")
@click.option(
    "--state",
    "states",
    type=click.Choice(enum_choices(pb.SkillState, "SKILL_STATE_")),
    multiple=True,
    help="repeatable [default: every state]",
)
@_limit_option
@client_options
def skills_list(client: Client, states: tuple[str, ...], limit: int) -> None:
    """The governance view of promoted skills."""
    request = pb.ListSkillsRequest(
        states=[enum_value(pb.SkillState, "SKILL_STATE_", s) for s in states],
        page_size=min(limit or 100, 100),
    )
    items = list(paginate(client, learning_stub(client).ListSkills, request, "skills", limit))
    if client.as_json:
        emit_json({"skills": [to_dict(i) for i in items]})
        return
    rows = [
        (
            s.skill_name,
            enum_name(pb.SkillState, s.state, "SKILL_STATE_"),
            s.version,
            s.source_learning_id,
            f"{s.canary_successes}/{s.canary_failures}",
            timestamp_text(s.updated_at),
        )
        for s in items
    ]
    print_table(
        count(len(items), "skill"),
        ("name", "state", "version", "source learning", "canary ok/failed", "updated"),
        rows,
    )


@skills_group.command("show")
@click.argument("skill_name")
@client_options
def skills_show(client: Client, skill_name: str) -> None:
    """One skill with its lifecycle events."""
    response = client.call(
        learning_stub(client).GetSkill, pb.GetSkillRequest(skill_name=skill_name)
    )
    if client.as_json:
        emit_json(response)
        return
    print_skill(response.skill)


@skills_group.command("promote")
@click.argument("learning_id")
@click.argument("skill_name")
@click.option(
    "--execution-context",
    type=click.Choice(enum_choices(pb.ExecutionContext, "EXECUTION_CONTEXT_")),
    default="fork",
    show_default=True,
)
@click.option("--verification-profile", default="verification", show_default=True)
@request_id_option
@client_options
def skills_promote(
    client: Client,
    learning_id: str,
    skill_name: str,
    execution_context: str,
    verification_profile: str,
    request_id: str | None,
) -> None:
    """Promote an active workspace procedure LEARNING_ID to draft skill SKILL_NAME."""
    response = client.call(
        learning_stub(client).PromoteToSkill,
        pb.PromoteToSkillRequest(
            learning_id=learning_id,
            skill_name=skill_name,
            execution_context=enum_value(
                pb.ExecutionContext, "EXECUTION_CONTEXT_", execution_context
            ),
            verification_profile=verification_profile,
            request_id=new_request_id(request_id),
        ),
    )
    _emit_skill(client, response)


@skills_group.command("rollout")
@click.argument("skill_name")
@click.option(
    "--stage",
    type=click.Choice(enum_choices(pb.RolloutStage, "ROLLOUT_STAGE_")),
    required=True,
)
@click.option("--run-id", required=True, help="a completed run recorded in the journal")
@click.option("--subject", required=True, help="the subject the run belongs to")
@click.option("--workspace", default="", help='the run\'s workspace [default: "default"]')
@click.option("--marker", "expected_marker", required=True, help="must occur in the run output")
@click.option("--fingerprint", default="", help="expected definition fingerprint")
@request_id_option
@client_options
def skills_rollout(
    client: Client,
    skill_name: str,
    stage: str,
    run_id: str,
    subject: str,
    workspace: str,
    expected_marker: str,
    fingerprint: str,
    request_id: str | None,
) -> None:
    """Record a verification or canary result for SKILL_NAME (the run is looked
    up under --subject and --workspace)."""
    response = client.call(
        learning_stub(client).RecordRolloutResult,
        pb.RecordRolloutResultRequest(
            skill_name=skill_name,
            stage=enum_value(pb.RolloutStage, "ROLLOUT_STAGE_", stage),
            run_id=run_id,
            subject=subject,
            workspace=workspace,
            expected_marker=expected_marker,
            definition_fingerprint=fingerprint,
            request_id=new_request_id(request_id),
        ),
    )
    if client.as_json:
        emit_json(response)
        return
    outcome = "success" if response.success else "failure (marker not in the run output)"
    console().print(f"{_skill_summary(response.skill)}; {stage} {outcome}")


@skills_group.command("revoke")
@click.argument("skill_name")
@click.option("--reason", required=True)
@request_id_option
@client_options
def skills_revoke(client: Client, skill_name: str, reason: str, request_id: str | None) -> None:
    """Revoke a skill."""
    response = client.call(
        learning_stub(client).RevokeSkill,
        pb.RevokeSkillRequest(
            skill_name=skill_name, reason=reason, request_id=new_request_id(request_id)
        ),
    )
    _emit_skill(client, response)


@skills_group.command("rollback")
@click.argument("skill_name")
@click.option("--reason", required=True)
@request_id_option
@client_options
def skills_rollback(client: Client, skill_name: str, reason: str, request_id: str | None) -> None:
    """Restore the latest active snapshot of a revoked skill."""
    response = client.call(
        learning_stub(client).RollbackSkill,
        pb.RollbackSkillRequest(
            skill_name=skill_name, reason=reason, request_id=new_request_id(request_id)
        ),
    )
    _emit_skill(client, response)
