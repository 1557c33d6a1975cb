"""Review pieces without a database: the baseline envelope (API-origin and
procedure downgrades), verification against a run record, and learned-context
selection (zero-score omission, durable-memory fallback, limits)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from engram.errors import Unavailable
from learning_service.context import select
from learning_service.model import Action, Verification
from learning_service.policy import parse
from learning_service.review import baseline, verify
from learning_service.skills import RunEvidence

ACTIVE_FOR = {
    "publication": {
        "rules": [
            {"name": "facts", "action": "publish_active", "kind": "fact"},
            {"name": "procedures", "action": "publish_provisional", "kind": "procedure"},
        ]
    }
}


def row(**overrides: Any) -> dict[str, Any]:
    values: dict[str, Any] = {
        "origin": "daemon",
        "scope_kind": "session",
        "scope_id": "s1",
        "kind": "fact",
        "sensitivity": "normal",
        "confidence": 98,
        "evidence_refs": ["run:r1"],
        "source_run_id": "r1",
        "source_session_id": "s1",
        "source_subject": "u1",
        "source_workspace": "default",
        "content": "always report sizes in gigabytes",
    }
    values.update(overrides)
    return values


def test_api_origin_active_is_downgraded_unless_allowed() -> None:
    assert baseline(parse(ACTIVE_FOR), row()).final is Action.PUBLISH_ACTIVE
    downgraded = baseline(parse(ACTIVE_FOR), row(origin="api"))
    assert (downgraded.matched_rule, downgraded.baseline) == ("facts", Action.PUBLISH_PROVISIONAL)
    assert "api-origin" in downgraded.reason
    allowed = parse(
        {
            **ACTIVE_FOR,
            "publication": {
                **ACTIVE_FOR["publication"],
                "allow_api_origin_active_publication": True,
            },
        }
    )
    assert baseline(allowed, row(origin="api")).final is Action.PUBLISH_ACTIVE


class Runs:
    def __init__(self, record: RunEvidence | None = None, down: bool = False) -> None:
        self.record = record
        self.down = down
        self.asked: tuple[str, str, str] | None = None

    def get_run_record(self, subject: str, workspace: str, run_id: str) -> RunEvidence | None:
        self.asked = (subject, workspace, run_id)
        if self.down:
            raise Unavailable("journal down")
        return self.record


RECORD = RunEvidence(
    "r1",
    "s1",
    "completed",
    "Run completed. Request: ...",
    "Preference: always report sizes in gigabytes. Reply exactly OK.",
    "OK",
)


@pytest.mark.parametrize(
    ("runs", "overrides", "expected"),
    [
        (Runs(RECORD), {}, Verification.VERIFIED),
        (Runs(RECORD), {"content": "always report sizes in terabytes"}, Verification.FAILED),
        (Runs(RECORD), {"source_session_id": "s2"}, Verification.FAILED),
        (Runs(None), {}, Verification.UNVERIFIED),
        (Runs(down=True), {}, Verification.UNVERIFIED),
        (Runs(RECORD), {"source_run_id": ""}, Verification.UNVERIFIED),
        # A run named without its subject cannot be looked up, so not verified.
        (Runs(RECORD), {"source_subject": ""}, Verification.UNVERIFIED),
    ],
)
def test_verify(runs: Runs, overrides: dict[str, Any], expected: Verification) -> None:
    assert verify(runs, row(**overrides))[0] is expected


def test_verify_reads_the_run_under_the_source_subject_and_workspace() -> None:
    runs = Runs(RECORD)
    verify(runs, row(source_subject="ana", source_workspace="w2"))
    assert runs.asked == ("ana", "w2", "r1")
    unnamed = Runs(RECORD)
    verify(unnamed, row(source_subject=""))
    assert unnamed.asked is None  # never looked up under no subject


def learning(content: str, age_minutes: int, scope_kind: str = "session") -> dict[str, Any]:
    created = datetime(2030, 1, 1, tzinfo=UTC) - timedelta(minutes=age_minutes)
    return {"content": content, "created_at": created, "scope_kind": scope_kind}


ELIGIBLE = [
    learning("Always report sizes in gigabytes", 30),
    learning("The project codename is Atlas", 20, "workspace"),
    learning("Deploys happen on Tuesdays", 10, "project"),
]


def test_only_scoring_entries_when_anything_scores() -> None:
    picked = select(ELIGIBLE, "how big are the sizes on disk?", 8)
    assert [s.row["content"] for s in picked.chosen] == ["Always report sizes in gigabytes"]
    assert (picked.omitted_zero_score, picked.recency_fallback, picked.matched) == (2, False, 1)


def test_nothing_scores_means_nothing_unless_memory_is_asked_for() -> None:
    assert select(ELIGIBLE, "tell me a joke", 8).chosen == []
    fallback = select(ELIGIBLE, "use durable memory: what do you remember?", 2)
    assert fallback.recency_fallback
    assert [s.row["content"] for s in fallback.chosen] == [
        "Deploys happen on Tuesdays",
        "The project codename is Atlas",
    ]
    assert (fallback.omitted_by_limit, fallback.matched) == (1, 3)


def test_limit_counts_omissions_and_ranks_by_score() -> None:
    rows = [learning(f"sizes gigabytes note {i}", i) for i in range(5)]
    rows.append(learning("sizes gigabytes", 99))
    picked = select(rows, "sizes gigabytes", 2)
    assert picked.chosen[0].row["content"] == "sizes gigabytes"
    assert (len(picked.chosen), picked.omitted_by_limit, picked.matched) == (2, 4, 6)
