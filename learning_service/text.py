"""Text rules of the learning plane: normalisation, terms, lexical scoring,
"subject is value" keys for conflicts and the support check used by
verification. Pure functions; no I/O.

Words and terms are the suite's one term normaliser (engram.terms): words are
folded runs of letters and digits of any script; terms are its index terms
(PostgreSQL's English stop words dropped, Snowball-stemmed)."""

from __future__ import annotations

import hashlib
import math
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from engram import terms as term_rules

_SPACE = re.compile(r"\s+")
_TRAILING_PUNCT = re.compile(r"[\s.,;:!?]+$")

# Inputs that explicitly ask to browse durable memory: when nothing scores,
# these keep the recency-and-scope fallback (matched on the normalised input).
MEMORY_REQUEST_PHRASES: tuple[str, ...] = (
    "use durable memory",
    "use your memory",
    "use memory",
    "from memory",
    "from durable memory",
    "what do you remember",
    "what you remember",
    "what have you learned",
    "what have you learnt",
    "what do you know about me",
)


def normalize(text: str) -> str:
    """NFKC, lowercase, single spaces, no surrounding whitespace."""
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def content_hash(content: str) -> str:
    """Hash of the normalised content: what "the same content" means for capture."""
    return sha256_hex(normalize(content))


def terms(text: str) -> list[str]:
    """Content terms in order (engram.terms.index_terms: stop words dropped, stemmed)."""
    return term_rules.index_terms(text)


def term_set(text: str) -> frozenset[str]:
    return frozenset(terms(text))


def overlap_score(query_terms: frozenset[str], content_terms: frozenset[str]) -> float:
    """Cosine of the two term sets: 0 when nothing is shared."""
    if not query_terms or not content_terms:
        return 0.0
    shared = len(query_terms & content_terms)
    return shared / math.sqrt(len(query_terms) * len(content_terms)) if shared else 0.0


def asks_for_durable_memory(text: str) -> bool:
    normalized = " ".join(term_rules.words(text))
    return any(phrase in normalized for phrase in MEMORY_REQUEST_PHRASES)


@dataclass(frozen=True)
class SubjectValue:
    subject_key: str
    value_key: str


_SUBJECT_SEPARATORS = re.compile(r"\s+is\s+|\s+are\s+|\s*:\s+|\s*=\s*")
_LEADING_ARTICLE = re.compile(r"^(?:the|our|my|your|a|an)\s+")
MAX_SUBJECT_CHARS = 120


def subject_value(content: str) -> SubjectValue | None:
    """Split "Project codename is Atlas" into ("project codename", "atlas").

    The subject is the text before the first " is ", " are ", ": " or "=";
    None when there is no separator, or either side is empty or the subject
    is too long to be a subject (a sentence that merely contains "is").
    """
    text = normalize(content)
    match = _SUBJECT_SEPARATORS.search(text)
    if match is None:
        return None
    subject = _LEADING_ARTICLE.sub("", text[: match.start()].strip())
    value = _TRAILING_PUNCT.sub("", text[match.end() :]).strip()
    subject_key = " ".join(term_rules.words(subject))
    value_key = " ".join(term_rules.words(value))
    if not subject_key or not value_key or len(subject_key) > MAX_SUBJECT_CHARS:
        return None
    return SubjectValue(subject_key, value_key)


def _flat(text: str) -> str:
    """Normalised text reduced to words, for containment checks."""
    return " ".join(term_rules.words(text))


def is_supported(content: str, evidence: Iterable[str]) -> bool:
    """True when daemon-owned evidence supports the content: the normalised
    content occurs verbatim in one evidence text, or every content term occurs
    in the evidence (a conservative term match; needs at least two terms so a
    one-word claim cannot ride on an incidental word)."""
    texts = [t for t in evidence if t]
    flat = _flat(content)
    if not flat:
        return False
    if any(f" {flat} " in f" {_flat(t)} " for t in texts):
        return True
    wanted = term_set(content)
    if len(wanted) < 2:
        return False
    available: set[str] = set()
    for text in texts:
        available |= term_set(text)
    return wanted <= available
