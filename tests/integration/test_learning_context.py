"""The injection gate and the read paths over a real PostgreSQL and real
gRPC: one table-driven case per gate (SQL predicate and GetLearnedContext),
scoring, the durable-memory fallback, sealed coverage, scope resolution,
operator search and status."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import derive_absence, validate
from engram.learning.v1 import learning_pb2 as pb
from tests.integration.test_learning_support import (
    SUBJECT,
    WORKSPACE,
    candidate,
    error_info,
    fails,
    learn,
    shared_suite,
    stubs,
    unique_session,
)

pytestmark = pytest.mark.integration

PAST = datetime.now(UTC) - timedelta(days=1)
FUTURE = datetime.now(UTC) + timedelta(days=30)

BASE = {
    "kind": "fact",
    "sensitivity": "normal",
    "status": "active",
    "tier": "active",
    "verification": "unverified",
    "decision": "manual",
    "expires_at": None,
}

# (case, overrides, injected). Each row flips exactly one gate of the baseline.
GATES: list[tuple[str, dict[str, Any], bool]] = [
    ("manual active unverified stays visible", {}, True),
    ("kind preference", {"kind": "preference"}, True),
    ("kind decision", {"kind": "decision"}, True),
    ("kind run_summary never", {"kind": "run_summary"}, False),
    ("kind procedure never", {"kind": "procedure"}, False),
    ("sensitive", {"sensitivity": "sensitive"}, False),
    ("revoked", {"status": "revoked"}, False),
    ("superseded", {"status": "superseded"}, False),
    ("expired", {"expires_at": PAST}, False),
    ("not yet expired", {"expires_at": FUTURE}, True),
    ("provisional tier", {"tier": "provisional"}, False),
    ("verification failed", {"verification": "failed"}, False),
    ("automatic needs verified", {"decision": "automatic"}, False),
    ("automatic and verified", {"decision": "automatic", "verification": "verified"}, True),
    ("escalated decision", {"decision": "escalated"}, False),
]


@pytest.fixture(scope="module")
def env(pg_server_url: str, template_database: str) -> Iterator[tuple[Any, str]]:
    with shared_suite(
        pg_server_url, template_database, ["journal", "learning"], workers_enabled=False
    ) as (suite, channel):
        yield stubs(channel).learning, suite.database_url


def insert_learning(
    database_url: str, content: str, scope: tuple[str, str], **overrides: Any
) -> str:
    """A learning in any gate state, written straight to the schema (some
    states, like an expired record, cannot be produced through the API)."""
    v = {**BASE, **overrides}
    with psycopg.connect(database_url, autocommit=True) as conn, conn.transaction():
        cand = conn.execute(
            "INSERT INTO learning.candidates (origin, scope_kind, scope_id, kind, content,"
            " content_sha256, confidence, source_subject, sensitivity, expires_at)"
            " VALUES ('daemon', %s, %s, %s, %s, md5(%s), 90, %s, %s, %s) RETURNING candidate_id",
            (
                scope[0],
                scope[1],
                v["kind"],
                content,
                content,
                SUBJECT,
                v["sensitivity"],
                v["expires_at"],
            ),
        ).fetchone()
        assert cand is not None
        row = conn.execute(
            "INSERT INTO learning.learnings (candidate_id, origin, scope_kind, scope_id, kind,"
            " content, content_sha256, confidence, source_subject, sensitivity, expires_at,"
            " verification_status, policy_decision, policy_actor)"
            " SELECT candidate_id, origin, scope_kind, scope_id, kind, content, content_sha256,"
            " confidence, source_subject, sensitivity, expires_at, %s, %s, 'test'"
            " FROM learning.candidates"
            " WHERE candidate_id = %s RETURNING learning_id",
            (v["verification"], v["decision"], cand[0]),
        ).fetchone()
        assert row is not None
        revision = (
            "INSERT INTO learning.learning_revisions (learning_id, revision, status,"
            " publish_tier, action, actor) VALUES (%s, %s, %s, %s, %s, 'test')"
        )
        conn.execute(revision, (row[0], 1, "active", v["tier"], "published"))
        if v["status"] != "active":
            conn.execute(
                revision,
                (
                    row[0],
                    2,
                    v["status"],
                    v["tier"],
                    "revoked" if v["status"] == "revoked" else "superseded",
                ),
            )
    return str(row[0])


@pytest.mark.parametrize(("case", "overrides", "injected"), GATES, ids=[g[0] for g in GATES])
def test_sql_gate(
    env: tuple[Any, str], case: str, overrides: dict[str, Any], injected: bool
) -> None:
    v = {**BASE, **overrides}
    with psycopg.connect(env[1]) as conn:
        row = conn.execute(
            "SELECT learning.is_prompt_eligible(%s, %s, %s, %s, %s, %s, %s, now())",
            (
                v["kind"],
                v["sensitivity"],
                v["status"],
                v["tier"],
                v["verification"],
                v["decision"],
                v["expires_at"],
            ),
        ).fetchone()
    assert row is not None and row[0] is injected


@pytest.mark.parametrize(("case", "overrides", "injected"), GATES, ids=[g[0] for g in GATES])
def test_learned_context_gate(
    env: tuple[Any, str], case: str, overrides: dict[str, Any], injected: bool
) -> None:
    learning, url = env
    session = unique_session()
    marker = f"gate{uuid.uuid4().hex[:8]}"
    learning_id = insert_learning(
        url, f"{marker} applies here", ("session", session.id), **overrides
    )
    found = learning.GetLearnedContext(
        pb.GetLearnedContextRequest(
            subject=SUBJECT, session_id=session.id, pending_input=f"what about {marker}?"
        )
    )
    assert ([e.learning.learning_id for e in found.entries] == [learning_id]) is injected
    if not injected:
        assert found.entries == []


@pytest.mark.parametrize(
    ("scope", "visible"),
    [
        ("session:own", True),
        ("persona:ana", True),
        ("project:p1", True),
        ("project:p2", True),
        ("workspace:default", True),
        ("session:other", False),
        ("persona:bob", False),
        ("project:p3", False),
    ],
)
def test_scope_visibility(env: tuple[Any, str], scope: str, visible: bool) -> None:
    learning, url = env
    session = unique_session()
    kind, scope_id = scope.split(":")
    scope_id = session.id if scope_id == "own" else scope_id
    marker = f"scope{uuid.uuid4().hex[:8]}"
    learning_id = insert_learning(url, f"{marker} fact", (kind, scope_id))
    found = learning.GetLearnedContext(
        pb.GetLearnedContextRequest(
            subject=SUBJECT,
            session_id=session.id,
            persona_id="ana",
            project_ids=["p1", "p2"],
            pending_input=marker,
        )
    )
    assert (learning_id in [e.learning.learning_id for e in found.entries]) is visible
    assert list(found.scope_keys) == [
        f"session:{session.id}",
        "persona:ana",
        "project:p1",
        "project:p2",
        "workspace:default",
    ]


def test_resolve_scopes(env: tuple[Any, str]) -> None:
    learning, _ = env
    response = learning.ResolveScopes(
        pb.ResolveScopesRequest(
            subject=SUBJECT, session_id="s1", persona_id="ana", project_ids=["p1", "p1", "p2"]
        )
    )
    assert list(response.scope_keys) == [
        "session:s1",
        "persona:ana",
        "project:p1",
        "project:p2",
        "workspace:default",
    ]
    assert [s.kind for s in response.scopes] == [
        cpb.SCOPE_KIND_SESSION,
        cpb.SCOPE_KIND_PERSONA,
        cpb.SCOPE_KIND_PROJECT,
        cpb.SCOPE_KIND_PROJECT,
        cpb.SCOPE_KIND_WORKSPACE,
    ]
    for request, field in (
        (pb.ResolveScopesRequest(), "session_id"),
        (pb.ResolveScopesRequest(session_id="s1"), "subject"),
        (pb.ResolveScopesRequest(session_id="s1", subject="a b"), "subject"),
        (pb.ResolveScopesRequest(session_id="s1", subject=SUBJECT, workspace="x y"), "workspace"),
        (
            pb.ResolveScopesRequest(session_id="s1", subject=SUBJECT, project_ids=["a b"]),
            "project_ids[0]",
        ),
    ):
        err = fails(lambda r=request: learning.ResolveScopes(r))  # type: ignore[misc]
        assert error_info(err).metadata["field"] == field


def test_scoring_fallback_limits_and_coverage(start_services: Any, channel_to: Any) -> None:
    suite = start_services(["journal", "learning"], workers_enabled=False)
    learning = stubs(channel_to(suite)).learning
    sizes = learn(learning, "Always report sizes in gigabytes")
    codename = learn(learning, "The project codename is Atlas", scope=WORKSPACE)
    deploys = learn(learning, "Deploys happen on Tuesdays")
    learn(learning, "Hidden provisional sizes note", tier=pb.PUBLISH_TIER_PROVISIONAL)

    def context(text: str, limit: int = 0) -> pb.GetLearnedContextResponse:
        return learning.GetLearnedContext(
            pb.GetLearnedContextRequest(
                subject=SUBJECT, session_id="s1", pending_input=text, max_entries=limit
            )
        )

    scored = context("How big are the sizes on this disk?")
    assert [e.learning.learning_id for e in scored.entries] == [sizes.learning_id]
    assert scored.entries[0].score > 0
    assert (scored.omitted_zero_score, scored.recency_fallback) == (2, False)
    validate(scored.coverage)
    assert scored.coverage.read_path == "learning.learned_context.v1"
    assert scored.coverage.dimensions.semantic == cpb.DIMENSION_STATE_UNKNOWN
    assert derive_absence(scored.coverage, len(scored.entries)) == cpb.ABSENCE_STATE_NOT_ABSENT

    unrelated = context("Tell me a joke")
    assert list(unrelated.entries) == [] and not unrelated.recency_fallback
    validate(unrelated.coverage)
    assert derive_absence(unrelated.coverage, 0) == cpb.ABSENCE_STATE_COVERAGE_UNKNOWN

    fallback = context("Use durable memory: what do you remember?")
    assert fallback.recency_fallback
    assert [e.learning.learning_id for e in fallback.entries] == [
        deploys.learning_id,
        codename.learning_id,
        sizes.learning_id,
    ]

    limited = context("use durable memory", limit=1)
    assert ([e.learning.learning_id for e in limited.entries], limited.omitted_by_limit) == (
        [deploys.learning_id],
        2,
    )
    assert limited.coverage.cardinality.truncated
    validate(limited.coverage)

    for request, field in (
        (pb.GetLearnedContextRequest(), "session_id"),
        (pb.GetLearnedContextRequest(session_id="s1"), "subject"),
        (pb.GetLearnedContextRequest(session_id="s1", subject=SUBJECT, workspace="-"), "workspace"),
        (
            pb.GetLearnedContextRequest(session_id="s1", subject=SUBJECT, max_entries=51),
            "max_entries",
        ),
    ):
        err = fails(lambda r=request: learning.GetLearnedContext(r))  # type: ignore[misc]
        assert err.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_info(err).metadata["field"] == field

    metrics = learning.GetLearningStatus(pb.GetLearningStatusRequest()).metrics
    assert metrics["context_omitted_zero_score_total"] == 2 + 3
    assert metrics["context_omitted_by_limit_total"] == 2
    assert metrics["context_recency_fallback_total"] == 2


def test_search_hides_sensitive_and_tags_prompt_eligibility(env: tuple[Any, str]) -> None:
    learning, _ = env
    session = unique_session()
    word = f"zebra{uuid.uuid4().hex[:6]}"
    visible = learn(learning, f"{word} facts are eligible", scope=session)
    provisional = learn(
        learning, f"{word} provisional note", scope=session, tier=pb.PUBLISH_TIER_PROVISIONAL
    )
    sensitive = learn(
        learning, f"{word} sensitive note", scope=session, sensitivity=pb.SENSITIVITY_SENSITIVE
    )
    procedure = learn(
        learning,
        f"To release {word}: tag and push",
        scope=WORKSPACE,
        kind=pb.LEARNING_KIND_PROCEDURE,
    )
    revoked = learn(learning, f"{word} revoked fact", scope=session)
    learning.RevokeLearning(
        pb.RevokeLearningRequest(learning_id=revoked.learning_id, reason="wrong")
    )
    learning.PromoteToSkill(
        pb.PromoteToSkillRequest(
            learning_id=procedure.learning_id,
            skill_name=f"release-{word}",
            execution_context=pb.EXECUTION_CONTEXT_FORK,
            verification_profile="verification",
        )
    )
    scopes = [f"session:{session.id}", "workspace:default"]
    hits = learning.SearchLearnings(
        pb.SearchLearningsRequest(subject=SUBJECT, query=word, scope_keys=scopes, page_size=100)
    ).hits
    by_id = {h.id: h for h in hits}
    assert sensitive.learning_id not in by_id and revoked.learning_id not in by_id
    assert by_id[visible.learning_id].prompt_eligible
    assert not by_id[provisional.learning_id].prompt_eligible
    assert not by_id[procedure.learning_id].prompt_eligible
    skill = by_id[f"release-{word}"]
    assert (skill.hit_kind, skill.prompt_eligible) == ("skill", False)
    browse = learning.SearchLearnings(
        pb.SearchLearningsRequest(
            subject=SUBJECT, scope_keys=[f"session:{session.id}"], page_size=1
        )
    )
    assert [h.id for h in browse.hits] == [provisional.learning_id]
    rest = learning.SearchLearnings(
        pb.SearchLearningsRequest(
            subject=SUBJECT,
            scope_keys=[f"session:{session.id}"],
            page_size=1,
            page_token=browse.next_page_token,
        )
    )
    assert [h.id for h in rest.hits] == [visible.learning_id] and rest.next_page_token == ""
    err = fails(
        lambda: learning.SearchLearnings(pb.SearchLearningsRequest(scope_keys=["workspace:team"]))
    )
    assert error_info(err).metadata["field"] == "scope_keys[0]"
    # A session scope key names a subject's session: the subject is required.
    err = fails(
        lambda: learning.SearchLearnings(
            pb.SearchLearningsRequest(scope_keys=[f"session:{session.id}"])
        )
    )
    assert error_info(err).metadata["field"] == "subject"


def test_status_counts(start_services: Any, channel_to: Any) -> None:
    suite = start_services(["journal", "learning"], workers_enabled=False)
    learning = stubs(channel_to(suite)).learning
    candidate(learning, "pending one")
    learn(learning, "active one")
    learn(learning, "provisional one", tier=pb.PUBLISH_TIER_PROVISIONAL)
    status = learning.GetLearningStatus(pb.GetLearningStatusRequest())
    assert (
        status.candidates_pending,
        status.learnings_active,
        status.learnings_provisional,
        status.skills_active,
    ) == (1, 1, 1, 0)
    assert status.mode == pb.AUTOMATION_MODE_SHADOW
