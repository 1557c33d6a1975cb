"""FindExact through its term indexes (migrations/0007_exact_terms_index.sql):
the key functions classify every character as engram.terms does, the planner
reads both indexes at a realistic table size, and the indexed path returns
exactly what the linear scan it replaced returns (bench/find_exact_linear.py),
on randomised data with Unicode, quarantined rows, sessions and time windows."""

from __future__ import annotations

import json
import random
import shutil
import sys
import unicodedata
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
from psycopg import sql

from bench.find_exact_linear import LinearFindExact
from engram import terms as term_rules
from engram.common.v1 import common_pb2 as cpb
from engram.db import Database, migrations
from engram.db.urls import with_database
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from memory_service.exact_terms import normalize_terms, terms_are_exact
from memory_service.find_exact import ExactQuery, FindExact
from memory_service.search_queries import SQ
from tests.helpers import commit_turn

pytestmark = pytest.mark.integration

MIGRATIONS = Path(__file__).resolve().parents[2] / "memory_service" / "migrations"

PARTIAL = cpb.DIMENSION_STATE_PARTIAL
KEY_FUNCTIONS = ("journal.exact_words", "journal.exact_episode_words")


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(
        channel_to(start_services(["journal"], workers_enabled=False))
    )


def _unsealed(coverage: cpb.Coverage) -> cpb.Coverage:
    """The coverage without what sealing adds (its time and digest)."""
    copy = cpb.Coverage()
    copy.CopyFrom(coverage)
    copy.ClearField("computed_at")
    copy.ClearField("digest")
    return copy


def _term_chars() -> frozenset[int]:
    return frozenset(
        cp for low, high in term_rules.term_char_ranges() for cp in range(low, high + 1)
    )


def _expected_keys(char: str, term_chars: frozenset[int]) -> list[str]:
    """The keys of "a<char>b" by the rule the migration states, with the character
    classes FindExact's patterns use (engram.terms.term_char_ranges)."""
    if term_rules.lacks_word_boundaries(char):
        return ["a", char, "b"]
    if ord(char) in term_chars:
        return [f"a{char}b"]
    return ["a", "b"]


def _keys(conn: psycopg.Connection[Any], function: str, texts: list[str]) -> list[list[str]]:
    rows = conn.execute(
        f"SELECT {function}(t) FROM unnest(%s::text[]) WITH ORDINALITY AS x(t, n) ORDER BY n",
        (texts,),
    ).fetchall()
    return [list(keys) for (keys,) in rows]


@pytest.mark.parametrize("function", KEY_FUNCTIONS)
def test_key_functions_classify_every_character_as_the_reference(database_url, function):
    """Word characters, no-boundary characters and separators, code point by code
    point: a word character the patterns treat as a boundary could hide a match."""
    term_chars = _term_chars()
    chars = [
        chr(cp)
        for cp in range(1, sys.maxunicode + 1)
        if unicodedata.category(chr(cp)) not in ("Cn", "Cs")
    ]
    chunks = [chars[i : i + 4000] for i in range(0, len(chars), 4000)]
    wrong: list[tuple[str, list[str]]] = []
    with psycopg.connect(database_url) as conn:
        found = _keys(conn, function, [" ".join(f"a{c}b" for c in chunk) for chunk in chunks])
        for chunk, keys in zip(chunks, found, strict=True):
            if keys == [k for c in chunk for k in _expected_keys(c, term_chars)]:
                continue
            each = _keys(conn, function, [f"a{c}b" for c in chunk])
            wrong += [
                (hex(ord(c)), got)
                for c, got in zip(chunk, each, strict=True)
                if got != _expected_keys(c, term_chars)
            ]
    assert wrong == []


def conn_keys(database_url: str, function: str, text: str) -> list[str]:
    with psycopg.connect(database_url) as conn:
        return _keys(conn, function, [text])[0]


