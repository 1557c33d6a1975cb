"""Tests for gateway.truthfulness, the post-generation truthfulness gate's classifier.

The labelled table lives in truthfulness_cases.py. Every text is decided under EVERY
AbsenceState value; "blocked" is the positive class. Expected decisions come from the
table's scope labels and a licensing matrix written out here independently of
``is_licensed``. Run with ``-s`` to see the measured precision / recall.
"""

from __future__ import annotations

from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from truthfulness_cases import CASES, Case

from engram.common.v1 import common_pb2
from gateway.claim_model import ClaimClassifier, ClauseScore
from gateway.claims import ClaimKind, find_claims
from gateway.truthfulness import (
    AbsenceClaim,
    ClaimScope,
    Clause,
    GateResult,
    analyse,
    evaluate,
    fallback_text,
    find_absence_claims,
    is_licensed,
    repair_directive,
    split_clauses,
)

S = common_pb2.AbsenceState
UNSPECIFIED = S.Value("ABSENCE_STATE_UNSPECIFIED")
NOT_ABSENT = S.Value("ABSENCE_STATE_NOT_ABSENT")
IN_SCOPE = S.Value("ABSENCE_STATE_ABSENT_IN_SCOPE")
AUTHORITATIVE = S.Value("ABSENCE_STATE_ABSENT_AUTHORITATIVE")
COVERAGE_UNKNOWN = S.Value("ABSENCE_STATE_COVERAGE_UNKNOWN")
UNAVAILABLE = S.Value("ABSENCE_STATE_UNAVAILABLE")
FAILED = S.Value("ABSENCE_STATE_FAILED")
NOT_SEARCHED = S.Value("ABSENCE_STATE_NOT_SEARCHED")
DISAGREEMENT = S.Value("ABSENCE_STATE_COVERAGE_DISAGREEMENT")
ALL_STATES: tuple[int, ...] = tuple(value for _, value in S.items())

# The product rule, written out by hand (not derived from the module under test).
LICENSED_BY: dict[ClaimScope, frozenset[int]] = {
    ClaimScope.CORPUS_WIDE: frozenset({AUTHORITATIVE}),
    ClaimScope.QUERY_SCOPED: frozenset({AUTHORITATIVE, IN_SCOPE}),
}

CW = ClaimScope.CORPUS_WIDE
QS = ClaimScope.QUERY_SCOPED


def expected_blocked(case: Case, state: int) -> bool:
    return any(state not in LICENSED_BY[scope] for scope in case.expect)


def scopes(text: str) -> frozenset[ClaimScope]:
    return frozenset(c.scope for c in find_absence_claims(text))


def _case_id(case: Case) -> str:
    snippet = " ".join(case.text.split())[:48] or "<empty>"
    return f"{case.kind}:{snippet}"


MUST_CASES = [c for c in CASES if c.must]


# --------------------------------------------------------------------------------------
# The table
# --------------------------------------------------------------------------------------


def test_table_shape() -> None:
    assert len(ALL_STATES) == 9
    assert len(CASES) >= 170
    assert len(MUST_CASES) >= 60
    texts = [c.text for c in CASES]
    assert len(texts) == len(set(texts)), "duplicate texts in the table"
    labels = {c.expect for c in CASES}
    assert labels == {frozenset(), frozenset({CW}), frozenset({QS}), frozenset({CW, QS})}
    # both classes are well represented
    assert sum(1 for c in CASES if c.expect) >= 100
    assert sum(1 for c in CASES if not c.expect) >= 100


def _confusion(cases: list[Case] | tuple[Case, ...]) -> tuple[int, int, int, int]:
    tp = fp = fn = tn = 0
    for case in cases:
        for state in ALL_STATES:
            want = expected_blocked(case, state)
            got = not evaluate(case.text, state).passed
            if got and want:
                tp += 1
            elif got:
                fp += 1
            elif want:
                fn += 1
            else:
                tn += 1
    return tp, fp, fn, tn


def _ratio(num: int, den: int) -> float:
    return num / den if den else 1.0


