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


@pytest.mark.parametrize(
    "clause",
    [
        "comme tu me l'as dit la semaine dernière",
        "vous m'aviez parlé de votre jardin",
        "según me contaste, tu hermano vive en Vigo",
        "como me comentó usted, el piso es pequeño",
        "wie Sie mir sagten, fahren Sie im Mai",
        "du hast mir neulich erzählt, dass Paul umzieht",
        "come mi avevi detto, tua sorella vive a Torino",
        "como você me disse, a reunião é na terça",
        "contaste-me que o teu cão se chama Bolinha",
        "zoals je me vertelde, werk je in Utrecht",
        "犬を飼っているとおっしゃっていましたね",
    ],
)
def test_telling_frames_of_every_gate_language(clause: str) -> None:
    assert find_recollection_spans(clause)


@pytest.mark.parametrize(
    "clause",
    [
        # someone else told: third-person forms need the polite pronoun or "me"
        "como dijo Einstein, la imaginación importa",
        "wie sie sagten, war das Wetter schön",
        "come ha detto il ministro, le tasse scendono",
        "como disse Pessoa, navegar é preciso",
        # negated, or the body of records searched with nothing found
        "du hast mir nie gesagt, wo du wohnst",
        "tu ne m'as jamais dit ton adresse",
        "dans tout ce que tu m'as raconté, rien ne concerne ton chien",
        "em tudo o que me contaste, não há nada sobre o casamento",
        "ご住所はこれまで伺ったことがありません",
    ],
)
def test_other_tellers_and_negated_frames_are_not_recollections(clause: str) -> None:
    assert not find_recollection_spans(clause)


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
