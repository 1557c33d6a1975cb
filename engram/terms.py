"""The suite's one term normaliser: what a "word" and a "term" are, everywhere.

Every place that compares words uses this module: the resident lexical index and the
PostgreSQL fallback's query words (RetrievalService, SearchEpisodes), run-memory and
learning ranking, the support check of learning verification, FindExact (exact terms,
whose SQL twin is ``journal.exact_fold``) and the gateway's topic and mention checks.

Folding (:func:`fold`), in this order:

1. remove default-ignorable invisible characters: every format character (category
   Cf: zero-width space/joiners, soft hyphen U+00AD, bidi marks, word joiner, BOM, ...),
   variation selectors, the combining grapheme joiner and the Mongolian variation
   selectors; a word with one of them inside is the same word without it;
2. Unicode NFKC (full-width letters, ligatures, styled and circled letters, no-break
   and other spaces become their plain forms);
3. full Unicode case folding (``str.casefold``: "ẞ"/"ß" -> "ss", "Σ"/"ς" -> "σ"), then
   "i" + U+0307 COMBINING DOT ABOVE -> "i" (so "İstanbul" meets "istanbul"), then NFKC
   again (case folding can leave a string that is not normalised);
4. runs of whitespace become one space; leading and trailing spaces are trimmed.

Diacritics are **not** removed: accented letters are letters ("zürich" stays
"zürich"; "Zurich" is another spelling, as "dogs" is another word than "dog").

A **word** is a maximal run of term characters: letters, marks and digits of any script
(Unicode categories L*, M*, N*). Everything else separates words: spaces, punctuation
(so apostrophes and hyphens split "don't" and "e-mail"), symbols, and the underscore.

**Index terms** (:func:`index_terms`) are what ranked search compares: words without
PostgreSQL's English stop words, reduced by the Snowball English stemmer (PyStemmer,
the algorithm of PostgreSQL's ``english`` text search configuration, so the resident
index and the PostgreSQL fallback produce the same lexemes; an integration test checks
them against ``to_tsvector('english', ...)``). Like PostgreSQL, words with digits are
neither stemmed nor stop-listed. Scripts written without spaces between words (Han,
Hiragana, Katakana, Bopomofo, Yi, Thai, Lao, Khmer, Myanmar, Tibetan, the Tai scripts,
Balinese, Javanese, Tangut, Khitan, Nüshu) have no word boundaries to find, so a run
in one of them becomes its overlapping character bigrams ("北京大学" -> "北京",
"京大", "大学"; a one-character run stays as it is). PostgreSQL keeps such a run as one
lexeme, so for these scripts the fallback matches whole runs only; the two paths agree
on everything else except where case folding and PostgreSQL's ``lower()`` differ
("ß" -> "ss").

**Exact terms** (:func:`exact_terms`) are what FindExact and the gateway compare: folded
words, no stemming, no stop list. :func:`mentions` is the whole-word (or whole-phrase)
rule FindExact applies. :func:`normalization_is_exact` says when that rule treats every
way of writing a term alike; when it does not, FindExact reports normalisation PARTIAL
and can never derive an authoritative absence.

Bump :data:`VERSION` whenever any output of this module changes: persisted index
snapshots record it and are rebuilt when it differs. FindExact's SQL term indexes
spell out :func:`term_char_ranges` and the no-boundary scripts as code point ranges
(memory_service/migrations/0007_exact_terms_index.sql): a change to either needs a
journal migration that redefines their key functions and rebuilds them.
"""

from __future__ import annotations

import functools
import itertools
import re
import sys
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

import Stemmer

__all__ = [
    "STOP_WORDS",
    "VERSION",
    "clean",
    "exact_terms",
    "fold",
    "index_terms",
    "lacks_word_boundaries",
    "mentions",
    "normalization_is_exact",
    "surface_words",
    "term_char_ranges",
    "words",
]

VERSION = "engram.terms.v2"