def test_blocking_precision_and_recall() -> None:
    tp, fp, fn, tn = _confusion(CASES)
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    held = [c for c in CASES if c.kind.startswith("heldout")]
    htp, hfp, hfn, _ = _confusion(held)
    # scope-level agreement (one decision per case and scope)
    stp = sfp = sfn = 0
    for case in CASES:
        got = scopes(case.text)
        stp += len(got & case.expect)
        sfp += len(got - case.expect)
        sfn += len(case.expect - got)
    print(
        f"\ntruthfulness gate: {len(CASES)} texts x {len(ALL_STATES)} states = "
        f"{len(CASES) * len(ALL_STATES)} decisions; blocked tp={tp} fp={fp} fn={fn} tn={tn}"
        f"\n  blocked precision={precision:.4f} recall={recall:.4f}"
        f"\n  held-out batches, rules since extended ({len(held)} texts): "
        f"precision={_ratio(htp, htp + hfp):.4f} "
        f"recall={_ratio(htp, htp + hfn):.4f}"
        f"\n  claim scopes: precision={_ratio(stp, stp + sfp):.4f} "
        f"recall={_ratio(stp, stp + sfn):.4f}"
    )
    wrong = [c for c in CASES if scopes(c.text) != c.expect]
    for case in wrong:
        print(f"  MISMATCH {case.kind}: {case.text!r} want={set(case.expect)}")
    assert precision >= 0.95
    assert recall >= 0.95


@pytest.mark.parametrize("case", MUST_CASES, ids=_case_id)
def test_must_case(case: Case) -> None:
    assert scopes(case.text) == case.expect
    for state in ALL_STATES:
        assert (not evaluate(case.text, state).passed) == expected_blocked(case, state), state


# --------------------------------------------------------------------------------------
# Licensing and evaluate
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", ALL_STATES)
def test_is_licensed_matrix(state: int) -> None:
    for scope in ClaimScope:
        assert is_licensed(scope, state) == (state in LICENSED_BY[scope])


def test_unknown_state_licenses_nothing() -> None:
    assert not is_licensed(CW, 99)
    assert not is_licensed(QS, -1)
    assert not evaluate("You never told me about your sister.", 99).passed


def test_evaluate_splits_violations_from_claims() -> None:
    text = "I have no record of your sister, and my search returned nothing."
    in_scope = evaluate(text, IN_SCOPE)
    assert {c.scope for c in in_scope.claims} == {CW, QS}
    assert [v.scope for v in in_scope.violations] == [CW]
    assert not in_scope.passed
    authoritative = evaluate(text, AUTHORITATIVE)
    assert authoritative.passed
    assert authoritative.violations == ()
    assert len(authoritative.claims) == 2
    unknown = evaluate(text, COVERAGE_UNKNOWN)
    assert unknown.violations == unknown.claims


@pytest.mark.parametrize("text", ["", " ", "\n\n\t", "```\n```"])
def test_evaluate_empty_text(text: str) -> None:
    for state in ALL_STATES:
        result = evaluate(text, state)
        assert isinstance(result, GateResult)
        assert result.passed
        assert result.claims == ()
        assert result.violations == ()
    assert split_clauses(text) == []
    assert find_absence_claims(text) == []


def test_claim_fields() -> None:
    text = "Thanks! You never told me about your sister."
    (claim,) = find_absence_claims(text)
    assert isinstance(claim, AbsenceClaim)
    assert claim.scope is CW
    assert claim.pattern == "you-never-told"
    assert claim.clause == Clause("You never told me about your sister", 8, 43)
    assert text[claim.clause.start : claim.clause.end] == claim.clause.text
    assert claim.topic == "your sister"


def test_claim_clause_offsets_over_table() -> None:
    for case in CASES:
        for claim in find_absence_claims(case.text):
            clause = claim.clause
            assert case.text[clause.start : clause.end] == clause.text
            assert claim.pattern


# --------------------------------------------------------------------------------------
# Hedging policy (documented in the module docstring)
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "As far as I can tell, you never told me.",
        "I think you never told me about it.",
        "To my knowledge, we haven't discussed it.",
        "I'm fairly sure you never mentioned it.",
    ],
)
def test_weak_hedges_do_not_license(text: str) -> None:
    assert scopes(text) == {CW}
    assert not evaluate(text, COVERAGE_UNKNOWN).passed


@pytest.mark.parametrize(
    "text",
    [
        "I couldn't find it, but my search may be incomplete.",
        "I couldn't find it, though the search was not exhaustive.",
        "I couldn't find it, but that doesn't mean you never mentioned it.",
    ],
)
def test_coverage_qualifiers_release_the_clause_they_govern(text: str) -> None:
    assert scopes(text) == frozenset()


