"""A search reported by a word for its null outcome ("came back with nothing", "blieb
ergebnislos", "l'esito è negativo", "resultou infrutífera", "空振り") is a query-scoped
absence claim wherever the search stands in the sentence, or in the sentence before; the
same words after no search of this memory claim nothing."""

from __future__ import annotations

import pytest

from gateway.truthfulness import ClaimScope, absence_claims, analyse


def _rule_scopes(text: str) -> set[ClaimScope]:
    return {c.scope for c in absence_claims(analyse(text))}


@pytest.mark.parametrize(
    "text",
    [
        "The lookup I ran on 'Dr. Okafor' in what you've told me before came back with nothing.",
        "My query over our chat history for the Ørsted shares didn't surface a single message.",
        "I went through our past sessions for your locker code, to no avail.",
        "Requête « code portail » lancée sur vos notes : néant.",
        "J'ai essayé « Lyon » puis « Villeurbanne » dans la mémoire de nos échanges, sans succès.",
        "Se ha efectuado una búsqueda en tu historial con el término «Cádiz», sin coincidencias.",
        "Hice tres intentos en tu memoria con «Cuzco» y todos volvieron vacíos.",
        "Meine Recherche in dem, was du mir geschrieben hast, blieb zur Kaution ergebnislos.",
        "Ich habe dein Gedächtnis nach „Jürgen“ abgefragt: kein einziger Treffer.",
        "Ho fatto una verifica nello storico delle chat sul codice fiscale: l'esito è negativo.",
        "Percorri as nossas conversas atrás do nome da vizinha e a procura resultou infrutífera.",
        "Ik heb teruggebladerd door wat we eerder bespraken. Wat je pincode betreft: nul treffers.",
        "Even nagezocht in je notities: geen treffers voor ‘Kraków’.",
        "保存されたメモを「北京」で検索してみました。残念ながら空振りです。",
        "過去の会話の記録を『ボルドー』で引いてみたものの、結果はゼロ。",
        "Ich habe die Erinnerungsdatenbank nach „Kowalczyk“ befragt – Fehlanzeige.",
        "Ho interrogato la memoria con due chiavi, «Cagliari» e «volo», ed entrambe sono andate "
        "a vuoto.",
        "Ho cercato quello che mi avevi detto sul progetto Ørestad: la ricerca è rimasta a secco.",
        "Even nagelopen in wat ik bewaard heb: op ‘Utrecht’ krijg ik niks terug.",
        "メモへのクエリ「引っ越し」は、空の結果を返しました。",
    ],
)
def test_a_search_with_a_null_outcome_is_query_scoped(text: str) -> None:
    assert ClaimScope.QUERY_SCOPED in _rule_scopes(text)


@pytest.mark.parametrize(
    "text",
    [
        "I tried calling the clinic twice this morning, to no avail.",
        "J'ai essayé de te joindre hier soir, sans succès.",
        "La candidatura di Marco a Zürich è stata infruttuosa, purtroppo.",
        "Die Bewerbung deiner Schwester in Graz blieb leider erfolglos.",
        "A busca falhou por causa de um erro de conexão, então não dá para concluir nada ainda.",
        "De query op de tabel `facturen` gaf 0 rijen terug, dus er staat niets open.",
        "Se ha ido sin decir nada, y la reunión terminó sin éxito.",
        "I searched the web for the São Paulo office hours, but the lookup came back with nothing.",
        "楽天ではそのサイズの検索結果が0件でした。",
        # a person questioned is no search of this memory
        "Ich habe deine Schwester befragt, Fehlanzeige.",
        "Ho interrogato tuo fratello, ma senza esito.",
    ],
)
def test_a_null_outcome_after_no_search_of_memory_claims_nothing(text: str) -> None:
    assert _rule_scopes(text) == set()


def test_a_spanish_passive_se_ha_is_not_a_condition() -> None:
    analysis = analyse("Se ha revisado tu historial de conversaciones y no hay nada sobre Malmö.")
    assert not any(c.conditional for s in analysis.sentences for c in s.clauses)
    # Italian "se ha" before a noun or an Italian participle stays "if"
    analysis = analyse("Se ha tempo domani, controlliamo insieme le note sul viaggio.")
    assert analysis.sentences[0].clauses[0].conditional


def test_the_memory_named_as_speech_is_not_a_report_frame() -> None:
    # "what you've told me" names this memory: the search of it is this memory's.
    for text in (
        "The lookup I did on 'Kiel' in what you've told me before drew a blank.",
        "I combed through everything you've said for the Kiel address and drew a blank.",
    ):
        assert ClaimScope.QUERY_SCOPED in _rule_scopes(text)
    # a report of what the user said stays reported speech
    assert _rule_scopes("You told me the lookup for 'Kiel' drew a blank.") == set()