@pytest.mark.parametrize("function", KEY_FUNCTIONS)
def test_long_words_are_keyed_by_their_first_128_characters(database_url, function):
    word = "ab" * 150
    assert conn_keys(database_url, function, f"x {word} 北京 y") == [
        "x",
        word[:128],
        "北",
        "京",
        "y",
    ]
    assert conn_keys(database_url, function, "") == []


def test_a_turn_is_keyed_by_both_texts_and_apart_by_their_accent_stripped_forms(database_url):
    with psycopg.connect(database_url) as conn:
        row = conn.execute(
            "SELECT journal.exact_turn_terms(%s, %s), journal.exact_turn_terms(%s, %s),"
            " journal.exact_episode_terms(%s, %s)",
            (
                *("Wir ziehen nach ZURICH", "São Paulo, e-mail"),
                *("a plain turn", "ok"),
                *("Wir ziehen nach ZÜRICH", "ok"),
            ),
        ).fetchone()
    assert row is not None
    accented, plain, episode = row
    # Stripping changed the assistant text: both texts' stripped keys, prefixed.
    assert set(accented) == {
        *("wir", "ziehen", "nach", "zurich", "são", "paulo", "e", "mail"),
        *(" wir", " ziehen", " nach", " zurich", " sao", " paulo", " e", " mail"),
    }
    assert set(plain) == {"a", "plain", "turn", "ok"}
    assert set(episode) == {"wir", "ziehen", "nach", "zürich", "ok"}


@pytest.mark.parametrize(
    ("user", "assistant", "terms"),
    [
        ("We moved to Zurich", "São Paulo is far", ["Zürich", "Sao Paulo"]),
        ("We moved to Zürich", "Sao Paulo is far", ["Zurich", "São Paulo"]),
        ("Müller in Kraków", "ok", ["Muller", "Krakow"]),
        ("Muller in Krakow", "ok", ["Müller", "Kraków"]),
        ("Muller", "in Kraków", ["Müller", "Krakow"]),
    ],
)
def test_the_variant_guard_finds_accents_stripped_across_both_texts(
    journal, db, user, assistant, terms
):
    commit_turn(journal, user, assistant)
    query = ExactQuery(
        subject="alice",
        workspace="default",
        terms=normalize_terms(terms),
        normalization_exact=terms_are_exact(terms),
        session_id="",
        start=None,
        end=None,
        limit=20,
    )
    assert query.normalization_exact
    new, old = FindExact(db).find(query), LinearFindExact(db).find(query)
    assert new.matches == old.matches == []
    assert new.coverage.dimensions.normalization == PARTIAL
    assert _unsealed(new.coverage) == _unsealed(old.coverage)


# ---------------------------------------------------------------------------
# The planner reads the indexes


class _ExplainingConnection:
    """Runs EXPLAIN on FindExact's term queries before running them."""

    def __init__(self, conn: Any, plans: dict[str, list[dict[str, Any]]]) -> None:
        self._conn = conn
        self._plans = plans

    def __getattr__(self, name: str) -> Any:
        # The rest of the connection as it is (transaction(), closed, ...).
        return getattr(self._conn, name)

    def __setattr__(self, name: str, value: Any) -> None:
        # Transaction characteristics (engram.db.snapshot) go to the connection.
        if name.startswith("_"):
            super().__setattr__(name, value)
        else:
            setattr(self._conn, name, value)

    def execute(self, query: str, params: Any = None) -> Any:
        for name in ("exact_matches", "exact_verifier_count", "exact_variant_exists"):
            if query == SQ[name]:
                row = self._conn.execute("EXPLAIN (FORMAT JSON) " + query, params).fetchone()
                self._plans.setdefault(name, []).append(row["QUERY PLAN"][0]["Plan"])
        return self._conn.execute(query, params)


class _ExplainingDatabase:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.plans: dict[str, list[dict[str, Any]]] = {}

    @contextmanager
    def connection(self) -> Iterator[_ExplainingConnection]:
        with self.db.connection() as conn:
            yield _ExplainingConnection(conn, self.plans)


