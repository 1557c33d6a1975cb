"""What the classifier reads: clauses, conjoined clauses, and elliptic results."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt
import pytest

from gateway import claims
from gateway.claim_model import ClaimClassifier, ClauseScore
from gateway.claims import ClaimKind, FoundClaim, _classified, find_claims, joined_readings
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


class _Recording(ClaimClassifier):
    """The shipped classifier, keeping the batches it was asked to score."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[list[str]] = []

    def classify(
        self,
        texts: Sequence[str],
        embed: Callable[[Sequence[str]], npt.NDArray[np.float32]] | None = None,
    ) -> list[ClauseScore]:
        self.batches.append(list(texts))
        return super().classify(texts, embed)


# One sentence each, of several units and a negation: some with a unit the classifier
# reads as an absence claim on its own, some without (a claim across a cut, or none).
_JOINABLE = [
    "Je n'ai rien sur tes préférences alimentaires : tu ne les as jamais précisées.",
    "En mi memoria no hay nada sobre tus contraseñas del banco; nunca me las diste.",
    "Ehrlich gesagt weiß ich nichts über deine Hochzeit – davon war zwischen uns nie die Rede.",
    "Varri sua memória atrás do número da babá, mas nada.",
    "In unseren bisherigen Gesprächen, die ich eben gelesen habe, taucht der Umzug nicht auf.",
    "No direct trains run there, so you'd change in Lyon, which takes about an hour.",
    "The museum doesn't open on Mondays, but the garden does, and it's free.",
]


def _scored(
    text: str, *, after_units: bool, ruled: frozenset[int] = frozenset()
) -> tuple[list[list[str]], list[FoundClaim]]:
    """The batches :func:`_classified` scores for ``text`` and the claims it finds."""
    model = _Recording()
    analysis = analyse(text)
    units = _units(text)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(claims, "JOINS_AFTER_UNITS", after_units)
        found = _classified(analysis, units, joined_readings(analysis, units), model, ruled)
    return model.batches, found


def _unit_claims(text: str) -> bool:
    """Whether the classifier reads some unit of ``text`` alone as an absence claim."""
    units = [analyse(text).masked[a:b] for _, a, b in _units(text)]
    scores = ClaimClassifier().classify(units)
    return any(s.label in claims._SCOPES for s in scores)


def _texts(text: str) -> tuple[list[str], set[str]]:
    analysis = analyse(text)
    units = _units(text)
    joins = {
        analysis.masked[a:b] for rs in joined_readings(analysis, units).values() for _, a, b in rs
    }
    return [analysis.masked[a:b] for _, a, b in units], joins


@pytest.mark.parametrize("text", _JOINABLE)
def test_joined_readings_are_read_in_the_units_batch(text: str) -> None:
    units, joins = _texts(text)
    assert joins
    batches, _ = _scored(text, after_units=False)
    assert len(batches) == 1
    assert batches[0][: len(units)] == units and set(batches[0][len(units) :]) == joins


@pytest.mark.parametrize("text", _JOINABLE)
def test_after_the_units_only_sentences_without_a_claim_are_joined(text: str) -> None:
    units, joins = _texts(text)
    batches, _ = _scored(text, after_units=True)
    assert batches[0] == units
    if _unit_claims(text):
        assert len(batches) == 1
    else:
        assert len(batches) == 2 and set(batches[1]) == joins


@pytest.mark.parametrize("text", _JOINABLE)
def test_a_join_counts_only_where_no_unit_claims_so_both_orders_agree(text: str) -> None:
    """The second batch never reads the joins of a sentence whose unit claims; the one
    batch reads them and must ignore them, or the two would differ."""
    assert _scored(text, after_units=False)[1] == _scored(text, after_units=True)[1]


@pytest.mark.parametrize("after_units", [False, True])
def test_the_joins_of_a_sentence_a_rule_settled_are_not_read(after_units: bool) -> None:
    # One sentence with no unit claiming: its joins are read otherwise, in either order.
    text = next(
        t for t in _JOINABLE if not _unit_claims(t) and joined_readings(analyse(t), _units(t))
    )
    units, _ = _texts(text)
    assert _scored(text, after_units=after_units)[0] != [units]
    assert _scored(text, after_units=after_units, ruled=frozenset({0}))[0] == [units]


def test_both_kinds_of_sentence_are_among_the_joinable_cases() -> None:
    """The tests above must see both branches, or they prove nothing."""
    assert {_unit_claims(text) for text in _JOINABLE} == {True, False}
