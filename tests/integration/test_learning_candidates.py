"""Candidates and learnings through real gRPC on a real PostgreSQL: input
validation (nothing written), AIP-155/158, the candidate and learning state
machines, same-subject conflicts and supersede, revoke, roles, append-only."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.learning.v1 import learning_pb2 as pb
from engram.timeutil import to_timestamp
from tests.integration.test_learning_support import (
    WORKSPACE,
    candidate,
    conflict,
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

RUNTIME_TOKEN = "runtime-token-0123456789"
OPERATOR_TOKEN = "operator-token-0123456789"


@pytest.fixture(scope="module")
def env(pg_server_url: str, template_database: str) -> Iterator[tuple[Any, str]]:
    with shared_suite(
        pg_server_url, template_database, ["journal", "learning"], workers_enabled=False
    ) as (suite, channel):
        yield stubs(channel).learning, suite.database_url


@pytest.fixture
def learning(env: tuple[Any, str]) -> Any:
    return env[0]


@pytest.fixture
def session() -> cpb.Scope:
    return unique_session()


def _count(learning: Any) -> int:
    return len(learning.ListCandidates(pb.ListCandidatesRequest(page_size=500)).candidates)


def test_create_get_and_replay(learning: Any) -> None:
    request_id = str(uuid.uuid4())
    expires = datetime.now(UTC) + timedelta(days=30)
    request = pb.CreateCandidateRequest(
        scope=cpb.Scope(kind=cpb.SCOPE_KIND_PROJECT, id="p1"),
        kind=pb.LEARNING_KIND_DECISION,
        content="We deploy on Tuesdays",
        confidence=70,
        evidence_refs=["ticket:42"],
        source=pb.Source(run_id="r9", session_id="s9"),
        expires_at=to_timestamp(expires),
        request_id=request_id,
    )
    created = learning.CreateCandidate(request).candidate
    assert created.origin == pb.CANDIDATE_ORIGIN_API
    assert created.status == pb.CANDIDATE_STATUS_PENDING
    assert (created.scope.kind, created.scope.id) == (cpb.SCOPE_KIND_PROJECT, "p1")
    assert created.expires_at.seconds == int(expires.timestamp())
    assert learning.CreateCandidate(request).candidate.candidate_id == created.candidate_id
    reused = fails(
        lambda: learning.CreateCandidate(
            pb.CreateCandidateRequest(
                scope=unique_session(),
                kind=pb.LEARNING_KIND_FACT,
                content="other",
                source=pb.Source(subject="u1"),
                request_id=request_id,
            )
        )
    )
    assert reused.code() == grpc.StatusCode.ALREADY_EXISTS
    got = learning.GetCandidate(pb.GetCandidateRequest(candidate_id=created.candidate_id))
    assert got.candidate == created
    missing = fails(
        lambda: learning.GetCandidate(pb.GetCandidateRequest(candidate_id=str(uuid.uuid4())))
    )
    assert missing.code() == grpc.StatusCode.NOT_FOUND


SECRETS = [
    "the key is sk-ant-api03-abcdefghijklmnopqrstuvwxyz",
    "api-key: 9f8e7d6c5b4a39281716",
    "x-api-key: 9f8e7d6c5b4a39281716",
    "clientSecret: q8Wz3LmN0pR5tY7u",
    "secret_token=AbCdEf123456",
    "personal access token=ghq8Wz3LmN0pR5tY7u",
    "password is stored as <secret>",
]


@pytest.mark.parametrize("content", SECRETS)
def test_secret_looking_content_is_refused_before_storage(learning: Any, content: str) -> None:
    before = _count(learning)
    err = fails(lambda: candidate(learning, content))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    info = error_info(err)
    assert (info.reason, info.metadata["field"]) == ("SECRET_CONTENT", "content")
    assert _count(learning) == before


@pytest.mark.parametrize(
    ("overrides", "field", "reason"),
    [
        ({"kind": pb.LEARNING_KIND_RUN_SUMMARY}, "kind", "RUN_SUMMARY_DAEMON_OWNED"),
        ({"kind": pb.LEARNING_KIND_UNSPECIFIED}, "kind", "INVALID_ARGUMENT"),
        (
            {"scope": cpb.Scope(kind=cpb.SCOPE_KIND_WORKSPACE, id="team")},
            "scope.id",
            "INVALID_WORKSPACE",
        ),
        ({"scope": cpb.Scope(id="s1")}, "scope.kind", "INVALID_ARGUMENT"),
        ({"scope": cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id="")}, "scope.id", "INVALID_ARGUMENT"),
        ({"content": ""}, "content", "INVALID_ARGUMENT"),
        ({"content": "x" * 4001}, "content", "INVALID_ARGUMENT"),
        ({"confidence": 101}, "confidence", "INVALID_ARGUMENT"),
        ({"confidence": -1}, "confidence", "INVALID_ARGUMENT"),
        ({"evidence_refs": ["token=abc123def456ghi"]}, "evidence_refs[0]", "SECRET_CONTENT"),
        (
            {"expires_at": to_timestamp(datetime(2020, 1, 1, tzinfo=UTC))},
            "expires_at",
            "INVALID_ARGUMENT",
        ),
        ({"request_id": "not-a-uuid"}, "request_id", "INVALID_ARGUMENT"),
        # A session scope names whose session it is.
        ({}, "source.subject", "INVALID_ARGUMENT"),
        ({"source": pb.Source(subject="a b")}, "source.subject", "INVALID_ARGUMENT"),
    ],
)
def test_bad_input_names_the_field_and_writes_nothing(
    learning: Any, overrides: dict[str, Any], field: str, reason: str
) -> None:
    before = _count(learning)
    values: dict[str, Any] = {
        "scope": unique_session(),
        "kind": pb.LEARNING_KIND_FACT,
        "content": "a fact",
        "confidence": 50,
    }
    values.update(overrides)
    err = fails(lambda: learning.CreateCandidate(pb.CreateCandidateRequest(**values)))
    assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
    info = error_info(err)
    assert (info.metadata["field"], info.reason) == (field, reason)
    assert _count(learning) == before


def test_list_filters_and_pages(learning: Any, session: cpb.Scope) -> None:
    ids = [candidate(learning, f"fact number {i}", scope=session).candidate_id for i in range(5)]
    decision = candidate(
        learning, "a decision", kind=pb.LEARNING_KIND_DECISION, scope=session
    ).candidate_id
    mine = {*ids, decision}

    def listed(**kwargs: Any) -> list[str]:
        found = learning.ListCandidates(pb.ListCandidatesRequest(page_size=500, **kwargs))
        return [c.candidate_id for c in found.candidates if c.candidate_id in mine]

    learning.RejectCandidate(pb.RejectCandidateRequest(candidate_id=ids[0], reason="noise"))
    publish(learning, ids[1])
    assert listed() == [decision, ids[4], ids[3], ids[2]]
    assert listed(statuses=[pb.CANDIDATE_STATUS_REJECTED]) == [ids[0]]
    assert listed(statuses=[pb.CANDIDATE_STATUS_PUBLISHED, pb.CANDIDATE_STATUS_PENDING]) == [
        decision,
        ids[4],
        ids[3],
        ids[2],
        ids[1],
    ]
    assert listed(kind=pb.LEARNING_KIND_DECISION) == [decision]
    rejected = learning.GetCandidate(pb.GetCandidateRequest(candidate_id=ids[0])).candidate
    assert rejected.status_reason == "noise"
    seen, token = [], ""
    while True:
        page = learning.ListCandidates(pb.ListCandidatesRequest(page_size=3, page_token=token))
        assert len(page.candidates) <= 3
        seen += [c.candidate_id for c in page.candidates if c.candidate_id in mine]
        token = page.next_page_token
        if not token:
            break
    assert seen == listed()
    first = learning.ListCandidates(pb.ListCandidatesRequest(page_size=1)).next_page_token
    err = fails(
        lambda: learning.ListCandidates(
            pb.ListCandidatesRequest(page_token=first, kind=pb.LEARNING_KIND_FACT)
        )
    )
    assert error_info(err).metadata["field"] == "page_token"


def test_publish_reject_and_illegal_moves(learning: Any, session: cpb.Scope) -> None:
    cand = candidate(learning, "The staging host is blue", scope=session, confidence=80)
    response = learning.PublishCandidate(
        pb.PublishCandidateRequest(
            candidate_id=cand.candidate_id,
            publish_tier=pb.PUBLISH_TIER_PROVISIONAL,
            reason="looks right",
        )
    )
    learned = response.learning
    assert (learned.status, learned.publish_tier) == (
        pb.LEARNING_STATUS_ACTIVE,
        pb.PUBLISH_TIER_PROVISIONAL,
    )
    assert learned.policy_decision == pb.POLICY_DECISION_MANUAL
    assert learned.policy_actor == "local"
    assert learned.verification_status == pb.VERIFICATION_STATUS_UNVERIFIED
    assert (learned.confidence, learned.origin) == (80, pb.CANDIDATE_ORIGIN_API)
    assert [h.action for h in learned.history] == ["published"]
    assert response.candidate.status == pb.CANDIDATE_STATUS_PUBLISHED
    assert response.candidate.learning_id == learned.learning_id
    for call in (
        lambda: publish(learning, cand.candidate_id),
        lambda: learning.RejectCandidate(pb.RejectCandidateRequest(candidate_id=cand.candidate_id)),
    ):
        err = fails(call)
        assert err.code() == grpc.StatusCode.FAILED_PRECONDITION
        detail = transition(err)
        assert (detail.entity, detail.current_state) == ("candidate", "published")
        assert list(detail.allowed_states) == []
    other = candidate(learning, "another fact", scope=session)
    learning.RejectCandidate(pb.RejectCandidateRequest(candidate_id=other.candidate_id))
    detail = transition(fails(lambda: publish(learning, other.candidate_id)))
    assert (detail.current_state, detail.requested_state) == ("rejected", "published")
    missing_tier = fails(
        lambda: learning.PublishCandidate(
            pb.PublishCandidateRequest(
                candidate_id=candidate(learning, "x y", scope=session).candidate_id
            )
        )
    )
    assert error_info(missing_tier).metadata["field"] == "publish_tier"


def test_manual_conflict_aborts_unless_superseded(learning: Any, session: cpb.Scope) -> None:
    atlas = learn(learning, "Project codename is Atlas", scope=session)
    borealis = candidate(learning, "The project codename is Borealis.", scope=session)
    err = fails(lambda: publish(learning, borealis.candidate_id))
    assert err.code() == grpc.StatusCode.ABORTED
    detail = conflict(err)
    assert (detail.existing_id, detail.subject_key) == (atlas.learning_id, "project codename")
    assert "supersedes" in detail.resolution
    still = learning.GetCandidate(pb.GetCandidateRequest(candidate_id=borealis.candidate_id))
    assert still.candidate.status == pb.CANDIDATE_STATUS_PENDING  # nothing written
    # Other scope, other kind or the same value: no conflict. Another
    # subject's session of the same id is another scope.
    learn(learning, "Project codename is Borealis", scope=WORKSPACE)
    learn(learning, "Project codename is Borealis", scope=session, source=pb.Source(subject="zoe"))
    learn(learning, "Project codename is Borealis", kind=pb.LEARNING_KIND_DECISION, scope=session)
    twin = learn(learning, "project codename is ATLAS.", scope=session)
    # supersedes must resolve every conflict: the twin still disagrees with Borealis.
    err = fails(lambda: publish(learning, borealis.candidate_id, supersedes=atlas.learning_id))
    assert conflict(err).existing_id == twin.learning_id
    learning.RevokeLearning(
        pb.RevokeLearningRequest(learning_id=twin.learning_id, reason="duplicate")
    )
    new = publish(learning, borealis.candidate_id, supersedes=atlas.learning_id)
    assert new.supersedes == atlas.learning_id
    old = learning.GetLearning(pb.GetLearningRequest(learning_id=atlas.learning_id)).learning
    assert (old.status, old.superseded_by) == (pb.LEARNING_STATUS_SUPERSEDED, new.learning_id)
    assert [h.action for h in old.history] == ["published", "superseded"]
    assert old.content == "Project codename is Atlas"  # nothing overwritten


@pytest.mark.parametrize(
    ("target", "code"),
    [
        ("decision", grpc.StatusCode.INVALID_ARGUMENT),
        ("other subject", grpc.StatusCode.INVALID_ARGUMENT),
        ("revoked", grpc.StatusCode.FAILED_PRECONDITION),
        ("missing", grpc.StatusCode.NOT_FOUND),
    ],
)
def test_supersedes_must_name_an_active_record_of_the_same_kind(
    learning: Any, session: cpb.Scope, target: str, code: grpc.StatusCode
) -> None:
    targets: dict[str, Callable[[], str]] = {
        "decision": lambda: (
            learn(learning, "use bazel", kind=pb.LEARNING_KIND_DECISION, scope=session).learning_id
        ),
        "other subject": lambda: (
            learn(learning, "use make", scope=session, source=pb.Source(subject="zoe")).learning_id
        ),
        "revoked": lambda: (
            learning.RevokeLearning(
                pb.RevokeLearningRequest(
                    learning_id=learn(learning, "old build tool", scope=session).learning_id,
                    reason="gone",
                )
            ).learning.learning_id
        ),
        "missing": lambda: str(uuid.uuid4()),
    }
    replaced = targets[target]()
    fresh = candidate(learning, "The build tool is bazel", scope=session)
    err = fails(lambda: publish(learning, fresh.candidate_id, supersedes=replaced))
    assert err.code() == code
    if target == "revoked":
        assert transition(err).current_state == "revoked"


def test_revoke(learning: Any, session: cpb.Scope) -> None:
    fact = learn(learning, "The office is closed on Fridays", scope=session)
    for reason, field_reason in (
        ("", "INVALID_ARGUMENT"),
        ("leaked: password=hunter2hunter2", "SECRET_CONTENT"),
    ):
        err = fails(
            lambda r=reason: learning.RevokeLearning(  # type: ignore[misc]
                pb.RevokeLearningRequest(learning_id=fact.learning_id, reason=r)
            )
        )
        assert (err.code(), error_info(err).reason) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            field_reason,
        )
    request = pb.RevokeLearningRequest(
        learning_id=fact.learning_id, reason="office moved", request_id=str(uuid.uuid4())
    )
    revoked = learning.RevokeLearning(request).learning
    assert revoked.status == pb.LEARNING_STATUS_REVOKED
    assert [(h.revision, h.action, h.reason) for h in revoked.history] == [
        (1, "published", "published by operator"),
        (2, "revoked", "office moved"),
    ]
    assert learning.RevokeLearning(request).learning == revoked  # AIP-155 replay
    detail = transition(
        fails(
            lambda: learning.RevokeLearning(
                pb.RevokeLearningRequest(learning_id=fact.learning_id, reason="again")
            )
        )
    )
    assert (detail.entity, detail.current_state, detail.requested_state) == (
        "learning",
        "revoked",
        "revoked",
    )


def test_list_learnings_by_status_and_scope(learning: Any, session: cpb.Scope) -> None:
    project_scope = cpb.Scope(kind=cpb.SCOPE_KIND_PROJECT, id=f"p-{session.id}")
    active = learn(learning, "fact one", scope=session)
    provisional = learn(learning, "fact two", tier=pb.PUBLISH_TIER_PROVISIONAL, scope=session)
    project = learn(learning, "fact three", scope=project_scope)
    revoked = learn(learning, "fact four", scope=session)
    mine = {active.learning_id, provisional.learning_id, project.learning_id, revoked.learning_id}
    learning.RevokeLearning(
        pb.RevokeLearningRequest(learning_id=revoked.learning_id, reason="wrong")
    )

    def ids(**kwargs: Any) -> list[str]:
        return [
            x.learning_id
            for x in learning.ListLearnings(
                pb.ListLearningsRequest(page_size=500, **kwargs)
            ).learnings
            if x.learning_id in mine
        ]

    assert ids(status=pb.LEARNING_STATUS_FILTER_ACTIVE) == [project.learning_id, active.learning_id]
    assert ids(status=pb.LEARNING_STATUS_FILTER_PROVISIONAL) == [provisional.learning_id]
    assert ids(status=pb.LEARNING_STATUS_FILTER_REVOKED) == [revoked.learning_id]
    assert ids(status=pb.LEARNING_STATUS_FILTER_SUPERSEDED) == []
    assert len(ids()) == 4
    assert ids(scope_key=f"project:{project_scope.id}") == [project.learning_id]
    assert ids(scope_key=f"session:{session.id}", kind=pb.LEARNING_KIND_FACT) == [
        revoked.learning_id,
        provisional.learning_id,
        active.learning_id,
    ]
    err = fails(lambda: ids(scope_key="workspace:elsewhere"))
    assert error_info(err).metadata["field"] == "scope_key"


def test_operator_methods_need_the_operator_role(start_services: Any, channel_to: Any) -> None:
    suite = start_services(
        ["journal", "learning"],
        workers_enabled=False,
        tokens=f"rt:runtime:{RUNTIME_TOKEN},op:operator:{OPERATOR_TOKEN}",
    )
    runtime = stubs(channel_to(suite, RUNTIME_TOKEN)).learning
    operator = stubs(channel_to(suite, OPERATOR_TOKEN)).learning
    err = fails(lambda: candidate(runtime, "runtime may not propose"))
    assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    created = candidate(operator, "an operator proposes")
    err = fails(lambda: publish(runtime, created.candidate_id))
    assert err.code() == grpc.StatusCode.PERMISSION_DENIED
    for call in (
        lambda: runtime.GetLearningPolicy(pb.GetLearningPolicyRequest()),
        lambda: runtime.SearchLearnings(pb.SearchLearningsRequest()),
        lambda: runtime.ListSkills(pb.ListSkillsRequest()),
        lambda: runtime.ListCandidates(pb.ListCandidatesRequest()),
        lambda: runtime.GetCandidate(pb.GetCandidateRequest(candidate_id=created.candidate_id)),
        lambda: runtime.ListLearnings(pb.ListLearningsRequest()),
        lambda: runtime.GetSkill(pb.GetSkillRequest(skill_name="any-skill")),
        lambda: runtime.GetLearningStatus(pb.GetLearningStatusRequest()),
    ):
        assert fails(call).code() == grpc.StatusCode.PERMISSION_DENIED
    learned = publish(operator, created.candidate_id)
    assert learned.policy_actor == "op"
    runtime.ListActiveSkills(pb.ListActiveSkillsRequest())


def test_history_is_append_only(env: tuple[Any, str]) -> None:
    learning, database_url = env
    learn(learning, "immutable fact", scope=unique_session())
    with psycopg.connect(database_url, autocommit=True) as conn:
        for statement in (
            "UPDATE learning.learning_revisions SET reason = 'x'",
            "DELETE FROM learning.learnings",
            "UPDATE learning.candidates SET content = 'x'",
            "DELETE FROM learning.candidate_events",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)
