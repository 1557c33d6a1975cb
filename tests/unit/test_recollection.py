"""Recollection rules and the clause analysis they rely on (no model needed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import pytest

import gateway.claims as claims_module
from gateway.claim_model import ClaimClassifier, ClauseScore
from gateway.claims import ClaimKind, find_claims
from gateway.recollection import find_recollection_spans, names_the_current_message
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


class _AllBenign:
    """A classifier that finds nothing, so only the rules speak."""

    def classify(self, texts: Sequence[str]) -> list[ClauseScore]:
        return [ClauseScore("benign", 0.0, "fast", False) for _ in texts]


_BENIGN = cast(ClaimClassifier, _AllBenign())

# These tests read what the rule library finds; in the gate, a presupposed fact in a
# sentence that does not name the user goes to the classifier instead (tested below).
pytestmark = pytest.mark.usefixtures("rules_settle_every_presupposition")


class _AllRecollection:
    """A classifier that reads every clause it is given as a recollection."""

    def classify(self, texts: Sequence[str]) -> list[ClauseScore]:
        return [ClauseScore("recollection", 1.0, "model", False) for _ in texts]


@pytest.mark.parametrize(
    ("anyones", "the_users"),
    [
        (
            "Because Bilbo leaves the Shire after his birthday party, the Ring passes to Frodo.",
            "Because your son Bilbo leaves for camp after his birthday party, pack on Friday.",
        ),
        (
            "Frida Kahlo sufrió a los 18 años un accidente de autobús.",
            "Tu hija Frida sufrió a los 18 años un accidente de autobús.",
        ),
        (
            "Since Pepper gets so nervous at the vet, the nurses keep a blanket ready.",
            "Since your dog Pepper gets so nervous at the vet, bring her favourite blanket.",
        ),
    ],
)
def test_a_presupposition_that_does_not_name_the_user_is_the_classifier_s_to_read(
    monkeypatch: pytest.MonkeyPatch, anyones: str, the_users: str
) -> None:
    monkeypatch.setattr(claims_module, "PRESUPPOSED_NEEDS_YOU", False)
    assert _recalled(anyones)  # the rule reads a presupposed fact in both
    monkeypatch.setattr(claims_module, "PRESUPPOSED_NEEDS_YOU", True)
    assert not _recalled(anyones)  # not settled by rule: the classifier found nothing
    read = cast(ClaimClassifier, _AllRecollection())
    assert {c.source for c in find_claims(anyones, model=read)} == {"model:model"}
    sources = [c.source for c in find_claims(the_users, model=_BENIGN)]
    assert sources == ["recollection:presupposed"]


def _recalled(text: str) -> bool:
    """Whether a recollection rule (telling frame, recall marker or presupposed fact)
    finds a recollection in ``text``, the classifier finding nothing."""
    return any(c.kind is ClaimKind.RECOLLECTION for c in find_claims(text, model=_BENIGN))


@pytest.mark.parametrize(
    "text",
    [
        "With your knee injury, skip the lunges for now.",
        "Ahead of your half marathon in October, taper for two weeks.",
        "Given that your daughter starts school in April, book the uniform fitting early.",
        "Since you're vegetarian, I swapped the chicken for smoked tofu.",
        "Your son Leo starts school in September, right? I can draft a checklist.",
        "Your flight to Lisbon on the 14th leaves early, so stay near the airport.",
        "Avec ta blessure au genou, évite les fentes pour l'instant.",
        "Vu l'allergie de votre fille à l'arachide, j'éviterais cette boulangerie.",
        "Ton marathon est en octobre, il nous reste donc quatorze semaines.",
        "Dada la alergia de tu hija al maní, evitaría esa panadería.",
        "Como trabajas en el turno de noche, puse los recordatorios a las seis.",
        "Wegen deiner Knieverletzung würde ich die Ausfallschritte weglassen.",
        "Da du Vegetarier bist, habe ich das Hähnchen durch Tofu ersetzt.",
        "Visto che fai i turni di notte, ho spostato i promemoria alle 18.",
        "In vista del vostro trasloco a Torino in primavera, prenotate la ditta per tempo.",
        "Já que a tua filha começou a escola em Coimbra, vê o calendário escolar.",
        "Com a cirurgia no teu joelho, eu evitaria o afundo por enquanto.",
        "Omdat je vegetariër bent, heb ik de kip vervangen door tofu.",
        "Met het oog op jullie verhuizing naar Utrecht in het voorjaar, boek de verhuizers vroeg.",
        "ベジタリアンとのことなので、鶏肉を豆腐に替えました。",
    ],
)
def test_presupposed_personal_facts_are_recollections(text: str) -> None:
    assert _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        # general advice to a generic "you"
        "Your muscles need rest after a long run, so take a day off.",
        "With your doctor's approval, you can start running again.",
        "Since you asked, here is the short version.",
        "Du solltest mit deiner Schwester reden, bevor die Hochzeit ist.",
        "Dovresti parlarne con tua sorella prima del matrimonio.",
        "Dein Körper braucht nach einem langen Flug Ruhe.",
        # the current message, the user's artefacts, a third party's words
        "Since you're writing that the move is in May, I'd book the van now.",
        "Your sister, according to the message you forwarded, prefers Saturday.",
        "Ton message indique que la réunion est décalée à 15 h.",
        "Deine Schwester sagt, sie hat die Einladung nie bekommen.",
        "Visto che mi chiedi di Matera, ti consiglio di dormire nei Sassi.",
        # hypotheticals, the future, offers
        "If your daughter starts school in September, practise the route in August.",
        "Quando avrai parlato con tuo fratello, fammi sapere com'è andata.",
        "Posso guardar detalhes sobre as tuas alergias para a próxima vez.",
        # searches and absences are the absence check's
        "I searched my notes from our past conversations for your budget and came up empty.",
        "Ho dato un'occhiata a quello che mi avevi raccontato prima: niente sul tuo cane.",
        "Your sister's wedding has never come up in our chats.",
        # first-person pro-drop forms are the assistant's own
        "Como expliquei mais acima, o prazo pesa mais do que a taxa.",
        # what the user writes in this turn
        "Mi scrivi ora che domani parti per Bolzano in macchina.",
    ],
)
def test_general_advice_and_current_message_are_not_recollections(text: str) -> None:
    assert not _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        # a role of the user's life with a name in apposition
        "Your landlady, Mrs. Adeyemi, has to give you 24 hours' notice.",
        "Ta propriétaire, Mme Garnier, doit te rendre la caution sous un mois.",
        "O seu senhorio, o Sr. Tavares, tem de lhe devolver a caução.",
        # someone of the user's life by name, with an age or a school start
        "Because Noah starts nursery in January, the drop-off needs a plan.",
        "For Léa's 6th birthday, a picnic in the park would be lovely.",
        "Mit Luna, die bald 3 wird, lohnt sich ein Zahncheck.",
        "Pour les 9 ans de Hugo, un atelier cuisine plaira sûrement.",
        "Siccome Giulia comincia la scuola a settembre, prepara lo zaino per tempo.",
        # workplace, city, finances, instruments, a known injury
        "Since Vestas is your employer, ask HR about the share plan.",
        "Als Bosch-Mitarbeiter kannst du das Jobrad nutzen.",
        "Trabajando en Inditex, pregunta por el plan de pensiones.",
        "Agora que moras em Braga, o passe mensal compensa.",
        "Sinds je in Leiden woont, is een fietsverzekering handig.",
        "Your 5,000 € savings cushion covers about three months.",
        "Vu que vous jouez du piano le soir, pensez à un casque.",
        "Con la rodilla aún recuperándose de la operación, evita las escaleras.",
        "Con la spalla ancora ingessata, rimanda il corso di nuoto.",
        # German ordinals and French titles do not end the sentence
        "Zu Pauls 7. Geburtstag wäre ein Zoobesuch schön.",
        # a relative named, whatever the advice; an occasion of someone named; a
        # scheduled event after a temporal frame
        "Your sister Priya could lend you the tent.",
        "Deine Tante Ilse isst ja kein Fleisch, also plane etwas Vegetarisches.",
        "For Leo's school play on Friday, a small card would be nice.",
        "Para a formatura da Beatriz em julho, um livro seria um bom presente.",
        "I'd wait until after your hip operation in May before booking the trek.",
        "Ora che fai il turno di notte, prova le tende oscuranti.",
        "Tu casera, la señora Ibáñez, debe avisarte antes de entrar.",
    ],
)
def test_structural_presuppositions_are_recollections(text: str) -> None:
    assert _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        "A landlord has to give 24 hours' notice before entering.",
        "Your landlord has to give notice before entering.",
        "Since Mozart wrote his first symphony at 8, he is often called a prodigy.",
        "When a child starts nursery, the first weeks are tiring.",
        "Working at a start-up usually means wearing many hats.",
        "With a sprained ankle, avoid running on hills for a few weeks.",
        "Nach einer Schulteroperation sollte man Klimmzüge meiden.",
        "Imagine you moved to Porto next spring: what would you miss?",
        "Stell dir vor, du ziehst nach Wien – was würde dir fehlen?",
        "Angenommen, du hast mir deinen Geburtstag nie genannt.",
        "A sister can be a great help when moving house.",
        "For the school play on Friday, the hall opens at six.",
        "After a hip operation, most people walk with crutches for weeks.",
    ],
)
def test_structural_twins_are_not_recollections(text: str) -> None:
    assert not _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        "You'd said the flat in Lisbon was too noisy, so I filtered for quieter streets.",
        "Miso is fourteen now, you said, so a senior formula is worth asking about.",
        "I remember you're allergic to penicillin, so mention it to the dentist.",
        "Your son's name is Leo, if I remember correctly from our last conversation.",
        "La carte est en portugais parce que, comme vous l'expliquiez, elle lit le portugais.",
        "Votre mariage est le 21 juin, m'avez-vous dit ; les faire-part doivent partir en avril.",
        "Por lo que me contó de su operación de rodilla, dejaría las zancadas.",
        "Me habías comentado que tu casero aún no te había devuelto la fianza.",
        "Wie Sie letzte Woche erwähnt haben, ist der Umzug im Mai.",
        "Eure Hochzeit ist am 9. August, hast du gesagt, also schickt die Einladungen im Mai.",
        "Il biglietto è in spagnolo perché, come mi spiegavi, tua nonna legge solo quella lingua.",
        "L'ultima volta mi hai detto che la cipolla cruda non la digerisci.",
        "Pelo que você me contou da cirurgia no joelho, eu evitaria o afundo.",
        "Disseste que o apartamento em Lisboa era barulhento, por isso filtrei ruas sossegadas.",
        "Zoals je vorige week zei, wordt de backend herschreven in Rust.",
    ],
)
def test_more_telling_frames(text: str) -> None:
    assert _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        "You said it yourself just now: the deadline is tight.",
        "This is the first time you've brought up your landlord.",
        "Den Namen deiner Bank hast du nirgends erwähnt.",
        "Neanche una volta hai menzionato il tuo gruppo sanguigno.",
        "Em tudo o que me contaste até hoje, não há nada sobre as tuas alergias.",
    ],
)
def test_telling_frames_of_absence_claims_are_not_recollections(text: str) -> None:
    assert not _recalled(text)


def test_a_presupposed_fact_continuing_a_recollection_is_not_a_second_one() -> None:
    text = (
        "Me habías comentado que trabajas de camarero en Ibiza. "
        "Con esos turnos, lo más práctico es entrenar por la mañana."
    )
    claims = [c for c in find_claims(text, model=_BENIGN) if c.kind is ClaimKind.RECOLLECTION]
    assert [c.source for c in claims] == ["recollection"]
    alone = "Con esos turnos de camarero, lo más práctico es entrenar por la mañana."
    assert [c.kind for c in find_claims(alone, model=_BENIGN)] == [ClaimKind.RECOLLECTION]


@pytest.mark.parametrize(
    "text",
    [
        # someone named after a causal frame, with what they fear or have
        "Since Pepper gets so nervous at the vet, bring her favourite blanket.",
        "Comme Caramel a peur de l'aspirateur, passe-le quand il est dehors.",
        "Como Canela tiene miedo a las tormentas, déjale la radio puesta.",
        "Weil Lotte panische Angst vor Gewitter hat, lass die Rollläden unten.",
        "Siccome Briciola ha paura dei tuoni, lasciale la cuccia in corridoio.",
        "Já que a Pipoca tem pavor de trovões, deixe a caixa de transporte aberta.",
        # the last conversation, the user in the second person
        "La última vez estabas nervioso por la entrevista del viernes; ¿cómo fue?",
        "L'ultima volta eri preoccupato per il trasloco di marzo.",
        # a named possession with its date or its place
        "La révision de ta Twingo tombe en mars, réserve le garage.",
        # someone named, with their event
        "Noah's football practice on Tuesday means dinner has to wait until seven.",
        "Pauls Klavierkonzert ist ein schöner Anlass für ein Familienessen.",
        "Depois da consulta do Bolinha na quinta, você vai saber se o remédio funcionou.",
        # the user's past since a dated act, and the user's years at something
        "Since you moved out of the flat last spring, the deposit should be back.",
        "Desde que dejaste el gimnasio el año pasado, conviene empezar despacio.",
        "Your six years teaching in Porto count for a lot in this application.",
        # a personal best with its figure, a disc by its medical name
        "Your personal best of 21 minutes over 5 km points to a 10 km around 45.",
        "Gezien je hernia zou ik eerst zwemmen.",
    ],
)
def test_round9_presuppositions_are_recollections(text: str) -> None:
    assert _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        "Since Einstein published in 1905, physics changed.",
        "Because Apple releases new phones in September, prices drop in August.",
        "Last time I checked, the museum was closed on Mondays.",
        "Since March, the museum opens at ten.",
        "Dogs are often scared of fireworks; give them a quiet room.",
        "Update your iPhone before Friday to get the fix.",
        "As Paris is crowded in August, book early.",
        "Since 2020, you can renew the permit online.",
        "List your years of experience first on the CV.",
        "La última vez que llovió tanto fue en 1987.",
        "I told you last time that the warranty covers two years.",
        "Comme je vous l'ai proposé la dernière fois, on peut découper le plan en trois.",
        "Laut dem Bescheid bekommst du 412 Euro Steuern zurück.",
    ],
)
def test_round9_twins_are_not_recollections(text: str) -> None:
    assert not _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        # someone in the user's life named by a given name alone, in a person frame
        "A small telescope would be a lovely present for Mateo, who loves the stars.",
        "Frag doch Henrike, ob sie am Samstag beim Umzug hilft.",
        "Per Lorenzo, che ha appena iniziato le medie, basta uno zaino leggero.",
        "Pour Inès, qui vient d'avoir sept ans, un vélo sans pédales ne suffit plus.",
        "Um bom presente para o Tiago, que adora cozinhar, seria uma faca japonesa.",
        "Voor Sanne, die net is begonnen met hardlopen, zijn goede schoenen het belangrijkst.",
        "Lucía, a su edad, todavía puede aprender a nadar sin problema.",
        "Noor is zes, dus de grote glijbaan is nog niets voor haar.",
        # a relative by the family's title, someone singled out by a cleft
        "Grandpa Joe's 90th is in Leeds, so fly into Manchester.",
        "Frag doch Oma Hildegard nach dem Rezept.",
        "C'est Karim qui gère la compta, donc envoie-lui la facture.",
        # someone named as the subject of a reason
        "Since Dmitri holds an Irish passport, he can work in London.",
        "Omdat Priya de Indiase nationaliteit heeft, heeft ze een visum nodig.",
    ],
)
def test_someone_named_in_a_person_frame_is_a_recollection(text: str) -> None:
    assert _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        # public figures have surnames; places take a place preposition; a name that is
        # also a function word ("Per", "Come") is that word; no person frame
        "A biography would suit anyone curious about Simone de Beauvoir.",
        "Für Angela Merkel war Physik der erste Beruf.",
        "The night train to Florence leaves at nine.",
        "Per andare a Lucca dalla stazione basta il bus.",
        "Devi montare gli albumi a neve prima di incorporarli.",
        "Hast du schon einen Termin beim Zahnarzt?",
        "For a basic vinaigrette, whisk three parts oil with one part vinegar.",
        "Uncle Tom's Cabin was published in 1852.",
        "It's Paris that gets the most tourists in August.",
        "Since Paris is expensive in August, book early.",
    ],
)
def test_names_outside_a_person_frame_are_not_recollections(text: str) -> None:
    assert not _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        "From what I remember, your landlord is slow with repairs.",
        "Si ma mémoire est bonne, ton frère habite à Lyon.",
        "Si la memoria no me falla, tu hermano vive en Quito.",
        "Wenn ich mich recht entsinne, fährst du einen Diesel.",
        "Se non ricordo male, sei celiaca, quindi attenzione alla birra.",
        "Pelo que me lembro, o seu carro é a diesel.",
        "Als ik het me goed herinner, ben je vegetariër.",
    ],
)
def test_memory_markers_of_every_gate_language_are_recollections(text: str) -> None:
    assert _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        # what the user says in this very message needs no record
        "Me cuentas ahora que eres vegano; entonces cambio el queso por tofu.",
        "Tu me dis maintenant que tu es allergique aux noix ; je retire donc le pesto.",
        "Você escreveu agora há pouco que a sua filha tem 6 anos.",
        "You said in this message that your flight is at 7, so leave by 4.",
        "Du schreibst gerade, dass dein Zug um 9 fährt, also sei um 8:40 am Bahnhof.",
        # a second-person telling in the present is this message speaking
        "You say your brother Tomás lands in Bilbao at noon, so the 13:10 bus works.",
        "Vous dites que votre fils a huit ans : le musée des Confluences lui plaira.",
        "Dices que tu perro tiene miedo a los petardos; prueba una manta pesada.",
        "Sie sagen, Ihr Vermieter in Köln antwortet nicht – schreiben Sie ihm per Einschreiben.",
        "Wie du sagst, ist deine Wohnung in Graz zu klein für ein Klavier.",
        "Você diz que a sua filha odeia brócolis; tente assar com parmesão.",
        "Je zegt dat je zus in Utrecht woont, dus de intercity is het snelst.",
        "You mention you land in Porto at 23:40, so book the taxi in advance.",
        "Du erwähnst, dass deine Tochter Nüsse nicht verträgt: dann ohne Mandeln.",
        # and so is what the user has just sent
        "In the contract you've just uploaded, your notice period is three months.",
        "D'après la photo que tu viens d'envoyer, ta chaudière est une Saunier Duval.",
        "Nella bolletta che mi hai appena mandato, il tuo contatore è bioraria.",
        "En la factura que acabas de subir, tu tarifa es la 2.0TD.",
        "Op de foto die je me net stuurde, is je fietsband bijna kaal.",
    ],
)
def test_the_current_message_named_as_the_source_is_not_a_recollection(text: str) -> None:
    assert not _recalled(text)


@pytest.mark.parametrize(
    "text",
    [
        "Tu m'as dit la semaine dernière que tu es végétarien, donc pas de viande.",
        "Since you told me about your knee, now is a good time to rest it.",
        # a net salary is not a word for now
        "Since you told me your net salary is 3,100 €, keep the rent under 1,000 €.",
    ],
)
def test_an_earlier_telling_beside_now_is_still_a_recollection(text: str) -> None:
    assert _recalled(text)


class _AllUnsure:
    """A classifier unsure of every clause it is given."""

    def classify(self, texts: Sequence[str]) -> list[ClauseScore]:
        return [ClauseScore("benign", 0.65, "model", True) for _ in texts]


_UNSURE = cast(ClaimClassifier, _AllUnsure())


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # the current message speaks for the clause: nothing about memory to check
        ("Since you're landing in Narita tonight, as you say, take the Skyliner.", False),
        ("Você está dizendo agora que se mudou para Recife, então a conta é da Neoenergia.", False),
        # elsewhere, or where the clause denies something, a claim stays
        ("Since you're landing in Narita tonight, take the Skyliner.", True),
        ("As you say, I don't have anything about your Narita flight.", True),
    ],
)
def test_an_unsure_clause_of_the_current_message(text: str, kept: bool) -> None:
    assert bool(find_claims(text, model=_UNSURE)) is kept


@pytest.mark.parametrize(
    "text",
    [
        # a habit is an earlier telling, however present its tense
        "As you always say, your boss in Leeds never reads the agenda.",
        "Comme tu dis toujours, ta belle-mère déteste les surprises.",
        "Como siempre dices, tu jefe nunca contesta a tiempo.",
        "Wie du immer sagst, ist dein Chef nie pünktlich.",
        # advice that begins with a second-person verb names no message
        "Quand tu écris à ta propriétaire, garde une copie.",
        "Wenn du schreibst, nenne die Vertragsnummer.",
        # sending advised, not done: an imperative, an infinitive
        "Since your sister is in Oslo, send her the link now.",
        "Como tu hermana vive en Quito, ahora puedes enviar el paquete.",
        # the assistant's own telling
        "As I'm telling you now, your sister is right.",
        # and "Sie sagen" is theirs, not the user's, in lower case
        "Die Nachbarn? sie sagen, dass dein Hund bellt.",
    ],
)
def test_a_habit_or_advice_does_not_name_the_current_message(text: str) -> None:
    assert not names_the_current_message(text)


@pytest.mark.parametrize(
    ("text", "recalled"),
    [
        # a search inside what was told is part of the fact
        ("Tu m'as dit que ton ami Kofi cherche un colocataire.", True),
        ("You told me your brother is searching for a flat in Porto.", True),
        ("Me dijiste que tu hermana busca trabajo en Valencia.", True),
        # a search before the frame searched what was told
        ("J'ai cherché dans ce que tu m'as dit, sans rien trouver sur Kofi.", False),
        ("I searched what you told me and found nothing about Kofi.", False),
    ],
)
def test_a_search_counts_only_before_the_telling_frame(text: str, recalled: bool) -> None:
    assert bool(find_recollection_spans(text)) is recalled


@pytest.mark.parametrize(
    "text",
    [
        "先日ロードバイクを買ったと話してくださいましたよね。",
        "猫を飼っていると教えてくださいました。",
        "大阪に住んでいると話してくださった。",
    ],
)
def test_the_honorific_japanese_telling_endings(text: str) -> None:
    assert find_recollection_spans(text)
