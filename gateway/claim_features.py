"""Hashed character and word n-grams of a clause: the fast stage's features.

The same function featurises the training corpus (``tools/train_claim_classifier.py``)
and live clauses, so the two cannot drift. Character n-grams (2..5, inside word
boundaries) carry the cue words of every alphabetic language and survive inflection;
word unigrams and bigrams carry short idioms. Both are hashed with CRC-32 into
:data:`DIMENSION` buckets (a stable hash: Python's ``hash`` is salted per process).
"""

from __future__ import annotations

import functools
import re
import zlib

DIMENSION = 1 << 17
_CHAR_RANGE = range(2, 6)
_WORD_RX = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)


def _bucket(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8")) & (DIMENSION - 1)


@functools.lru_cache(maxsize=1 << 16)
def _token_buckets(token: str) -> tuple[int, ...]:
    """The word feature's bucket, then the character n-grams' (a word's are the same in
    every clause, and the same few hundred words make most clauses)."""
    padded = f"<{token}>"
    grams = (padded[i : i + n] for n in _CHAR_RANGE for i in range(len(padded) - n + 1))
    return (_bucket("w:" + token), *(_bucket("c:" + g) for g in grams))


def feature_ids(text: str) -> dict[int, float]:
    """Bucket -> count for one (already canonicalised) clause, in first-seen order: word,
    bigram with the previous word, character n-grams, word by word."""
    counts: dict[int, float] = {}
    previous = "<s>"
    for token in _WORD_RX.findall(text.casefold()):
        word, *grams = _token_buckets(token)
        for bucket in (word, _bucket("b:" + previous + " " + token), *grams):
            counts[bucket] = counts.get(bucket, 0.0) + 1.0
        previous = token
    last = _bucket("b:" + previous + " </s>")
    counts[last] = counts.get(last, 0.0) + 1.0
    return counts


def known_fraction(text: str, seen: frozenset[int]) -> float:
    """Share of the clause's word features seen in training: a language check."""
    tokens = _WORD_RX.findall(text.casefold())
    words = [t for t in tokens if t.isalnum()]
    if not words:
        return 1.0
    return sum(1 for t in words if _bucket("w:" + t) in seen) / len(words)
