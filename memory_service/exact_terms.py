"""FindExact's terms: validation, the SQL patterns and the check that the database
folds like the reference (see docs/find-exact.md).

Folding is the suite's one term normaliser, :func:`engram.terms.fold`; its SQL twin
is journal.exact_fold (migrations/0004_unicode_terms.sql), which both FindExact
queries apply to stored text and to the terms.

A term matches a text when its folded form occurs in the folded text with no term
character (letter, mark or digit of any script) directly before or after it: whole
words, and a multi-word term is a whole phrase (:func:`engram.terms.mentions`). At an
edge that is a character of a script written without spaces (Han, Kana, Thai, ...)
no boundary is required. The boundary class in the SQL patterns is spelled out as
code point ranges, so it does not depend on the database's locale.

Normalisation is COMPLETE when every term is exactly normalisable
(:func:`engram.terms.normalization_is_exact`) and the database folds every spelling
of the terms' characters as the reference does (:func:`fold_probe`).

The SQL queries find their candidates through term indexes whose keys follow the
same classes (migrations/0007_exact_terms_index.sql): a key is a maximal run of term
characters outside the no-boundary scripts, or one no-boundary character. Whatever
a pattern of :func:`term_pattern` matches holds every key of the term, so the index
only narrows what the patterns then decide. Changing the term characters or the
no-boundary scripts of :mod:`engram.terms` therefore needs a migration that redefines
the key functions and rebuilds the indexes (the integration tests compare both key
functions with :func:`engram.terms.term_char_ranges` for every character).
"""

from __future__ import annotations

import functools
import string
import sys
import unicodedata
from collections.abc import Sequence

from engram import terms as term_rules
from engram.errors import InvalidArgument

MAX_TERMS = 8
MAX_TERM_CHARS = 100

# Every regex metacharacter of PostgreSQL AREs is ASCII punctuation; escaping
# each such character with a backslash makes it literal.
_ASCII_PUNCTUATION = frozenset(string.punctuation)

fold = term_rules.fold


def normalize_terms(terms: Sequence[str], field: str = "terms") -> list[str]:
    """Validate and fold the request terms; duplicates after folding collapse."""
    if not terms:
        raise InvalidArgument(field, "at least one term is required")
    if len(terms) > MAX_TERMS:
        raise InvalidArgument(field, f"at most {MAX_TERMS} terms")
    folded: list[str] = []
    for i, term in enumerate(terms):
        if not term or len(term) > MAX_TERM_CHARS:
            raise InvalidArgument(field, f"term {i} must be 1..{MAX_TERM_CHARS} characters")
        if "\x00" in term:
            raise InvalidArgument(field, f"term {i} contains a NUL character")
        value = fold(term)
        if not value:
            raise InvalidArgument(field, f"term {i} ({term[:20]!r}) normalises to nothing")
        if value not in folded:
            folded.append(value)
    return folded


def terms_are_exact(terms: Sequence[str]) -> bool:
    """Whether every request term (as written) is exactly normalisable."""
    return all(term_rules.normalization_is_exact(t) for t in terms)


def _escape(cp: int) -> str:
    return f"\\u{cp:04x}" if cp <= 0xFFFF else f"\\U{cp:08x}"


@functools.cache
def _term_class() -> str:
    return "".join(
        _escape(a) if a == b else f"{_escape(a)}-{_escape(b)}"
        for a, b in term_rules.term_char_ranges()
    )


def strip_marks(term: str) -> str:
    """``term`` without combining marks after canonical decomposition ("zürich" ->
    "zurich"); the Python twin of journal.strip_marks."""
    decomposed = unicodedata.normalize("NFD", term)
    kept = "".join(c for c in decomposed if not _is_stripped_mark(c))
    return unicodedata.normalize("NFC", kept)


_STRIPPED_MARKS = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)


def _is_stripped_mark(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _STRIPPED_MARKS)


def term_pattern(term: str) -> str:
    """A PostgreSQL ARE matching the folded term as a whole word or phrase."""
    escaped = "".join("\\" + c if c in _ASCII_PUNCTUATION else c for c in term)
    before = "" if term_rules.lacks_word_boundaries(term[0]) else f"(^|[^{_term_class()}])"
    after = "" if term_rules.lacks_word_boundaries(term[-1]) else f"($|[^{_term_class()}])"
    return f"{before}{escaped}{after}"


def turn_matches(user_text: str, assistant_text: str, terms: Sequence[str]) -> bool:
    """Whether every folded term occurs in the user or the assistant text of a turn
    (the Python statement of the rule the SQL queries apply)."""
    return all(
        term_rules.mentions(user_text, t) or term_rules.mentions(assistant_text, t) for t in terms
    )


@functools.cache
def _spellings() -> dict[str, tuple[str, ...]]:
    """Character -> every other character whose fold contains it."""
    found: dict[str, list[str]] = {}
    for cp in range(sys.maxunicode + 1):
        char = chr(cp)
        if unicodedata.category(char) in ("Cn", "Cs", "Co"):
            continue
        folded = fold(char)
        if folded == char:
            continue
        for target in set(folded):
            found.setdefault(target, []).append(char)
    return {k: tuple(v) for k, v in found.items()}


def fold_probe(terms: Sequence[str]) -> list[str]:
    """The characters the database must fold exactly as :func:`fold` does for a search
    of ``terms`` to treat every spelling alike: each character of the folded terms and
    every character whose fold contains one of them (capitals, full-width and styled
    forms, ligatures, ...)."""
    spellings = _spellings()
    chars: set[str] = set()
    for term in terms:
        for char in term:
            if char != " ":
                chars.add(char)
                chars.update(spellings.get(char, ()))
    return sorted(chars)