def _nodes(plan: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield plan
    for child in plan.get("Plans", []):
        yield from _nodes(child)


_BULK_EVENTS = """
INSERT INTO journal.events (event_type, subject, workspace, session_id, payload, provenance,
                            content_sha256, occurred_at)
SELECT 'conversation.turn.completed', %(subject)s, 'default', 's' || (i / 50),
       jsonb_build_object('user_text', u, 'assistant_text', a, 'learning_eligible', i %% 20 <> 0),
       'generated_output_unverified', md5(u || a), %(t0)s::timestamptz + i * interval '1 minute'
FROM (SELECT %(words)s::text[] AS w) AS v,
     generate_series(1, %(n)s) AS i,
     LATERAL (SELECT 'Turn ' || i || ': the ' || w[1 + (i * 7) %% 997] || ' moved to '
                     || w[1 + (i * 13) %% 997] || ' near Zürich' AS u,
                     'Noted, the ' || w[1 + (i * 7) %% 997] || ' is by the '
                     || w[1 + (i * 31) %% 997] || ' (' || w[1 + i %% 997]
                     || ' ' || w[1 + (i * 3) %% 997] || ').' AS a) AS t
"""

_BULK_EPISODES = """
INSERT INTO journal.episodes (subject, workspace, content_sha256, session_id, session_ids,
    user_text, assistant_text, first_seen_at, last_seen_at, first_event_id, last_event_id)
SELECT ev.subject, ev.workspace, ev.content_sha256, ev.session_id, ARRAY[ev.session_id],
       ev.payload ->> 'user_text', ev.payload ->> 'assistant_text', ev.occurred_at,
       ev.occurred_at, ev.event_id, ev.event_id
FROM journal.events ev
WHERE ev.subject = %(subject)s AND (ev.payload ->> 'learning_eligible')::boolean
"""


def _words() -> list[str]:
    rng = random.Random(3)
    found = {
        "".join(rng.choices("bcdfgklmnprstvz", k=3)) + rng.choice("aeiou") + "n"
        for _ in range(3000)
    }
    return sorted(found)[:997]


WORDS = _words()


def test_both_paths_read_their_term_index_at_a_realistic_size(db, database_url):
    words = WORDS
    with psycopg.connect(database_url, autocommit=True) as conn:
        for subject, n in (("alice", 12_000), ("bob", 4_000)):
            params = {"subject": subject, "n": n, "words": words, "t0": datetime(2024, 1, 1)}
            conn.execute(_BULK_EVENTS, params)
            conn.execute(_BULK_EPISODES, {"subject": subject})
        conn.execute("ANALYZE journal.events")
        conn.execute("ANALYZE journal.episodes")
    explaining = _ExplainingDatabase(db)
    find = FindExact(explaining)  # type: ignore[arg-type]
    for raw in (["Zurich"], [words[5]], [words[5], "moved"], ["nothing", "here"]):
        result = find.find(
            ExactQuery(
                subject="alice",
                workspace="default",
                terms=normalize_terms(raw),
                normalization_exact=terms_are_exact(raw),
                session_id="",
                start=None,
                end=None,
                limit=20,
            )
        )
        assert result.coverage.verifier.ran
    expected = {
        "exact_matches": "events_exact_terms_idx",
        "exact_verifier_count": "episodes_exact_terms_idx",
        "exact_variant_exists": "events_exact_terms_idx",
    }
    assert set(explaining.plans) == set(expected)
    for name, index in expected.items():
        for plan in explaining.plans[name]:
            nodes = list(_nodes(plan))
            assert any(n.get("Index Name") == index for n in nodes), (name, json.dumps(plan))
            # Turns and episodes are read through the term index, or looked up
            # by primary key (quarantined records, the page's rows); the subject
            # is never scanned.
            for node in nodes:
                kind, relation = node["Node Type"], node.get("Relation Name")
                assert not (kind == "Seq Scan" and relation in ("events", "episodes")), name
                if kind == "Bitmap Index Scan":
                    assert node["Index Name"] in (index, "quarantined_pkey"), (name, node)
                if kind in ("Index Scan", "Index Only Scan") and relation in ("events", "episodes"):
                    condition = node.get("Index Cond", "")
                    assert "event_id =" in condition or "episode_id =" in condition, (name, node)


def test_the_migration_backfills_a_populated_journal(pg_server_url, tmp_path):
    """Turns stored before 0007 are found through the indexes it builds."""
    name = f"engram_backfill_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = with_database(pg_server_url, name)
    try:
        for path in sorted(MIGRATIONS.glob("*.sql")):
            if int(path.name[:4]) < 7:
                shutil.copy(path, tmp_path)
        migrations.apply(url, "journal", tmp_path)
        with psycopg.connect(url, autocommit=True) as conn:
            params = {"subject": "alice", "n": 900, "words": WORDS, "t0": datetime(2024, 1, 1)}
            conn.execute(_BULK_EVENTS, params)
            conn.execute(_BULK_EPISODES, {"subject": "alice"})
        later = [p for p in sorted(MIGRATIONS.glob("*.sql")) if int(p.name[:4]) >= 7]
        for path in later:
            shutil.copy(path, tmp_path)
        # 0007 backfills; the later ones are what the current code needs.
        applied = [m.version for m in migrations.apply(url, "journal", tmp_path)]
        assert applied == [int(p.name[:4]) for p in later] and applied[0] == 7
        db = Database(url, max_size=2).open()
        try:
            explaining = _ExplainingDatabase(db)
            for raw in (["near", "Zürich"], [WORDS[7]], ["Zurich"], ["never-said"]):
                query = ExactQuery(
                    subject="alice",
                    workspace="default",
                    terms=normalize_terms(raw),
                    normalization_exact=terms_are_exact(raw),
                    session_id="",
                    start=None,
                    end=None,
                    limit=100,
                )
                new = FindExact(explaining).find(query)  # type: ignore[arg-type]
                old = LinearFindExact(db).find(query)
                assert new.matches == old.matches, raw
                assert _unsealed(new.coverage) == _unsealed(old.coverage), raw
            found = FindExact(db).find(
                ExactQuery("alice", "default", ["near", "zürich"], True, "", None, None, 20)
            )
            # Every stored turn says "near Zürich"; one in twenty is not learning-eligible.
            assert found.coverage.cardinality.matched_before_limit == 900 - 45
            assert found.coverage.verifier.agrees
            plans = explaining.plans["exact_matches"] + explaining.plans["exact_verifier_count"]
            indexes = {n.get("Index Name") for plan in plans for n in _nodes(plan)}
            assert {"events_exact_terms_idx", "episodes_exact_terms_idx"} <= indexes
        finally:
            db.close()
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


# ---------------------------------------------------------------------------
# The indexed path returns what the linear scan returns

VOCABULARY = [
    *("harbour", "lisbon", "porto", "giraffe", "mayor", "rumour", "tulips", "kayak"),
    *("the", "a", "of", "and", "visit", "moved", "garden", "dog", "hotdog", "dogs"),
    *("Zürich", "zurich", "ZÜRICH", "São", "Paulo", "Sao", "Ørsted", "Oersted"),
    *("Müller", "Muller", "CRÈME", "brûlée", "ﬁsh", "İstanbul", "Straße", "strasse"),
    *("北京", "北京大学", "我住在北京", "上海", "東京abc", "abc北京", "Москва", "Ελλάδα"),
    *("e-mail", "email", "dog_house", "42", "1,000", "new\u00a0york", "zu\u0308rich"),
    *("Zü\u200brich", "ＬＩＳＢＯＮ", "naïve", "cafe\u0301", "ﬃ" * 60, "x" * 150),
]

QUERY_TERMS = [
    *(w for w in VOCABULARY if len(w) <= 100),
    *("new york", "são paulo", "sao paulo", "hotdog harbour", "北京 大学", "e mail"),
    *("ＺÜＲＩＣＨ", "Zurich", "ØRSTED", "oersted", "naive", "café", "x" * 100, "!!!"),
    *("never", "mentioned", "quasar", "zebra"),
]


def _sentence(rng: random.Random) -> str:
    words = rng.choices(VOCABULARY, k=rng.randint(1, 9))
    glue = rng.choice([" ", " ", " ", ", ", "-", "\n", "  ", ". "])
    return glue.join(words) + rng.choice(["", ".", "!", "?"])


def _queries(rng: random.Random, sessions: list[str]) -> Iterator[ExactQuery]:
    t0 = datetime(2020, 1, 1, tzinfo=UTC)
    for _ in range(160):
        raw = rng.sample(QUERY_TERMS, k=rng.choice([1, 1, 1, 2, 2, 3]))
        start = end = None
        if rng.random() < 0.3:
            start = t0 + timedelta(days=rng.randint(0, 900))
            end = start + timedelta(days=rng.randint(1, 900))
        elif rng.random() < 0.1:
            end = t0 + timedelta(days=rng.randint(0, 1800))
        yield ExactQuery(
            subject="alice",
            workspace="default",
            terms=normalize_terms(raw),
            normalization_exact=terms_are_exact(raw),
            session_id=rng.choice(sessions) if rng.random() < 0.25 else "",
            start=start,
            end=end,
            limit=rng.choice([1, 3, 20, 100]),
        )


def test_the_indexed_path_returns_what_the_linear_scan_returns(journal, db):
    rng = random.Random(20240601)
    sessions = [f"s{i}" for i in range(6)]
    t0 = datetime(2020, 1, 1, tzinfo=UTC)
    committed: list[tuple[pb.TurnReceipt, str, str]] = []
    for i in range(320):
        if committed and rng.random() < 0.12:
            _, user, assistant = rng.choice(committed)  # the same content again
        else:
            user, assistant = _sentence(rng), _sentence(rng)
        receipt = commit_turn(
            journal,
            user,
            assistant,
            subject="alice" if i % 9 else "bob",
            session_id=rng.choice(sessions),
            learning_eligible=rng.random() > 0.1,
            occurred_at=t0 + timedelta(days=rng.randint(0, 1800), seconds=i),
        )
        committed.append((receipt, user, assistant))
    for receipt, _, _ in rng.sample(committed, 14):
        kind, record = (
            (pb.RECORD_KIND_EVENT, str(receipt.event_id))
            if rng.random() < 0.5 or not receipt.episode_id
            else (pb.RECORD_KIND_EPISODE, receipt.episode_id)
        )
        try:
            journal.Quarantine(
                pb.QuarantineRequest(record_kind=kind, record_id=record, reason="test")
            )
        except grpc.RpcError:  # already quarantined (a repeated content's episode)
            continue
        if rng.random() < 0.2:
            journal.Restore(pb.RestoreRequest(record_kind=kind, record_id=record, reason="ok"))
    indexed, linear = FindExact(db), LinearFindExact(db)
    outcomes = {"found": 0, "absent": 0, "hidden": 0, "variant": 0}
    for query in _queries(rng, sessions):
        new, old = indexed.find(query), linear.find(query)
        assert new.terms == old.terms, query
        assert new.matches == old.matches, query
        assert _unsealed(new.coverage) == _unsealed(old.coverage), query
        card, dims = new.coverage.cardinality, new.coverage.dimensions
        outcomes["found" if card.matched_before_limit else "absent"] += 1
        outcomes["hidden"] += dims.visibility == PARTIAL and not query.session_id
        outcomes["variant"] += (
            not card.matched_before_limit
            and query.normalization_exact
            and dims.normalization == PARTIAL
        )
    # The data exercises every branch.
    assert min(outcomes.values()) > 0, outcomes
