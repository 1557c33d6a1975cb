"""FindExact's term folding, validation, completeness rule and patterns."""

from __future__ import annotations

import pytest

from engram.errors import InvalidArgument
from memory_service.exact_terms import (
    fold,
    fully_normalisable,
    normalize_terms,
    term_pattern,
    turn_matches,
)


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Hello", "hello"),
        ("ＨＥＬＬＯ", "hello"),  # full-width
        ("ﬁsh", "fish"),  # ligature
        ("𝐁old", "bold"),  # styled letter
        ("Crème  Brûlée", "creme brulee"),  # diacritics, double space
        ("STRAẞE", "strasse"),
        ("Straße", "strasse"),
        ("new\u00a0york", "new york"),  # no-break space
        ("a\tb\n\r\u2028c", "a b c"),
        ("  padded  ", "padded"),
        ("Kelvin \u212a", "kelvin k"),
    ],
)
def test_fold(raw, folded):
    assert fold(raw) == folded


def test_terms_are_validated_folded_and_deduplicated():
    assert normalize_terms(["Dog", "DOG", "cat  food"]) == ["dog", "cat food"]


@pytest.mark.parametrize(
    "terms",
    [
        [],
        ["x"] * 9,
        [""],
        ["x" * 101],
        ["  \t "],
        ["\u0301\u0301"],  # only combining marks: folds to nothing
        ["a\x00b"],
    ],
)
def test_unusable_terms_name_the_field(terms):
    with pytest.raises(InvalidArgument) as caught:
        normalize_terms(terms)
    assert caught.value.field == "terms"


@pytest.mark.parametrize(
    ("term", "complete"),
    [
        ("dog", True),
        ("new york", True),
        ("e-mail", False),  # hyphenation variants
        ("don't", False),  # apostrophe kinds
        ("42", False),  # number formats
        ("r2d2", False),
        ("οδος", False),  # full case folding outside ASCII
        ("c++", False),
    ],
)
def test_only_plain_letter_words_are_fully_normalisable(term, complete):
    assert fully_normalisable(term) is complete


def test_whole_words_and_phrases_match_but_not_parts_of_words():
    assert turn_matches("My dog barks.", "", ["dog"])
    assert turn_matches("", "(DOG)", ["dog"])
    assert not turn_matches("hotdog stand", "", ["dog"])
    assert not turn_matches("dogs", "", ["dog"])
    assert not turn_matches("dog_house", "", ["dog"])
    assert turn_matches("I moved to New\nYork", "", ["new york"])
    assert not turn_matches("new yorkshire", "", ["new york"])


def test_every_term_must_match_in_either_text():
    assert turn_matches("my dog", "your cat", ["dog", "cat"])
    assert not turn_matches("my dog", "your bird", ["dog", "cat"])


def test_patterns_escape_regex_metacharacters():
    assert term_pattern("c++") == "(^|[^[:alnum:]_])c\\+\\+($|[^[:alnum:]_])"
    assert term_pattern("a.b") == "(^|[^[:alnum:]_])a\\.b($|[^[:alnum:]_])"
    assert term_pattern("new york") == "(^|[^[:alnum:]_])new york($|[^[:alnum:]_])"