@pytest.mark.parametrize(
    "text",
    [
        "You never told me about it, but I can't be sure.",
        "It's possible you never told me.",
        "Maybe you never told me about your sister.",
        "As far as I know, you never mentioned it.",
    ],
)
def test_certainty_hedges_release_nothing(text: str) -> None:
    assert scopes(text) == {CW}


def test_qualifiers_stay_in_their_sentence_and_clause() -> None:
    assert scopes("I couldn't find it. My search isn't exhaustive.") == {QS}
    assert scopes("My search isn't exhaustive. I couldn't find it.") == {QS}
    # a consequence is not a qualifier of the claim before it
    consequence = "You never told me your travel dates, so I can't check events."
    assert scopes(consequence) == {CW}
    # a qualifier governs the clause before it, not the whole sentence
    far = "You never told me your address, my notes are fine, and the search may be incomplete."
    assert CW in scopes(far)
    # the connective opening the qualifier's own clause makes it a consequence too
    assert scopes("You never told me your address, so the form stays incomplete.") == {CW}


@pytest.mark.parametrize(
    "text",
    [
        "Il tuo numero di cellulare non me l'hai mai dato, per cui il modulo resta incompleto.",
        "O teu número de telemóvel nunca mo passaste, por isso o formulário fica incompleto.",
        "Tu ne m'as jamais donné ton adresse, c'est pourquoi le formulaire reste incomplet.",
    ],
)
def test_consequence_connective_in_every_language(text: str) -> None:
    """Rules or classifier, a qualifier that follows from the claim does not withdraw it."""
    found = find_claims(text)
    assert [c.kind for c in found] == [ClaimKind.ABSENCE], found


def test_certainty_hedge_stays_in_its_sentence() -> None:
    assert scopes("I couldn't find it. I'm not sure why the weather changed.") == {QS}


def test_negated_qualifier_is_not_a_hedge() -> None:
    assert scopes("After an exhaustive search, I found no record of it.") == {QS}
    assert scopes("I have no record of it, and my records are complete.") == {CW}


# --------------------------------------------------------------------------------------
# split_clauses
# --------------------------------------------------------------------------------------


def _check_offsets(text: str, clauses: list[Clause]) -> None:
    last_end = 0
    for clause in clauses:
        assert text[clause.start : clause.end] == clause.text
        assert clause.start < clause.end
        assert clause.start >= last_end, "clauses overlap or are out of order"
        assert clause.text == clause.text.strip()
        last_end = clause.end


def test_split_clauses_offsets_over_table() -> None:
    for case in CASES:
        _check_offsets(case.text, split_clauses(case.text))


def test_split_clauses_basic() -> None:
    text = "You told me you like tea. You never told me about coffee; do you like it?"
    got = [c.text for c in split_clauses(text)]
    assert got == ["You told me you like tea", "You never told me about coffee"]


def test_split_clauses_drops_questions_and_conditionals() -> None:
    text = "If you never told me, I wouldn't know. Did you? I have no record of it, sadly."
    got = [c.text for c in split_clauses(text)]
    assert got == ["I wouldn't know", "I have no record of it", "sadly"]


def test_titles_and_german_ordinals_do_not_end_a_sentence() -> None:
    text = "Ton propriétaire, M. Lefèvre, doit te prévenir. Zu Pauls 7. Geburtstag passt ein Zoo."
    assert [c.text for c in split_clauses(text)] == [
        "Ton propriétaire",
        "M. Lefèvre",
        "doit te prévenir",
        "Zu Pauls 7. Geburtstag passt ein Zoo",
    ]
    # a number ending a sentence still ends it
    assert len(split_clauses("Das Kind ist 7. Sie geht zur Schule.")) == 2


@pytest.mark.parametrize(
    "text",
    [
        "You never know, so take an umbrella.",
        "Je weet maar nooit, neem een paraplu mee.",
        "Non si sa mai: porta un ombrello.",
        "Man weiß ja nie, nimm lieber einen Schirm mit.",
        "I searched online and didn't find any flights under €100 on those dates.",
    ],
)
def test_set_phrases_and_searches_of_other_systems_claim_no_absence(text: str) -> None:
    assert not find_absence_claims(text)


