"""Procedures promoted to skills, through real gRPC on a real PostgreSQL with
rollout evidence read from the journal's run records: promotion gates, every
legal ladder move and the illegal ones (IllegalTransition with the current and
allowed states), immutability, revoke, rollback and the cascade from the
source learning."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as pb
from tests.integration.test_learning_support import (
    WORKSPACE,
    Stubs,
    candidate,
    complete_run,
    error_info,
    fails,
    learn,
    publish,
    shared_suite,
    stubs,
    transition,
    unique_session,
)

pytestmark = pytest.mark.integration

MARKER = "ROLLOUT-OK-7f3"
VERIFICATION, CANARY = pb.ROLLOUT_STAGE_VERIFICATION, pb.ROLLOUT_STAGE_CANARY


@pytest.fixture(scope="module")
def s(pg_server_url: str, template_database: str) -> Iterator[Stubs]:
    with shared_suite(
        pg_server_url, template_database, ["journal", "learning"], workers_enabled=False
    ) as (_, channel):
        yield stubs(channel)


def name() -> str:
    return f"skill-{uuid.uuid4().hex[:10]}"


def procedure(s: Stubs, text: str = "To release: tag, build, push", **kwargs: Any) -> pb.Learning:
    kwargs.setdefault("scope", WORKSPACE)
    return learn(
        s.learning, f"{text} ({uuid.uuid4().hex[:6]})", kind=pb.LEARNING_KIND_PROCEDURE, **kwargs
    )


def promote(s: Stubs, learning_id: str, skill: str, **overrides: Any) -> pb.Skill:
    values: dict[str, Any] = {
        "learning_id": learning_id,
        "skill_name": skill,
        "execution_context": pb.EXECUTION_CONTEXT_FORK,
        "verification_profile": "verification",
    }
    values.update(overrides)
    result: pb.Skill = s.learning.PromoteToSkill(pb.PromoteToSkillRequest(**values)).skill
    return result


def run(
    s: Stubs,
    output: str = f"done: {MARKER}",
    *,
    status: jpb.RunStatus.ValueType = jpb.RUN_STATUS_COMPLETED,
    session: str = "",
) -> str:
    run_id = f"run-{uuid.uuid4().hex[:10]}"
    complete_run(
        s.journal,
        run_id,
        "run the release skill",
        output,
        session_id=session or unique_session().id,
        status=status,
    )
    return run_id


def record(
    s: Stubs,
    skill: str,
    stage: pb.RolloutStage.ValueType,
    run_id: str,
    marker: str = MARKER,
    fingerprint: str = "",
    subject: str = "u1",
) -> pb.RecordRolloutResultResponse:
    response: pb.RecordRolloutResultResponse = s.learning.RecordRolloutResult(
        pb.RecordRolloutResultRequest(
            skill_name=skill,
            stage=stage,
            run_id=run_id,
            subject=subject,
            expected_marker=marker,
            definition_fingerprint=fingerprint,
        )
    )
    return response


def state(s: Stubs, skill: str) -> pb.Skill:
    found: pb.Skill = s.learning.GetSkill(pb.GetSkillRequest(skill_name=skill)).skill
    return found


def active_names(s: Stubs) -> set[str]:
    return {
        k.skill_name
        for k in s.learning.ListActiveSkills(pb.ListActiveSkillsRequest(page_size=500)).skills
    }


def illegal(call: Any, current: str, requested: str, allowed: list[str]) -> None:
    err = fails(call)
    assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
    detail = transition(err)
    assert (detail.current_state, detail.requested_state, list(detail.allowed_states)) == (
        current,
        requested,
        allowed,
    )


def activate(s: Stubs, skill: str) -> pb.Skill:
    record(s, skill, VERIFICATION, run(s))
    record(s, skill, CANARY, run(s))
    return record(s, skill, CANARY, run(s)).skill


@pytest.mark.parametrize(
    ("setup", "code", "reason"),
    [
        ("fact", grpc.StatusCode.FAILED_PRECONDITION, "NOT_A_PROCEDURE"),
        ("provisional", grpc.StatusCode.FAILED_PRECONDITION, "NOT_ACTIVE_TIER"),
        ("session", grpc.StatusCode.FAILED_PRECONDITION, "NOT_WORKSPACE_SCOPE"),
        ("revoked", grpc.StatusCode.FAILED_PRECONDITION, "LEARNING_NOT_ACTIVE"),
        ("inline", grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT"),
        ("no context", grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT"),
        ("profile", grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT"),
        ("bad name", grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT"),
        ("missing", grpc.StatusCode.NOT_FOUND, "NOT_FOUND"),
    ],
)
def test_promotion_gates(s: Stubs, setup: str, code: grpc.StatusCode, reason: str) -> None:
    overrides: dict[str, Any] = {}
    skill = name()
    if setup == "fact":
        learning_id = learn(s.learning, "a workspace fact", scope=WORKSPACE).learning_id
    elif setup == "provisional":
        learning_id = procedure(s, tier=pb.PUBLISH_TIER_PROVISIONAL).learning_id
    elif setup == "session":
        learning_id = procedure(s, scope=unique_session()).learning_id
    elif setup == "revoked":
        learning_id = procedure(s).learning_id
        s.learning.RevokeLearning(
            pb.RevokeLearningRequest(learning_id=learning_id, reason="obsolete")
        )
    else:
        learning_id = procedure(s).learning_id if setup != "missing" else str(uuid.uuid4())
        choices: dict[str, dict[str, Any]] = {
            "inline": {"execution_context": pb.EXECUTION_CONTEXT_INLINE},
            "no context": {"execution_context": pb.EXECUTION_CONTEXT_UNSPECIFIED},
            "profile": {"verification_profile": "general"},
            "bad name": {"skill_name": "Bad Name"},
        }
        overrides = choices.get(setup, {})
    err = fails(lambda: promote(s, learning_id, skill, **overrides))
    assert (err.code(), error_info(err).reason) == (code, reason)
    if code == grpc.StatusCode.FAILED_PRECONDITION:
        assert transition(err).entity == "learning"
    assert fails(lambda: state(s, skill)).code() == grpc.StatusCode.NOT_FOUND


def test_promotion_makes_an_immutable_draft(s: Stubs) -> None:
    source = procedure(s)
    skill = name()
    draft = promote(s, source.learning_id, skill)
    canonical = json.dumps(
        {
            "execution_context": "fork",
            "instructions": source.content,
            "name": skill,
            "verification_profile": "verification",
        },
        sort_keys=True,
        separators=(",", ":"),
    )
    assert draft.definition_fingerprint == hashlib.sha256(canonical.encode()).hexdigest()
    assert (draft.state, draft.version, draft.instructions, draft.source_learning_id) == (
        pb.SKILL_STATE_DRAFT,
        1,
        source.content,
        source.learning_id,
    )
    assert draft.execution_context == pb.EXECUTION_CONTEXT_FORK
    assert [e.action for e in draft.lifecycle_events] == ["promoted"]
    assert skill not in active_names(s)
    listed = s.learning.ListSkills(
        pb.ListSkillsRequest(states=[pb.SKILL_STATE_DRAFT], page_size=500)
    ).skills
    assert skill in {k.skill_name for k in listed}
    taken = fails(lambda: promote(s, procedure(s).learning_id, skill))
    assert taken.code() == grpc.StatusCode.ALREADY_EXISTS


def test_the_rollout_ladder(s: Stubs) -> None:
    skill = name()
    draft = promote(s, procedure(s).learning_id, skill)
    # draft: only verification evidence (or a revoke) is legal.
    illegal(lambda: record(s, skill, CANARY, run(s)), "draft", "canary", ["verified", "revoked"])
    illegal(
        lambda: s.learning.RollbackSkill(pb.RollbackSkillRequest(skill_name=skill)),
        "draft",
        "active",
        ["verified", "revoked"],
    )
    assert (
        fails(lambda: record(s, skill, VERIFICATION, "run-never-recorded")).code()
        == grpc.StatusCode.NOT_FOUND
    )
    # Another subject's run is not found either, and the run needs its subject.
    theirs = run(s)
    err = fails(lambda: record(s, skill, VERIFICATION, theirs, subject="someone-else"))
    assert (err.code(), error_info(err).reason) == (grpc.StatusCode.NOT_FOUND, "RUN_NOT_FOUND")
    err = fails(lambda: record(s, skill, VERIFICATION, theirs, subject=""))
    assert (err.code(), error_info(err).metadata["field"]) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "subject",
    )
    err = fails(lambda: record(s, skill, VERIFICATION, run(s), fingerprint="0" * 64))
    assert (err.code(), error_info(err).reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "FINGERPRINT_MISMATCH",
    )
    for run_id in (run(s, "done, no marker"), run(s, status=jpb.RUN_STATUS_FAILED)):
        err = fails(lambda r=run_id: record(s, skill, VERIFICATION, r))  # type: ignore[misc]
        assert (err.code(), error_info(err).reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "MARKER_NOT_FOUND",
        )
    after_rejections = state(s, skill)
    assert after_rejections.state == pb.SKILL_STATE_DRAFT
    assert [e.action for e in after_rejections.lifecycle_events][-2:] == [
        "rollout_rejected",
        "rollout_rejected",
    ]

    # draft -> verified, pinned to the current fingerprint
    verified = record(s, skill, VERIFICATION, run(s), fingerprint=draft.definition_fingerprint)
    assert verified.success and verified.skill.state == pb.SKILL_STATE_VERIFIED
    assert verified.skill.verified
    illegal(
        lambda: record(s, skill, VERIFICATION, run(s)),
        "verified",
        "verified",
        ["canary", "revoked"],
    )

    # verified -> canary: the first canary evidence; canary stays out of the catalog
    canary = record(s, skill, CANARY, run(s))
    assert canary.success and canary.skill.state == pb.SKILL_STATE_CANARY
    assert skill not in active_names(s)

    # canary -> active: >= 1 canary success and 0 failures for this fingerprint
    active = record(s, skill, CANARY, run(s)).skill
    assert active.state == pb.SKILL_STATE_ACTIVE
    assert (
        active.canary_successes,
        active.canary_failures,
        active.successful_runs,
        active.distinct_sessions,
    ) == (2, 0, 3, 3)
    assert [e.action for e in active.lifecycle_events][-4:] == [
        "verification_passed",
        "canary_recorded",
        "canary_recorded",
        "activated",
    ]
    assert skill in active_names(s)

    # active skills are immutable: no more rollout evidence
    illegal(lambda: record(s, skill, CANARY, run(s)), "active", "canary", ["revoked"])
    illegal(lambda: record(s, skill, VERIFICATION, run(s)), "active", "verified", ["revoked"])
    illegal(
        lambda: s.learning.RollbackSkill(pb.RollbackSkillRequest(skill_name=skill)),
        "active",
        "active",
        ["revoked"],
    )

    # active -> revoked (secret-looking reasons refused)
    err = fails(
        lambda: s.learning.RevokeSkill(
            pb.RevokeSkillRequest(
                skill_name=skill, reason="token=ghp_0123456789abcdefghijABCDEFGHIJ"
            )
        )
    )
    assert error_info(err).reason == "SECRET_CONTENT"
    revoked = s.learning.RevokeSkill(
        pb.RevokeSkillRequest(skill_name=skill, reason="misbehaves")
    ).skill
    assert revoked.state == pb.SKILL_STATE_REVOKED and skill not in active_names(s)
    illegal(
        lambda: s.learning.RevokeSkill(pb.RevokeSkillRequest(skill_name=skill)),
        "revoked",
        "revoked",
        ["active", "draft"],
    )
    illegal(lambda: record(s, skill, CANARY, run(s)), "revoked", "canary", ["active", "draft"])

    # revoked -> active only through rollback to the latest active snapshot
    rolled = s.learning.RollbackSkill(
        pb.RollbackSkillRequest(skill_name=skill, reason="fixed upstream")
    ).skill
    assert (rolled.state, rolled.version) == (pb.SKILL_STATE_ACTIVE, 1)
    assert rolled.lifecycle_events[-1].action == "rolled_back"
    assert skill in active_names(s)


def test_a_canary_failure_blocks_activation(s: Stubs) -> None:
    skill = name()
    promote(s, procedure(s).learning_id, skill)
    record(s, skill, VERIFICATION, run(s))
    failed = record(s, skill, CANARY, run(s, "crashed"))
    assert not failed.success and failed.skill.state == pb.SKILL_STATE_CANARY
    still = record(s, skill, CANARY, run(s)).skill
    assert (still.state, still.canary_successes, still.canary_failures) == (
        pb.SKILL_STATE_CANARY,
        1,
        1,
    )
    assert skill not in active_names(s)
    revoked = s.learning.RevokeSkill(pb.RevokeSkillRequest(skill_name=skill)).skill
    assert revoked.state == pb.SKILL_STATE_REVOKED
    err = fails(lambda: s.learning.RollbackSkill(pb.RollbackSkillRequest(skill_name=skill)))
    assert error_info(err).reason == "NO_ACTIVE_SNAPSHOT"


def test_revoking_the_source_learning_revokes_the_skill(s: Stubs) -> None:
    source = procedure(s)
    skill = name()
    promote(s, source.learning_id, skill)
    assert activate(s, skill).state == pb.SKILL_STATE_ACTIVE
    response = s.learning.RevokeLearning(
        pb.RevokeLearningRequest(learning_id=source.learning_id, reason="procedure is wrong")
    )
    assert list(response.revoked_skills) == [skill]
    revoked = state(s, skill)
    assert revoked.state == pb.SKILL_STATE_REVOKED
    assert "source learning revoked" in revoked.lifecycle_events[-1].note
    err = fails(lambda: s.learning.RollbackSkill(pb.RollbackSkillRequest(skill_name=skill)))
    assert (err.code(), error_info(err).reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "SOURCE_LEARNING_INACTIVE",
    )


def test_superseding_the_source_revokes_the_skill_and_repromotion_drafts(s: Stubs) -> None:
    source = procedure(s, "Deploy: run make deploy")
    skill = name()
    promote(s, source.learning_id, skill)
    replacement = candidate(
        s.learning, "Deploy: run make release", scope=WORKSPACE, kind=pb.LEARNING_KIND_PROCEDURE
    )
    new = publish(s.learning, replacement.candidate_id, supersedes=source.learning_id)
    assert state(s, skill).state == pb.SKILL_STATE_REVOKED
    again = promote(s, new.learning_id, skill)
    assert (again.state, again.version, again.source_learning_id) == (
        pb.SKILL_STATE_DRAFT,
        2,
        new.learning_id,
    )
    assert again.definition_fingerprint != ""
    assert [e.action for e in again.lifecycle_events][-2:] == ["revoked", "promoted"]
