"""Routing before retrieval: does the input ask whether something was ever said or
stored? Pure functions.

"Did I ever tell you about X?", "have we discussed X?", "did I mention X?", "do you
remember me saying X?", "do you have any record of X?" are existence questions. Their
truthful answer may be a negative ("no, you never mentioned X"), and ranked recall can
never license that. For them the gateway also runs the exhaustive exact lookup
(RetrievalService.FindExact) over the key terms of X.

Key terms: the words of X without stopwords and question scaffolding. When X names
something (capitalised words in otherwise mixed-case text, e.g. "my sister Zelda"),
only the names are used: FindExact requires every term, and fewer, more specific terms
make a false "absent" less likely ("Zelda is my cousin" still matches "zelda"). At most
:data:`MAX_TERMS` terms are kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_TERMS = 4

_VERB = (
    r"(?:tell|told|mention(?:ed)?|say|said|talk(?:ed)?|speak|spoke(?:n)?|discuss(?:ed)?"
    r"|share(?:d)?|bring|brought|write|wrote|written|chat(?:ted)?)"
)
_ADV = r"(?:\s+(?:ever|already|previously|once|before|actually|really|even))*"
_FILLER = (
    r"(?:\s+(?:you|to\s+you|with\s+you|it|up|anything|something|me|us|at\s+all|before"
    r"|previously|earlier|yet))*"
)
_PREP = r"(?:\s+(?:about|of|on|regarding|that))?"
_X = r"\s+(?P<x>[^?.!\n]+)"

_PATTERNS = tuple(
    re.compile(p, re.IGNORECASE)
    for p in (
        # did I ever tell you about X / have I mentioned X / did we discuss X
        rf"\b(?:did|have|had|has)\s+(?:i|we|you\s+and\s+i|i\s+and\s+you){_ADV}\s+{_VERB}\b"
        rf"{_FILLER}{_PREP}{_X}",
        # do you remember me saying X / do you recall us discussing X
        rf"\b(?:do|did|can)\s+you\s+(?:remember|recall)\s+(?:me|us|my|our|i|when\s+i)"
        rf"{_ADV}\s+(?:ever\s+)?(?:{_VERB}|telling|mentioning|saying|talking|discussing"
        rf"|sharing|bringing)\b{_FILLER}{_PREP}{_X}",
        # do you remember if I ever told you about X
        rf"\b(?:do|did|can)\s+you\s+(?:remember|recall|know)\s+(?:if|whether)\s+"
        rf"(?:i|we){_ADV}\s+{_VERB}\b{_FILLER}{_PREP}{_X}",
        # was X ever mentioned / has X ever come up
        r"\b(?:was|were|has|have)\s+(?P<x>[^?.!\n]+?)\s+ever\s+(?:been\s+)?"
        r"(?:mentioned|discussed|brought\s+up|come\s+up|came\s+up|said)\b",
        # do you have any record of X / is there anything in your memory about X
        r"\bdo\s+you\s+have\s+(?:any\s+)?(?:record|records|note|notes|memory|memories)"
        r"\s+(?:of|about|on)" + _X,
        r"\bis\s+there\s+anything\s+(?:in\s+your\s+memory\s+|stored\s+|saved\s+|on\s+file\s+)?"
        r"(?:about|on|regarding)" + _X,
    )
)

_STOPWORDS = frozenset(
    """
    a an the my your our their his her its me you i we us they them him it this that these
    those there here about of on in at to for from with by as and or nor but if whether
    ever before previously earlier once already again yet still just really actually even
    anything something everything nothing any some all much many more most very so too
    what which who whom whose when where why how is are was were be been being am do does
    did done have has had having can could would should will shall may might must
    tell told telling say said saying mention mentioned mentioning talk talked talking
    discuss discussed discussing share shared sharing bring brought up come came
    remember recall know knew thing things stuff name named called
    mine yours ours myself yourself ourselves please hey hi ok okay well
    """.split()  # noqa: SIM905 - a word list reads better as text
)

_WH_BEFORE_RX = re.compile(r"\b(?:what|when|where|why|how|which|who|whom|whose)\s*$", re.I)
_TOPIC_TAIL_RX = re.compile(
    r"(?:\s+(?:before|previously|earlier|ever|yet|again|at\s+all|so\s+far|to\s+you|with\s+you))+$",
    re.IGNORECASE,
)
# Letters and digits of every script ("Zürich", "São", "北京"): the key terms go to
# FindExact, which folds them with engram.terms.
_WORD_RX = re.compile(r"[^\W_][\w-]*(?:['\u2019][^\W\d_]+)?")
_POSSESSIVE_RX = re.compile(r"['\u2019](?:s|S)$")
_PRONOUN_FLIPS = (
    (re.compile(r"\bmy\b", re.IGNORECASE), "your"),
    (re.compile(r"\bmine\b", re.IGNORECASE), "yours"),
    (re.compile(r"\bmyself\b", re.IGNORECASE), "yourself"),
    (re.compile(r"\bme\b", re.IGNORECASE), "you"),
    (re.compile(r"\bI\b"), "you"),
)


@dataclass(frozen=True)
class ExactRoute:
    """An existence question: ``topic`` is X as written, ``terms`` its key terms."""

    topic: str
    terms: tuple[str, ...]

    @property
    def reply_topic(self) -> str:
        """X from the assistant's point of view ("my sister" -> "your sister")."""
        text = self.topic
        for pattern, replacement in _PRONOUN_FLIPS:
            text = pattern.sub(replacement, text)
        return text


def _words(text: str) -> list[str]:
    return [_POSSESSIVE_RX.sub("", w) for w in _WORD_RX.findall(text)]


def key_terms(topic: str) -> tuple[str, ...]:
    """Lower-cased key terms of ``topic`` (names first; see the module docstring)."""
    words = [w for w in _words(topic) if w.lower() not in _STOPWORDS]
    mixed_case = any(ch.islower() for ch in topic)
    names = [w for w in words if mixed_case and w[0].isupper()]
    chosen = names or words
    terms: list[str] = []
    for word in chosen:
        lowered = word.lower()
        if lowered not in terms:
            terms.append(lowered)
    return tuple(terms[:MAX_TERMS])


def route(input_text: str) -> ExactRoute | None:
    """The exact-lookup route for an existence question, or None."""
    for pattern in _PATTERNS:
        for match in pattern.finditer(input_text):
            # "What did I tell you about X?" asks for content, not existence.
            if _WH_BEFORE_RX.search(input_text[: match.start()]):
                continue
            topic = " ".join(match.group("x").split()).strip(" ,;:'\"")
            topic = _TOPIC_TAIL_RX.sub("", topic)
            terms = key_terms(topic)
            if terms:
                return ExactRoute(topic=topic, terms=terms)
    return None
