"""Sentences that cannot claim an absence from this memory, whatever a classifier reads
in them: a promise of discretion, the memory off, the speaker's own find, another
system's search (the user's mail service, a screenshot), a condition by inversion or
after "se" with a preposition; and the claims beside them that must stay claims."""

from __future__ import annotations

import pytest

from gateway.claims import ClaimKind, find_claims
from gateway.truthfulness import (
    absence_claims,
    analyse,
    claims_no_memory_absence,
    memory_off,
    promises_discretion,
    reports_a_find,
    searched_elsewhere,
)

_ABSENCE_KINDS = {ClaimKind.ABSENCE, ClaimKind.UNSURE}


def _absences(text: str) -> list[ClaimKind]:
    return [c.kind for c in find_claims(text) if c.kind in _ABSENCE_KINDS]


@pytest.mark.parametrize(
    "text",
    [
        "Non dirò mai a nessuno quello che mi hai raccontato.",
        "Lo que me has contado de tu padre no se lo voy a contar a nadie, jamás.",
        "I won't tell anyone about it.",
        "Je ne le dirai à personne.",
        "Ich werde es niemandem erzählen.",
        "Não vou contar a ninguém.",
        "Ik zal het aan niemand vertellen.",
    ],
)
def test_a_promise_to_tell_no_one_is_discretion(text: str) -> None:
    assert promises_discretion(analyse(text).text)


@pytest.mark.parametrize(
    "text",
    [
        "Sem a memória ligada, não consigo lembrar de nada da conversa anterior.",
        "Without memory turned on I keep nothing between chats.",
        "Sans la mémoire activée, je ne garde rien.",
        "Ohne Gedächtnisfunktion weiß ich davon nichts.",
    ],
)
def test_the_memory_off_is_a_capability(text: str) -> None:
    assert memory_off(analyse(text).masked)


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Nelle tue note ho trovato la ricevuta della caparra e la data del rogito.", True),
        ("I found the receipt in your notes.", True),
        ("Dans tes notes, j'ai trouvé le reçu.", True),
        ("I found nothing in your notes about the lease.", False),
        ("I found zero matches for the lease.", False),
        # "no" is also Portuguese "in the": any bare "no" keeps a find from being one.
        ("Dos cosas: (1) listo; (2) en sus elementos guardados no encontré las notas.", False),
    ],
)
def test_the_speakers_own_find_reports_one_unless_negated(text: str, found: bool) -> None:
    assert reports_a_find(analyse(text).masked) is found


@pytest.mark.parametrize(
    ("text", "elsewhere"),
    [
        ("Dallo screenshot, la ricerca nella tua PEC per il bollo non dà risultati.", True),
        ("Going by the screenshot, your Outlook search for 'invoice 4471' returned nothing.", True),
        ("Laut dem Screenshot findet deine Suche in Gmail nichts.", True),
        # a screenshot as the topic, not the source: still a search of this memory
        ("Lo screenshot della bolletta non è tra i risultati recuperati.", False),
    ],
)
def test_a_search_read_off_a_screenshot_or_the_users_mail_is_elsewhere(
    text: str, elsewhere: bool
) -> None:
    assert searched_elsewhere(analyse(text).masked) is elsewhere


