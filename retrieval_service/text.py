"""Tokenisation for the lexical index.

An episode is indexed as its user text and assistant text together (the same
two fields the dense side embeds). Tokens are lowercased runs of letters and
digits, English stop words dropped, then reduced by a small suffix stemmer so
"meetings"/"meeting" and "planned"/"plan" meet. Documents and queries go
through the same function, which is all BM25 needs; the stemmer is
deliberately conservative (PostgreSQL's Snowball stemmer is stronger, so the
fallback path may match a few variants this one does not).
"""

from __future__ import annotations

import re
from collections import Counter

_WORD = re.compile(r"[^\W_]+")

# PostgreSQL's english stop list (snowball), so both read paths ignore the same words.
STOPWORDS = frozenset(
    [
        "i",
        "me",
        "my",
        "myself",
        "we",
        "our",
        "ours",
        "ourselves",
        "you",
        "your",
        "yours",
        "yourself",
        "yourselves",
        "he",
        "him",
        "his",
        "himself",
        "she",
        "her",
        "hers",
        "herself",
        "it",
        "its",
        "itself",
        "they",
        "them",
        "their",
        "theirs",
        "themselves",
        "what",
        "which",
        "who",
        "whom",
        "this",
        "that",
        "these",
        "those",
        "am",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "have",
        "has",
        "had",
        "having",
        "do",
        "does",
        "did",
        "doing",
        "a",
        "an",
        "the",
        "and",
        "but",
        "if",
        "or",
        "because",
        "as",
        "until",
        "while",
        "of",
        "at",
        "by",
        "for",
        "with",
        "about",
        "against",
        "between",
        "into",
        "through",
        "during",
        "before",
        "after",
        "above",
        "below",
        "to",
        "from",
        "up",
        "down",
        "in",
        "out",
        "on",
        "off",
        "over",
        "under",
        "again",
        "further",
        "then",
        "once",
        "here",
        "there",
        "when",
        "where",
        "why",
        "how",
        "all",
        "any",
        "both",
        "each",
        "few",
        "more",
        "most",
        "other",
        "some",
        "such",
        "no",
        "nor",
        "not",
        "only",
        "own",
        "same",
        "so",
        "than",
        "too",
        "very",
        "s",
        "t",
        "can",
        "will",
        "just",
        "don",
        "should",
        "now",
    ]
)

_MIN_STEM = 3
_VOWELS = frozenset("aeiouy")


def _undouble(stem: str) -> str:
    # "running" -> "runn" -> "run"; keep "ll"/"ss"/"zz" ("called" -> "call").
    if len(stem) > _MIN_STEM and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]
    return stem


def stem(word: str) -> str:
    """A minimal English suffix stripper (plural, -ing, -ed, -ly)."""
    if len(word) <= _MIN_STEM or word.isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if word.endswith("ing"):
        base = word[:-3]
        if len(base) >= _MIN_STEM and _VOWELS.intersection(base):
            return _undouble(base)
        return word
    if word.endswith("ed"):
        base = word[:-2]
        if len(base) >= _MIN_STEM and _VOWELS.intersection(base):
            return _undouble(base)
        return word
    if word.endswith("ly") and len(word) > 5:
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Index terms of `text` in order (duplicates kept)."""
    return [stem(word) for word in _WORD.findall(text.lower()) if word not in STOPWORDS]


def episode_text(user_text: str, assistant_text: str) -> str:
    return f"{user_text}\n{assistant_text}"


def term_counts(user_text: str, assistant_text: str) -> Counter[str]:
    return Counter(tokenize(episode_text(user_text, assistant_text)))
