"""Which evidence state judges an absence claim. Pure functions.

A context carries per-section evidence (learned_context, recovered_memory,
episodic_recall: sealed coverage, derived AbsenceState, hit count) and, for existence
questions, the exact lookup (FindExact over the key terms).

Rule for one claim (first match wins):

1. **Exact path.** The exact lookup ran and the claim is about its terms (the clause
   mentions one of the looked-up terms, or the claim names no topic of its own: "you
   never told me about it"). The state is the exact lookup's AbsenceState -- the only
   path that can be ABSENT_AUTHORITATIVE -- except that an ABSENT_* state becomes
   NOT_ABSENT when the rendered context itself mentions a looked-up term (the model has
   the contradicting record in front of it).
2. **Sections path.** Otherwise the sections' states are combined conservatively: the
   first state of this precedence list present in any section wins::

       FAILED > UNAVAILABLE > COVERAGE_DISAGREEMENT > NOT_SEARCHED > NOT_ABSENT
         > COVERAGE_UNKNOWN > ABSENT_IN_SCOPE

   An unknown/unspecified state counts as FAILED; no sections at all is NOT_SEARCHED.
   Failures come first because the most important truth about the evidence is that part
   of memory could not be searched. NOT_ABSENT (some section returned records) beats
   the "empty" states: records relevant to this input were found, so a flat negative
   contradicts the context. A disagreement reported by any read path propagates.
   Sections can never yield ABSENT_AUTHORITATIVE: ranked recall is never exhaustive and
   only the exact lookup speaks for the whole journal, so an authoritative section state
   is capped at ABSENT_IN_SCOPE.

Licensing itself (which claim scope each state licenses) is
:func:`gateway.truthfulness.is_licensed`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engram.common.v1 import common_pb2
from engram.coverage import describe

_S = common_pb2.AbsenceState

PRECEDENCE: tuple[int, ...] = (
    common_pb2.ABSENCE_STATE_FAILED,
    common_pb2.ABSENCE_STATE_UNAVAILABLE,
    common_pb2.ABSENCE_STATE_COVERAGE_DISAGREEMENT,
    common_pb2.ABSENCE_STATE_NOT_SEARCHED,
    common_pb2.ABSENCE_STATE_NOT_ABSENT,
    common_pb2.ABSENCE_STATE_COVERAGE_UNKNOWN,
    common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE,
)
_ABSENT_STATES = (
    common_pb2.ABSENCE_STATE_ABSENT_AUTHORITATIVE,
    common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE,
)
_EMPTY_TOPICS = frozenset({"", "it", "that", "this", "them", "those", "anything", "any"})
_WORD_RX = re.compile(r"[a-z0-9][a-z0-9_-]*")

EXACT_PATH = "exact_lookup"
SECTIONS_PATH = "sections"


@dataclass(frozen=True)
class SectionEvidence:
    name: str
    absence_state: int
    coverage: common_pb2.Coverage
    hit_count: int


@dataclass(frozen=True)
class ExactEvidence:
    terms: tuple[str, ...]
    # X from the assistant's point of view, e.g. "your sister Zelda".
    topic: str
    absence_state: int
    coverage: common_pb2.Coverage
    hits: int
    scope_description: str


@dataclass(frozen=True)
class ContextEvidence:
    sections: tuple[SectionEvidence, ...]
    exact: ExactEvidence | None
    # Whether a rendered block of the context mentions a looked-up term.
    context_mentions_terms: bool


@dataclass(frozen=True)
class Judged:
    """The state a claim (or the context) is judged against, and why."""

    state: int
    path: str
    # What was searched and how far (engram.coverage.describe of the relevant coverage).
    summary: str
    # The topic to use in a fallback text, when known.
    topic: str | None


def combine_section_states(states: Iterable[int]) -> int:
    """Conservative combination of section states (module docstring, rule 2)."""
    present = set()
    for state in states:
        known = state in PRECEDENCE or state == common_pb2.ABSENCE_STATE_ABSENT_AUTHORITATIVE
        present.add(state if known else common_pb2.ABSENCE_STATE_FAILED)
    if not present:
        return common_pb2.ABSENCE_STATE_NOT_SEARCHED
    for state in PRECEDENCE:
        if state in present:
            return state
    return common_pb2.ABSENCE_STATE_ABSENT_IN_SCOPE  # only ABSENT_AUTHORITATIVE left: capped


def words(text: str) -> set[str]:
    return set(_WORD_RX.findall(text.lower()))


def mentions_any(text: str, terms: Iterable[str]) -> bool:
    found = words(text)
    return any(term in found for term in terms)


def claim_is_about_lookup(clause_text: str, topic: str | None, terms: tuple[str, ...]) -> bool:
    """Whether the exact lookup speaks for this claim (module docstring, rule 1)."""
    if mentions_any(clause_text, terms):
        return True
    return topic is None or topic.strip().lower() in _EMPTY_TOPICS


def exact_state(exact: ExactEvidence, context_mentions_terms: bool) -> int:
    if context_mentions_terms and exact.absence_state in _ABSENT_STATES:
        return common_pb2.ABSENCE_STATE_NOT_ABSENT
    return exact.absence_state


def exact_summary(exact: ExactEvidence) -> str:
    text = describe(exact.coverage, exact.hits)
    if exact.scope_description:
        text += f"; scope: {exact.scope_description}"
    return f"exact lookup for {', '.join(exact.terms)}: {text}"


def sections_summary(sections: Iterable[SectionEvidence]) -> str:
    return "; ".join(f"{s.name}: {describe(s.coverage, s.hit_count)}" for s in sections)


def judge_sections(evidence: ContextEvidence, topic: str | None) -> Judged:
    return Judged(
        state=combine_section_states(s.absence_state for s in evidence.sections),
        path=SECTIONS_PATH,
        summary=sections_summary(evidence.sections),
        topic=topic,
    )


def judge_exact(evidence: ContextEvidence, exact: ExactEvidence, topic: str | None) -> Judged:
    own_topic = topic if topic and topic.strip().lower() not in _EMPTY_TOPICS else None
    return Judged(
        state=exact_state(exact, evidence.context_mentions_terms),
        path=EXACT_PATH,
        summary=exact_summary(exact),
        topic=own_topic or exact.topic,
    )


def judge_claim(evidence: ContextEvidence, clause_text: str, topic: str | None) -> Judged:
    """The evidence one absence claim is judged against."""
    exact = evidence.exact
    if exact is not None and claim_is_about_lookup(clause_text, topic, exact.terms):
        return judge_exact(evidence, exact, topic)
    return judge_sections(evidence, topic)


def judge_context(evidence: ContextEvidence) -> Judged:
    """The context-level evidence state (reported when the text makes no claim)."""
    if evidence.exact is not None:
        return judge_exact(evidence, evidence.exact, None)
    return judge_sections(evidence, None)
