"""Rows and domain values <-> protobuf messages of engram.learning.v1."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from engram.common.v1 import common_pb2 as cpb
from engram.learning.v1 import learning_pb2 as pb
from engram.timeutil import to_timestamp
from learning_service.model import (
    Action,
    CandidateStatus,
    Decision,
    Kind,
    LearningStatus,
    Mode,
    Origin,
    ScopeKind,
    Sensitivity,
    SkillState,
    Stage,
    Tier,
    Verification,
)
from learning_service.plugins import ACTION_FROM_PB, ACTION_TO_PB, KIND_FROM_PB
from learning_service.policy import Policy, Rule
from learning_service.skills import SkillView

K = TypeVar("K")
V = TypeVar("V")


def _invert(mapping: Mapping[K, V]) -> dict[V, K]:
    return {v: k for k, v in mapping.items()}


KIND_TO_PB = _invert(KIND_FROM_PB)
SCOPE_KIND_FROM_PB: dict[cpb.ScopeKind.ValueType, ScopeKind] = {
    cpb.SCOPE_KIND_SESSION: ScopeKind.SESSION,
    cpb.SCOPE_KIND_PERSONA: ScopeKind.PERSONA,
    cpb.SCOPE_KIND_PROJECT: ScopeKind.PROJECT,
    cpb.SCOPE_KIND_WORKSPACE: ScopeKind.WORKSPACE,
}
SCOPE_KIND_TO_PB = _invert(SCOPE_KIND_FROM_PB)
ORIGIN_TO_PB: dict[Origin, pb.CandidateOrigin.ValueType] = {
    Origin.API: pb.CANDIDATE_ORIGIN_API,
    Origin.DAEMON: pb.CANDIDATE_ORIGIN_DAEMON,
}
SENSITIVITY_FROM_PB: dict[pb.Sensitivity.ValueType, Sensitivity] = {
    pb.SENSITIVITY_NORMAL: Sensitivity.NORMAL,
    pb.SENSITIVITY_SENSITIVE: Sensitivity.SENSITIVE,
}
SENSITIVITY_TO_PB = _invert(SENSITIVITY_FROM_PB)
CANDIDATE_STATUS_FROM_PB: dict[pb.CandidateStatus.ValueType, CandidateStatus] = {
    pb.CANDIDATE_STATUS_PENDING: CandidateStatus.PENDING,
    pb.CANDIDATE_STATUS_ESCALATED: CandidateStatus.ESCALATED,
    pb.CANDIDATE_STATUS_PUBLISHED: CandidateStatus.PUBLISHED,
    pb.CANDIDATE_STATUS_REJECTED: CandidateStatus.REJECTED,
}
CANDIDATE_STATUS_TO_PB = _invert(CANDIDATE_STATUS_FROM_PB)
TIER_FROM_PB: dict[pb.PublishTier.ValueType, Tier] = {
    pb.PUBLISH_TIER_PROVISIONAL: Tier.PROVISIONAL,
    pb.PUBLISH_TIER_ACTIVE: Tier.ACTIVE,
}
TIER_TO_PB = _invert(TIER_FROM_PB)
LEARNING_STATUS_TO_PB: dict[LearningStatus, pb.LearningStatus.ValueType] = {
    LearningStatus.ACTIVE: pb.LEARNING_STATUS_ACTIVE,
    LearningStatus.REVOKED: pb.LEARNING_STATUS_REVOKED,
    LearningStatus.SUPERSEDED: pb.LEARNING_STATUS_SUPERSEDED,
}
VERIFICATION_TO_PB: dict[Verification, pb.VerificationStatus.ValueType] = {
    Verification.UNVERIFIED: pb.VERIFICATION_STATUS_UNVERIFIED,
    Verification.VERIFIED: pb.VERIFICATION_STATUS_VERIFIED,
    Verification.FAILED: pb.VERIFICATION_STATUS_FAILED,
}
DECISION_TO_PB: dict[Decision, pb.PolicyDecision.ValueType] = {
    Decision.AUTOMATIC: pb.POLICY_DECISION_AUTOMATIC,
    Decision.MANUAL: pb.POLICY_DECISION_MANUAL,
    Decision.ESCALATED: pb.POLICY_DECISION_ESCALATED,
}
MODE_FROM_PB: dict[pb.AutomationMode.ValueType, Mode] = {
    pb.AUTOMATION_MODE_MANUAL_ONLY: Mode.MANUAL_ONLY,
    pb.AUTOMATION_MODE_SHADOW: Mode.SHADOW,
    pb.AUTOMATION_MODE_ENABLED: Mode.ENABLED,
}
MODE_TO_PB = _invert(MODE_FROM_PB)
SKILL_STATE_FROM_PB: dict[pb.SkillState.ValueType, SkillState] = {
    pb.SKILL_STATE_DRAFT: SkillState.DRAFT,
    pb.SKILL_STATE_VERIFIED: SkillState.VERIFIED,
    pb.SKILL_STATE_CANARY: SkillState.CANARY,
    pb.SKILL_STATE_ACTIVE: SkillState.ACTIVE,
    pb.SKILL_STATE_REVOKED: SkillState.REVOKED,
}
SKILL_STATE_TO_PB = _invert(SKILL_STATE_FROM_PB)
STAGE_FROM_PB: dict[pb.RolloutStage.ValueType, Stage] = {
    pb.ROLLOUT_STAGE_VERIFICATION: Stage.VERIFICATION,
    pb.ROLLOUT_STAGE_CANARY: Stage.CANARY,
}
EXECUTION_CONTEXT_FROM_PB: dict[pb.ExecutionContext.ValueType, str] = {
    pb.EXECUTION_CONTEXT_FORK: "fork",
    pb.EXECUTION_CONTEXT_INLINE: "inline",
}
EXECUTION_CONTEXT_TO_PB = _invert(EXECUTION_CONTEXT_FROM_PB)


def _word(mapping: Mapping[Any, Any], value: int) -> str:
    """The stored word for an enum number, "" for unspecified, the raw number
    (which validation then rejects) for an unknown one."""
    if value == 0:
        return ""
    found = mapping.get(value)
    return found.value if found is not None else str(value)


def scope(kind: str, scope_id: str) -> cpb.Scope:
    return cpb.Scope(kind=SCOPE_KIND_TO_PB[ScopeKind(kind)], id=scope_id)


def source(row: Mapping[str, Any]) -> pb.Source:
    return pb.Source(
        run_id=row["source_run_id"],
        session_id=row["source_session_id"],
        subject=row["source_subject"],
        workspace=row["source_workspace"],
        event_id=int(row["source_event_id"]),
    )


def _action(word: str | None) -> pb.PublicationAction.ValueType:
    return ACTION_TO_PB[Action(word)] if word else pb.PUBLICATION_ACTION_UNSPECIFIED


def review(row: Mapping[str, Any]) -> pb.AutomationReview | None:
    if row.get("review_id") is None:
        return None
    message = pb.AutomationReview(
        mode=MODE_TO_PB[Mode(row["review_mode"])],
        matched_rule=row["matched_rule"],
        baseline_action=_action(row["baseline_action"]),
        final_action=_action(row["final_action"]),
        verification=VERIFICATION_TO_PB[Verification(row["review_verification"])],
        reason=row["review_reason"],
        applied=bool(row["review_applied"]),
        reviewed_at=to_timestamp(row["reviewed_at"]),
        conflict_with=str(row["conflict_with"] or ""),
    )
    judge = row.get("judge")
    if judge:
        message.judge.CopyFrom(
            pb.JudgeVerdict(
                requested_action=_action(judge.get("requested_action")),
                clamped_action=_action(judge.get("clamped_action")),
                reason=str(judge.get("reason", "")),
                decided_at=to_timestamp(judge.get("decided_at")),
                error=str(judge.get("error", "")),
            )
        )
    return message


def candidate(row: Mapping[str, Any]) -> pb.Candidate:
    message = pb.Candidate(
        candidate_id=str(row["candidate_id"]),
        origin=ORIGIN_TO_PB[Origin(row["origin"])],
        scope=scope(row["scope_kind"], row["scope_id"]),
        kind=KIND_TO_PB[Kind(row["kind"])],
        content=row["content"],
        confidence=int(row["confidence"]),
        source=source(row),
        evidence_refs=list(row["evidence_refs"]),
        sensitivity=SENSITIVITY_TO_PB[Sensitivity(row["sensitivity"])],
        status=CANDIDATE_STATUS_TO_PB[CandidateStatus(row["status"])],
        created_at=to_timestamp(row["created_at"]),
        updated_at=to_timestamp(row["updated_at"]),
        learning_id=str(row["learning_id"] or ""),
        status_reason=row["status_reason"],
        withheld_by_quarantine=bool(row.get("withheld_by_quarantine")),
    )
    if row["expires_at"] is not None:
        message.expires_at.CopyFrom(to_timestamp(row["expires_at"]))
    found = review(row)
    if found is not None:
        message.review.CopyFrom(found)
    return message


def revision(row: Mapping[str, Any]) -> pb.LearningRevision:
    return pb.LearningRevision(
        revision=int(row["revision"]),
        status=LEARNING_STATUS_TO_PB[LearningStatus(row["status"])],
        publish_tier=TIER_TO_PB[Tier(row["publish_tier"])],
        actor=row["actor"],
        reason=row["reason"],
        recorded_at=to_timestamp(row["recorded_at"]),
        action=row["action"],
    )


def learning(row: Mapping[str, Any], history: Sequence[Mapping[str, Any]] = ()) -> pb.Learning:
    # The maps are keyed by StrEnum members, which hash and compare as their
    # words: the stored word finds its number without constructing the member
    # (an unknown word is a KeyError, a fault either way). Every learned
    # context converts up to 50 rows.
    message = pb.Learning(
        learning_id=str(row["learning_id"]),
        scope=cpb.Scope(kind=SCOPE_KIND_TO_PB[row["scope_kind"]], id=row["scope_id"]),
        kind=KIND_TO_PB[row["kind"]],
        content=row["content"],
        status=LEARNING_STATUS_TO_PB[row["status"]],
        publish_tier=TIER_TO_PB[row["publish_tier"]],
        verification_status=VERIFICATION_TO_PB[row["verification_status"]],
        policy_decision=DECISION_TO_PB[row["policy_decision"]],
        policy_actor=row["policy_actor"],
        source=source(row),
        evidence_refs=row["evidence_refs"],
        sensitivity=SENSITIVITY_TO_PB[row["sensitivity"]],
        candidate_id=str(row["candidate_id"]),
        supersedes=str(row["supersedes"] or ""),
        superseded_by=str(row["superseded_by"] or ""),
        history=[revision(h) for h in history],
        created_at=to_timestamp(row["created_at"]),
        confidence=int(row["confidence"]),
        origin=ORIGIN_TO_PB[row["origin"]],
        withheld_by_quarantine=bool(row.get("withheld_by_quarantine")),
    )
    if row["expires_at"] is not None:
        message.expires_at.CopyFrom(to_timestamp(row["expires_at"]))
    return message


def _state(word: str) -> pb.SkillState.ValueType:
    return SKILL_STATE_TO_PB[SkillState(word)] if word else pb.SKILL_STATE_UNSPECIFIED


def skill(view: SkillView) -> pb.Skill:
    row = view.skill
    return pb.Skill(
        skill_name=row["skill_name"],
        source_learning_id=str(row["source_learning_id"]),
        state=_state(row["state"]),
        definition_fingerprint=row["definition_fingerprint"],
        instructions=row["instructions"],
        execution_context=EXECUTION_CONTEXT_TO_PB[row["execution_context"]],
        verification_profile=row["verification_profile"],
        version=int(row["version"]),
        successful_runs=int(row["successful_runs"]),
        distinct_sessions=int(row["distinct_sessions"]),
        canary_successes=int(row["canary_successes"]),
        canary_failures=int(row["canary_failures"]),
        lifecycle_events=[
            pb.SkillLifecycleEvent(
                action=e["action"],
                from_state=_state(e["from_state"]),
                to_state=_state(e["to_state"]),
                run_id=e["run_id"],
                definition_fingerprint=e["definition_fingerprint"],
                success=bool(e["success"]),
                actor=e["actor"],
                note=e["note"],
                recorded_at=to_timestamp(e["recorded_at"]),
            )
            for e in view.events
        ],
        created_at=to_timestamp(row["created_at"]),
        updated_at=to_timestamp(row["updated_at"]),
        verified=bool(row["verified"]),
        withheld_by_quarantine=bool(row.get("withheld_by_quarantine")),
    )


# -------------------------------------------------------------------- policy


def policy_document(message: pb.LearningPolicy) -> dict[str, Any]:
    """A policy request as the plain document policy.parse validates.
    Unset sub-messages are left out so their defaults apply."""
    document: dict[str, Any] = {"mode": _word(MODE_FROM_PB, message.mode)}
    if message.HasField("capture"):
        document["capture"] = {
            "run_summary_enabled": message.capture.run_summary_enabled,
            "semantic_enabled": message.capture.semantic_enabled,
            "max_candidates_per_run": message.capture.max_candidates_per_run,
        }
    publication = message.publication
    document["publication"] = {
        "rules": [
            {
                "name": r.name,
                "action": _word(ACTION_FROM_PB, r.action),
                "scope_kind": _word(SCOPE_KIND_FROM_PB, r.scope_kind),
                "scope_id": r.scope_id,
                "kind": _word(KIND_FROM_PB, r.kind),
                "sensitivity": _word(SENSITIVITY_FROM_PB, r.sensitivity),
                "min_confidence": r.min_confidence,
                "require_evidence": r.require_evidence,
                "require_source_run": r.require_source_run,
                "require_source_session": r.require_source_session,
            }
            for r in publication.rules
        ],
        "default_action": _word(ACTION_FROM_PB, publication.default_action),
        "allow_api_origin_active_publication": publication.allow_api_origin_active_publication,
        "quarantined_rule_names": list(publication.quarantined_rule_names),
    }
    if message.HasField("judge"):
        document["judge"] = {
            "enabled": message.judge.enabled,
            "address": message.judge.address,
            "timeout_ms": message.judge.timeout_ms,
            "model": message.judge.model,
        }
    return document


def _rule(rule: Rule) -> pb.PublicationRule:
    return pb.PublicationRule(
        name=rule.name,
        scope_kind=SCOPE_KIND_TO_PB[rule.scope_kind]
        if rule.scope_kind
        else cpb.SCOPE_KIND_UNSPECIFIED,
        scope_id=rule.scope_id,
        kind=KIND_TO_PB[rule.kind] if rule.kind else pb.LEARNING_KIND_UNSPECIFIED,
        sensitivity=SENSITIVITY_TO_PB[rule.sensitivity]
        if rule.sensitivity
        else pb.SENSITIVITY_UNSPECIFIED,
        min_confidence=rule.min_confidence,
        require_evidence=rule.require_evidence,
        require_source_run=rule.require_source_run,
        require_source_session=rule.require_source_session,
        action=ACTION_TO_PB[rule.action],
    )


def policy(value: Policy) -> pb.LearningPolicy:
    message = pb.LearningPolicy(
        mode=MODE_TO_PB[value.mode],
        capture=pb.CaptureSettings(
            run_summary_enabled=value.capture.run_summary_enabled,
            semantic_enabled=value.capture.semantic_enabled,
            max_candidates_per_run=value.capture.max_candidates_per_run,
        ),
        publication=pb.PublicationSettings(
            rules=[_rule(r) for r in value.publication.rules],
            default_action=ACTION_TO_PB[value.publication.default_action],
            allow_api_origin_active_publication=value.publication.allow_api_origin_active_publication,
            quarantined_rule_names=list(value.publication.quarantined_rule_names),
        ),
        judge=pb.JudgeSettings(
            enabled=value.judge.enabled,
            address=value.judge.address,
            timeout_ms=value.judge.timeout_ms,
            model=value.judge.model,
        ),
        updated_by=value.updated_by,
    )
    if value.updated_at is not None:
        message.updated_at.CopyFrom(to_timestamp(value.updated_at))
    return message
