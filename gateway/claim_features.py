"""Hashed character and word n-grams of a clause: the fast stage's features.

The same function featurises the training corpus (``tools/train_claim_classifier.py``)
and live clauses, so the two cannot drift. Character n-grams (2..5, inside word
boundaries) carry the cue words of every alphabetic language and survive inflection;
word unigrams and bigrams carry short idioms. Both are hashed with CRC-32 into
:data:`DIMENSION` buckets (a stable hash: Python's ``hash`` is salted per process).
"""

from __future__ import annotations

import re
import zlib

DIMENSION = 1 << 17
_CHAR_RANGE = range(2, 6)
_WORD_RX = re.compile(r"[^\W_]+|[^\w\s]", re.UNICODE)


def _bucket(feature: str) -> int:
    return zlib.crc32(feature.encode("utf-8")) & (DIMENSION - 1)


def feature_ids(text: str) -> dict[int, float]:
    """Bucket -> count for one (already canonicalised) clause."""
    tokens = _WORD_RX.findall(text.casefold())
    counts: dict[int, float] = {}

    def add(feature: str) -> None:
        bucket = _bucket(feature)
        counts[bucket] = counts.get(bucket, 0.0) + 1.0

    previous = "<s>"
    for token in tokens:
        add("w:" + token)
        add("b:" + previous + " " + token)
        previous = token
        padded = f"<{token}>"
        for n in _CHAR_RANGE:
            for i in range(len(padded) - n + 1):
                add("c:" + padded[i : i + n])
    add("b:" + previous + " </s>")
    return counts


def known_fraction(text: str, seen: frozenset[int]) -> float:
    """Share of the clause's word features seen in training: a language check."""
    tokens = _WORD_RX.findall(text.casefold())
    words = [t for t in tokens if t.isalnum()]
    if not words:
        return 1.0
    return sum(1 for t in words if _bucket("w:" + t) in seen) / len(words)