@pytest.mark.parametrize(
    "text",
    [
        "Ich habe deine Notizen zur Steuer durchsucht – Fehlanzeige.",
        "Procurei nas tuas notas o nome do contabilista, sem sucesso.",
        "He revisado tus notas buscando el código de la alarma: nada.",
        "Ho cercato nelle tue note il numero dell'idraulico: niente.",
        "Ik heb je notities doorzocht op het kenteken: niets.",
        "Ho cercato nelle tue note il codice del cancello: vuoto.",
        # the search as a noun, a sentence-initial search noun, a saved item matching
        "Suche in deinen Notizen nach „Zahnarzt“: keine Treffer.",
        "Lookup for 'boiler service' returned an empty list.",
        "No saved note matches 'boiler service'.",
        "Aucune note enregistrée ne correspond à « chaudière ».",
        "Ninguna nota guardada coincide con «caldera».",
        "Keine gespeicherte Notiz passt zu „Heizung“.",
        "Rien ne ressort quand je cherche « chaudière » dans tes notes.",
        "Found 0 entries containing 'boiler'.",
        "There are no memories matching 'boiler service'.",
        "Die Suche nach „Heizung“ in deinen Notizen ist leer zurückgekommen.",
        "Le filtre « chaudière » sur tes notes ne fait remonter aucune entrée.",
        "Busqué «caldera» en tus notas y salió en blanco.",
        "Ik heb je notities nagelopen op 'ketel', en er kwam niets uit.",
        "Pesquisei nas tuas notas por caldeira e não surgiu nada.",
        "Recherche effectuée : « chaudière ». Aucune note correspondante.",
    ],
)
def test_a_bare_verdict_after_a_search_is_query_scoped(text: str) -> None:
    assert scopes(text) == {QS}


@pytest.mark.parametrize(
    "text",
    [
        # nothing on file, in the other gate languages
        "Zu deinem Mietvertrag liegt mir nichts vor.",
        "Über dein Auto hab ich nix gespeichert.",
        "No guardo ningún registro sobre tu seguro de coche.",
        "Non ho in archivio nulla sul tuo contratto d'affitto.",
        "Della tua assicurazione non so proprio nulla.",
        "Über deinen Arbeitsvertrag hab ich nix abgespeichert.",
        "No guardo información alguna sobre tu seguro de hogar.",
        "Sobre o teu seguro, a minha memória está completamente vazia.",
        "Carezco de cualquier registro acerca de tu seguro.",
        "Não há nada guardado sobre o teu contrato de arrendamento.",
        "Zu deinem Mietvertrag habe ich keine Einträge.",
        "Il n'y a rien d'enregistré sur ton bail.",
        "Não tenho nenhuma informação sobre o teu seguro.",
        "Je n'ai aucune information sur ton bail.",
        "Non ho nessuna informazione sul tuo contratto.",
    ],
)
def test_nothing_on_file_in_the_other_languages_is_corpus_wide(text: str) -> None:
    assert scopes(text) == {CW}


@pytest.mark.parametrize(
    "text",
    [
        # capabilities, another system's match, knowledge of the world, a search limited
        "Sin la memoria activada no guardo nada entre conversaciones.",
        "J'ai cherché « facture 2291 » dans votre boîte mail : aucun message ne correspond.",
        "Non so nulla di fisica quantistica, ma posso cercare qualcosa.",
        "Ma recherche ne remonte qu'à mars, donc je ne sais pas si tu m'en as parlé.",
        # a search that could not run claims nothing
        "La recherche dans tes notes n'a pas pu s'exécuter : je ne peux rien dire sur ton bail.",
        "La búsqueda no se pudo completar, así que no sé si me hablaste de tu contrato.",
    ],
)
def test_nothing_on_file_twins_claim_no_absence(text: str) -> None:
    assert scopes(text) == set()


