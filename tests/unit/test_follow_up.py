"""Follow-ups on the user's life are recollections; greetings, small talk and public
people's facts are not; and the absence rules' smaller guards of the same change (the
assistant denying its own act, the memory off, "I may have missed it" in every gate
language, a claim's first part before "or")."""

from __future__ import annotations

import pytest

from gateway.claims import ClaimKind, find_claims
from gateway.follow_up import followed_up
from gateway.presupposition import about_someone_public
from gateway.truthfulness import analyse, denies_own_act, memory_off, promises_discretion

# The presuppositions here are read as the rule library finds them (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("rules_settle_every_presupposition")


def _kinds(text: str) -> set[ClaimKind]:
    return {c.kind for c in find_claims(text)}


@pytest.mark.parametrize(
    "text",
    [
        "How did Lena's piano exam go on Saturday?",
        "So, how's your mum doing after the hip operation?",
        "Hope Pixel's paw has healed after the vet visit!",
        "Congrats on Omar's new job, that's great news.",
        "Comment s'est passée la soutenance de Camille ?",
        "J'espère que ton genou va mieux depuis l'opération.",
        "¿Qué tal fue la boda de tu prima en Sevilla?",
        "¿Cómo va esa rodilla?",
        "Wie war Mias Geburtstagsfeier am Sonntag?",
        "Hoffentlich ist deine Erkältung vor dem Umzug weg.",
        "Com'è andata la partita di Tommaso?",
        "In bocca al lupo per il colloquio di giovedì!",
        "Como foi a consulta do Bento no veterinário?",
        "Boa sorte com a entrevista de amanhã!",
        "Hoe ging de zwemles van Sem?",
        "Succes met je rijexamen morgen!",
    ],
)
def test_a_follow_up_on_the_users_life_is_a_recollection(text: str) -> None:
    assert followed_up(analyse(text).masked) is not None
    assert ClaimKind.RECOLLECTION in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "How are you?",
        "Hope this helps!",
        "How was your day?",
        "Good luck!",
        "How do I reset the router?",
        "How does the tax credit work?",
        "How is the weather in Lisbon this week?",
        "Hope I didn't miss anything in your notes.",
        "J'espère que je n'ai rien oublié.",
        "¿Cómo estás?",
        "Wie geht es dir?",
        "Come va?",
        "Hoe gaat het?",
    ],
)
def test_greetings_and_small_talk_are_not_follow_ups(text: str) -> None:
    assert followed_up(analyse(text).masked) is None


def test_a_follow_up_is_supported_by_the_fact_without_its_frame() -> None:
    """ "¿Cómo llevas ...?" frames the question: the record holds the exam, not "llevas"."""
    text = "¿Cómo llevas el temario de las oposiciones?"
    (claim,) = [c for c in find_claims(text) if c.kind is ClaimKind.RECOLLECTION]
    assert any(fact.exact and "llevas" not in fact.exact for fact in claim.facts)


@pytest.mark.parametrize(
    ("text", "public"),
    [
        ("Serena Williams won Wimbledon seven times.", True),
        ("Luka Modrić jugó su último Mundial en 2022.", True),
        ("Your brother Tomás lives in Porto.", False),
        ("Anna's recital is on Friday.", False),
        ("Since your sister Maria Rossi is a nurse, ask her.", False),
    ],
)
def test_public_people_are_named_in_full_without_the_user(text: str, public: bool) -> None:
    assert about_someone_public(analyse(text).masked) is public


@pytest.mark.parametrize(
    "text",
    [
        "I didn't touch any of your reminders; the app moved them after the update.",
        "Je n'ai rien supprimé dans ton agenda.",
        "No he modificado ninguna de tus alarmas.",
        "Ich habe an deinen Einstellungen nichts geändert.",
        "Non ho cancellato nessuno dei tuoi promemoria.",
        "Não alterei nenhum dos seus lembretes.",
        "Ik heb niets aan je instellingen veranderd.",
    ],
)
def test_the_assistant_denying_its_own_act_claims_no_absence(text: str) -> None:
    assert denies_own_act(analyse(text).masked)
    assert not _kinds(text) & {ClaimKind.ABSENCE, ClaimKind.UNSURE}


