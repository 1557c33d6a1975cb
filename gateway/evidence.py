"""Which evidence state judges an absence claim. Pure functions.

A context carries per-section evidence (learned_context, recovered_memory,
episodic_recall: sealed coverage, derived AbsenceState, hit count) and, for existence
questions, the exact lookup (FindExact over the key terms).

A claim is licensed only by the coverage of a search for the claim's own topic
(:func:`judge_claim`; the topic comes from :mod:`gateway.topics`). First match wins:

1. **Exact path.** The exact lookup searched a subset of the claim's topic terms (it is
   conjunctive: if nothing mentions every looked-up term, nothing mentions every term
   of the claim). The state is the exact lookup's AbsenceState -- the only path that
   can be ABSENT_AUTHORITATIVE -- except that an ABSENT_* state becomes NOT_ABSENT when
   the rendered context itself mentions a looked-up term (the model has the
   contradicting record in front of it).
2. **Sections path.** Else, when the sections' query (the input) shares a stemmed
   content word with the topic, the sections' states are combined conservatively: the
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

3. **Unbound.** Otherwise -- and always for a claim with no topic -- no search speaks
   for the claim: NOT_SEARCHED, which licenses nothing.

Licensing itself (which claim scope each state licenses) is
:func:`gateway.truthfulness.is_licensed`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engram import terms
from engram.common.v1 import common_pb2
from engram.coverage import describe
from gateway.topics import Topic, stems_of

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

EXACT_PATH = "exact_lookup"
SECTIONS_PATH = "sections"
UNBOUND_PATH = "unbound"


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
    # What the sections searched for: the input of AssembleContext.
    query_text: str = ""
    # Texts of the records rendered into the context (in memory only: a context
    # recovered from the journal has none, and recollections then need FindExact).
    rendered_records: tuple[str, ...] = ()
    # Ids of the records the context's sections rendered.
    record_ids: frozenset[str] = frozenset()

    @classmethod
    def build(
        cls,
        sections: tuple[SectionEvidence, ...],
        *,
        exact: ExactEvidence | None = None,
        context_mentions_terms: bool = False,
        query_text: str = "",
        rendered_records: tuple[str, ...] = (),
        record_ids: frozenset[str] = frozenset(),
    ) -> ContextEvidence:
        return cls(
            sections, exact, context_mentions_terms, query_text, rendered_records, record_ids
        )


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


def mentions_any(text: str, looked_up: Iterable[str]) -> bool:
    """Whether ``text`` contains one of the looked-up (exact-form) terms."""
    return any(terms.mentions(text, term) for term in looked_up)


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
    return Judged(
        state=exact_state(exact, evidence.context_mentions_terms),
        path=EXACT_PATH,
        summary=exact_summary(exact),
        topic=topic or exact.topic,
    )


def unbound(topic: Topic) -> Judged:
    what = f"for {topic.describe()}" if topic else "for a topic the claim names"
    return Judged(
        state=common_pb2.ABSENCE_STATE_NOT_SEARCHED,
        path=UNBOUND_PATH,
        summary=f"no search was made {what}",
        topic=topic.describe() or None,
    )


def exact_covers(exact: ExactEvidence, topic: Topic) -> bool:
    """A conjunctive exact search for S speaks for a claim about C only when S <= C:
    nothing mentions all of S, so nothing mentions all of C."""
    return bool(exact.terms) and set(exact.terms) <= set(topic.exact)


def sections_cover(evidence: ContextEvidence, topic: Topic) -> bool:
    """Ranked recall speaks for a claim only when it searched for the claim's topic."""
    return bool(evidence.sections) and bool(topic.stems & stems_of(evidence.query_text))


def judge_claim(evidence: ContextEvidence, topic: Topic) -> Judged:
    """The licence of one absence claim: the coverage of a search for its own topic.

    The exact lookup when it searched a subset of the claim's terms; else the sections
    when their query shares a term with the topic; else no search speaks for the claim
    (NOT_SEARCHED, which licenses nothing). A claim without a topic is never bound.
    """
    exact = evidence.exact
    if topic and exact is not None and exact_covers(exact, topic):
        return judge_exact(evidence, exact, topic.describe())
    if topic and sections_cover(evidence, topic):
        return judge_sections(evidence, topic.describe())
    return unbound(topic)


def judge_context(evidence: ContextEvidence) -> Judged:
    """The context-level evidence state (reported when the text makes no claim)."""
    if evidence.exact is not None:
        return judge_exact(evidence, evidence.exact, None)
    return judge_sections(evidence, None)
