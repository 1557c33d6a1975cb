"""What the classifier reads: clauses, conjoined clauses, and elliptic results."""

from __future__ import annotations

import pytest

from gateway.claims import ClaimKind, find_claims, joined_readings
from gateway.truthfulness import ClaimScope, analyse


def _units(text: str) -> list[tuple[int, int, int]]:
    analysis = analyse(text)
    return [(s, c.start, c.end) for s, c in analysis.asserted()]


def test_a_clause_is_also_read_with_the_next_clause_of_its_sentence() -> None:
    text = "Varri sua memória atrás do número da babá, mas nada. Boa sorte."
    analysis = analyse(text)
    joined = joined_readings(analysis, _units(text))
    assert list(joined) == [0]
    [(_, start, end)] = joined[0]
    assert analysis.masked[start:end] == "Varri sua memória atrás do número da babá, mas nada"


def test_a_sentence_of_three_units_is_also_read_whole() -> None:
    text = (
        "In unseren bisherigen Gesprächen, die ich eben gelesen habe, taucht der Umzug nicht auf."
    )
    analysis = analyse(text)
    units = _units(text)
    assert len(units) == 3
    joined = joined_readings(analysis, units)
    readings = {analysis.masked[a:b] for key in joined for _, a, b in joined[key]}
    assert text.rstrip(".") in readings
    assert sorted(joined) == [0, 1]


def test_units_of_different_sentences_are_not_joined() -> None:
    text = "I checked the calendar for Friday. The afternoon looks free for a call."
    assert joined_readings(analyse(text), _units(text)) == {}


@pytest.mark.parametrize(
    "text",
    [
        "Varri sua memória atrás do número da babá, mas nada.",
        "Recherche effectuée dans ton historique pour « covoiturage » : 0 résultat.",
        "Memory-Suche nach „Blutdruck“: 0 Treffer.",
        "Le budget n'est pas dans vos notes, j'ai regardé deux fois.",
        "In unseren bisherigen Gesprächen, die ich eben gelesen habe, taucht der Umzug nicht auf.",
    ],
)
def test_an_elliptic_result_completes_a_search_claim(text: str) -> None:
    claims = [c for c in find_claims(text) if c.kind is ClaimKind.ABSENCE]
    assert [c.scope for c in claims] == [ClaimScope.QUERY_SCOPED]


def test_a_short_clause_does_not_dilute_the_claim_before_it() -> None:
    text = "La fibromialgia non l'hai mai nominata con me; se ne soffri, rivediamo il programma."
    claims = [c for c in find_claims(text) if c.kind is ClaimKind.ABSENCE]
    assert [c.scope for c in claims] == [ClaimScope.CORPUS_WIDE]


def test_a_sentence_without_a_negation_is_read_clause_by_clause() -> None:
    text = "I checked the calendar for Friday, and the afternoon looks free for a call."
    assert len(_units(text)) >= 1
    assert joined_readings(analyse(text), _units(text)) == {}