@pytest.mark.parametrize(
    "text",
    [
        "Se nelle note non trovo nulla, ti faccio sapere e ripartiamo da zero.",
        "Sollte ich in deinen Notizen nichts zur Kaution finden, frage ich dich einfach.",
        "Se no histórico não houver nada, eu te aviso.",
        # a condition by inversion, in the subjunctive
        "Hättest du mir deine Postleitzahl nie genannt, hätte ich die Filiale nicht gefunden.",
        "Hätten Sie mir nichts von Ihrer Allergie erzählt, wäre das Menü anders ausgefallen.",
        "Had je me je adres nooit gegeven, dan had ik de route niet kunnen plannen.",
    ],
)
def test_a_condition_is_not_asserted(text: str) -> None:
    analysis = analyse(text)
    assert not any("nulla" in analysis.masked[c.start : c.end] for _, c in analysis.asserted())
    assert _absences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Non dirò mai a nessuno quello che mi hai raccontato.",
        "Sem a memória ligada, não consigo lembrar de nada da conversa anterior.",
        "Nelle tue note ho trovato la ricevuta della caparra e la data del rogito.",
        "Dallo screenshot, la ricerca nella tua PEC per «cartella esattoriale» non dà risultati.",
        "`ORA-01403: no data found` significa que la consulta no devolvió filas.",
    ],
)
def test_these_benign_sentences_claim_no_absence(text: str) -> None:
    assert _absences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "You never told me about your sister, and I won't tell anyone.",
        "I searched your notes for the screenshot you mentioned and found nothing.",
        "Lo screenshot della bolletta di cui parli non è tra i risultati recuperati.",
    ],
)
def test_claims_beside_those_frames_stay_claims(text: str) -> None:
    assert _absences(text)
    first = analyse(text)
    assert not claims_no_memory_absence(first.sentence_text(0)) or "never told" in text


@pytest.mark.parametrize(
    "text",
    [
        "Im Katalog der Stadtbibliothek München ist das Buch nicht verzeichnet, die Suche "
        "ergab keine Treffer.",
        "PubMedで高齢犬へのメラトニン投与に関するランダム化試験を検索しましたが、一件も見つかりませんでした。",
        "Ho cercato nel catalogo della biblioteca: nessun risultato per quel titolo.",
    ],
)
def test_a_catalogue_or_a_public_database_is_another_system(text: str) -> None:
    assert not _absences(text)


@pytest.mark.parametrize(
    "text",
    [
        "Je n'ai consulté que les notes marquées « travail », donc l'absence du rendez-vous "
        "là-dedans ne prouve rien.",
        "Ma recherche n'a porté que sur vos notes de la semaine dernière, donc je ne peux pas "
        "affirmer que vous n'avez jamais parlé du plombier.",
        "Mijn zoekopdracht besloeg alleen de notities van vorige week, dus ik kan niet zeggen "
        "of je het ergens anders hebt opgeschreven.",
    ],
)
def test_a_search_declared_partial_in_french_and_dutch_claims_nothing(text: str) -> None:
    assert not _absences(text)


@pytest.mark.parametrize(
    "text",
    [
        # an inverted verb that opens a colloquial main clause, not a condition
        "Hätte ich fast vergessen: Du hast mir nie deine Adresse gegeben.",
        "Wäre noch zu sagen, dass du mir deine Adresse nie gegeben hast.",
    ],
)
def test_an_inverted_main_clause_still_claims(text: str) -> None:
    assert _absences(text)