def test_an_absence_beside_a_found_thing_is_still_read() -> None:
    assert not denies_own_act("I didn't find your passport number in anything you told me.")


@pytest.mark.parametrize(
    "text",
    [
        "Wenn die Erinnerungsfunktion ausgeschaltet ist, behalte ich nichts.",
        "Quand la mémoire est désactivée, je ne garde rien.",
        "Cuando la memoria está apagada, no guardo nada.",
        "Als het geheugen is uitgeschakeld, onthoud ik niets.",
    ],
)
def test_the_memory_off_in_subordinate_order(text: str) -> None:
    assert memory_off(analyse(text).masked)


def test_a_japanese_promise_to_share_with_no_one() -> None:
    assert promises_discretion("お話しいただいた内容を他の人に伝えることはありません。")


@pytest.mark.parametrize(
    "text",
    [
        "Je n'ai pas pu parcourir tes anciennes notes, j'ai peut-être raté quelque chose.",
        "No he podido revisar tus notas antiguas; puede que se me haya escapado algo.",
        "Deine älteren Notizen konnte ich nicht durchsuchen, vielleicht habe ich etwas übersehen.",
        "Non ho potuto consultare le note più vecchie, potrei aver perso qualcosa.",
        "Não consegui pesquisar as notas antigas, posso ter deixado passar algo.",
        "Ik kon je oude berichten niet doorzoeken, misschien heb ik iets gemist.",
    ],
)
def test_an_incomplete_search_hedge_in_every_gate_language(text: str) -> None:
    assert not _kinds(text) & {ClaimKind.ABSENCE}


def test_a_claim_before_or_is_read_without_what_follows() -> None:
    text = (
        "As far as our chats go, there's no word about you renting a car or paying the"
        " deposit, so I can't add it to the claim."
    )
    assert ClaimKind.ABSENCE in _kinds(text)


def test_a_coordinated_find_reports_a_find() -> None:
    text = "I looked in your notes and in your calendar, and found the dentist appointment."
    assert not _kinds(text) & {ClaimKind.ABSENCE, ClaimKind.UNSURE}


@pytest.mark.parametrize(
    "text",
    [
        "Pour le baptême d'Inès en mai, une tenue claire suffit.",
        "Per la laurea dell'Elena a luglio, prenota presto il ristorante.",
        "Desde tu casa en Triana, el bus 40 te deja en la puerta.",
        "Von deiner Wohnung in Altona fährt die S1 direkt zum Flughafen.",
    ],
)
def test_elided_owners_and_the_users_home_with_its_place(text: str) -> None:
    assert ClaimKind.RECOLLECTION in _kinds(text)


def test_advice_on_a_thing_somewhere_is_not_the_users_home() -> None:
    assert ClaimKind.RECOLLECTION not in _kinds("Check your car in Madrid at the ITV.")


def test_a_japanese_promise_claims_nothing() -> None:
    assert find_claims("お話しいただいた内容を第三者に伝えることは決してありません。") == []


@pytest.mark.parametrize(
    "text",
    [
        "Se eu não achar nada nas tuas notas, te aviso, pode ser?",
        "Se io non trovo niente nei tuoi appunti, te lo chiedo, va bene?",
    ],
)
def test_a_condition_before_a_closing_question_is_a_condition(text: str) -> None:
    assert not _kinds(text) & {ClaimKind.ABSENCE, ClaimKind.UNSURE}


def test_a_closing_question_still_asks() -> None:
    (sentence,) = analyse("Should I look through your notes?").sentences
    assert all(c.question and not c.conditional for c in sentence.clauses)


@pytest.mark.parametrize("text", ["Je pars en mai à Lyon.", "Le 3 mai, Inès a son baptême."])
def test_the_french_month_is_not_the_italian_never(text: str) -> None:
    from gateway.recollection import negated

    assert not negated(text)


