"""What the classifier reads: clauses, conjoined clauses, and elliptic results."""

from __future__ import annotations

import pytest

from gateway.claims import ClaimKind, find_claims, fragment_readings
from gateway.truthfulness import ClaimScope, analyse


def _units(text: str) -> list[tuple[int, int, int]]:
    analysis = analyse(text)
    return [(s, c.start, c.end) for s, c in analysis.asserted()]


def test_a_short_clause_is_also_read_with_the_clause_before_it() -> None:
    text = "Varri sua memória atrás do número da babá, mas nada."
    analysis = analyse(text)
    units = _units(text)
    joined = fragment_readings(analysis, units)
    assert list(joined) == [0]
    _, start, end = joined[0]
    assert analysis.masked[start:end] == "Varri sua memória atrás do número da babá, mas nada"


def test_long_clauses_are_read_alone() -> None:
    text = "I checked the calendar for Friday, and the afternoon looks free for a call."
    assert fragment_readings(analyse(text), _units(text)) == {}


@pytest.mark.parametrize(
    "text",
    [
        "Varri sua memória atrás do número da babá, mas nada.",
        "Recherche effectuée dans ton historique pour « covoiturage » : 0 résultat.",
    ],
)
def test_an_elliptic_result_completes_a_search_claim(text: str) -> None:
    claims = [c for c in find_claims(text) if c.kind is ClaimKind.ABSENCE]
    assert [c.scope for c in claims] == [ClaimScope.QUERY_SCOPED]


def test_a_short_clause_does_not_dilute_the_claim_before_it() -> None:
    text = "La fibromialgia non l'hai mai nominata con me; se ne soffri, rivediamo il programma."
    claims = [c for c in find_claims(text) if c.kind is ClaimKind.ABSENCE]
    assert [c.scope for c in claims] == [ClaimScope.CORPUS_WIDE]
