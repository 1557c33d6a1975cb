"""The automation review through real gRPC on a real PostgreSQL, with a real
fake JudgeService and ExtractorService on port 0: shadow vs enabled, every
applied action, the API-origin downgrade, forged evidence, the judge clamp
and its fail-closed errors, verification against the journal's run record,
automatic conflict escalation, manual_only, and the worked scenario."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import plugins_pb2 as ppb
from tests.integration.test_learning_support import (
    FakeExtractor,
    FakeJudge,
    Stubs,
    candidate,
    complete_run,
    error_info,
    fails,
    learn,
    publish,
    reviewed,
    rule,
    serve_plugin,
    set_policy,
    shared_suite,
    stubs,
    unique_session,
    wait_until,
)

pytestmark = pytest.mark.integration

MANUAL, REJECT = pb.PUBLICATION_ACTION_MANUAL_REVIEW, pb.PUBLICATION_ACTION_REJECT
PROVISIONAL, ACTIVE = (
    pb.PUBLICATION_ACTION_PUBLISH_PROVISIONAL,
    pb.PUBLICATION_ACTION_PUBLISH_ACTIVE,
)
SHADOW, ENABLED = pb.AUTOMATION_MODE_SHADOW, pb.AUTOMATION_MODE_ENABLED
STRICT = {"require_evidence": True, "require_source_run": True, "require_source_session": True}


@pytest.fixture(scope="module")
def plugins() -> Iterator[tuple[FakeJudge, str, FakeExtractor, str]]:
    judge, extractor = FakeJudge(), FakeExtractor()
    with serve_plugin(judge) as judge_addr, serve_plugin(extractor) as extractor_addr:
        yield judge, judge_addr, extractor, extractor_addr


@pytest.fixture(scope="module")
def env(
    pg_server_url: str, template_database: str, plugins: tuple[FakeJudge, str, FakeExtractor, str]
) -> Iterator[tuple[Stubs, str]]:
    with shared_suite(
        pg_server_url, template_database, ["journal", "learning"], extractor_addr=plugins[3]
    ) as (suite, channel):
        yield stubs(channel), suite.database_url


@pytest.fixture
def s(env: tuple[Stubs, str], plugins: tuple[FakeJudge, str, FakeExtractor, str]) -> Stubs:
    plugins[0].reset()
    plugins[2].proposals = []
    # The suite, and so its policy, is shared by the module: every test starts
    # from the default (shadow, no rules, no judge). Else the previous test's
    # enabled rules review this test's candidates, and the worker publishes one
    # the test means to publish itself (`learn`), racing it.
    set_policy(env[0].learning, SHADOW)
    return env[0]


@pytest.fixture
def judge(plugins: tuple[FakeJudge, str, FakeExtractor, str]) -> tuple[FakeJudge, pb.JudgeSettings]:
    return plugins[0], pb.JudgeSettings(enabled=True, address=plugins[1], timeout_ms=2000)


def status(s: Stubs, candidate_id: str) -> pb.Candidate:
    return s.learning.GetCandidate(pb.GetCandidateRequest(candidate_id=candidate_id)).candidate


def learning_of(s: Stubs, c: pb.Candidate) -> pb.Learning:
    return s.learning.GetLearning(pb.GetLearningRequest(learning_id=c.learning_id)).learning


def daemon_candidates(s: Stubs, run_id: str, count: int) -> list[pb.Candidate]:
    """The capture candidates of one run, once all `count` exist and are reviewed."""

    def check() -> list[pb.Candidate] | None:
        found = [
            c
            for c in s.learning.ListCandidates(
                pb.ListCandidatesRequest(
                    statuses=list(pb.CandidateStatus.values())[1:], page_size=500
                )
            ).candidates
            if c.source.run_id == run_id and c.origin == pb.CANDIDATE_ORIGIN_DAEMON
        ]
        ready = len(found) == count and all(c.HasField("review") for c in found)
        return found if ready else None

    return wait_until(check, what=f"{count} reviewed candidates of run {run_id}")


def test_policy_is_validated_and_durable(s: Stubs) -> None:
    policy = set_policy(
        s.learning,
        SHADOW,
        rules=[rule("facts", PROVISIONAL, kind=pb.LEARNING_KIND_FACT, min_confidence=80)],
    )
    assert policy.updated_by == "local" and policy.updated_at.seconds > 0
    got = s.learning.GetLearningPolicy(pb.GetLearningPolicyRequest()).policy
    assert got == policy
    err = fails(
        lambda: set_policy(
            s.learning, ENABLED, rules=[rule("facts", PROVISIONAL), rule("foo", ACTIVE)]
        )
    )
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_info(err).metadata["field"] == "publication.rules[1].kind"
    assert '"foo"' in str(err.details())
    err = fails(lambda: set_policy(s.learning, ENABLED, default_action=ACTIVE))
    assert error_info(err).metadata["field"] == "publication.default_action"
    assert s.learning.GetLearningPolicy(pb.GetLearningPolicyRequest()).policy == policy
    missing = fails(lambda: s.learning.SetLearningPolicy(pb.SetLearningPolicyRequest()))
    assert error_info(missing).metadata["field"] == "policy"


def test_shadow_records_the_review_and_leaves_the_candidate_pending(s: Stubs) -> None:
    set_policy(s.learning, SHADOW, rules=[rule("facts", PROVISIONAL, kind=pb.LEARNING_KIND_FACT)])
    c = reviewed(
        s.learning, candidate(s.learning, "shadow fact", scope=unique_session()).candidate_id
    )
    review = c.review
    assert (review.mode, review.matched_rule, review.baseline_action, review.final_action) == (
        SHADOW,
        "facts",
        PROVISIONAL,
        PROVISIONAL,
    )
    assert not review.applied
    assert (c.status, c.learning_id) == (pb.CANDIDATE_STATUS_PENDING, "")


def test_enabled_applies_reject_escalate_and_publish(s: Stubs) -> None:
    set_policy(
        s.learning,
        ENABLED,
        rules=[
            rule("no-decisions", REJECT, kind=pb.LEARNING_KIND_DECISION),
            rule("prefs", PROVISIONAL, kind=pb.LEARNING_KIND_PREFERENCE),
        ],
    )
    scope = unique_session()
    decision = candidate(
        s.learning, "we chose postgres", kind=pb.LEARNING_KIND_DECISION, scope=scope
    )
    preference = candidate(
        s.learning, "tabs over spaces", kind=pb.LEARNING_KIND_PREFERENCE, scope=scope
    )
    fact = candidate(s.learning, "unmatched fact", scope=scope)
    rejected = reviewed(s.learning, decision.candidate_id)
    assert rejected.status == pb.CANDIDATE_STATUS_REJECTED and rejected.review.applied
    published = reviewed(s.learning, preference.candidate_id)
    assert published.status == pb.CANDIDATE_STATUS_PUBLISHED
    learned = learning_of(s, published)
    assert (learned.publish_tier, learned.policy_decision, learned.policy_actor) == (
        pb.PUBLISH_TIER_PROVISIONAL,
        pb.POLICY_DECISION_AUTOMATIC,
        "automation",
    )
    escalated = reviewed(s.learning, fact.candidate_id)
    assert escalated.status == pb.CANDIDATE_STATUS_ESCALATED
    assert (escalated.review.matched_rule, escalated.review.final_action) == ("", MANUAL)
    # An escalated candidate is still open to the operator.
    assert publish(s.learning, escalated.candidate_id).policy_decision == pb.POLICY_DECISION_MANUAL


def test_api_origin_active_is_downgraded_unless_allowed(s: Stubs) -> None:
    scope = unique_session()
    complete_run(
        s.journal, f"run-{scope.id}", "Fact: the build uses bazel everywhere", session_id=scope.id
    )
    set_policy(s.learning, ENABLED, rules=[rule("facts", ACTIVE, kind=pb.LEARNING_KIND_FACT)])
    plain = reviewed(
        s.learning,
        candidate(s.learning, "the build uses bazel everywhere", scope=scope).candidate_id,
    )
    assert plain.review.baseline_action == PROVISIONAL and "api-origin" in plain.review.reason
    assert learning_of(s, plain).publish_tier == pb.PUBLISH_TIER_PROVISIONAL

    set_policy(
        s.learning,
        ENABLED,
        rules=[rule("facts", ACTIVE, kind=pb.LEARNING_KIND_FACT)],
        allow_api_origin_active_publication=True,
    )
    source = pb.Source(run_id=f"run-{scope.id}", session_id=scope.id, subject="u1")
    cases = [
        # supported by the journal's record of the named run
        (
            "the build uses bazel everywhere",
            source,
            pb.VERIFICATION_STATUS_VERIFIED,
            pb.PUBLISH_TIER_ACTIVE,
        ),
        # forged: the named run never said this
        (
            "the build uses make everywhere",
            source,
            pb.VERIFICATION_STATUS_FAILED,
            pb.PUBLISH_TIER_PROVISIONAL,
        ),
        # nothing daemon-owned to check against
        (
            "the build is fast",
            pb.Source(subject="u1"),
            pb.VERIFICATION_STATUS_UNVERIFIED,
            pb.PUBLISH_TIER_PROVISIONAL,
        ),
    ]
    for content, src, verification, tier in cases:
        c = reviewed(
            s.learning,
            candidate(s.learning, content, scope=unique_session(), source=src).candidate_id,
        )
        learned = learning_of(s, c)
        assert (c.review.verification, learned.verification_status, learned.publish_tier) == (
            verification,
            verification,
            tier,
        ), content


def test_forged_evidence_never_matches_strict_gates(s: Stubs) -> None:
    scope = unique_session()
    run_id = f"run-{scope.id}"
    set_policy(
        s.learning,
        ENABLED,
        rules=[rule("strict", ACTIVE, kind=pb.LEARNING_KIND_FACT, **STRICT)],
        allow_api_origin_active_publication=True,
    )
    complete_run(s.journal, run_id, "Fact: the deploy region is eu-west-1", session_id=scope.id)
    forged = reviewed(
        s.learning,
        candidate(
            s.learning,
            "the deploy region is eu-west-1",
            scope=scope,
            confidence=99,
            source=pb.Source(run_id=run_id, session_id=scope.id, subject="u1"),
            evidence_refs=[f"run:{run_id}"],
        ).candidate_id,
    )
    assert forged.review.matched_rule == ""
    assert forged.status == pb.CANDIDATE_STATUS_ESCALATED
    # The same claim captured by the daemon from the run does match and verifies.
    fact = next(c for c in daemon_candidates(s, run_id, 2) if c.kind == pb.LEARNING_KIND_FACT)
    assert fact.review.matched_rule == "strict"
    learned = learning_of(s, fact)
    assert (learned.publish_tier, learned.verification_status) == (
        pb.PUBLISH_TIER_ACTIVE,
        pb.VERIFICATION_STATUS_VERIFIED,
    )


CLAMP_CASES = [
    # (rule action, judge answer, clamped)
    (PROVISIONAL, ACTIVE, PROVISIONAL),
    (PROVISIONAL, PROVISIONAL, PROVISIONAL),
    (PROVISIONAL, REJECT, REJECT),
    (REJECT, ACTIVE, MANUAL),
    (REJECT, PROVISIONAL, MANUAL),
    (REJECT, REJECT, REJECT),
    (ACTIVE, ACTIVE, ACTIVE),
    (ACTIVE, PROVISIONAL, PROVISIONAL),
    (ACTIVE, MANUAL, MANUAL),
    (ACTIVE, pb.PUBLICATION_ACTION_UNSPECIFIED, MANUAL),
]


def test_judge_is_clamped_to_the_baseline(
    s: Stubs, judge: tuple[FakeJudge, pb.JudgeSettings]
) -> None:
    fake, settings = judge
    for baseline, answer, clamped in CLAMP_CASES:
        set_policy(
            s.learning,
            SHADOW,
            judge=settings,
            rules=[rule("facts", baseline, kind=pb.LEARNING_KIND_FACT)],
            allow_api_origin_active_publication=True,
        )
        fake.action = answer
        c = reviewed(
            s.learning,
            candidate(
                s.learning, f"judged fact {uuid.uuid4().hex[:6]}", scope=unique_session()
            ).candidate_id,
        )
        verdict = c.review.judge
        assert (verdict.requested_action, verdict.clamped_action) == (answer, clamped)
        assert verdict.decided_at.seconds > 0 and verdict.reason == "looks durable"
        rank = {MANUAL: 0, REJECT: 0, PROVISIONAL: 1, ACTIVE: 2}
        assert rank[c.review.final_action] <= rank[baseline]
    assert fake.calls[-1].baseline_action == ACTIVE
    assert fake.calls[-1].matched_rule == "facts"
    # No judge call for a manual_review baseline.
    calls = len(fake.calls)
    set_policy(s.learning, SHADOW, judge=settings)
    c = reviewed(s.learning, candidate(s.learning, "unjudged", scope=unique_session()).candidate_id)
    assert not c.review.HasField("judge") and len(fake.calls) == calls


def test_a_candidate_withheld_by_quarantine_never_reaches_the_judge(
    s: Stubs, judge: tuple[FakeJudge, pb.JudgeSettings]
) -> None:
    """A candidate derived from a quarantined run is neither judged nor
    published by automation; governance shows it withheld."""
    fake, settings = judge
    scope = unique_session()
    run_id = f"run-{scope.id}"
    completed = complete_run(
        s.journal, run_id, "the deploy region is eu-west-1", session_id=scope.id
    )
    s.journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_RUN_RECORD, record_id=run_id, reason="poisoned run"
        )
    )
    set_policy(
        s.learning,
        ENABLED,
        judge=settings,
        rules=[rule("facts", ACTIVE, kind=pb.LEARNING_KIND_FACT)],
        allow_api_origin_active_publication=True,
    )
    source = pb.Source(run_id=run_id, session_id=scope.id, subject="u1")
    withheld = reviewed(
        s.learning,
        candidate(
            s.learning, "the deploy region is eu-west-1", scope=scope, source=source
        ).candidate_id,
    )
    assert withheld.withheld_by_quarantine
    assert not withheld.review.HasField("judge") and fake.calls == []
    assert withheld.review.final_action == MANUAL
    assert withheld.status == pb.CANDIDATE_STATUS_ESCALATED
    assert "withheld by quarantine" in withheld.review.reason
    # Quarantining its run.completed event withholds it the same way.
    other = unique_session()
    event = complete_run(s.journal, f"run-{other.id}", "the build is fast", session_id=other.id)
    s.journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_EVENT, record_id=str(event.event_id), reason="poisoned"
        )
    )
    by_event = reviewed(
        s.learning,
        candidate(
            s.learning,
            "the build is fast",
            scope=other,
            source=pb.Source(subject="u1", event_id=event.event_id),
        ).candidate_id,
    )
    assert by_event.withheld_by_quarantine and fake.calls == []
    # After Restore it is an ordinary candidate again.
    s.journal.Restore(
        jpb.RestoreRequest(record_kind=jpb.RECORD_KIND_RUN_RECORD, record_id=run_id, reason="ok")
    )
    again = s.learning.GetCandidate(pb.GetCandidateRequest(candidate_id=withheld.candidate_id))
    assert not again.candidate.withheld_by_quarantine
    assert completed.event_id > 0
    fresh = reviewed(
        s.learning,
        candidate(
            s.learning, "the deploy region is eu-west-1", scope=unique_session(), source=source
        ).candidate_id,
    )
    assert fresh.review.HasField("judge") and len(fake.calls) == 1


@pytest.mark.parametrize("failure", ["error", "timeout"])
def test_a_failing_judge_never_publishes(
    s: Stubs, judge: tuple[FakeJudge, pb.JudgeSettings], failure: str
) -> None:
    fake, settings = judge
    if failure == "error":
        fake.error = grpc.StatusCode.INTERNAL
    else:
        fake.hang = True
        settings = pb.JudgeSettings(enabled=True, address=settings.address, timeout_ms=200)
    set_policy(
        s.learning,
        ENABLED,
        judge=settings,
        rules=[rule("facts", PROVISIONAL, kind=pb.LEARNING_KIND_FACT)],
    )
    c = reviewed(
        s.learning,
        candidate(s.learning, f"judge {failure} fact", scope=unique_session()).candidate_id,
    )
    fake.release()
    assert c.status == pb.CANDIDATE_STATUS_ESCALATED and c.learning_id == ""
    assert c.review.judge.error and c.review.judge.clamped_action == MANUAL
    assert c.review.final_action == MANUAL
    expected = "DEADLINE_EXCEEDED" if failure == "timeout" else "INTERNAL"
    assert expected in c.review.judge.error


def test_automatic_conflict_escalates(s: Stubs) -> None:
    scope = unique_session()
    atlas = learn(s.learning, "Project codename is Atlas", scope=scope)
    set_policy(s.learning, ENABLED, rules=[rule("facts", PROVISIONAL, kind=pb.LEARNING_KIND_FACT)])
    c = reviewed(
        s.learning, candidate(s.learning, "Project codename is Borealis", scope=scope).candidate_id
    )
    assert c.status == pb.CANDIDATE_STATUS_ESCALATED and c.learning_id == ""
    assert (c.review.conflict_with, c.review.final_action) == (atlas.learning_id, MANUAL)
    # The operator resolves it by naming the record it replaces.
    replaced = publish(s.learning, c.candidate_id, supersedes=atlas.learning_id)
    assert replaced.supersedes == atlas.learning_id


def test_manual_only_does_not_review(s: Stubs, env: tuple[Stubs, str]) -> None:
    set_policy(s.learning, pb.AUTOMATION_MODE_MANUAL_ONLY, rules=[rule("all", REJECT)])
    skipped = candidate(s.learning, "nobody reviews me", scope=unique_session())
    with psycopg.connect(env[1]) as conn:
        row = conn.execute(
            "SELECT seq FROM learning.candidates WHERE candidate_id = %s", (skipped.candidate_id,)
        ).fetchone()
    assert row is not None
    wait_until(
        lambda: (
            s.learning.GetLearningStatus(pb.GetLearningStatusRequest()).metrics["review_cursor"]
            >= row[0]
        ),
        what="the review cursor to pass",
    )
    assert not status(s, skipped.candidate_id).HasField("review")
    set_policy(s.learning, SHADOW, rules=[rule("all", REJECT)])
    later = reviewed(
        s.learning, candidate(s.learning, "reviewed again", scope=unique_session()).candidate_id
    )
    assert later.review.final_action == REJECT
    still = status(s, skipped.candidate_id)
    assert not still.HasField("review") and still.status == pb.CANDIDATE_STATUS_PENDING


def test_extractor_candidates_are_verified_against_the_run(s: Stubs, plugins: Any) -> None:
    plugins[2].proposals = [
        ppb.ExtractedCandidate(
            kind=pb.LEARNING_KIND_FACT, content="the cache lives in redis", confidence=90
        ),
        ppb.ExtractedCandidate(
            kind=pb.LEARNING_KIND_FACT, content="the moon is cheese", confidence=90
        ),
    ]
    set_policy(
        s.learning, ENABLED, rules=[rule("facts", ACTIVE, kind=pb.LEARNING_KIND_FACT, **STRICT)]
    )
    scope = unique_session()
    run_id = f"run-{scope.id}"
    complete_run(
        s.journal,
        run_id,
        "Where does the cache live?",
        "The cache lives in Redis.",
        session_id=scope.id,
    )
    found = {c.content: c for c in daemon_candidates(s, run_id, 3)}
    supported = learning_of(s, found["the cache lives in redis"])
    invented = learning_of(s, found["the moon is cheese"])
    assert (supported.publish_tier, supported.verification_status) == (
        pb.PUBLISH_TIER_ACTIVE,
        pb.VERIFICATION_STATUS_VERIFIED,
    )
    assert (invented.publish_tier, invented.verification_status) == (
        pb.PUBLISH_TIER_PROVISIONAL,
        pb.VERIFICATION_STATUS_FAILED,
    )
    summary = next(c for c in found.values() if c.kind == pb.LEARNING_KIND_RUN_SUMMARY)
    assert summary.sensitivity == pb.SENSITIVITY_SENSITIVE
    assert plugins[2].calls[-1].max_candidates == 2


def test_worked_scenario_from_statement_to_recall(s: Stubs) -> None:
    set_policy(
        s.learning,
        ENABLED,
        rules=[rule("prefs", ACTIVE, kind=pb.LEARNING_KIND_PREFERENCE, **STRICT)],
    )
    scope = unique_session()
    run_id = f"run-{scope.id}"
    complete_run(
        s.journal,
        run_id,
        "Preference: always report sizes in gigabytes, not gibibytes. Reply exactly OK.",
        session_id=scope.id,
    )
    preference = next(
        c for c in daemon_candidates(s, run_id, 2) if c.kind == pb.LEARNING_KIND_PREFERENCE
    )
    learned = learning_of(s, preference)
    assert (
        learned.status,
        learned.publish_tier,
        learned.verification_status,
        learned.policy_decision,
    ) == (
        pb.LEARNING_STATUS_ACTIVE,
        pb.PUBLISH_TIER_ACTIVE,
        pb.VERIFICATION_STATUS_VERIFIED,
        pb.POLICY_DECISION_AUTOMATIC,
    )

    def recall() -> list[str]:
        found = s.learning.GetLearnedContext(
            pb.GetLearnedContextRequest(
                subject="u1",
                session_id=scope.id,
                pending_input="What sizes should the disk report use?",
            )
        )
        return [e.learning.content for e in found.entries]

    assert recall() == ["always report sizes in gigabytes, not gibibytes."]
    set_policy(s.learning, SHADOW)
    newer = candidate(
        s.learning,
        "always report sizes in gibibytes",
        scope=scope,
        kind=pb.LEARNING_KIND_PREFERENCE,
    )
    publish(s.learning, newer.candidate_id, supersedes=learned.learning_id)
    assert recall() == ["always report sizes in gibibytes"]
    old = s.learning.GetLearning(pb.GetLearningRequest(learning_id=learned.learning_id))
    assert old.learning.status == pb.LEARNING_STATUS_SUPERSEDED


def test_workspace_scope_reaches_every_session(s: Stubs) -> None:
    set_policy(s.learning, SHADOW)
    word = f"kiwi{uuid.uuid4().hex[:6]}"
    learn(
        s.learning,
        f"{word} is the team mascot",
        scope=cpb.Scope(kind=cpb.SCOPE_KIND_WORKSPACE, id="default"),
    )
    for session in ("a1", "b2"):
        found = s.learning.GetLearnedContext(
            pb.GetLearnedContextRequest(
                subject="u1", session_id=session, pending_input=f"who is {word}?"
            )
        )
        assert [e.learning.content for e in found.entries] == [f"{word} is the team mascot"]