# PostgreSQL's english stop list (tsearch_data/english.stop, the Snowball list); an
# integration test checks it against to_tsvector('english', ...).
_STOP_WORD_TEXT = """
    a about above after again against all am an and any are as at be because been
    before being below between both but by can did do does doing don down during each
    few for from further had has have having he her here hers herself him himself his
    how i if in into is it its itself just me more most my myself no nor not now of off
    on once only or other our ours ourselves out over own s same she should so some
    such t than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom
    why will with you your yours yourself yourselves
"""
STOP_WORDS: frozenset[str] = frozenset(_STOP_WORD_TEXT.split())

# Scripts written without spaces between words (code point blocks).
_NO_BOUNDARY_RANGES: tuple[tuple[int, int], ...] = (
    (0x0E00, 0x0E7F),  # Thai
    (0x0E80, 0x0EFF),  # Lao
    (0x0F00, 0x0FFF),  # Tibetan
    (0x1000, 0x109F),  # Myanmar
    (0x1780, 0x17FF),  # Khmer
    (0x1950, 0x19DF),  # Tai Le, New Tai Lue
    (0x19E0, 0x19FF),  # Khmer symbols
    (0x1A20, 0x1AAF),  # Tai Tham
    (0x1B00, 0x1B7F),  # Balinese
    (0x2E80, 0x2FDF),  # CJK and Kangxi radicals
    (0x3005, 0x3007),  # ideographic iteration mark, closing mark, number zero
    (0x3021, 0x3029),  # Hangzhou numerals
    (0x3031, 0x3035),  # kana repeat marks
    (0x3038, 0x303C),
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x31A0, 0x31FF),  # Bopomofo extended, CJK strokes, Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA000, 0xA4CF),  # Yi
    (0xA980, 0xA9FF),  # Javanese, Myanmar extended-B
    (0xAA60, 0xAA7F),  # Myanmar extended-A
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x16FE0, 0x16FFF),  # ideographic symbols
    (0x17000, 0x18DFF),  # Tangut, Khitan
    (0x1AFF0, 0x1B2FF),  # Kana extended and supplement, Nüshu
    (0x20000, 0x3FFFF),  # CJK extensions B.., compatibility supplement
)
_MONGOLIAN_FVS = (0x180B, 0x180F)
_VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
_COMBINING_GRAPHEME_JOINER = 0x034F
# Whitespace that NFKC leaves as it is (no-break and typographic spaces become U+0020).
_SPACES = re.compile("[\t\n\v\f\r\x1c-\x1f \x85\u1680\u2028\u2029]+")


class _Tables(NamedTuple):
    ignorable: re.Pattern[str]
    word: re.Pattern[str]
    term_ranges: tuple[tuple[int, int], ...]


def _ranges(codepoints: Iterable[int]) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for cp in codepoints:
        if out and out[-1][1] == cp - 1:
            out[-1] = (out[-1][0], cp)
        else:
            out.append((cp, cp))
    return tuple(out)


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in ranges
    )


# A regex character class (without brackets) of the scripts written without spaces.
UNSPACED_CLASS: str = _char_class(_NO_BOUNDARY_RANGES)


@functools.cache
def _tables() -> _Tables:
    """Character classes from this Python's Unicode database (built once, ~0.2 s)."""
    extra = {_COMBINING_GRAPHEME_JOINER, *range(_MONGOLIAN_FVS[0], _MONGOLIAN_FVS[1] + 1)}
    for low, high in _VARIATION_SELECTORS:
        extra.update(range(low, high + 1))
    ignorable: list[int] = []
    marks: list[int] = []
    term: list[int] = []
    for cp in range(sys.maxunicode + 1):
        category = unicodedata.category(chr(cp))
        if category == "Cf" or cp in extra:
            ignorable.append(cp)
        elif category[0] in "LMN":
            term.append(cp)
            if category[0] == "M":
                marks.append(cp)
    return _Tables(
        ignorable=re.compile(f"[{_char_class(_ranges(ignorable))}]+"),
        # [^\\W_] is exactly the letters and digits (categories L*, N*); marks added.
        word=re.compile(f"(?:[^\\W_]|[{_char_class(_ranges(marks))}])+"),
        term_ranges=_ranges(term),
    )


