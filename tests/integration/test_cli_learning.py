"""The learning-plane CLI (candidates, learnings, skills) against a real
suite, including the skill rollout ladder and illegal moves (exit 4)."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from click.testing import CliRunner, Result

from engram.cli.client import EXIT_INVALID, EXIT_NOT_FOUND, EXIT_OK, EXIT_PRECONDITION
from engram.cli.main import cli
from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.server import Suite


def engram(suite: Suite, *args: str) -> Result:
    return CliRunner().invoke(cli, [*args, "--address", suite.address], catch_exceptions=False)


def engram_json(suite: Suite, *args: str) -> Any:
    result = engram(suite, *args, "--json")
    assert result.exit_code == EXIT_OK, result.output
    return json.loads(result.stdout)


@pytest.fixture
def suite(start_services: Any) -> Suite:
    started: Suite = start_services(["journal", "learning", "retrieval", "gateway"])
    return started


def create_candidate(
    stub: lpb_grpc.LearningServiceStub, kind: int, content: str, scope: cpb.Scope
) -> str:
    response = stub.CreateCandidate(
        lpb.CreateCandidateRequest(
            scope=scope,
            kind=kind,  # type: ignore[arg-type]
            content=content,
            confidence=90,
            source=lpb.Source(subject="alice"),
            request_id=str(uuid.uuid4()),
        )
    )
    return str(response.candidate.candidate_id)


WORKSPACE = cpb.Scope(kind=cpb.SCOPE_KIND_WORKSPACE, id="default")


def test_candidates_and_learnings(suite: Suite, channel_to: Any) -> None:
    stub = lpb_grpc.LearningServiceStub(channel_to(suite))
    session = cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id="s-learn")
    keep = create_candidate(stub, lpb.LEARNING_KIND_PREFERENCE, "Prefers green tea.", session)
    drop = create_candidate(stub, lpb.LEARNING_KIND_FACT, "Lives on the moon.", session)

    listed = engram_json(suite, "candidates", "list")
    assert {keep, drop} <= {c["candidate_id"] for c in listed["candidates"]}
    table = engram(suite, "candidates", "list")
    assert table.exit_code == EXIT_OK
    assert "pending" in table.output
    assert engram(suite, "candidates", "show", keep).exit_code == EXIT_OK

    published = engram_json(
        suite, "candidates", "publish", keep, "--tier", "active", "--reason", "confirmed"
    )
    learning_id = published["learning"]["learning_id"]
    assert published["learning"]["publish_tier"] == "PUBLISH_TIER_ACTIVE"
    rejected = engram(suite, "candidates", "reject", drop, "--reason", "not plausible")
    assert rejected.exit_code == EXIT_OK, rejected.output
    # Rejecting a published candidate is an illegal move: exit 4 with the states.
    illegal = engram(suite, "candidates", "reject", keep, "--reason", "changed my mind")
    assert illegal.exit_code == EXIT_PRECONDITION
    assert "FAILED_PRECONDITION" in illegal.output

    active = engram_json(suite, "learnings", "list")
    assert [item["learning_id"] for item in active["learnings"]] == [learning_id]
    shown = engram(suite, "learnings", "show", learning_id)
    assert shown.exit_code == EXIT_OK
    assert "green tea" in shown.output
    assert "history" in shown.output

    revoked = engram(suite, "learnings", "revoke", learning_id, "--reason", "outdated")
    assert revoked.exit_code == EXIT_OK, revoked.output
    assert engram_json(suite, "learnings", "list")["learnings"] == []
    every = engram_json(suite, "learnings", "list", "--status", "all")
    assert every["learnings"][0]["status"] == "LEARNING_STATUS_REVOKED"
    twice = engram(suite, "learnings", "revoke", learning_id, "--reason", "again")
    assert twice.exit_code == EXIT_PRECONDITION
    assert engram(suite, "learnings", "show", str(uuid.uuid4())).exit_code == EXIT_NOT_FOUND
    assert engram(suite, "learnings", "show", "not-a-uuid").exit_code == EXIT_INVALID


def complete_run(journal: jpb_grpc.JournalServiceStub, run_id: str, session: str) -> None:
    journal.CompleteRun(
        jpb.CompleteRunRequest(
            run_id=run_id,
            session_id=session,
            subject="alice",
            status=jpb.RUN_STATUS_COMPLETED,
            request_text="Run the release checklist",
            outcome_text="Checklist done. MARKER-OK",
            request_id=str(uuid.uuid4()),
        )
    )


def test_skill_rollout_ladder(suite: Suite, channel_to: Any) -> None:
    channel = channel_to(suite)
    stub = lpb_grpc.LearningServiceStub(channel)
    journal = jpb_grpc.JournalServiceStub(channel)
    candidate = create_candidate(
        stub, lpb.LEARNING_KIND_PROCEDURE, "To release: tag, build, publish.", WORKSPACE
    )
    learning_id = engram_json(suite, "candidates", "publish", candidate)["learning"]["learning_id"]

    promoted = engram(suite, "skills", "promote", learning_id, "release-checklist")
    assert promoted.exit_code == EXIT_OK, promoted.output
    assert "draft" in promoted.output
    for index, session in enumerate(("s-a", "s-b", "s-c")):
        complete_run(journal, f"run-{index}", session)

    steps = [("verification", "run-0"), ("canary", "run-1"), ("canary", "run-2")]
    for stage, run_id in steps:
        step = engram(
            suite, "skills", "rollout", "release-checklist", "--stage", stage,
            "--run-id", run_id, "--subject", "alice", "--marker", "MARKER-OK",
        )  # fmt: skip
        assert step.exit_code == EXIT_OK, step.output
    skill = engram_json(suite, "skills", "show", "release-checklist")["skill"]
    assert skill["state"] == "SKILL_STATE_ACTIVE"
    listed = engram_json(suite, "skills", "list", "--state", "active")
    assert [s["skill_name"] for s in listed["skills"]] == ["release-checklist"]

    # A verification result for an active skill is an illegal move.
    illegal = engram(
        suite, "skills", "rollout", "release-checklist", "--stage", "verification",
        "--run-id", "run-0", "--subject", "alice", "--marker", "MARKER-OK",
    )  # fmt: skip
    assert illegal.exit_code == EXIT_PRECONDITION
    assert "skill release-checklist is" in illegal.output

    assert engram(suite, "skills", "revoke", "release-checklist", "--reason", "x").exit_code == 0
    again = engram(suite, "skills", "revoke", "release-checklist", "--reason", "x")
    assert again.exit_code == EXIT_PRECONDITION
    rolled = engram(suite, "skills", "rollback", "release-checklist", "--reason", "restore")
    assert rolled.exit_code == EXIT_OK, rolled.output
    assert "active" in rolled.output
    table = engram(suite, "skills", "show", "release-checklist")
    assert "lifecycle" in table.output
    assert engram(suite, "skills", "show", "no-such-skill").exit_code == EXIT_NOT_FOUND
