"""The memory described as blank, silent or without a line is a corpus-wide absence
claim, in either order and across a comma, only beside a word that names this memory;
the same states of other records, archives or a device's memory claim nothing."""

from __future__ import annotations

import pytest

from gateway.truthfulness import ClaimScope, absence_claims, analyse


def _rule_scopes(text: str) -> set[ClaimScope]:
    return {c.scope for c in absence_claims(analyse(text))}


@pytest.mark.parametrize(
    "text",
    [
        "Our past chats are silent on your cat's name, so the card just says 'your cat'.",
        "Les archives de nos entretiens sont vierges sur votre traitement.",
        "Sulla visita a Torino le nostre vecchie conversazioni tacciono del tutto.",
        "Het archief van onze gesprekken zwijgt over je studieschuld.",
        "Nas nossas conversas antigas, zero referências ao seu contrato em Genève.",
        "Tu número de socio brilla por su ausencia en lo que recuerdo de ti.",
        "In unseren bisherigen Gesprächen bleibt dein Geburtsort völlig leer.",
        "What I know about you is blank when it comes to your allergies.",
    ],
)
def test_the_memory_in_a_state_of_emptiness_is_corpus_wide(text: str) -> None:
    assert ClaimScope.CORPUS_WIDE in _rule_scopes(text)


@pytest.mark.parametrize(
    "text",
    [
        # the blank described after a search, or as a search's outcome, is that search's
        "J'ai filtré ta mémoire sur le mot « Zürich » et la liste reste désespérément vide.",
        "Ho passato in rassegna le nostre vecchie chat per «Ferrero»: nemmeno una riga.",
    ],
)
def test_a_blank_after_a_search_is_query_scoped(text: str) -> None:
    assert _rule_scopes(text) == {ClaimScope.QUERY_SCOPED}


@pytest.mark.parametrize(
    "text",
    [
        "Historical records are silent on where the composer was buried.",
        "Die Archive schweigen über sein Schicksal nach 1944.",
        "La memoria del tuo telefono è quasi vuota, quindi puoi scaricare la mappa.",
        "Your phone's memory is empty enough for the update.",
        "The fridge is empty, so let's order in tonight.",
        "Le tableau est vide pour l'instant : ajoute une ligne par invité.",
    ],
)
def test_emptiness_of_other_things_claims_nothing(text: str) -> None:
    assert _rule_scopes(text) == set()
