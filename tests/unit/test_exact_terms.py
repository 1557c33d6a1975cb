"""FindExact's term folding, validation, exactness rule, patterns and fold probe."""

from __future__ import annotations

import re

import pytest

from engram.errors import InvalidArgument
from memory_service.exact_terms import (
    fold,
    fold_probe,
    normalize_terms,
    term_pattern,
    terms_are_exact,
    turn_matches,
)


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Hello", "hello"),
        ("ＨＥＬＬＯ", "hello"),  # full-width
        ("ﬁsh", "fish"),  # ligature
        ("𝐁old", "bold"),  # styled letter
        ("Crème  Brûlée", "crème brûlée"),  # accents kept, double space
        ("ZÜRICH", "zürich"),
        ("Zu\u0308rich", "zürich"),  # decomposed
        ("STRAẞE", "strasse"),
        ("Straße", "strasse"),
        ("ΣΟΦΟΣ σοφος", "σοφοσ σοφοσ"),  # final sigma
        ("İstanbul", "istanbul"),
        ("new\u00a0york", "new york"),  # no-break space
        ("a\tb\n\r\u2028c", "a b c"),
        ("  padded  ", "padded"),
        ("Kelvin \u212a", "kelvin k"),
        ("Zü\u200brich", "zürich"),  # zero-width space
        ("Zü\u00adrich", "zürich"),  # soft hyphen
    ],
)
def test_fold(raw, folded):
    assert fold(raw) == folded


def test_terms_are_validated_folded_and_deduplicated():
    assert normalize_terms(["Dog", "DOG", "cat  food"]) == ["dog", "cat food"]
    assert normalize_terms(["Zürich", "ZÜRICH", "zürich"]) == ["zürich"]


@pytest.mark.parametrize(
    "terms",
    [
        [],
        ["x"] * 9,
        [""],
        ["x" * 101],
        ["  \t "],
        ["\u200b\u00ad"],  # only invisible characters: folds to nothing
        ["a\x00b"],
    ],
)
def test_unusable_terms_name_the_field(terms):
    with pytest.raises(InvalidArgument) as caught:
        normalize_terms(terms)
    assert caught.value.field == "terms"


@pytest.mark.parametrize(
    ("terms", "exact"),
    [
        (["dog"], True),
        (["new york"], True),
        (["Zürich"], True),
        (["São Paulo", "Müller", "Ørsted"], True),
        (["Москва"], True),
        (["e-mail"], False),  # hyphenation variants
        (["don't"], False),  # apostrophe kinds
        (["42"], False),  # number formats
        (["r2d2"], False),
        (["c++"], False),
        (["北京"], False),  # no word boundaries
        (["dog", "北京"], False),  # one inexact term is enough
        (["Straße"], False),  # case folding merges spellings
        (["Zürіch"], False),  # a Cyrillic і in a Latin word
    ],
)
def test_exactness_of_request_terms(terms, exact):
    assert terms_are_exact(terms) is exact


def test_whole_words_and_phrases_match_but_not_parts_of_words():
    assert turn_matches("My dog barks.", "", ["dog"])
    assert turn_matches("", "(DOG)", ["dog"])
    assert not turn_matches("hotdog stand", "", ["dog"])
    assert not turn_matches("dogs", "", ["dog"])
    assert turn_matches("dog_house", "", ["dog"])  # the underscore separates words
    assert turn_matches("I moved to New\nYork", "", ["new york"])
    assert not turn_matches("new yorkshire", "", ["new york"])
    assert turn_matches("Grüße aus ZÜRICH!", "", ["zürich"])
    assert not turn_matches("Herr Müller", "", ["ller"])  # "ü" is a letter
    assert not turn_matches("Zurich", "", ["zürich"])  # another spelling
    assert turn_matches("我住在北京大学", "", ["北京"])  # no boundaries in Han text


def test_every_term_must_match_in_either_text():
    assert turn_matches("my dog", "your cat", ["dog", "cat"])
    assert not turn_matches("my dog", "your bird", ["dog", "cat"])


@pytest.mark.parametrize(
    ("text", "term", "matches"),
    [
        ("my dog barks", "dog", True),
        ("hotdog", "dog", False),
        ("müller", "ller", False),
        ("über zürich.", "zürich", True),
        ("x_zürich_y", "zürich", True),
        ("a c++ b", "c++", True),
        ("a.b", "a.b", True),
        ("axb", "a.b", False),  # "." is literal
        ("我住在北京大学", "北京", True),
        ("new york", "new york", True),
    ],
)
def test_patterns_apply_the_python_rule(text, term, matches):
    pattern = term_pattern(term)
    # The escapes and classes used mean the same in PostgreSQL AREs and Python.
    assert bool(re.search(pattern, text)) is matches
    assert turn_matches(text, "", [term]) is matches


def test_patterns_escape_regex_metacharacters_and_spell_out_boundaries():
    pattern = term_pattern("c++")
    assert "c\\+\\+" in pattern
    assert pattern.startswith("(^|[^") and pattern.endswith("])")
    assert "[:alnum:]" not in pattern  # no locale-dependent class
    assert term_pattern("北京") == "北京"


def test_the_fold_probe_covers_every_spelling_of_the_letters():
    probe = fold_probe(["zürich"])
    for spelling in ("Z", "Ü", "ｚ", "𝐳", "Ⓩ", "ü", "R", "İ", "Ｈ"):
        assert spelling in probe, spelling
    assert all(any(c in fold(p) for c in "zürich") for p in probe)
    assert fold_probe(["new york"]) == sorted(set(fold_probe(["new"]) + fold_probe(["york"])))