@pytest.mark.parametrize(
    "text",
    [
        "`find . -name '*.bak'` returned nothing, so the folder is clean.",
        "`SELECT * FROM orders WHERE id = 7` no devolvió filas.",
    ],
)
def test_a_command_in_code_returning_nothing_is_another_system(text: str) -> None:
    assert not _kinds(text) & {ClaimKind.ABSENCE, ClaimKind.UNSURE}


@pytest.mark.parametrize(
    "text",
    [
        "Ainda não pesquisei nas suas notas; quer que eu faça isso agora?",
        "Todavía no he buscado en tus notas.",
        "Je n'ai pas encore cherché dans tes notes.",
        "In deinen Notizen habe ich noch nicht nachgesehen.",
        "Non ho ancora cercato nei tuoi appunti.",
        "Ik heb nog niet gezocht in je notities.",
        "A pesquisa só cobriu as últimas duas semanas, por isso não posso afirmar nada.",
        "My search only covered March, so I can't say you never mentioned it.",
        "Je ne peux pas affirmer que tu ne m'en as jamais parlé.",
        "No puedo asegurar que nunca me lo hayas dicho.",
        "Ich kann nicht sagen, dass du es nie erwähnt hast.",
    ],
)
def test_a_search_not_run_or_a_claim_withheld_is_no_claim(text: str) -> None:
    assert ClaimKind.ABSENCE not in _kinds(text)


def test_a_withheld_confirmation_after_a_claim_leaves_the_claim() -> None:
    text = "You never told me your address, so I can't confirm the booking."
    assert ClaimKind.ABSENCE in _kinds(text)


def test_french_own_act_with_aucune() -> None:
    assert denies_own_act("Je n'ai supprimé aucune de vos notes.")


@pytest.mark.parametrize(
    "text",
    [
        "Now that you work at Spotify, check the pension plan.",
        "Nu je bij ASML werkt, kun je gebruikmaken van het fietsplan.",
        "Weil du bei Bosch arbeitest, bekommst du Rabatt auf Werkzeug.",
        "Visto che lavori da Ferrero, chiedi dello sconto dipendenti.",
    ],
)
def test_the_users_named_employer_is_a_recollection(text: str) -> None:
    assert ClaimKind.RECOLLECTION in _kinds(text)


@pytest.mark.parametrize(
    "text",
    ["If you work at Google, you get free food.", "People who work at Google get free food."],
)
def test_a_conditional_or_third_person_employer_is_not(text: str) -> None:
    assert ClaimKind.RECOLLECTION not in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "La recherche dans vos souvenirs enregistrés pour « Ørsted » ne renvoie aucun résultat.",
        "Nei tuoi appunti la ricerca di «scadenza bando» non restituisce niente.",
        "The lookup of your notes for 'mortgage' returned nothing.",
    ],
)
def test_a_quoted_search_term_returning_nothing_is_the_memorys_search(text: str) -> None:
    assert ClaimKind.ABSENCE in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "None of your saved recipes mention saffron.",
        "No entries mention the dentist.",
        "Aucune note ne mentionne le voyage à Genève.",
        "Ninguna de tus notas menciona la boda.",
        "Nenhuma das suas notas menciona a viagem a Coimbra.",
        "Keine deiner Notizen erwähnt die Reise nach Graz.",
        "Nessuna delle tue note menziona il viaggio.",
        "Geen van je notities vermeldt de verhuizing.",
    ],
)
def test_no_stored_item_mentions_it_is_a_search_result(text: str) -> None:
    assert ClaimKind.ABSENCE in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "None of these recipes mention saffron.",
        "No studies mention this side effect.",
        "None of the records in the CSV mention Zürich.",
    ],
)
def test_no_item_of_another_source_mentions_it_is_not_memory(text: str) -> None:
    assert ClaimKind.ABSENCE not in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Your mum, being a nurse, will know whether the two tablets mix.",
        "Tu padre, al ser fontanero, podría mirarte la caldera.",
        "A tua irmã, sendo advogada, pode rever o contrato.",
        "Misschien kan je zus, die bij de gemeente werkt, het navragen.",
        "Propose à Julien, ton beau-frère, de passer samedi.",
        "Est-ce que ta cheffe, Amélie, sera à la réunion ?",
        "Il tuo capo, il dottor Rinaldi, apprezzerà il riepilogo.",
    ],
)
def test_a_relative_described_in_apposition_is_a_recollection(text: str) -> None:
    assert ClaimKind.RECOLLECTION in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "At eleven, Noor can walk to school alone.",
        "À douze ans, Caramel mérite une croquette senior.",
        "A quindici anni Briciola va controllata ogni sei mesi.",
        "The new flat is closer than your old one in Leeds.",
        "Esta ruta es más fácil que la subida al Mulhacén que hiciste en julio.",
        "Die Miete ist niedriger als deine jetzige in Altona.",
    ],
)
def test_an_age_frame_or_a_comparison_with_the_users_past(text: str) -> None:
    assert ClaimKind.RECOLLECTION in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "At noon, Paris gets crowded.",
        "This plan is cheaper than your current one.",
        "Lisbon is sunnier than Porto in winter.",
        "Ask your doctor, who knows your history, before switching.",
        "At twelve, children can usually ride a bike alone.",
    ],
)
def test_times_world_comparisons_and_generic_advice_are_not(text: str) -> None:
    assert ClaimKind.RECOLLECTION not in _kinds(text)


