"""A recollection is released only by a record of the fact it states."""

from __future__ import annotations

import pytest

from engram.common.v1 import common_pb2
from gateway.claims import ClaimKind, find_claims
from gateway.evidence import ContextEvidence, SectionEvidence
from gateway.gate import Reason, Verdict, decide
from gateway.recollection import supported_by_records
from gateway.topics import fact_of


def _evidence(records: tuple[str, ...]) -> ContextEvidence:
    section = SectionEvidence(
        "episodic_recall", common_pb2.ABSENCE_STATE_NOT_ABSENT, common_pb2.Coverage(), 1
    )
    return ContextEvidence.build(sections=(section,), query_text="", rendered_records=records)


def _unsupported(text: str, record: str) -> bool:
    decision = decide(_evidence((record,)), text, attempt=1)
    if decision.verdict is Verdict.RELEASE:
        return False
    return any(v.reason is Reason.UNSUPPORTED_RECOLLECTION for v in decision.violations)


@pytest.mark.parametrize(
    ("text", "record"),
    [
        # The fact before the telling frame; the frame's own words name when it was told.
        (
            "You grew up in Toronto, as you mentioned when we talked about winter tyres, "
            "so you know the drill.",
            "I grew up in Toronto.",
        ),
        # The fact after a bare frame, the rest of the sentence is what the answer did.
        (
            "As you told me, you've been vegan for three years, so every dish on this "
            "list is plant-based.",
            "I've been vegan for three years.",
        ),
        (
            "Du hast mir gesagt, dass du glutenfrei isst, deshalb ist der Boden aus "
            "Buchweizenmehl.",
            "Ich muss mich glutenfrei ernähren.",
        ),
    ],
)
def test_a_record_of_the_fact_supports_the_recollection(text: str, record: str) -> None:
    assert not _unsupported(text, record)


@pytest.mark.parametrize(
    ("text", "record"),
    [
        ("You told me your dog Heidi hates the vacuum cleaner.", "My dog Max hates the vacuum."),
        (
            "Your laptop runs Ubuntu 22.04, as you noted, so the apt steps work as they are.",
            "My laptop runs Ubuntu 20.04.",
        ),
        ("As you mentioned, you grew up in Toronto.", "My sister lives in Lisbon."),
    ],
)
def test_a_record_of_another_fact_does_not(text: str, record: str) -> None:
    assert _unsupported(text, record)


def test_names_and_numbers_of_a_fact_must_all_be_in_the_record() -> None:
    fact = fact_of("your flight to Lisbon on the 4th")
    assert "lisbon" in fact.specific and "4th" in fact.specific
    assert supported_by_records(fact, ["My flight to Lisbon is on the 4th."])
    assert not supported_by_records(fact, ["My flight to Porto is on the 4th."])
    assert not supported_by_records(fact, ["My flight to Lisbon is on the 14th."])


def test_a_recollection_carries_the_clauses_beside_its_frame() -> None:
    claims = find_claims("You grew up in Toronto, as you mentioned when we talked about tyres.")
    recollections = [c for c in claims if c.kind is ClaimKind.RECOLLECTION]
    assert recollections
    assert any("toronto" in f.exact for c in recollections for f in c.facts)