def test_a_bare_verdict_after_a_search_of_another_system_is_not_read_by_the_rules() -> None:
    assert not find_absence_claims("I searched the web for reviews of that garage: nothing.")
    assert not find_absence_claims("Ho cercato online recensioni dell'officina: niente.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("メモを検索しましたが、車検に関するものは見つかりませんでした。", {QS}),
        ("履歴を確認したところ、歯医者の予約についての記録はありません。", {QS}),
        ("お姉さんのことは一度も話してくれたことがないですね。", {CW}),
        ("今まで伺った限りでは、ペットは飼っていないようです。", {CW}),
        ("ネットで口コミを検索しましたが、最近のものは見つかりませんでした。", set()),
        # a flight is a topic, not a place: the search was of memory
        ("過去のチャットでフライト番号を探してみましたが、その記録は見つかりませんでした。", {QS}),
        ("田中さんは一度もその話をしなかったそうです。", set()),
        ("レシピを確認しましたが、問題はありません。", set()),
    ],
)
def test_japanese_absence_frames(text: str, expected: set[ClaimScope]) -> None:
    assert scopes(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a why-question about telling me presupposes the never
        ("¿Por qué nunca me contaste lo de tu alergia? La habría tenido en cuenta.", {CW}),
        ("Warum hast du mir nie von deinem neuen Job erzählt?", {CW}),
        ("Waarom heb je me nooit verteld dat je verhuist?", {CW}),
        ("Why did you never tell your landlord about the leak?", set()),
        # never-told without "me", at no moment, dropped subjects, "nn"
        ("Nunca dijiste qué día llegas, así que no reservé.", {CW}),
        ("Comme tu n'as jamais mentionné d'allergie, j'ai gardé les noix.", {CW}),
        ("À aucun moment vous n'avez parlé d'un second véhicule.", {CW}),
        ("nn mi hai mai detto il nome del tuo cane", {CW}),
        ("Del vicino non mi hai detto nulla, quindi non so.", {CW}),
        # an empty verdict as its own sentence, or an idiom, after a search of memory
        ("I went through your past messages for the gate code. Zip.", {QS}),
        ("Ho cercato nelle tue note il codice del cancello e ho fatto un buco nell'acqua.", {QS}),
        ("Ik heb in onze gesprekken gezocht naar het adres, maar dat leverde niks op.", {QS}),
        ("Verifiquei na sua memória: não há entradas sobre o seguro.", {QS}),
        # promises, searches elsewhere, counted finds, interrupted searches
        ("Je ne partagerai jamais tes notes avec qui que ce soit.", set()),
        ("Ich habe im Netz gesucht. Nichts.", set()),
        ("Busqué en tus notas y hay tres entradas sobre el fontanero.", set()),
        ("Die Suche in deinem Gedächtnis wurde unterbrochen; der Rest steht noch aus.", set()),
        ("Quando você é vegano nunca ingere colesterol animal.", set()),
        ("ローンが悪いとは一度も言っていません。", set()),
        ("そのお名前は初めて聞きました。", {CW}),
    ],
)
def test_more_absence_frames_and_their_twins(text: str, expected: set[ClaimScope]) -> None:
    assert scopes(text) == expected


def test_a_set_phrase_leaves_the_claim_beside_it() -> None:
    assert scopes("Man weiß ja nie – du hast mir nie gesagt, wann du fliegst.") == {CW}


def test_a_supposition_segment_makes_the_rest_of_its_sentence_supposed() -> None:
    assert split_clauses("Angenommen, du hast mir deinen Geburtstag nie genannt.") == []
    assert split_clauses("Stell dir vor, du ziehst nach Wien.") == []
    assert split_clauses("Imagine you never told me about it.") == []
    # the next sentence is asserted again
    got = split_clauses("Supposons que tu partes. Tu ne m'as jamais parlé de ton chien.")
    assert [c.text for c in got] == ["Tu ne m'as jamais parlé de ton chien"]


@pytest.mark.parametrize(
    ("supposed", "asserted"),
    [
        (
            "Suponiendo que nunca me hablaste de tu hermana, te lo preguntaría.",
            "Nunca me hablaste de tu hermana, te lo pregunto.",
        ),
        (
            "Ammettiamo che tu non mi abbia mai parlato di tua sorella.",
            "Tu non mi hai mai parlato di tua sorella.",
        ),
        (
            "Admettons que tu ne m'aies jamais parlé de ta sœur.",
            "Tu ne m'as jamais parlé de ta sœur.",
        ),
        (
            "Gesetzt den Fall, du hast mir nie von deiner Schwester erzählt.",
            "Du hast mir nie von deiner Schwester erzählt.",
        ),
        (
            "Supondo que você nunca me falou da sua irmã, eu perguntaria.",
            "Você nunca me falou da sua irmã.",
        ),
        (
            "Gesteld dat je me nooit over je zus hebt verteld.",
            "Je hebt me nooit over je zus verteld.",
        ),
        (
            "For the sake of argument, you never told me about your sister.",
            "You never told me about your sister.",
        ),
    ],
)
def test_every_gate_language_s_suppositions_are_not_asserted(supposed: str, asserted: str) -> None:
    assert find_absence_claims(supposed) == []
    assert find_absence_claims(asserted) != []


