"""FindExact: exact folded terms over the canonical journal, the pre-limit
count, the independent verifier over the episode projection, and the absence
states they derive."""

from __future__ import annotations

import sys
import unicodedata
from datetime import UTC, datetime

import grpc
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import derive_absence, validate
from engram.db import Database
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.timeutil import to_timestamp
from memory_service.exact_terms import fold
from tests.helpers import commit_turn, error_field

pytestmark = pytest.mark.integration

COMPLETE = cpb.DIMENSION_STATE_COMPLETE
PARTIAL = cpb.DIMENSION_STATE_PARTIAL


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    # The verifier reads the projection, not vectors: no embedding worker needed.
    return pb_grpc.JournalServiceStub(
        channel_to(start_services(["journal"], workers_enabled=False))
    )


def find(stub: pb_grpc.JournalServiceStub, *terms: str, **fields: object) -> pb.FindExactResponse:
    fields.setdefault("subject", "alice")
    return stub.FindExact(pb.FindExactRequest(terms=list(terms), **fields))


def absence(response: pb.FindExactResponse) -> int:
    validate(response.coverage)
    return derive_absence(response.coverage, len(response.matches))


def dimensions(response: pb.FindExactResponse) -> tuple[int, ...]:
    d = response.coverage.dimensions
    return (d.semantic, d.field, d.temporal, d.visibility, d.normalization)


def test_found_terms_are_not_absent_with_an_exact_count(journal):
    first = commit_turn(journal, "My sister lives in Lisbon", "Lisbon is lovely.", session_id="s1")
    commit_turn(journal, "My sister lives in Lisbon", "Lisbon is lovely.", session_id="s2")
    commit_turn(journal, "I visited Porto", "Porto has great wine.")
    response = find(journal, "LISBON", "Sister")
    assert absence(response) == cpb.ABSENCE_STATE_NOT_ABSENT
    assert list(response.normalized_terms) == ["lisbon", "sister"]
    (match,) = response.matches
    # One match per distinct content: its latest occurrence.
    assert match.event_id == first.event_id + 1
    assert match.session_id == "s2"
    assert match.user_text == "My sister lives in Lisbon"
    assert list(match.matched_terms) == ["lisbon", "sister"]
    coverage = response.coverage
    assert coverage.read_path == "journal.find_exact.v1"
    assert list(coverage.source_systems) == ["postgresql:journal.events"]
    assert coverage.cardinality.exactness == cpb.EXACTNESS_EXACT
    assert coverage.cardinality.matched_before_limit == 1
    assert coverage.verifier.ran and coverage.verifier.agrees and coverage.verifier.count == 1
    assert coverage.verifier.read_path == "journal.find_exact.verifier.v1"
    assert coverage.verifier.source_system == "postgresql:journal.episodes"


def test_terms_match_in_the_assistant_text_too(journal):
    commit_turn(journal, "Where should I go?", "Try the aquarium in Genoa.")
    assert len(find(journal, "aquarium", "go").matches) == 1


def test_an_agreeing_empty_search_is_an_authoritative_absence(journal):
    commit_turn(journal, "I visited Porto", "Porto has great wine.")
    response = find(journal, "Lisbon")
    assert response.matches == []
    assert dimensions(response) == (COMPLETE,) * 5
    assert response.coverage.cardinality.matched_before_limit == 0
    assert response.coverage.verifier.ran and response.coverage.verifier.agrees
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    watermark = journal.GetStatus(pb.GetStatusRequest()).feed_watermark
    assert response.coverage.snapshot_version == str(watermark)


def test_variants_of_case_width_and_invisible_characters_are_unified(journal):
    commit_turn(
        journal, "We ate CRÈME BRÛLÉE at the Ｃａｆé", "On the Straße, ex\u00adact\u200bly."
    )
    for terms in (
        ["crème brûlée"],
        ["Crème Brûlée"],
        ["CRE\u0300ME"],  # decomposed accent
        ["café"],
        ["strasse"],
        ["STRAẞE"],
        ["exactly"],
    ):
        response = find(journal, *terms)
        assert len(response.matches) == 1, terms
    assert list(find(journal, "BRÛLÉE").normalized_terms) == ["brûlée"]
    # Accents are letters: another spelling is another term.
    for terms in (["creme brulee"], ["cafe"]):
        response = find(journal, *terms)
        assert response.matches == [], terms


ZURICH_SPELLINGS = ["zürich", "Zürich", "ZÜRICH", "Zu\u0308rich", "Zü\u200brich", "ＺÜＲＩＣＨ"]


