"""Capture end to end: JournalService.CompleteRun -> run.completed on the
change feed -> daemon-origin candidates, including a restart in the middle of
capture that must neither lose nor duplicate a candidate."""

from __future__ import annotations

from typing import Any

import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import plugins_pb2 as ppb
from tests.integration.test_learning_support import (
    FakeExtractor,
    Stubs,
    complete_run,
    serve_plugin,
    set_policy,
    stubs,
    wait_until,
)

pytestmark = [pytest.mark.integration, pytest.mark.e2e]

WORKED = "Preference: always report sizes in gigabytes, not gibibytes. Reply exactly OK."
ALL = [
    pb.CANDIDATE_STATUS_PENDING,
    pb.CANDIDATE_STATUS_ESCALATED,
    pb.CANDIDATE_STATUS_PUBLISHED,
    pb.CANDIDATE_STATUS_REJECTED,
]


def all_candidates(s: Stubs) -> list[pb.Candidate]:
    return list(
        s.learning.ListCandidates(pb.ListCandidatesRequest(statuses=ALL, page_size=500)).candidates
    )


def caught_up(s: Stubs) -> bool:
    """Capture has processed every change the journal has committed."""
    watermark = s.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark
    return s.learning.GetLearningStatus(pb.GetLearningStatusRequest()).capture_cursor >= watermark


def test_labelled_request_becomes_a_preference_candidate(
    start_services: Any, channel_to: Any
) -> None:
    s = stubs(channel_to(start_services(["journal", "learning"])))
    completed = complete_run(
        s.journal, "run-worked", WORKED, "OK", session_id="s-worked", subject="ana"
    )
    found = wait_until(
        lambda: all_candidates(s) if len(all_candidates(s)) == 2 else None,
        what="the preference and run-summary candidates",
    )
    by_kind = {c.kind: c for c in found}
    preference = by_kind[pb.LEARNING_KIND_PREFERENCE]
    assert preference.content == "always report sizes in gigabytes, not gibibytes."
    assert (preference.confidence, preference.origin) == (98, pb.CANDIDATE_ORIGIN_DAEMON)
    assert (preference.scope.kind, preference.scope.id) == (cpb.SCOPE_KIND_SESSION, "s-worked")
    assert (
        preference.source.run_id,
        preference.source.session_id,
        preference.source.subject,
        preference.source.workspace,
        preference.source.event_id,
    ) == ("run-worked", "s-worked", "ana", "default", completed.event_id)
    assert list(preference.evidence_refs) == ["run:run-worked", f"event:{completed.event_id}"]
    summary = by_kind[pb.LEARNING_KIND_RUN_SUMMARY]
    assert summary.sensitivity == pb.SENSITIVITY_SENSITIVE
    assert summary.content == completed.record.summary
    # The default policy is shadow: reviewed, still pending.
    wait_until(lambda: all(c.HasField("review") for c in all_candidates(s)), what="reviews")
    assert {c.status for c in all_candidates(s)} == {pb.CANDIDATE_STATUS_PENDING}
    # Replaying the same run changes nothing.
    complete_run(s.journal, "run-worked", WORKED, "OK", session_id="s-worked", subject="ana")
    wait_until(lambda: caught_up(s), what="capture to catch up")
    assert len(all_candidates(s)) == 2
    metrics = s.learning.GetLearningStatus(pb.GetLearningStatusRequest()).metrics
    assert metrics["capture_label_candidates_total"] == 1


def test_capture_switches(start_services: Any, channel_to: Any) -> None:
    s = stubs(channel_to(start_services(["journal", "learning"])))
    policy = pb.LearningPolicy(
        mode=pb.AUTOMATION_MODE_SHADOW,
        capture=pb.CaptureSettings(semantic_enabled=False, run_summary_enabled=False),
    )
    s.learning.SetLearningPolicy(pb.SetLearningPolicyRequest(policy=policy))
    complete_run(s.journal, "run-off", "Fact: nothing is captured")
    wait_until(lambda: caught_up(s), what="capture to catch up")
    assert all_candidates(s) == []
    set_policy(s.learning, pb.AUTOMATION_MODE_SHADOW)  # capture section absent: defaults
    complete_run(s.journal, "run-on", "Fact: this one is captured")
    wait_until(lambda: len(all_candidates(s)) == 2, what="two candidates")


def test_restart_mid_capture_loses_and_duplicates_nothing(
    start_services: Any, channel_to: Any
) -> None:
    first = start_services(["journal", "learning"])
    s = stubs(channel_to(first))
    for i in range(4):
        complete_run(
            s.journal, f"run-{i}", f"Preference: unit {i} uses metric sizes", session_id=f"s{i % 2}"
        )
    first.stop()  # whatever capture had not finished is left to the next process

    journal_only = start_services(["journal"])
    s = stubs(channel_to(journal_only))
    for i in range(4, 8):
        complete_run(
            s.journal, f"run-{i}", f"Preference: unit {i} uses metric sizes", session_id=f"s{i % 2}"
        )
    journal_only.stop()

    s = stubs(channel_to(start_services(["journal", "learning"])))
    wait_until(lambda: caught_up(s), what="capture to catch up after the restart")
    found = all_candidates(s)
    preferences = sorted(c.source.run_id for c in found if c.kind == pb.LEARNING_KIND_PREFERENCE)
    summaries = sorted(c.source.run_id for c in found if c.kind == pb.LEARNING_KIND_RUN_SUMMARY)
    expected = sorted(f"run-{i}" for i in range(8))
    assert preferences == expected
    assert summaries == expected
    contents = {c.source.run_id: c.content for c in found if c.kind == pb.LEARNING_KIND_PREFERENCE}
    assert contents["run-5"] == "unit 5 uses metric sizes"


def test_shutdown_during_extraction_leaves_the_run_for_the_next_process(
    start_services: Any, channel_to: Any
) -> None:
    busy = FakeExtractor(hang=True)
    found = [
        ppb.ExtractedCandidate(
            kind=pb.LEARNING_KIND_FACT, content="the cache is redis", confidence=80
        )
    ]
    with serve_plugin(busy) as busy_addr, serve_plugin(FakeExtractor(found)) as ready_addr:
        first = start_services(["journal", "learning"], extractor_addr=busy_addr)
        s = stubs(channel_to(first))
        set_policy(s.learning, pb.AUTOMATION_MODE_SHADOW)
        complete_run(s.journal, "run-a", "Fact: labelled before the stall")
        complete_run(s.journal, "run-b", "where is the cache?", "the cache is redis")
        complete_run(s.journal, "run-c", "Fact: labelled after the stall")
        wait_until(lambda: busy.calls, what="capture to reach the unlabelled run")
        first.stop()  # the extractor call for run-b is still in flight

        s = stubs(channel_to(start_services(["journal", "learning"], extractor_addr=ready_addr)))
        wait_until(lambda: caught_up(s), what="capture to catch up after the restart")
        semantic = sorted(
            (c.source.run_id, c.content)
            for c in all_candidates(s)
            if c.kind != pb.LEARNING_KIND_RUN_SUMMARY
        )
        assert semantic == [
            ("run-a", "labelled before the stall"),
            ("run-b", "the cache is redis"),
            ("run-c", "labelled after the stall"),
        ]
        summaries = [
            c.source.run_id for c in all_candidates(s) if c.kind == pb.LEARNING_KIND_RUN_SUMMARY
        ]
        assert sorted(summaries) == ["run-a", "run-b", "run-c"]