_NO_BOUNDARY_CLASS = "".join(
    f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in _NO_BOUNDARY_RANGES
)
_NO_BOUNDARY = re.compile(f"[{_NO_BOUNDARY_CLASS}]")
_NO_BOUNDARY_RUN = re.compile(f"([{_NO_BOUNDARY_CLASS}]+)")
_ASCII_WORD = re.compile("[A-Za-z0-9]+")
_DIGIT = re.compile(r"\d")


def term_char_ranges() -> tuple[tuple[int, int], ...]:
    """The term characters as inclusive code point ranges (for other regex dialects)."""
    return _tables().term_ranges


def lacks_word_boundaries(char: str) -> bool:
    """True for a character of a script written without spaces between words."""
    return _NO_BOUNDARY.match(char) is not None


def _clean(text: str) -> str:
    """Steps 1-2 of the fold: invisible characters removed, NFKC."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", _tables().ignorable.sub("", text))


def clean(text: str) -> str:
    """Invisible characters removed and NFKC, case kept: the text a model reads."""
    return _clean(text)


def _word_pattern(text: str) -> re.Pattern[str]:
    return _ASCII_WORD if text.isascii() else _tables().word


def fold(text: str) -> str:
    """The folded form of ``text`` (module docstring); idempotent."""
    if text.isascii():  # no invisible characters; NFKC is the identity
        return _SPACES.sub(" ", text.lower()).strip(" ")
    folded = _clean(text).casefold()
    if "i\u0307" in folded:
        folded = folded.replace("i\u0307", "i")
    folded = unicodedata.normalize("NFKC", folded)
    return _SPACES.sub(" ", folded).strip(" ")


def words(text: str) -> list[str]:
    """The folded words of ``text`` in order (duplicates kept)."""
    folded = fold(text)
    return _word_pattern(folded).findall(folded)


def surface_words(text: str) -> list[str]:
    """The words of ``text`` as written (invisible characters removed, NFKC, case kept):
    for handing to PostgreSQL's own parser, which lower-cases and stems by itself."""
    cleaned = _clean(text)
    return _word_pattern(cleaned).findall(cleaned)


def exact_terms(text: str) -> list[str]:
    """FindExact's terms of ``text``: its folded words in order; no stemming, no stop list."""
    return words(text)


@functools.cache
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


# Snowball 3 (PyStemmer 3) gives words starting with these prefixes a region R1 of
# their own ("internal" stays "internal"); the earlier Snowball that PostgreSQL 18
# ships does not ("intern"). Such a word is stemmed with its first letter swapped for
# one of the same kind (vowel or consonant, none special to the algorithm), which keeps
# the standard R1 and touches no other rule, and the letter is put back.
_R1_PREFIXES = ("emerg", "inter", "later", "organ", "past", "univers")
_STAND_IN = {"e": "a", "i": "a", "o": "a", "u": "a", "l": "b", "p": "b"}


# Snowball 3 maps "-ogist" to "-og" ("geologist" -> "geolog"); PostgreSQL's earlier
# Snowball has no rule for the ending, so there the word is its own stem (a plural loses
# its "s" in step 1a and nothing after touches it).
_OGIST = "ogist"


def _stem(word: str) -> str:
    if word.endswith(_OGIST):
        return word
    if word.endswith(_OGIST + "s"):
        return word[:-1]
    stemmer = _stemmer()
    if word.startswith(_R1_PREFIXES):
        stem: str = stemmer.stemWord(_STAND_IN[word[0]] + word[1:])
        return word[0] + stem[1:]
    result: str = stemmer.stemWord(word)
    return result


