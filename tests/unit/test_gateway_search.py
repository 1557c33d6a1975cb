"""Merging operator search hits across planes."""

from __future__ import annotations

from google.protobuf.timestamp_pb2 import Timestamp

from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from gateway.search import learning_hits, merge, run_hits


def lhit(hit_id: str, scope: str, t: int, kind: str = "learning") -> lpb.LearningSearchHit:
    return lpb.LearningSearchHit(
        hit_kind=kind,
        id=hit_id,
        title=hit_id,
        excerpt="e",
        scope_key=scope,
        score=0.5,
        prompt_eligible=True,
        updated_at=Timestamp(seconds=t),
    )


def run(run_id: str, session: str, t: int, scopes: tuple[str, ...] = ()) -> jpb.RankedRunRecord:
    return jpb.RankedRunRecord(
        score=2.0,
        record=jpb.RunRecord(
            run_id=run_id,
            session_id=session,
            summary="s",
            scope_keys=list(scopes),
            status=jpb.RUN_STATUS_COMPLETED,
            recorded_at=Timestamp(seconds=t),
        ),
    )


VISIBLE = {"session:s1", "project:p1", "workspace:default"}


def test_learnings_outside_visible_scopes_are_dropped_skills_kept() -> None:
    hits = learning_hits(
        [lhit("a", "project:p1", 1), lhit("b", "project:p2", 2), lhit("sk", "", 3, kind="skill")],
        VISIBLE,
    )
    assert [h.id for h in hits] == ["a", "sk"]
    assert hits[1].kind == "skill"


def test_run_records_own_session_or_visible_scope_only() -> None:
    hits = run_hits(
        [
            run("own", "s1", 1),
            run("shared", "s2", 2, ("project:p1",)),
            run("hidden", "s3", 3, ("project:p9",)),
        ],
        "s1",
        VISIBLE,
    )
    assert [(h.id, h.prompt_eligible) for h in hits] == [("own", True), ("shared", False)]
    assert hits[0].kind == "recovered_run"
    assert hits[0].scope_key == "session:s1"


def test_browse_is_newest_first_across_sources() -> None:
    merged = merge(
        [
            learning_hits([lhit("a", "project:p1", 5)], VISIBLE),
            run_hits([run("r", "s1", 9), run("q", "s1", 1)], "s1", VISIBLE),
        ],
        browse=True,
    )
    assert [h.id for h in merged] == ["r", "a", "q"]


def test_query_interleaves_by_source_rank() -> None:
    learnings = learning_hits([lhit("a1", "project:p1", 1), lhit("a2", "project:p1", 1)], VISIBLE)
    runs = run_hits([run("r1", "s1", 2), run("r2", "s1", 2)], "s1", VISIBLE)
    merged = merge([learnings, runs], browse=False)
    assert [h.id for h in merged] == ["r1", "a1", "r2", "a2"]
    assert merged[0].score == 2.0  # the source's own score is kept