def test_split_clauses_masks_quotes_and_code() -> None:
    quoted = 'He wrote: "No. You never told me, ever." Then he left.'
    clauses = split_clauses(quoted)
    _check_offsets(quoted, clauses)
    q0 = quoted.index('"')
    q1 = quoted.index('"', q0 + 1) + 1
    for clause in clauses:  # no boundary inside the quotation
        assert clause.end <= q0 or clause.start >= q1 or (clause.start <= q0 and clause.end >= q1)
    assert split_clauses("```\nYou never told me. I have no record.\n```") == []
    assert split_clauses("> You never told me.") == []
    # short inline code is prose in disguise (unwrapped); a long span stays code
    short = "Run `you never told me` now."
    assert [c.text for c in split_clauses(short)] == ["Run `you never told me` now"]
    assert find_absence_claims(short)
    long_code = "Run `grep -r 'you never told me' ./logs --include=*.txt | wc -l` now."
    assert not find_absence_claims(long_code)


def test_apostrophes_are_not_quotes() -> None:
    text = "I don't have any record of that, and I've checked the users' notes."
    assert scopes(text) == {CW}
    clauses = split_clauses(text)
    assert clauses[0].text == "I don't have any record of that"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                *"abc IYouneverdtlmfxy.,;:!?'\"`\n-\u2014\u2019\u201c\u201d\u2018>~_",
                *("never ", "told me", "no record", "couldn't find", "if ", "but ", "```", "  "),
            ]
        ),
        max_size=60,
    ).map("".join)
)
def test_split_clauses_offsets_property(text: str) -> None:
    _check_offsets(text, split_clauses(text))
    for claim in find_absence_claims(text):
        assert text[claim.clause.start : claim.clause.end] == claim.clause.text


# --------------------------------------------------------------------------------------
# repair_directive and fallback_text
# --------------------------------------------------------------------------------------

UNLICENSED_FOR_CORPUS = [s for s in ALL_STATES if s != AUTHORITATIVE]
STATE_KEYWORDS: dict[int, str] = {
    NOT_ABSENT: "matching records",
    IN_SCOPE: "not found in the search performed",
    COVERAGE_UNKNOWN: "not exhaustive",
    UNAVAILABLE: "unavailable",
    FAILED: "failed",
    NOT_SEARCHED: "not searched",
    DISAGREEMENT: "disagreed",
}


def test_repair_directive_is_state_specific_and_names_the_topic() -> None:
    draft = "You never told me about your sister."
    summary = "ranked recall over 2 sources, 0 of unknown matched"
    directives: dict[int, str] = {}
    for state in UNLICENSED_FOR_CORPUS:
        violations = evaluate(draft, state).violations
        assert violations
        directive = repair_directive(violations, state, summary)
        assert "your sister" in directive
        assert summary in directive
        assert "Do not claim" in directive
        if state in STATE_KEYWORDS:
            assert STATE_KEYWORDS[state] in directive, state
        directives[state] = directive
    assert len(set(directives.values())) == len(directives)


def test_repair_directive_query_scoped_and_empty() -> None:
    draft = "I couldn't find anything about the Lisbon trip."
    violations = evaluate(draft, COVERAGE_UNKNOWN).violations
    directive = repair_directive(violations, COVERAGE_UNKNOWN, "top-5 ranked search")
    assert "the Lisbon trip" in directive
    assert "nothing about the Lisbon trip was found" in directive
    assert repair_directive((), COVERAGE_UNKNOWN, "x") == ""


TOPICS = ["your sister", "the Lisbon trip", None]
SUMMARIES = [
    "ranked search over 2 sources, 0 hits",
    "memory service unreachable. Retried twice.",
    "3 matching records",
    "",
]


@pytest.mark.parametrize("state", ALL_STATES)
def test_fallback_text_is_truthful_under_its_own_state(state: int) -> None:
    for topic in TOPICS:
        for summary in SUMMARIES:
            text = fallback_text(state, summary, topic)
            assert text == fallback_text(state, summary, topic)
            assert text.strip()
            if topic:
                assert topic in text
            if summary and state != NOT_ABSENT:
                assert summary.split(".")[0] in text
            result = evaluate(text, state)
            assert result.passed, (state, text, result.violations)
            if state not in (AUTHORITATIVE, IN_SCOPE):
                assert result.claims == (), (state, text)