@pytest.mark.parametrize("term", ZURICH_SPELLINGS)
def test_a_mentioned_unicode_term_is_found_in_every_spelling(journal, term):
    commit_turn(journal, "Ich bin nach Zürich gezogen.", "Grüezi in ZÜRICH!")
    commit_turn(journal, "I moved to Lisbon", "Nice.")
    response = find(journal, term)
    assert list(response.normalized_terms) == ["zürich"]
    assert [m.user_text for m in response.matches] == ["Ich bin nach Zürich gezogen."]
    assert response.coverage.dimensions.normalization == COMPLETE
    assert response.coverage.verifier.ran and response.coverage.verifier.agrees
    assert absence(response) == cpb.ABSENCE_STATE_NOT_ABSENT


def test_a_never_mentioned_unicode_term_is_an_authoritative_absence(journal):
    commit_turn(journal, "I moved to Lisbon", "Nice.")
    commit_turn(journal, "Herr Müller trifft Ørsted in São Paulo")
    response = find(journal, "Zürich")
    assert response.matches == []
    assert dimensions(response) == (COMPLETE,) * 5
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    for term in ("müller", "ØRSTED", "são paulo"):
        found = find(journal, term)
        assert len(found.matches) == 1, term
        assert found.coverage.dimensions.normalization == COMPLETE, term
    # "ü" is a letter: "ller" is not a word of "Müller".
    assert absence(find(journal, "ller")) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE


def test_terms_of_scripts_without_word_boundaries_are_never_authoritative(journal):
    commit_turn(journal, "我住在北京大学附近", "好的。")
    found = find(journal, "北京")
    assert len(found.matches) == 1  # found inside the run: no boundary is required
    assert found.coverage.dimensions.normalization == PARTIAL
    assert absence(found) == cpb.ABSENCE_STATE_NOT_ABSENT
    missing = find(journal, "上海")
    assert missing.matches == []
    assert missing.coverage.dimensions.normalization == PARTIAL
    assert missing.coverage.verifier.ran and missing.coverage.verifier.agrees
    assert absence(missing) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE
    # One inexact term makes the whole search inexact.
    mixed = find(journal, "Lisbon", "上海")
    assert mixed.coverage.dimensions.normalization == PARTIAL
    assert absence(mixed) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


@pytest.mark.parametrize(
    ("said", "asked"), [("Zürich", "Zurich"), ("Zurich", "Zürich"), ("São Paulo", "Sao Paulo")]
)
def test_a_differently_accented_spelling_is_never_an_authoritative_absence(journal, said, asked):
    commit_turn(journal, f"We moved to {said} last year.", "Nice.")
    response = find(journal, asked)
    assert response.matches == []  # exact terms stay exact ...
    assert response.coverage.dimensions.normalization == PARTIAL
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE  # ... but never "never"


@pytest.mark.parametrize(
    "term",
    ["Straße", "Zürіch", "kış"],  # folding merges spellings; Cyrillic і; dotless ı
)
def test_ambiguously_folded_terms_are_partial(journal, term):
    commit_turn(journal, "I moved to Lisbon", "Nice.")
    response = find(journal, term)
    assert response.matches == []
    assert response.coverage.dimensions.normalization == PARTIAL
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


def test_a_database_that_folds_differently_is_never_authoritative(journal, database_url):
    commit_turn(journal, "I moved to Lisbon", "Nice.")
    assert absence(find(journal, "Zürich")) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    with psycopg.connect(database_url, autocommit=True) as conn:
        # A fold that strips accents (the one before engram.terms): it folds "Ü" to "u".
        conn.execute(
            """CREATE OR REPLACE FUNCTION journal.exact_fold(t text) RETURNS text
               LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
               SELECT btrim(regexp_replace(normalize(lower(regexp_replace(
                   normalize(t, NFKD), '[\u0300-\u036f]', '', 'g')), NFC),
                   '[[:space:]]+', ' ', 'g'))
               $$"""
        )
    response = find(journal, "Zürich")
    assert response.matches == []
    assert response.coverage.dimensions.normalization == PARTIAL
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


def test_terms_match_whole_words_only(journal):
    commit_turn(journal, "The hotdog stand near the catalogue shop")
    for term in ("dog", "cat", "hot"):
        response = find(journal, term)
        assert response.matches == [], term
        assert absence(response) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert len(find(journal, "hotdog stand").matches) == 1


