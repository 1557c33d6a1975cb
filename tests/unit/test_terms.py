"""The suite's one term normaliser (engram.terms): folding, words, index terms,
exact terms, mentions and the exactness rule, with property tests."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from engram import terms

INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\ufe0f", "\u202e"]

# Letters of scripts with word boundaries (Latin with accents, Greek, Cyrillic,
# Armenian, Hebrew, Arabic, Devanagari, Hangul).
LETTERS = st.characters(
    categories=("Lu", "Ll", "Lt", "Lo", "Mn", "Mc"),
    min_codepoint=0x41,
    max_codepoint=0xD7A3,
).filter(lambda c: not terms.lacks_word_boundaries(c))
WORD = st.text(LETTERS, min_size=1, max_size=12)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Zürich", ["zürich"]),
        ("São Paulo", ["são", "paulo"]),
        ("Herr Müller und Ørsted", ["herr", "müller", "und", "ørsted"]),
        ("北京", ["北京"]),
        ("ZÜRICH", ["zürich"]),
        ("Zu\u0308rich", ["zürich"]),
        ("don't e-mail dog_house r2d2", ["don", "t", "e", "mail", "dog", "house", "r2d2"]),
        ("ex\u00adam\u200bple", ["example"]),
        ("ＨＥＬＬＯ ﬁsh 𝐁old", ["hello", "fish", "bold"]),
        ("हिन्दी भाषा", ["हिन्दी", "भाषा"]),  # vowel signs are marks inside words
        ("Москва, 2024!", ["москва", "2024"]),
        ("", []),
    ],
)
def test_words(text, words):
    assert terms.words(text) == words
    assert terms.exact_terms(text) == words


def test_surface_words_keep_case_but_drop_invisible_characters():
    assert terms.surface_words("Grüße aus ZÜ\u200bRICH") == ["Grüße", "aus", "ZÜRICH"]


def test_index_terms_drop_stop_words_and_stem_like_postgresql():
    assert terms.index_terms("The meetings were PLANNED in Berlin!") == ["meet", "plan", "berlin"]
    assert terms.index_terms("running cities") == ["run", "citi"]
    assert terms.index_terms("Zürich Müller") == ["zürich", "müller"]
    assert terms.index_terms("r2d2 1990s") == ["r2d2", "1990s"]  # words with digits kept as is
    assert terms.index_terms("") == []
    assert len(terms.STOP_WORDS) == 127
    # PostgreSQL 18's Snowball has no special R1 for these prefixes (Snowball 3 has).
    assert terms.index_terms("internal universities pasted organized") == [
        "intern",
        "univers",
        "past",
        "organ",
    ]
    assert terms.index_terms("generalization communication") == ["general", "communic"]


def test_scripts_without_spaces_become_character_bigrams():
    assert terms.index_terms("北京") == ["北京"]
    assert terms.index_terms("我住在北京大学") == ["我住", "住在", "在北", "北京", "京大", "大学"]
    assert terms.index_terms("京") == ["京"]
    assert terms.index_terms("iPhone在北京") == ["iphon", "在北", "北京"]
    assert terms.index_terms("東京タワー") == ["東京", "京タ", "タワ", "ワー"]
    assert terms.lacks_word_boundaries("北") and terms.lacks_word_boundaries("ไ")
    assert not terms.lacks_word_boundaries("z") and not terms.lacks_word_boundaries("한")


def test_mentions_is_the_whole_word_rule():
    assert terms.mentions("I moved to ZÜRICH.", "zürich")
    assert terms.mentions("I moved to Zürich.", "Zürich")
    assert not terms.mentions("I moved to Zurich.", "zürich")
    assert not terms.mentions("Herr Müller", "ller")
    assert not terms.mentions("hotdog", "dog")
    assert terms.mentions("New\nYork", "new york")
    assert terms.mentions("我住在北京大学", "北京")
    assert not terms.mentions("anything", "   ")


@pytest.mark.parametrize(
    ("term", "exact"),
    [
        ("dog", True),
        ("New York", True),
        ("Zürich", True),
        ("ZÜRICH", True),
        ("São Paulo", True),
        ("Müller", True),
        ("Ørsted", True),
        ("İstanbul", True),
        ("Москва", True),
        ("हिन्दी", True),
        ("北京", False),  # no word boundaries
        ("ภาษาไทย", False),
        ("Straße", False),  # case folding changes the length
        ("kış", False),  # the capital of dotless ı folds to i
        ("Zürіch", False),  # Cyrillic і: mixed scripts
        ("e-mail", False),
        ("42", False),
        ("", False),
        ("\u200b", False),
    ],
)
def test_normalization_is_exact(term, exact):
    assert terms.normalization_is_exact(term) is exact


# ----------------------------------------------------------------- properties


@given(st.text())
@example("İ\u0323")
@example("ᾷ")
@example("a\u200b \u00ad b")
def test_fold_is_idempotent(text):
    once = terms.fold(text)
    assert terms.fold(once) == once
    assert terms.words(once) == terms.words(text)
    assert terms.index_terms(once) == terms.index_terms(text)


@given(st.text(), st.data())
def test_invisible_characters_do_not_change_terms(text, data):
    spliced = list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(spliced)))
        spliced.insert(at, data.draw(st.sampled_from(INVISIBLE)))
    noisy = "".join(spliced)
    assert terms.fold(noisy) == terms.fold(text)
    assert terms.words(noisy) == terms.words(text)
    assert terms.index_terms(noisy) == terms.index_terms(text)
    assert terms.exact_terms(noisy) == terms.exact_terms(text)


@given(WORD, st.data())
def test_invisible_characters_inside_a_word_do_not_hide_it(word, data):
    at = data.draw(st.integers(0, len(word)))
    noisy = word[:at] + data.draw(st.sampled_from(INVISIBLE)) + word[at:]
    if terms.words(word) == [terms.fold(word)]:
        assert terms.mentions(f"see {noisy} here", word)


@given(st.text(LETTERS | st.sampled_from(" .,;!?-'"), max_size=40))
def test_case_does_not_change_terms_of_exact_words(text):
    for word in terms.exact_terms(text):
        if not terms.normalization_is_exact(word):
            continue
        for variant in (word.upper(), word.lower(), word.title()):
            assert terms.exact_terms(variant) == [word]
            assert terms.index_terms(variant) == terms.index_terms(word)
            assert terms.mentions(f"x {variant} y", word)


@given(st.text())
def test_words_are_folded_runs_of_term_characters(text):
    for word in terms.words(text):
        assert word
        assert terms.fold(word) == word
        assert terms.words(word) == [word]


@given(WORD)
def test_a_word_alone_is_exact_iff_its_spellings_fold_alike(word):
    if terms.normalization_is_exact(word):
        folded = terms.fold(word)
        assert terms.fold(word.upper()) == folded == terms.fold(word.lower())
