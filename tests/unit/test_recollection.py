"""Recollection rules and the clause analysis they rely on (no model needed)."""

from __future__ import annotations

import pytest

from gateway.recollection import find_recollection_spans
from gateway.truthfulness import analyse, find_absence_claims


@pytest.mark.parametrize(
    "clause",
    [
        "as you mentioned last week",
        "you told me your sister is Anna",
        "Like you told me last week",
    ],
)
def test_telling_is_a_recollection(clause: str) -> None:
    assert find_recollection_spans(clause)


@pytest.mark.parametrize(
    ("before", "clause"),
    [
        ("", "Your diagnosis has never been part of what you've shared with me"),
        ("", "Your birthday isn't something you've shared with me"),
        ("There is no record, ", "in anything you've told me"),
        ("", "you never told me about it"),
    ],
)
def test_negated_telling_is_not_a_recollection(before: str, clause: str) -> None:
    assert not find_recollection_spans(clause, before)


def test_no_worries_does_not_negate() -> None:
    assert find_recollection_spans("as you mentioned last week", "No worries, ")


def _asserted(text: str) -> list[str]:
    a = analyse(text)
    return [a.masked[c.start : c.end].strip() for _, c in a.asserted()]


def _tagged(text: str) -> list[str]:
    a = analyse(text)
    return [a.masked[c.start : c.end].strip() for _, c in a.tagged()]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        ("Your son Leo starts school in September, right? I can help.", "Your son Leo starts"),
        ("Jonas kommt im September in die Schule, oder? Ich helfe dir.", "Jonas kommt"),
        ("Tu hijo empieza en septiembre, ¿verdad? Te ayudo.", "Tu hijo empieza"),
        ("Ton fils entre à l'école en septembre, n'est-ce pas ?", "Ton fils entre"),
    ],
)
def test_tag_questions_expose_the_fact_before_the_tag(text: str, fact: str) -> None:
    tagged = _tagged(text)
    assert any(t.startswith(fact) for t in tagged), tagged
    assert not any(t.startswith(fact) for t in _asserted(text))


def test_real_questions_are_not_tagged() -> None:
    assert _tagged("Does your son start school in September?") == []


def test_a_comma_between_digits_does_not_split_a_clause() -> None:
    assert _asserted("With the 18,000 cap you set, the venue is out.")[0] == (
        "With the 18,000 cap you set"
    )


def test_a_search_of_another_system_named_earlier_in_the_sentence() -> None:
    assert find_absence_claims("I searched your inbox for the invoice and found nothing.") == []
    assert find_absence_claims("I searched my notes and found nothing.")