def test_an_ambiguous_possessive_after_someone_else_speaking_is_not_the_users() -> None:
    from gateway.presupposition import describes_a_relative

    assert not describes_a_relative("Ele disse que o Rodrigo, seu cunhado, viria.")
    assert describes_a_relative("Peça ao Rodrigo, seu cunhado, para olhar o quadro.")


@pytest.mark.parametrize(
    "text",
    [
        "Ton père, ancien cheminot à la SNCF, a sans doute droit aux facilités de circulation.",
        "Ta belle-mère étant notaire, elle pourra relire le compromis.",
        "Kenji, being an architect, will have views on the plan; show it to him before you sign.",
        "Siendo hipertenso, conviene que evites el regaliz.",
        "Con sus doce años, Pancho todavía aprende palabras nuevas.",
    ],
)
def test_more_shapes_of_a_presupposed_fact(text: str) -> None:
    assert ClaimKind.RECOLLECTION in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            "Being a beginner, start with short sessions.",
            # the v2.30 model head reads "Being a X, ..." addressed to the user as a
            # presupposed fact (0.91): a known false reading, one regeneration's cost
            marks=pytest.mark.xfail(strict=True, reason="v2.30 head: presupposed status"),
        ),
        "For a beginner, short sessions are best.",
        "Siendo sinceros, el plan es caro.",
        "Einstein, being a physicist, changed how we see time.",
        "Open your Google Calendar and add the event.",
    ],
)
def test_advice_and_public_people_in_those_shapes_are_not(text: str) -> None:
    assert ClaimKind.RECOLLECTION not in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "Das heißt nicht, dass du mir nie davon erzählt hast.",
        "Que je ne trouve rien ne veut pas dire que tu ne m'en as jamais parlé.",
        "Ohne aktivierte Gedächtnisfunktion weiß ich nichts von früheren Gesprächen.",
    ],
)
def test_a_claim_denied_as_a_consequence_and_the_memory_off(text: str) -> None:
    assert ClaimKind.ABSENCE not in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "名古屋の新しい職場、もう慣れた？",
        "娘さんの運動会、雨で延期にならないといいですね。",
        "Since Noor is only six, pick the short tour.",
    ],
)
def test_japanese_follow_ups_and_an_age_in_words(text: str) -> None:
    assert ClaimKind.RECOLLECTION in _kinds(text)


@pytest.mark.parametrize(
    "text",
    [
        "明日晴れるといいですね。",
        "The ticket is two euros.",
        "Since the museum is only five minutes away, walk.",
    ],
)
def test_weather_wishes_prices_and_distances_are_not(text: str) -> None:
    assert ClaimKind.RECOLLECTION not in _kinds(text)