def test_partial_normalisation_only_licenses_an_in_scope_absence(journal):
    commit_turn(journal, "Send me an email tomorrow")
    response = find(journal, "e-mail")
    assert response.matches == []
    assert response.coverage.dimensions.normalization == PARTIAL
    assert response.coverage.verifier.agrees
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE
    assert find(journal, "42").coverage.dimensions.normalization == PARTIAL


def test_a_deleted_projection_row_is_a_disagreement(journal, database_url):
    receipt = commit_turn(journal, "The vault code is under the fern")
    with psycopg.connect(database_url, autocommit=True) as conn:
        # The projection is mutable: remove a row behind the journal's back.
        conn.execute("DELETE FROM journal.episodes WHERE episode_id = %s", (receipt.episode_id,))
    response = find(journal, "fern")
    coverage = response.coverage
    assert coverage.cardinality.matched_before_limit == 1
    assert coverage.verifier.ran and not coverage.verifier.agrees
    assert coverage.verifier.count == 0
    # The canonical hit is positive evidence, so the result is not absent, but
    # the disagreement is sealed into the coverage and counted.
    assert absence(response) == cpb.ABSENCE_STATE_NOT_ABSENT
    metrics = journal.GetStatus(pb.GetStatusRequest()).metrics
    assert metrics["find_exact.verifier_disagreement_total"] == 1


def test_a_projection_claiming_unjournaled_content_turns_absence_into_disagreement(
    journal, database_url
):
    receipt = commit_turn(journal, "Nothing special today")
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(
            "UPDATE journal.episodes SET user_text = 'I buried treasure by the oak' "
            "WHERE episode_id = %s",
            (receipt.episode_id,),
        )
    response = find(journal, "treasure")
    assert response.matches == []
    assert response.coverage.cardinality.matched_before_limit == 0
    assert response.coverage.verifier.count == 1 and not response.coverage.verifier.agrees
    assert absence(response) == cpb.ABSENCE_STATE_COVERAGE_DISAGREEMENT


def test_turns_that_were_not_learning_eligible_block_an_authoritative_absence(journal):
    commit_turn(journal, "An evaluation turn about kayaks", learning_eligible=False)
    response = find(journal, "kayaks")
    # Not exposed (the verified scope is learning-eligible content), but the
    # journal holds it: only an in-scope absence.
    assert response.matches == []
    assert response.coverage.dimensions.visibility == PARTIAL
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE
    commit_turn(journal, "An evaluation turn about kayaks", learning_eligible=True)
    assert absence(find(journal, "kayaks")) == cpb.ABSENCE_STATE_NOT_ABSENT


@pytest.mark.parametrize("kind", ["event", "episode"])
def test_quarantined_content_is_hidden_from_both_paths(journal, kind):
    first = commit_turn(journal, "A rumour about the mayor", session_id="s1")
    commit_turn(journal, "A rumour about the mayor", session_id="s2")
    record_id = str(first.event_id) if kind == "event" else first.episode_id
    record_kind = pb.RECORD_KIND_EVENT if kind == "event" else pb.RECORD_KIND_EPISODE
    journal.Quarantine(
        pb.QuarantineRequest(record_kind=record_kind, record_id=record_id, reason="unverified")
    )
    response = find(journal, "mayor")
    assert response.matches == []
    assert response.coverage.cardinality.matched_before_limit == 0
    assert response.coverage.verifier.count == 0 and response.coverage.verifier.agrees
    assert response.coverage.dimensions.visibility == PARTIAL
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE
    journal.Restore(
        pb.RestoreRequest(record_kind=record_kind, record_id=record_id, reason="verified")
    )
    assert absence(find(journal, "mayor")) == cpb.ABSENCE_STATE_NOT_ABSENT


def test_a_session_scope_is_verified_but_only_in_scope(journal):
    commit_turn(journal, "Talking about giraffes", session_id="s1")
    commit_turn(journal, "Talking about zebras", session_id="s2")
    inside = find(journal, "giraffes", session_id="s1")
    assert len(inside.matches) == 1 and inside.coverage.verifier.agrees
    outside = find(journal, "giraffes", session_id="s2")
    assert outside.matches == []
    assert outside.coverage.verifier.ran and outside.coverage.verifier.agrees
    assert outside.coverage.dimensions.visibility == PARTIAL
    assert absence(outside) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


