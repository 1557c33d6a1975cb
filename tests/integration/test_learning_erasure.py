"""Erasure follows the journal: JournalService.Purge announces SUBJECT_PURGED
and the learning plane removes the candidates, learnings and skills derived
from that subject, through its own append-only purge ledger, exactly once.
Real PostgreSQL, real gRPC, the real capture worker."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import psycopg
import pytest

from engram.db import Database
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as pb
from learning_service.candidates import CandidateBook, NewCandidate, SourceRef
from learning_service.erasure import SubjectPurge, erase_subject
from learning_service.learnings import LearningBook
from learning_service.model import Kind, Origin, Scope, ScopeKind, Tier
from learning_service.skills import RunEvidence, SkillBook
from tests.integration.test_learning_support import (
    WORKSPACE,
    Stubs,
    candidate,
    complete_run,
    fails,
    publish,
    stubs,
    wait_until,
)

pytestmark = pytest.mark.integration

ALL_CANDIDATES = [
    pb.CANDIDATE_STATUS_PENDING,
    pb.CANDIDATE_STATUS_ESCALATED,
    pb.CANDIDATE_STATUS_PUBLISHED,
    pb.CANDIDATE_STATUS_REJECTED,
]


def candidates(s: Stubs) -> list[pb.Candidate]:
    return list(
        s.learning.ListCandidates(
            pb.ListCandidatesRequest(statuses=ALL_CANDIDATES, page_size=500)
        ).candidates
    )


def learnings(s: Stubs) -> list[pb.Learning]:
    return list(
        s.learning.ListLearnings(
            pb.ListLearningsRequest(status=pb.LEARNING_STATUS_FILTER_ALL, page_size=500)
        ).learnings
    )


def context(s: Stubs, session_id: str, subject: str) -> set[str]:
    response = s.learning.GetLearnedContext(
        pb.GetLearnedContextRequest(
            subject=subject, session_id=session_id, pending_input="codename deploy"
        )
    )
    return {entry.learning.content for entry in response.entries}


def caught_up(s: Stubs) -> bool:
    watermark = s.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark
    return s.learning.GetLearningStatus(pb.GetLearningStatusRequest()).capture_cursor >= watermark


def rows(database_url: str, query: str, *params: Any) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url) as conn:
        return conn.execute(query, params).fetchall()


def count(database_url: str, table: str, subject: str) -> int:
    found = rows(
        database_url, f"SELECT count(*) FROM learning.{table} WHERE source_subject = %s", subject
    )
    return int(found[0][0])


def captured_fact(s: Stubs, run_id: str) -> pb.Candidate:
    def check() -> pb.Candidate | None:
        for c in candidates(s):
            if c.source.run_id == run_id and c.kind == pb.LEARNING_KIND_FACT:
                return c
        return None

    return wait_until(check, what=f"the fact captured from {run_id}")


def test_purging_a_subject_erases_what_the_learning_plane_derived_from_it(
    start_services: Any, channel_to: Any, database_url: str
) -> None:
    suite = start_services(["journal", "learning"])
    s = stubs(channel_to(suite))
    complete_run(
        s.journal, "run-ana", "Fact: the ana codename is Atlas", session_id="s-ana", subject="ana"
    )
    complete_run(
        s.journal,
        "run-bob",
        "Fact: the bob codename is Borealis",
        session_id="s-bob",
        subject="bob",
    )
    ana_fact = publish(s.learning, captured_fact(s, "run-ana").candidate_id)
    bob_fact = publish(s.learning, captured_fact(s, "run-bob").candidate_id)

    # An API candidate that names the subject is the subject's data.
    ana_api = publish(
        s.learning,
        candidate(
            s.learning,
            "the deploy day is Friday",
            scope=WORKSPACE,
            source=pb.Source(subject="ana"),
        ).candidate_id,
    )
    assert "the deploy day is Friday" in context(s, "s-bob", "bob")
    # One without a subject is untouched, also when it supersedes the
    # subject's record or the subject's record superseded it. (A session
    # scope is always its subject's, so these are workspace-scoped.)
    replacement = candidate(s.learning, "the deploy day is Saturday", scope=WORKSPACE)
    operator_fact = publish(s.learning, replacement.candidate_id, supersedes=ana_api.learning_id)
    operator_old = publish(
        s.learning,
        candidate(s.learning, "the deploy window is Monday", scope=WORKSPACE).candidate_id,
    )
    ana_newer = publish(
        s.learning,
        candidate(
            s.learning,
            "the deploy window is Thursday",
            scope=WORKSPACE,
            source=pb.Source(subject="ana", workspace="default"),
        ).candidate_id,
        supersedes=operator_old.learning_id,
    )

    # A skill promoted from the subject's procedure goes; another stays.
    def procedure(text: str, subject: str) -> pb.Learning:
        made = candidate(
            s.learning,
            text,
            kind=pb.LEARNING_KIND_PROCEDURE,
            scope=WORKSPACE,
            source=pb.Source(subject=subject),
        )
        return publish(s.learning, made.candidate_id)

    def promote(learning: pb.Learning, name: str) -> None:
        s.learning.PromoteToSkill(
            pb.PromoteToSkillRequest(
                learning_id=learning.learning_id,
                skill_name=name,
                execution_context=pb.EXECUTION_CONTEXT_FORK,
                verification_profile="verification",
            )
        )

    promote(procedure("To release: tag, build, push", "ana"), "ana-release")
    promote(procedure("To rotate: drain, swap, resume", ""), "ops-rotate")

    wait_until(lambda: caught_up(s), what="capture to catch up before the purge")
    bob_before = {c.candidate_id for c in candidates(s) if c.source.subject == "bob"}
    assert len(bob_before) == 2  # the fact and the run summary

    purged = s.journal.Purge(
        jpb.PurgeRequest(subject="ana", reason="erasure request", request_id=str(uuid.uuid4()))
    )
    wait_until(
        lambda: not any(c.source.subject == "ana" for c in candidates(s)),
        what="the subject's candidates to go",
    )

    remaining = {learning.learning_id: learning for learning in learnings(s)}
    for gone in (ana_fact, ana_api, ana_newer):
        assert gone.learning_id not in remaining
    assert not any(learning.source.subject == "ana" for learning in remaining.values())
    assert remaining[bob_fact.learning_id].status == pb.LEARNING_STATUS_ACTIVE
    assert remaining[operator_fact.learning_id].status == pb.LEARNING_STATUS_ACTIVE
    assert remaining[operator_fact.learning_id].supersedes == ana_api.learning_id
    # Erasure removes; it never brings back what the erased record replaced.
    assert remaining[operator_old.learning_id].status == pb.LEARNING_STATUS_SUPERSEDED
    assert context(s, "s-ana", "ana") == {"the deploy day is Saturday"}
    assert context(s, "s-bob", "bob") == {
        "the bob codename is Borealis",
        "the deploy day is Saturday",
    }
    err = fails(lambda: s.learning.GetSkill(pb.GetSkillRequest(skill_name="ana-release")))
    assert err.code() == grpc.StatusCode.NOT_FOUND
    assert s.learning.GetSkill(pb.GetSkillRequest(skill_name="ops-rotate")).skill.skill_name
    assert {c.candidate_id for c in candidates(s) if c.source.subject == "bob"} == bob_before

    # Straight from the tables: nothing of the subject is left anywhere.
    for table, bobs in (("candidates", 2), ("learnings", 1)):
        assert (count(database_url, table, "ana"), count(database_url, table, "bob")) == (0, bobs)
    orphans = rows(
        database_url,
        """SELECT (SELECT count(*) FROM learning.candidate_events e
                   WHERE NOT EXISTS (SELECT 1 FROM learning.candidate_state s
                                     WHERE s.candidate_id = e.candidate_id)),
                  (SELECT count(*) FROM learning.learning_state s
                   WHERE NOT EXISTS (SELECT 1 FROM learning.learnings l
                                     WHERE l.learning_id = s.learning_id)),
                  (SELECT count(*) FROM learning.skill_versions WHERE skill_name = 'ana-release'),
                  (SELECT count(*) FROM learning.skill_events WHERE skill_name = 'ana-release'),
                  (SELECT count(*) FROM learning.skill_state WHERE skill_name = 'ana-release')""",
    )
    assert orphans == [(0, 0, 0, 0, 0)]
    ledger = rows(
        database_url,
        "SELECT purge_id, change_cursor, subject, workspace, actor, counts"
        " FROM learning.purge_ledger",
    )
    assert len(ledger) == 1
    purge_id, change_cursor, subject, workspace, actor, counts = ledger[0]
    assert (change_cursor, subject, workspace, actor) == (
        purged.change_cursor,
        "ana",
        "",
        "journal-purge",
    )
    assert counts["candidates"] == 5  # fact, run summary, two API facts, the procedure
    assert (counts["learnings"], counts["skill_versions"], counts["skills_removed"]) == (4, 1, 1)
    # An erasure adds no revision; the snapshot version still moves.
    served = s.learning.GetLearnedContext(
        pb.GetLearnedContextRequest(subject="bob", session_id="s-bob")
    )
    assert served.coverage.snapshot_version.endswith(f".{purge_id}")
    metrics = s.learning.GetLearningStatus(pb.GetLearningStatusRequest()).metrics
    assert metrics["purge_subjects_total"] == 1
    assert metrics["purge_candidates_removed_total"] == 5

    # New data about the subject after the purge is new data: a restart that
    # replays the whole feed (cursor reset) must not erase it again.
    fresh = candidate(s.learning, "the ana codename is Aurora", source=pb.Source(subject="ana"))
    suite.stop(grace=0.2)
    with psycopg.connect(database_url) as conn:
        conn.execute("UPDATE learning.worker_cursors SET position = 0 WHERE name = 'capture'")
    s = stubs(channel_to(start_services(["journal", "learning"])))
    wait_until(lambda: caught_up(s), what="capture to replay the feed")
    assert fresh.candidate_id in {c.candidate_id for c in candidates(s)}
    assert len(rows(database_url, "SELECT 1 FROM learning.purge_ledger")) == 1
    assert {c.candidate_id for c in candidates(s) if c.source.subject == "bob"} == bob_before


@pytest.fixture
def books(db: Database) -> Iterator[tuple[CandidateBook, LearningBook]]:
    yield CandidateBook(db), LearningBook(db)


def _new(content: str, subject: str, workspace: str, kind: Kind = Kind.FACT) -> NewCandidate:
    return NewCandidate(
        origin=Origin.API,
        scope=Scope(ScopeKind.WORKSPACE, "default"),
        kind=kind,
        content=content,
        confidence=90,
        source=SourceRef(subject=subject, workspace=workspace),
    )


def _erase(db: Database, change_cursor: int, subject: str, workspace: str = "") -> Any:
    with db.transaction() as conn:
        return erase_subject(conn, SubjectPurge(change_cursor, subject, workspace))


def _subjects(db: Database) -> list[tuple[str, str]]:
    with db.connection() as conn:
        found = conn.execute(
            "SELECT source_subject, source_workspace FROM learning.candidates ORDER BY 1, 2"
        ).fetchall()
    return [(r["source_subject"], r["source_workspace"]) for r in found]


def test_a_workspace_purge_takes_that_workspace_and_records_without_one(
    db: Database, books: tuple[CandidateBook, LearningBook]
) -> None:
    created, _ = books
    for i, (subject, workspace) in enumerate(
        [("ana", "default"), ("ana", ""), ("ana", "other"), ("bob", "other"), ("", "")]
    ):
        created.create(_new(f"record {i} is kept apart", subject, workspace), None)

    first = _erase(db, 7, "ana", "other")
    assert first is not None and first.counts["candidates"] == 2
    assert _subjects(db) == [("", ""), ("ana", "default"), ("bob", "other")]
    assert _erase(db, 7, "ana", "other") is None  # the same change again: nothing

    second = _erase(db, 9, "ana")
    assert second is not None and second.counts["candidates"] == 1
    assert _subjects(db) == [("", ""), ("bob", "other")]
    with db.connection() as conn:
        ledger = conn.execute(
            "SELECT change_cursor, workspace FROM learning.purge_ledger ORDER BY purge_id"
        ).fetchall()
    assert [(r["change_cursor"], r["workspace"]) for r in ledger] == [(7, "other"), (9, "")]


class NoRuns:
    """No rollout evidence is recorded in these tests."""

    def get_run_record(self, subject: str, workspace: str, run_id: str) -> RunEvidence | None:
        return None


def test_a_skill_keeps_its_surviving_versions_and_falls_back_to_their_state(
    db: Database, books: tuple[CandidateBook, LearningBook]
) -> None:
    created, published = books
    skills = SkillBook(db, NoRuns())

    def procedure(text: str, subject: str) -> Any:
        made = created.create(_new(text, subject, "default", Kind.PROCEDURE), None)
        learning, _, _ = published.publish_candidate(
            made["candidate_id"], Tier.ACTIVE, None, "", None
        )
        return learning["learning_id"]

    skills.promote(procedure("To build: make all", ""), "builder", "fork", "verification", None)
    skills.revoke("builder", "replaced", None)
    skills.promote(
        procedure("To build: make release", "ana"), "builder", "fork", "verification", None
    )
    assert skills.get("builder").skill["version"] == 2

    erased = _erase(db, 3, "ana")
    assert erased is not None
    assert (erased.counts["skill_versions"], erased.counts["skills_removed"]) == (1, 0)
    skill = skills.get("builder").skill
    assert (skill["version"], skill["state"], skill["instructions"]) == (
        1,
        "revoked",
        "To build: make all",
    )


def test_the_learning_purge_ledger_is_append_only_even_inside_a_purge(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO learning.purge_ledger (change_cursor, subject, actor) "
            "VALUES (1, 'ana', 'journal-purge')"
        )
        for statement in (
            "UPDATE learning.purge_ledger SET subject = 'someone else'",
            "DELETE FROM learning.purge_ledger",
            "TRUNCATE learning.purge_ledger",
        ):
            with (
                pytest.raises(psycopg.errors.RaiseException, match="append-only"),
                conn.transaction(),
            ):
                conn.execute("SELECT set_config('engram.audited_purge', 'on', true)")
                conn.execute(statement)
        assert conn.execute("SELECT subject FROM learning.purge_ledger").fetchall() == [("ana",)]


def test_append_only_tables_allow_delete_only_on_the_audited_path(database_url: str) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO learning.policy_versions (document, updated_by) VALUES ('{}', 'test')"
        )
        for statement in (
            "DELETE FROM learning.policy_versions",
            "UPDATE learning.policy_versions SET updated_by = 'x'",
        ):
            with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
                conn.execute(statement)
        with (
            pytest.raises(psycopg.errors.RaiseException, match="append-only"),
            conn.transaction(),
        ):
            conn.execute("SELECT set_config('engram.audited_purge', 'on', true)")
            conn.execute("UPDATE learning.policy_versions SET updated_by = 'x'")
        with conn.transaction():
            conn.execute("SELECT set_config('engram.audited_purge', 'on', true)")
            conn.execute("DELETE FROM learning.policy_versions")
        # The setting is the transaction's own.
        conn.execute(
            "INSERT INTO learning.policy_versions (document, updated_by) VALUES ('{}', 'test')"
        )
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("DELETE FROM learning.policy_versions")


def test_supersede_references_are_still_checked_when_written(
    db: Database, books: tuple[CandidateBook, LearningBook]
) -> None:
    created, published = books
    made = created.create(_new("the build host is b1", "", ""), None)
    learning, _, _ = published.publish_candidate(made["candidate_id"], Tier.ACTIVE, None, "", None)
    with pytest.raises(psycopg.errors.ForeignKeyViolation) as raised, db.transaction() as conn:
        conn.execute(
            "INSERT INTO learning.learning_revisions (learning_id, revision, status,"
            " publish_tier, action, actor, superseded_by)"
            " VALUES (%s, 2, 'superseded', 'active', 'superseded', 'test', %s)",
            (learning["learning_id"], uuid.uuid4()),
        )
    assert raised.value.diag.constraint_name == "learning_revisions_supersede_reference"
