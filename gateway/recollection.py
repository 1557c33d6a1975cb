"""Positive recall claims about the user's past, and whether a record supports them.

A *recollection* asserts that the user said something before ("you told me your sister
is Anna", "as you mentioned last week", "last time you said ...") or states a personal
fact as remembered. engram lets none through on the model's word: it must be backed by
a record the context actually holds, or by an exact lookup the gate runs itself.

The rules here are English and high-precision (first pass); the classifier in
:mod:`gateway.claim_model` finds the rest in any language. Not recollections: the
current message ("you just said", "you're asking", "in your message"), questions,
conditionals (the splitter drops both), and negated telling ("you never told me", or a
negation earlier in the sentence: "X has never been part of what you've shared" is an
absence claim).

Support (:func:`supported_by_records`): the claim's topic (:mod:`gateway.topics`) shares
at least ``min(2, len(topic))`` stemmed content words with one rendered record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from gateway.topics import Topic, stems_of

__all__ = ["find_recollection_spans", "supported_by_records"]

_TELL = (
    r"(?:told|mentioned|said|shared|wrote|explained|noted|described|brought\s+up|let\s+me\s+know"
    r"|informed\s+me|talked\s+about|spoke\s+(?:about|of)|confided|admitted|revealed)"
)
_PAST_MARK = (
    r"(?:before|earlier|previously|last\s+(?:time|week|month|year|night|session|\w+day)"
    r"|the\s+other\s+day|once|a\s+while\s+(?:ago|back)|in\s+(?:our|a)\s+(?:last|previous"
    r"|earlier|past)\s+(?:conversation|chat|session)|\w+\s+(?:days?|weeks?|months?)\s+ago)"
)
_RULES = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        # as you mentioned / like you said / as you told me
        rf"\b(?:as|like|since|because)\s+you(?:'ve|\s+have|\s+had)?\s+(?:\w+ly\s+)?{_TELL}\b",
        # you told me / you've mentioned / you once said (not "you just said")
        r"\byou(?:'ve|\s+have|\s+had)?\s+(?:(?:once|already|previously|earlier)\s+)?"
        r"(?:told\s+me|mentioned|shared|let\s+me\s+know|informed\s+me|confided)\b",
        rf"\byou\s+(?:once\s+)?(?:said|wrote|explained|noted)\b(?=.*\b{_PAST_MARK}\b)",
        rf"\b(?:last\s+time|the\s+other\s+day|previously|earlier),?\s+you\s+{_TELL}\b",
        rf"\bfrom\s+what\s+you(?:'ve|\s+have)?\s+{_TELL}\b",
        rf"\b(?:I\s+)?remember\s+(?:you|that\s+you)\s+(?:{_TELL}|telling|saying|mentioning)\b",
        r"\byou\s+(?:were\s+)?telling\s+me\b",
        rf"\bin\s+(?:our|a)\s+(?:last|previous|earlier|past)\s+(?:conversation|chat|session)"
        rf",?\s+you\s+{_TELL}\b",
    )
)
# Words that make a telling verb about the current message, or negate it.
_NOT_PAST_RX = re.compile(
    r"\b(?:just|now|here|today|above|right\s+now|in\s+(?:your|this)\s+(?:message|question"
    r"|request|note))\b|\b(?:never|not|n't|no)\b",
    re.IGNORECASE,
)


# A negation anywhere before the telling verb in its sentence makes the telling part of
# an absence claim ("your diagnosis has never been part of what you've shared with me",
# "there is no record, in anything you've told me, of ..."), not a recollection.
_NEGATED_BEFORE_RX = re.compile(
    r"\b(?:never|not|nothing|none|nobody|nowhere|no(?!\s+(?:worries|problem|doubt)\b)"
    r"|without)\b|n't\b",
    re.IGNORECASE,
)


def find_recollection_spans(clause: str, before: str = "") -> list[tuple[int, int]]:
    """Spans of ``clause`` (canonical, asserted) where a rule sees a recollection;
    ``before`` is the text of its sentence before the clause."""
    spans: list[tuple[int, int]] = []
    for rule in _RULES:
        for m in rule.finditer(clause):
            window = clause[max(0, m.start() - 12) : m.end() + 16]
            if _NOT_PAST_RX.search(window):
                continue
            if _NEGATED_BEFORE_RX.search(before + " " + clause[: m.start()]):
                continue
            spans.append((m.start(), m.end()))
            break
    return spans


def required_overlap(topic: Topic) -> int:
    return min(2, len(topic.stems))


def supported_by_records(topic: Topic, records: Iterable[str]) -> bool:
    """Whether one rendered record shares enough of the claim's topic (docstring)."""
    need = required_overlap(topic)
    if need == 0:
        return False
    stems = topic.stems
    return any(len(stems & stems_of(record)) >= need for record in records)
