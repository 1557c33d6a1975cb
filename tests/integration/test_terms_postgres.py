"""engram.terms against a real PostgreSQL: the resident index's terms (Snowball
English via PyStemmer, PostgreSQL's stop list) are the lexemes PostgreSQL's
``english`` configuration produces, so the resident index and the fallback agree."""

from __future__ import annotations

import re
from pathlib import Path

import psycopg
import pytest

from engram import terms

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]

# Inflections that exercise every step of the Snowball English stemmer.
WORDS = """
a abilities ability able about above abnormally absolutely academic academies accept
acceptable acceptance accepted accepting accidentally according account accounting
achieve achieved achievement achieving acquiesce active actively activities activity
actually adjustable adjustment admitted agreed agreement alarming allied alliance
allowance already although always amazing analysis analyses analytical analyze
anything apologies apparently appearance applied applies apply applying arguing
argument arranged arrangement arrived asking assumed atlas attached attention
bakeries bakery beautiful beautifully became because become becoming been before began
beginning being believe believed beliefs bicycle biggest birthday boxes breaking
briefly bringing brought building buildings busily buying called calling calmly
careful carefully caring caresses carried carries cats caused causing ceremonies
certainly changed changes changing cheaper cheerful cheerfully children cities city
classes classical clearly closer clothes coming committed committee communication
community companies company completely conditional conditionally conditioned connected
connection connections considerably consign consigned consigning consignment
consist consisted consistency consistent consistently consisting consists
consolation consolations consolatory console consoled consoler consoles consolidate
consolidated consolidating consoling consolingly consols consonant consort consorted
consorting conspicuous conspicuously conspiracy conspirator conspirators conspire
conspired conspiring constable constables constance constancy constant constantly
constitute constituted constituting constitution constitutional constitutionally
continued continuing controlled conveniently countries created creating creative
crying daily dancing database databases days decided decision deeply defensible
definitely delivered demonstration departments dependent described designed
destroyed developed developing development differences different differently dying
early easily eating effective effectively electrical electricity emptied empties
encouraging engineering enjoyable enormously entirely especially eventually
everything exactly exceed exceeded exceeding excitement expensive experienced
explained extremely failed failing fairly families famous faster feelings finally
finding fitting flying following forgotten formality formalize formally fortunately
friendly friendship fully generalization generally generous gently gigabytes
goodness gradually greatly happily happiness happy hardly helpful hoped hopefully
hopeful hoping horrible hospitality husbands identification ignorance immediately
importance importantly improved improvement including increasingly incredible
independence independently individual individually information inning innings
interested interesting internationally invention inventions involved irritated
itemization journalism kindness knowledge largely laughing learning library
lightning likely literally lived lives living loving luckily lying management
manager marriage meeting meetings mentioned migrations moving naturally nearly
necessary nervousness news nobody noticed nothing obviously occasionally offered
operational operations organization organized outing outings painfully particularly
patiently people perfectly personally planned planning played pleasantly politely
possibility possibly potatoes powerful practically preferred preparing presumably
previously probably produced products professional properly proud quickly quietly
rational rationalize realized really reasonably recently recognized regularly
relational relationship remembered repeatedly replied reporting represented
requested responsibility restarted running sadly safely scientifically seriously
shipping sizes skies slowly sensibility sensitivity speaking stopped strangely
strongly studies studying successful successfully suddenly surprisingly sweetly
talked teaching terribly thankfully thinking tried truly typically unfortunately
universities university unusually useful usually valency valuable various visited
walked wanted watched weekly willingness wonderful working worried writing yearly
yesterday zebras cardiologist cardiologists geologist geologists biologist ecologist
apologist technologist
"""

# Words with the prefixes whose R1 Snowball 3 treats specially (engram.terms._stem).
PREFIXED = """
emergency emerge emerged emerging emergencies emergent internal interval intervals
interest interesting internet interview interviews interns interned international
later lateral laterally latest paste pasted pasting pastry pastries past pasta pastel
pasts organ organic organize organization organs organism universe universal
university universities universes generalization communication arsenal arsenic
"""

# Latin-script words that are not plain ASCII: PostgreSQL stems every word token.
LATIN = "zürich são paulo müller ørsted naïve cafés façades résumés crème brûlée fiancées"


def _doc_words() -> set[str]:
    found: set[str] = set()
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found.update(w.lower() for w in re.findall(r"\b[A-Za-z]{2,}\b", path.read_text()))
    return found


def _lexemes(conn: psycopg.Connection[tuple[str, str]], words: list[str]) -> dict[str, list[str]]:
    rows = conn.execute(
        "SELECT w, to_tsvector('english', w)::text FROM unnest(%s::text[]) AS w", (words,)
    ).fetchall()
    return {w: re.findall(r"'((?:[^']|'')*)'", vector) for w, vector in rows}


def test_index_terms_are_postgresqls_english_lexemes(database_url: str) -> None:
    words = sorted(set(WORDS.split()) | set(PREFIXED.split()) | _doc_words() | set(LATIN.split()))
    assert len(words) > 500
    with psycopg.connect(database_url) as conn:
        lexemes = _lexemes(conn, words)
    differ = {w: (terms.index_terms(w), lexemes[w]) for w in words}
    differ = {w: pair for w, pair in differ.items() if pair[0] != pair[1]}
    assert differ == {}


def test_the_stop_list_is_postgresqls(database_url: str) -> None:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT w, ts_lexize('english_stem', w) FROM unnest(%s::text[]) AS w",
            (sorted(terms.STOP_WORDS),),
        ).fetchall()
    assert [w for w, lexemes in rows if lexemes != []] == []
    assert len(terms.STOP_WORDS) == 127  # english.stop has 127 words


def test_fallback_query_words_reach_the_same_lexemes(database_url: str) -> None:
    """What SearchEpisodes hands to websearch_to_tsquery (surface words) becomes the
    lexemes the resident index computes for the same text."""
    text = "The Meetings in ZÜRICH were PLANNED; Müller's cafés, São Paulo!"
    query = " or ".join(terms.surface_words(text))
    with psycopg.connect(database_url) as conn:
        row = conn.execute("SELECT websearch_to_tsquery('english', %s)::text", (query,)).fetchone()
    assert row is not None
    assert sorted(set(re.findall(r"'([^']*)'", row[0]))) == sorted(set(terms.index_terms(text)))
