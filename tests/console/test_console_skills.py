"""A procedure promoted from Learnings and driven up the skill ladder from
the Skills page, with the server's refusals shown as their typed reasons."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from tests.console.conftest import Deployment, Page, unique
from tests.integration.test_learning_support import candidate, complete_run

pytestmark = pytest.mark.browser

MARKER = "RELEASE-OK-51c"
WORKSPACE = cpb.Scope(kind=cpb.SCOPE_KIND_WORKSPACE, id="default")


def a_run(deployment: Deployment, output: str, status: int = jpb.RUN_STATUS_COMPLETED) -> str:
    run_id = unique("run")
    complete_run(
        deployment.operator.journal,
        run_id,
        "run the release skill",
        output,
        session_id=unique("s"),
        subject="rel",
        status=status,  # type: ignore[arg-type]
    )
    return run_id


def record(page: Page, skill: str, stage: str, run_id: str) -> None:
    card = f'[data-skill="{skill}"]'
    page.css(f"{card} details.rollout summary").click()
    page.css(f"{card} select[name=stage] option[value={stage}]").click()
    page.fill(f"{card} input[name=run_id]", run_id)
    page.fill(f"{card} input[name=subject]", "rel")
    page.fill(f"{card} input[name=expected_marker]", MARKER)
    page.submit(f"{card} .rollout-submit")


def state_of(page: Page, skill: str) -> str:
    value: str = page.css(f'[data-skill="{skill}"]').get_attribute("data-state")
    return value


def test_a_procedure_up_the_ladder_and_back(page: Page, deployment: Deployment) -> None:
    stub = deployment.operator.learning
    made = candidate(
        stub,
        f"To release: tag, build, push ({unique('p')})",
        kind=lpb.LEARNING_KIND_PROCEDURE,
        scope=WORKSPACE,
    )
    learning_id = stub.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=made.candidate_id, publish_tier=lpb.PUBLISH_TIER_ACTIVE
        )
    ).learning.learning_id
    skill = unique("release")

    page.open(f"/learnings/{quote(learning_id)}")
    page.css("details.promote summary").click()
    page.fill("details.promote input[name=skill_name]", skill)
    page.submit("button.promote-submit")
    assert f"draft skill {skill}" in page.text(".flash.ok")
    assert state_of(page, skill) == "draft"
    assert page.text(f'[data-skill="{skill}"] ol.stepper li.current') == "draft"

    # Refusals keep their typed reasons: a run never recorded, then a run
    # whose output lacks the marker.
    record(page, skill, "verification", "run-never-recorded")
    assert page.css(".flash.error .failure").get_attribute("data-reason") == "RUN_NOT_FOUND"
    record(page, skill, "verification", a_run(deployment, "done, no marker"))
    failure = page.css(".flash.error .failure")
    assert failure.get_attribute("data-code") == "FAILED_PRECONDITION"
    assert failure.get_attribute("data-reason") == "MARKER_NOT_FOUND"
    page.screenshot("skills-refusal")
    # Canary evidence on a draft is an illegal move, shown with the allowed states.
    record(page, skill, "canary", a_run(deployment, f"done: {MARKER}"))
    assert "is draft; cannot move to canary (allowed: verified, revoked)" in page.text(
        ".flash.error .transition"
    )
    assert state_of(page, skill) == "draft"

    record(page, skill, "verification", a_run(deployment, f"done: {MARKER}"))
    assert state_of(page, skill) == "verified"
    record(page, skill, "canary", a_run(deployment, f"done: {MARKER}"))
    assert state_of(page, skill) == "canary"
    record(page, skill, "canary", a_run(deployment, f"done: {MARKER}"))
    assert state_of(page, skill) == "active"
    events = page.text(f'[data-skill="{skill}"] ul.events')
    assert "activated" in events and "verification_passed" in events
    page.screenshot("skills")

    card = f'[data-skill="{skill}"]'
    page.css(f"{card} details.confirm summary").click()
    page.fill(f"{card} details.confirm input[name=reason]", "misbehaves")
    page.submit(f"{card} .confirm-button")
    assert state_of(page, skill) == "revoked"
    assert page.text(f"{card} .stepper") == "revoked"
    page.fill(f"{card} .rollback-form input[name=reason]", "fixed upstream")
    page.submit(f"{card} .rollback-submit")
    assert state_of(page, skill) == "active"
    found = stub.GetSkill(lpb.GetSkillRequest(skill_name=skill)).skill
    assert found.state == lpb.SKILL_STATE_ACTIVE
    assert found.lifecycle_events[-1].action == "rolled_back"
    assert found.lifecycle_events[-1].actor == "ops"


def test_promotion_is_offered_only_where_the_rules_allow(
    page: Page, deployment: Deployment
) -> None:
    made = candidate(deployment.operator.learning, "Fact: the build uses make", scope=WORKSPACE)
    learning_id = deployment.operator.learning.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=made.candidate_id, publish_tier=lpb.PUBLISH_TIER_ACTIVE
        )
    ).learning.learning_id
    page.open(f"/learnings/{quote(learning_id)}")
    assert page.all("details.promote") == []
    assert "only an active, active-tier, workspace-scoped procedure" in page.text("#not-promotable")
