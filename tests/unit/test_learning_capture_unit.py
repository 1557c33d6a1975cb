"""Capture planning without a database: explicit labels short-circuit the
extractor at confidence 98, trailing reply-exactly instructions are trimmed,
the extractor is bounded and filtered, run summaries are sensitive."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from learning_service.capture import label_candidates, plan_capture, trim_instruction
from learning_service.journal_client import RunCompletion
from learning_service.model import Kind, Origin, ScopeKind, Sensitivity
from learning_service.plugins import PluginError, Proposal
from learning_service.policy import CaptureSettings

WORKED = "Preference: always report sizes in gigabytes, not gibibytes. Reply exactly OK."


def run(request: str, summary: str = "Run completed. Request: ...") -> RunCompletion:
    return RunCompletion(
        event_id=7,
        run_id="r1",
        session_id="s1",
        subject="u1",
        workspace="default",
        status="completed",
        request_text=request,
        outcome_text="OK",
        summary=summary,
    )


@dataclass
class FakeExtractor:
    proposals: list[Proposal] = field(default_factory=list)
    error: bool = False
    calls: list[int] = field(default_factory=list)

    def extract(
        self,
        run_id: str,
        session_id: str,
        request_text: str,
        outcome_text: str,
        max_candidates: int,
    ) -> list[Proposal]:
        self.calls.append(max_candidates)
        if self.error:
            raise PluginError("extractor failed: UNAVAILABLE")
        return self.proposals


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (WORKED, [(Kind.PREFERENCE, "always report sizes in gigabytes, not gibibytes.")]),
        (
            "Fact: the codename is Atlas. Respond with exactly DONE",
            [(Kind.FACT, "the codename is Atlas.")],
        ),
        ("Decision: ship on Friday, answer exactly yes", [(Kind.DECISION, "ship on Friday")]),
        (
            "Decision: we answer exactly what the client asks",
            [(Kind.DECISION, "we answer exactly what the client asks")],
        ),
        (
            "Hi. Fact: A is 1. Preference: tabs over spaces",
            [(Kind.FACT, "A is 1."), (Kind.PREFERENCE, "tabs over spaces")],
        ),
        (
            "please note Fact: folded previews keep labels",
            [(Kind.FACT, "folded previews keep labels")],
        ),
        ("FACT: shouting works", [(Kind.FACT, "shouting works")]),
        ("The decision: is prose, not a label", []),
        ("Fact: Fact: x", [(Kind.FACT, "x")]),
        ("Fact: the preview was cut here\u2026", []),
        ("Fact:    ", []),
        ("no labels at all", []),
    ],
)
def test_label_candidates(text: str, expected: list[tuple[Kind, str]]) -> None:
    assert label_candidates(text) == expected


def test_trim_instruction_only_at_a_clause_start() -> None:
    assert trim_instruction("use metric units. Please reply exactly OK.") == "use metric units."
    assert trim_instruction("we respond exactly once") == "we respond exactly once"


def test_labels_short_circuit_the_extractor() -> None:
    extractor = FakeExtractor([Proposal(Kind.FACT, "never used", 50)])
    plan = plan_capture(run(WORKED), CaptureSettings(), extractor)  # type: ignore[arg-type]
    assert extractor.calls == []
    preference, summary = plan.candidates
    assert (preference.kind, preference.confidence) == (Kind.PREFERENCE, 98)
    assert preference.content == "always report sizes in gigabytes, not gibibytes."
    assert preference.origin is Origin.DAEMON
    assert preference.scope.kind is ScopeKind.SESSION and preference.scope.id == "s1"
    assert preference.source.run_id == "r1" and preference.source.event_id == 7
    assert preference.evidence_refs == ("run:r1", "event:7")
    assert (summary.kind, summary.sensitivity) == (Kind.RUN_SUMMARY, Sensitivity.SENSITIVE)


def test_extractor_is_bounded_and_filtered() -> None:
    extractor = FakeExtractor(
        [
            Proposal(Kind.FACT, "the build uses bazel", 70),
            Proposal(Kind.FACT, "The  build uses Bazel", 70),  # duplicate after normalisation
            Proposal(Kind.PROCEDURE, "run make deploy", 90),  # not an extractable kind
            Proposal(None, "unknown kind", 90),
            Proposal(Kind.PREFERENCE, "api_key=sk-live-0123456789abcdefghij", 99),  # secret
            Proposal(Kind.DECISION, "ship weekly", 150),
            Proposal(Kind.FACT, "one too many", 60),
        ]
    )
    settings = CaptureSettings(run_summary_enabled=False)
    plan = plan_capture(run("summarise the build"), settings, extractor)  # type: ignore[arg-type]
    assert extractor.calls == [2]
    assert [(c.kind, c.content, c.confidence) for c in plan.candidates] == [
        (Kind.FACT, "the build uses bazel", 70),
        (Kind.DECISION, "ship weekly", 100),
    ]
    assert plan.counts["capture_duplicate_dropped_total"] == 1
    assert plan.counts["capture_secret_dropped_total"] == 1
    assert plan.counts["capture_invalid_dropped_total"] == 2
    assert plan.counts["capture_over_limit_dropped_total"] == 1


def test_extractor_error_means_no_candidates() -> None:
    settings = CaptureSettings(run_summary_enabled=False)
    plan = plan_capture(run("plain request"), settings, FakeExtractor(error=True))  # type: ignore[arg-type]
    assert plan.candidates == []
    assert plan.counts["capture_extractor_errors_total"] == 1


def test_no_extractor_and_switches() -> None:
    assert [c.kind for c in plan_capture(run("plain"), CaptureSettings(), None).candidates] == [
        Kind.RUN_SUMMARY
    ]
    off = CaptureSettings(run_summary_enabled=False, semantic_enabled=False)
    assert plan_capture(run(WORKED), off, None).candidates == []


def test_secret_labels_are_dropped() -> None:
    plan = plan_capture(
        run("Fact: x-api-key: abcdef0123456789abcdef"),
        CaptureSettings(run_summary_enabled=False),
        None,
    )
    assert plan.candidates == []
    assert plan.counts["capture_secret_dropped_total"] == 1