def test_fallback_text_differs_by_state() -> None:
    texts = {fallback_text(s, "ranked search", "your sister") for s in ALL_STATES}
    assert len(texts) == len(ALL_STATES)
    unknown = fallback_text(COVERAGE_UNKNOWN, "ranked search, 0 hits", "your sister")
    assert unknown == (
        "I can't confirm whether you mentioned your sister: my memory search was not "
        "exhaustive (ranked search, 0 hits)."
    )


# --------------------------------------------------------------------------------------
# Speed
# --------------------------------------------------------------------------------------

PARAGRAPH = (
    "Thanks for the question! Based on what I retrieved, your sister is called Ana and "
    "lives in Oslo. You mentioned she works as a nurse, but you never told me her "
    "birthday. I searched our past conversations for 'birthday' and nothing came up; the "
    "search may be incomplete, though. If you tell me, I'll remember it. He wrote: \"you "
    'never told me that". Did you want me to set a reminder?'
)


def test_coverage_hedge_qualifies_only_its_own_clauses() -> None:
    # "the search may be incomplete" releases the search clause it follows, not the
    # corpus-wide claim of the previous sentence.
    result = evaluate(PARAGRAPH, COVERAGE_UNKNOWN)
    assert {c.scope for c in result.violations} == {CW}
    assert any("birthday" in c.clause.text for c in result.violations)
    assert not any("nothing came up" in c.clause.text for c in result.violations)


class _EverythingClaims:
    """A classifier stand-in that calls every clause it is asked about a claim."""

    def classify(self, texts: list[str]) -> list[ClauseScore]:
        return [ClauseScore("corpus_wide", 0.99, "model", unsure=False) for _ in texts]


def test_a_recollection_frame_does_not_hide_the_absence_after_it() -> None:
    """ "You told me a lot about X, but never Y": the telling is a recollection and the
    clause still reaches the classifier; without a negation after it, it does not."""
    model = cast(ClaimClassifier, _EverythingClaims())
    found = find_claims("Mi hai parlato tanto del giardino, ma mai di com'è il terreno.", model)
    assert {c.kind for c in found} >= {ClaimKind.RECOLLECTION, ClaimKind.ABSENCE}, found
    plain = find_claims("Mi hai parlato tanto del giardino.", model)
    assert [c.kind for c in plain] == [ClaimKind.RECOLLECTION], plain


@pytest.mark.parametrize(
    "text",
    [
        "Non mi hai mai detto se hai figli, quindi ho impostato il piano senza spese scolastiche.",
        "Del tuo cane non si è mai parlato nelle nostre conversazioni.",
        "Nelle nostre chat precedenti non è mai comparso il tuo budget per la macchina.",
        "Você nunca me disse o nome da sua irmã, por isso deixei um espaço em branco.",
        "Nunca conversamos sobre a sua mudança para Curitiba.",
        "Nunca me has dicho a qué te dedicas, así que el currículum es genérico.",
        "Tu ne m'as jamais dit dans quelle région tu habites.",
        "Du hast mir nie erzählt, welches Betriebssystem du nutzt.",
        "Je hebt me nooit iets over je budget verteld.",
        # nothing of what the user told mentions it
        "Nulla di ciò che mi hai raccontato riguarda Cracovia.",
        "Nada de lo que me has contado habla de tu hipoteca.",
        # "a" is also the Portuguese article, not only "to"
        "Você nunca me disse a sua idade.",
        "Non hai mai detto a me il tuo indirizzo.",
        # "not a word"
        "Von einem Knieproblem hast du bisher kein Wort gesagt.",
        "Über Ihre Allergie haben Sie mir kein einziges Wort erzählt.",
        # "mai" fronted, without "non"
        "Mai mi hai detto quale scuola frequenta tua figlia.",
        "Mai ci hai parlato del tuo trasloco.",
    ],
)
def test_negated_telling_in_the_other_languages_is_corpus_wide(text: str) -> None:
    assert [c.scope for c in find_absence_claims(text)] == [ClaimScope.CORPUS_WIDE]