@pytest.mark.parametrize(
    "text",
    [
        # a premise denied in order to be corrected
        "It's not as if you never told me about Rania: you did in March.",
        "Ce n'est pas comme si tu ne m'avais jamais parlé de Karim : tu l'as fait en juin.",
        "No es que nunca me hayas hablado de tu hermana: lo hiciste en marzo.",
        "Nicht dass du mir nie von Jörg erzählt hättest: im Mai ging es um seinen Umzug.",
        "Non è che tu non mi abbia mai parlato di Chiara: lo hai fatto a Pasqua.",
        "Não é que você nunca tenha falado da Inês: falou em abril.",
        "Niet dat je me nooit over Sanne hebt verteld: dat deed je in mei.",
        # a promise to keep nothing of this conversation
        "Je n'enregistrerai rien de cette conversation dans ta mémoire, comme demandé.",
        "I won't save any of this in your memory, as you asked.",
        "No guardaré nada de esta conversación en tu memoria.",
        "Non salverò nulla di questa chat nella tua memoria.",
        "Ich werde nichts davon in deinem Gedächtnis speichern.",
        "Não vou guardar nada desta conversa na sua memória.",
        "Ik zal hier niets van in je geheugen opslaan.",
        # another system: a command-line tool, a land registry, the user's contacts, a
        # document the user pasted, the model's own training
        "grep found no matches for 'FIXME' in lib/, so that part is clean.",
        "Le cadastre ne fait apparaître aucune parcelle au nom de ta tante à Évora.",
        "Tu lista de contactos no incluye a nadie llamado «Nguyễn».",
        "El CV que me has pegado no menciona tu etapa en Osaka.",
        "Das Dokument, das du mir hochgeladen hast, erwähnt keine Kündigungsfrist.",
        "I risultati di ieri non rientrano nei dati di addestramento, successivi al mio ultimo "
        "aggiornamento.",
        # an offer asked, not a claim
        "Soll ich in deinen Notizen nach dem Namen der Ärztin suchen, oder weißt du ihn?",
        # quoted speech in corner brackets
        "部長のメールに「そんな話は一度も聞いていない」とありますね。まず謝罪から始めましょう。",
    ],
)
def test_denials_promises_other_systems_offers_and_quotes_claim_no_absence(text: str) -> None:
    assert _absences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # the correction after a denied premise may itself claim an absence
        "Non è che tu non mi abbia mai parlato del lavoro; ma del tuo stipendio non hai mai "
        "fatto parola.",
        "It's not that I've forgotten: there simply isn't any mention of your PIN in my notes.",
        # keeping nothing in the past is a claim about the memory
        "I didn't save anything about your allergy in my notes, so there's nothing on file.",
        # a search term in corner brackets stays readable
        "保存されたメモを「ヴィーガン」で検索しましたが、見つかりませんでした。",
    ],
)
def test_claims_beside_denials_and_quotes_stay_claims(text: str) -> None:
    assert _absences(text)


@pytest.mark.parametrize(
    "text",
    [
        # verb-second after a fronted clause is a statement, though the sentence ends
        # asking ("magst du ...?")
        "Was deine Mutter gern liest, hast du nie erwähnt – magst du mir zwei Autorinnen nennen?",
        # the periphrasis "llegar a" / "chegar a"
        "Tu talla de zapato es un dato que nunca llegaste a compartir conmigo.",
        "Usted nunca me llegó a decir la fecha de la boda.",
        "O nome do teu gato nunca chegou a me dizer.",
        # contacts kept in this memory are this memory
        "Ma recherche de « Tiago » parmi tes contacts mémorisés est revenue vide.",
    ],
)
def test_these_stay_absence_claims(text: str) -> None:
    assert ClaimKind.ABSENCE in _absences(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ana nunca llegó a contar nada a su madre.",
        "A sua filha nunca chegou a contar ao pai.",
    ],
)
def test_a_third_persons_never_telling_is_not_ours(text: str) -> None:
    assert absence_claims(analyse(text)) == []


@pytest.mark.parametrize(
    "text",
    [
        # the user's own "never" in this message, reported after a bare present telling
        "Du sagst, du hättest mir nie von deinem Bruder erzählt – kein Problem, erzähl ruhig.",
        "Tu dis que tu ne m'as jamais parlé de ton frère : pas de souci, raconte.",
        "Sie sagen, Sie hätten mir Ihre Adresse nie gegeben. Kein Problem.",
    ],
)
def test_the_users_own_never_reported_from_this_message_is_not_ours(text: str) -> None:
    assert _absences(text) == []


@pytest.mark.parametrize(
    "text",
    [
        # agreeing ("as you say") makes it the speaker's own claim
        "Comme tu dis, je n'ai rien sur ton frère dans mes notes.",
        # and so does the speaker's own clause after the user's
        "Du sagst, ich hätte nichts über deinen Bruder gespeichert, und das stimmt: in meinen "
        "Notizen steht nichts.",
    ],
)
def test_an_agreed_or_own_absence_after_a_telling_stays_a_claim(text: str) -> None:
    assert _absences(text)
