"""Text rules: terms and scoring, subject keys for conflicts, the support
check used by verification, the durable-memory phrases, scopes."""

from __future__ import annotations

import pytest

from engram.errors import InvalidArgument
from learning_service.model import ScopeKind, parse_scope_key, resolve_scopes
from learning_service.text import (
    asks_for_durable_memory,
    is_supported,
    overlap_score,
    subject_value,
    term_set,
)


def test_terms_drop_stopwords_and_stem() -> None:
    # engram.terms.index_terms: PostgreSQL's stop words, Snowball English stems.
    assert term_set("The sizes are in Gigabytes") == {"size", "gigabyt"}
    assert term_set("Gigabyte size") == term_set("the sizes are in gigabytes")
    assert term_set("Umzug nach ZÜRICH") == {"umzug", "nach", "zürich"}


def test_overlap_score() -> None:
    query = term_set("report disk sizes")
    assert overlap_score(query, term_set("always report sizes in gigabytes")) > 0
    assert overlap_score(query, term_set("the codename is Atlas")) == 0
    assert overlap_score(frozenset(), term_set("anything")) == 0


@pytest.mark.parametrize(
    ("content", "subject", "value"),
    [
        ("Project codename is Atlas", "project codename", "atlas"),
        ("The project codename is Borealis.", "project codename", "borealis"),
        ("Deploy target: production", "deploy target", "production"),
        ("region=eu-west-1", "region", "eu west 1"),
        ("Our release days are Tuesdays", "release days", "tuesdays"),
    ],
)
def test_subject_value(content: str, subject: str, value: str) -> None:
    found = subject_value(content)
    assert found is not None
    assert (found.subject_key, found.value_key) == (subject, value)


@pytest.mark.parametrize(
    "content", ["always report sizes in gigabytes", "is it", ": nothing", "x is "]
)
def test_no_subject(content: str) -> None:
    assert subject_value(content) is None


def test_support_by_containment_or_all_terms() -> None:
    record = ["Preference: always report sizes in gigabytes, not gibibytes. Reply exactly OK."]
    assert is_supported("always report sizes in gigabytes, not gibibytes.", record)
    assert is_supported("Report sizes in gigabytes always", record)  # every term present
    assert not is_supported("always report sizes in terabytes", record)
    # a one-term claim needs verbatim containment, never a loose term match
    assert not is_supported("gigabyte", ["sizes in gigabytes"])
    assert not is_supported("anything at all", [])


@pytest.mark.parametrize(
    ("text", "asks"),
    [
        ("Please use durable memory for this", True),
        ("What do you remember about the project?", True),
        ("answer from memory", True),
        ("What is the weather?", False),
        ("remember to buy milk", False),
    ],
)
def test_durable_memory_phrases(text: str, asks: bool) -> None:
    assert asks_for_durable_memory(text) is asks


def test_resolve_scopes_order_and_dedupe() -> None:
    scopes = resolve_scopes("s1", "p-ana", ["proj1", "proj2", "proj1"])
    assert [s.key for s in scopes] == [
        "session:s1",
        "persona:p-ana",
        "project:proj1",
        "project:proj2",
        "workspace:default",
    ]
    assert [s.key for s in resolve_scopes("s1", "", [])] == ["session:s1", "workspace:default"]


def test_resolve_scopes_names_bad_fields() -> None:
    with pytest.raises(InvalidArgument) as caught:
        resolve_scopes("", "", [])
    assert caught.value.field == "session_id"
    with pytest.raises(InvalidArgument) as caught:
        resolve_scopes("s1", "", ["ok", "bad id"])
    assert caught.value.field == "project_ids[1]"


def test_scope_keys() -> None:
    assert parse_scope_key("k", "project:p1").kind is ScopeKind.PROJECT
    assert parse_scope_key("k", "workspace:default").id == "default"
    for bad in ("workspace:other", "galaxy:x", "session:", "nocolon"):
        with pytest.raises(InvalidArgument) as caught:
            parse_scope_key("k", bad)
        assert caught.value.field == "k"