@pytest.mark.parametrize(
    "text",
    [
        # a third party's words, or the user told someone else
        "Sua amiga diz que você nunca falou da sua viagem com ela.",
        "Il tuo collega dice che non ha mai parlato con te del progetto.",
        "Secondo tuo cugino, tua nonna non ha mai scritto la ricetta.",
        "Mi scrivi che non hai mai detto al tuo capo del secondo lavoro.",
        "Mai hai detto al tuo capo del secondo lavoro?",
        "Du hast deinem Chef kein Wort gesagt, das ist in Ordnung.",
        "Não se preocupe se você nunca contou ao seu chefe sobre a consulta.",
        # the claim withheld
        "Ma recherche n'a porté que sur la semaine dernière, je ne peux donc pas affirmer "
        "que vous n'avez jamais parlé de votre cousin.",
        "Minha busca só cobriu esta semana, então não dá para afirmar que você nunca falou "
        "do contrato.",
        # conditionals and suppositions
        "Se nunca me falaste do teu casamento, não tenho forma de saber.",
        "Qualora tu non mi avessi mai parlato delle tue intolleranze, non potrei tenerne conto.",
        # a negation inside what was told is not a negated telling
        "Mi avevi scritto che il caffè non ti è mai piaciuto, quindi ti segnalo l'orzo.",
        "Disseste-me que nunca gostaste de bacalhau com natas.",
        # world negation without our conversations
        "Di questo non si è mai parlato in tribunale.",
    ],
)
def test_negated_telling_hard_negatives(text: str) -> None:
    assert find_absence_claims(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "I didn't find anything about the lease in your memories, but my search only covers "
        "the last month, so it may well be stored from earlier.",
        "Je n'ai rien trouvé sur le bail dans vos souvenirs, mais ma recherche ne couvre que "
        "le dernier mois.",
        "No encontré la factura entre tus notas, aunque solo he podido revisar las de este año.",
        "In deinen Erinnerungen habe ich nichts zum Mietvertrag gefunden, allerdings "
        "durchsucht meine Suche nur die letzten vier Wochen.",
        "Tra le tue note non ho trovato la fattura, ma ho potuto controllare solo quelle di "
        "quest'anno.",
        "Não encontrei a nota fiscal nas suas anotações, mas só consegui verificar as deste ano.",
    ],
)
def test_a_search_limited_in_scope_qualifies_the_claim_before_it(text: str) -> None:
    assert find_absence_claims(text) == []


def test_a_limited_search_after_a_consequence_does_not_qualify() -> None:
    text = "You never told me your sister's name, so I only checked the invitation list."
    assert [c.scope for c in find_absence_claims(text)] == [ClaimScope.CORPUS_WIDE]


@pytest.mark.parametrize(
    "text",
    [
        "La password del wifi non si trova da nessuna parte nelle tue note.",
        "Qui ci si vede spesso con gli amici.",
    ],
)
def test_italian_si_after_a_negation_or_ci_is_not_if(text: str) -> None:
    analysis = analyse(text)
    clauses = [analysis.masked[c.start : c.end] for _, c in analysis.asserted()]
    assert clauses == [text.rstrip(".")]


def test_the_store_described_after_its_search_is_the_searchs_result() -> None:
    searched = (
        "Looking up 'Marseille' in our chat history, I found no earlier conversation "
        "about that trip."
    )
    assert {c.scope for c in find_absence_claims(searched)} == {ClaimScope.QUERY_SCOPED}
    alone = "I found no earlier conversation about that trip."
    assert {c.scope for c in find_absence_claims(alone)} == {ClaimScope.CORPUS_WIDE}


@pytest.mark.parametrize(
    ("text", "scopes"),
    [
        # a Portuguese "Do" ("of the") opening a statement is no English question
        ("Do seu cachorro você nunca me falou nada; qual é o nome dele?", {"corpus_wide"}),
        ("Did you ever tell me your flight number?", set()),
        # zero of any kind of hit, after a search
        ("Consultei a sua memória sobre o cartão: zero correspondências.", {"query_scoped"}),
        ("Busqué en tus notas la cita del dentista: cero coincidencias.", {"query_scoped"}),
        ("Das Spiel endete null Treffer.", set()),
        # a search tool named by what it finds is another system; the user's job search not
        ("The flight search returned no direct flights from Oslo to Lima.", set()),
        (
            "After scanning the notes I keep on your job search, I don't see anything "
            "about Siemens.",
            {"query_scoped"},
        ),
    ],
)
def test_round9_absence_rules(text: str, scopes: set[str]) -> None:
    assert {c.scope.value for c in find_absence_claims(text)} == scopes