def _bigrams(run: str) -> list[str]:
    # Units are a base character with the marks that follow it.
    units: list[str] = []
    for char in run:
        if units and unicodedata.category(char)[0] == "M":
            units[-1] += char
        else:
            units.append(char)
    if len(units) == 1:
        return units
    return [a + b for a, b in itertools.pairwise(units)]


def index_terms(text: str) -> list[str]:
    """Ranked-search terms of ``text`` in order, duplicates kept (module docstring)."""
    out: list[str] = []
    for word in words(text):
        if word.isascii() or _NO_BOUNDARY.search(word) is None:
            _add_index_term(out, word)
            continue
        for piece in _NO_BOUNDARY_RUN.split(word):
            if not piece:
                continue
            if _NO_BOUNDARY.match(piece):
                out.extend(_bigrams(piece))
            else:
                _add_index_term(out, piece)
    return out


def _add_index_term(out: list[str], word: str) -> None:
    if word in STOP_WORDS:
        return
    # Like PostgreSQL's numword tokens: words with digits are neither stemmed nor stop-listed.
    out.append(word if _DIGIT.search(word) else _stem(word))


def _is_term_char(char: str) -> bool:
    return bool(char) and _tables().word.fullmatch(char) is not None


def mentions(text: str, term: str) -> bool:
    """Whether ``text`` mentions ``term``: the folded term occurs in the folded text as a
    whole word (a multi-word term as a whole phrase), i.e. with no term character
    directly before or after it. At an edge of the term that is a character of a script
    without word boundaries, no boundary is required ("北京" is mentioned in "我住在北京").
    This is the rule FindExact applies in SQL (memory_service.exact_terms)."""
    needle, haystack = fold(term), fold(text)
    if not needle:
        return False
    check_before = not lacks_word_boundaries(needle[0])
    check_after = not lacks_word_boundaries(needle[-1])
    start = haystack.find(needle)
    while start != -1:
        end = start + len(needle)
        before = haystack[start - 1] if start > 0 else ""
        after = haystack[end] if end < len(haystack) else ""
        if not (check_before and _is_term_char(before)) and not (
            check_after and _is_term_char(after)
        ):
            return True
        start = haystack.find(needle, start + 1)
    return False


def _script(char: str) -> str:
    """A script key from the character's name ("LATIN", "CYRILLIC", ...); "" for
    combining marks shared by every script, "?" when the name is unknown."""
    name = unicodedata.name(char, "")
    if not name:
        return "?"
    first = name.split(" ", 1)[0]
    return "" if first == "COMBINING" else first


def normalization_is_exact(text: str) -> bool:
    """True when folding treats every way of writing ``text`` (a term or a query of
    terms separated by spaces) alike, so a search for it can be complete.

    False when, after folding, it is empty or some word: contains anything but letters
    and marks (digits, punctuation, symbols: number formats and dash or apostrophe kinds
    are not unified); has a letter of a script without word boundaries (a whole-word
    match is meaningless there); mixes scripts (a Cyrillic "с" in a Latin word). False
    too when case folding changes the length of one of its characters ("ß" -> "ss",
    Greek letters with iota subscript): folding then merges different spellings, so
    the term searched is not the term written; and when a letter's capital folds to
    another letter (Turkish dotless "ı", whose capital "I" folds to "i"), because
    the capitalised text would not be found.
    """
    folded = fold(text)
    if not folded:
        return False
    for char in _clean(text):
        if len(fold(char)) > 1:
            return False
    for word in folded.split(" "):
        scripts: set[str] = set()
        for char in word:
            category = unicodedata.category(char)
            if category[0] not in "LM" or lacks_word_boundaries(char):
                return False
            if fold(char.upper()) != char:
                return False
            script = _script(char)
            if script:
                scripts.add(script)
        if len(scripts) != 1 or "?" in scripts:
            return False
    return True
