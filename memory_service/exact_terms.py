"""Term normalisation and matching rules of FindExact (see docs/find-exact.md).

Folding, in this order, identical to the SQL function journal.exact_fold
(migrations/0003_search.sql), which is what both FindExact queries apply to
stored text and to the terms:

1. Unicode NFKD (compatibility forms: full-width letters, ligatures, styled
   letters, non-breaking and other spaces become their plain forms);
2. drop combining diacritical marks U+0300..U+036F ("café" -> "cafe");
3. "ß" and "ẞ" -> "ss" (the one full case folding to ASCII that lowercase lacks);
4. lowercase;
5. NFC;
6. runs of whitespace (space, \\t \\n \\v \\f \\r, U+0085, U+1680, U+2028,
   U+2029) -> one space, trimmed.

A term matches a text when its folded form occurs in the folded text with no
letter, digit or underscore directly before or after it (whole words; a
multi-word term is a whole phrase).

Normalisation is COMPLETE only for terms whose folded form is ASCII letters
a-z, optionally as words separated by single spaces: for those, every case,
width, compatibility and diacritic variant of the same letters folds to the
same string. A term with digits, punctuation, hyphens, apostrophes or other
non-ASCII characters is PARTIAL, because variants of those characters
(number formats, dash and apostrophe kinds, full case folding outside ASCII)
are not unified.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Sequence

from engram.errors import InvalidArgument

MAX_TERMS = 8
MAX_TERM_CHARS = 100

_MARKS = re.compile("[\u0300-\u036f]")
_SPACES = re.compile("[ \t\n\v\f\r\u0085\u1680\u2028\u2029]+")
_COMPLETE_TERM = re.compile(r"[a-z]+( [a-z]+)*")
# Every regex metacharacter of PostgreSQL AREs is ASCII punctuation; escaping
# each such character with a backslash makes it literal.
_ASCII_PUNCTUATION = frozenset(string.punctuation)
# A term boundary: start/end of text or a character that is not a letter,
# digit or underscore.
_BEFORE = "(^|[^[:alnum:]_])"
_AFTER = "($|[^[:alnum:]_])"


def fold(text: str) -> str:
    """The reference implementation of journal.exact_fold."""
    folded = _MARKS.sub("", unicodedata.normalize("NFKD", text))
    folded = folded.replace("ß", "ss").replace("ẞ", "ss").lower()
    folded = unicodedata.normalize("NFC", folded)
    return _SPACES.sub(" ", folded).strip(" ")


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


def fully_normalisable(term: str) -> bool:
    """True when the folding unifies every variant of this folded term."""
    return _COMPLETE_TERM.fullmatch(term) is not None


def term_pattern(term: str) -> str:
    """A PostgreSQL ARE matching the folded term as a whole word or phrase."""
    escaped = "".join("\\" + c if c in _ASCII_PUNCTUATION else c for c in term)
    return f"{_BEFORE}{escaped}{_AFTER}"


def turn_matches(user_text: str, assistant_text: str, terms: Sequence[str]) -> bool:
    """Whether every folded term occurs in the user or the assistant text of a turn
    (the Python statement of the rule the SQL queries apply)."""
    user, assistant = fold(user_text), fold(assistant_text)
    return all(_python_match(user, t) or _python_match(assistant, t) for t in terms)


def _python_match(folded_text: str, term: str) -> bool:
    start = folded_text.find(term)
    while start != -1:
        end = start + len(term)
        before = folded_text[start - 1] if start > 0 else ""
        after = folded_text[end] if end < len(folded_text) else ""
        if not _is_word_char(before) and not _is_word_char(after):
            return True
        start = folded_text.find(term, start + 1)
    return False


def _is_word_char(c: str) -> bool:
    return bool(c) and (c.isalnum() or c == "_")
