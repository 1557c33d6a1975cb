"""A search that could not finish, or a service that does not answer, qualifies the absence
it sits beside in every gate language."""

from __future__ import annotations

import pytest

from gateway.truthfulness import find_absence_claims


@pytest.mark.parametrize(
    "text",
    [
        "I found nothing about it in your notes, but the memory service isn't responding.",
        "Je n'ai pas pu terminer la recherche dans vos notes, le service ne répond pas ; "
        "rien n'est remonté.",
        "Die Suche in Ihren Notizen ließ sich nicht abschließen, der Dienst antwortet nicht "
        "– ich habe nichts gefunden.",
        "Não consegui concluir a pesquisa nas suas notas porque o serviço não responde; "
        "não encontrei nada.",
        "De zoekopdracht in uw notities kon niet worden afgerond omdat de dienst niet "
        "reageert; ik heb niets gevonden.",
    ],
)
def test_a_failed_search_releases_its_absence(text: str) -> None:
    assert find_absence_claims(text) == []


def test_a_claim_without_the_failure_is_still_a_claim() -> None:
    assert find_absence_claims("I searched your notes and found nothing about your landlord.")