def test_a_time_window_scopes_occurrences_and_only_licenses_an_in_scope_absence(journal):
    commit_turn(journal, "Planting tulips", occurred_at=datetime(2020, 3, 1, tzinfo=UTC))
    commit_turn(journal, "Planting roses")
    window = cpb.TimeWindow(
        start_time=to_timestamp(datetime(2020, 1, 1, tzinfo=UTC)),
        end_time=to_timestamp(datetime(2021, 1, 1, tzinfo=UTC)),
    )
    assert len(find(journal, "tulips", time_window=window).matches) == 1
    response = find(journal, "roses", time_window=window)
    assert response.matches == []
    assert response.coverage.dimensions.temporal == PARTIAL
    assert not response.coverage.verifier.ran
    assert absence(response) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


def test_subjects_and_workspaces_are_separate_corpora(journal):
    commit_turn(journal, "Bob's password hint is a parrot", subject="bob")
    commit_turn(journal, "Parrot notes", subject="alice", workspace="lab")
    assert absence(find(journal, "parrot")) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert len(find(journal, "parrot", workspace="lab").matches) == 1
    assert find(journal, "parrot", subject="bob").matches[0].user_text.startswith("Bob's")


def test_the_count_is_taken_before_the_limit(journal):
    for i in range(3):
        commit_turn(journal, f"Harbour visit number {i}")
    response = find(journal, "harbour", limit=2)
    assert len(response.matches) == 2
    card = response.coverage.cardinality
    assert (card.returned, card.matched_before_limit, card.truncated) == (2, 3, True)
    assert response.coverage.verifier.count == 3 and response.coverage.verifier.agrees
    assert [m.user_text for m in response.matches] == [
        "Harbour visit number 2",
        "Harbour visit number 1",
    ]
    assert find(journal, "harbour").coverage.cardinality.limit == 20


def test_sql_folding_matches_the_reference(database_url):
    samples = [
        "Hello  World",
        "ＨＥＬＬＯ",
        "ﬁsh",
        "Crème Brûlée",
        "CRE\u0300ME",
        "STRAẞE",
        "Straße",
        "ΣΟΦΟΣ σοφος",
        "new\u00a0york",
        "a\tb\n\r\u2028c\x1fd",
        "  padded  ",
        "Kelvin \u212a",
        "𝐁old",
        "İstanbul",
        "ÅNGSTRÖM",
        "Zü\u200brich Zü\u00adrich Zu\u0308rich",
        "ᾼ ꭰ Ꭰ",
        "我住在北京",
    ]
    db = Database(database_url, max_size=1).open()
    try:
        with db.connection() as conn:
            for sample in samples:
                row = conn.execute("SELECT journal.exact_fold(%s) AS f", (sample,)).fetchone()
                assert row is not None and row["f"] == fold(sample), sample
    finally:
        db.close()


def test_sql_folding_matches_the_reference_for_every_character(database_url):
    """Every character Python's Unicode database knows, alone and between letters."""
    chars = [
        chr(cp)
        for cp in range(1, sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) not in ("Cn", "Cs")
    ]
    with psycopg.connect(database_url) as conn:
        version = int(conn.execute("SHOW server_version_num").fetchone()[0])
        if version < 180000:
            pytest.skip("without casefold() the database fold is checked per query instead")
        rows = conn.execute(
            "SELECT c, journal.exact_fold(c), journal.exact_fold('a' || c || 'b') "
            "FROM unnest(%s::text[]) AS c",
            (chars,),
        ).fetchall()
    wrong = [
        (hex(ord(c)), alone, inside)
        for c, alone, inside in rows
        if alone != fold(c) or inside != fold(f"a{c}b")
    ]
    assert wrong == []


INPUT_CASES = [
    ({"terms": []}, "terms"),
    ({"terms": ["   "]}, "terms"),
    ({"terms": ["\u200b\u00ad"]}, "terms"),  # only invisible characters
    ({"terms": ["x" * 101]}, "terms"),
    ({"terms": [f"t{i}" for i in range(9)]}, "terms"),
    ({"subject": ""}, "subject"),
    ({"session_id": "has space"}, "session_id"),
    ({"limit": 101}, "limit"),
    (
        {
            "time_window": cpb.TimeWindow(
                start_time=to_timestamp(datetime(2022, 1, 1, tzinfo=UTC)),
                end_time=to_timestamp(datetime(2022, 1, 1, tzinfo=UTC)),
            )
        },
        "time_window",
    ),
]


def test_bad_input_names_the_field(journal):
    # One server for every case (each is a read that must be refused).
    for request_fields, field in INPUT_CASES:
        fields = {"subject": "alice", "terms": ["ok"], **request_fields}
        with pytest.raises(grpc.RpcError) as caught:
            journal.FindExact(pb.FindExactRequest(**fields))
        assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT, request_fields
        assert error_field(caught.value) == field, request_fields
