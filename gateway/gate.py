"""The release decision for one candidate response.

Verdict flow:

* every claim :func:`gateway.claims.find_claims` finds is judged:

  - an **absence** claim by the coverage of a search for its own topic
    (:func:`gateway.evidence.judge_claim`) and :func:`gateway.truthfulness.is_licensed`;
  - a **recollection** by a record: one the context rendered that shares the claim's
    topic (:func:`gateway.recollection.supported_by_records`), or else an exact lookup
    the gate runs itself over the topic's terms (``lookup``); neither -> the reason
    UNSUPPORTED_RECOLLECTION;
  - an **unsure** clause (the classifier could not tell) is a violation on attempt 1
    when the evidence for its topic licenses no absence: the model is asked once to
    restate it; on later attempts it is released and counted;

* **declared claims** (typed claims the runtime's model emitted through a tool call)
  are verified exactly: an absence by the coverage of a search for its terms and
  scope, a recollection by the records it cites, each of which must be in the context;
* no violation -> RELEASE the candidate as is; violations on attempt 1 -> REGENERATE
  with an evidence-specific repair directive (nothing is released); on attempt >= 2 ->
  FALLBACK: deterministic truthful text built from the evidence state.

When the verdict cannot be journaled, :func:`unjournaled` fails closed: a text that
contains any claim (licensed or not) is not released; the fallback then makes no claim
at all, since nothing would record why it was allowed.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engram import terms
from engram.common.v1 import common_pb2
from gateway.claim_model import ClaimClassifier
from gateway.claims import ClaimKind, FoundClaim, find_claims
from gateway.evidence import ContextEvidence, Judged, judge_claim, judge_context
from gateway.recollection import supported_by_records
from gateway.topics import Topic
from gateway.truthfulness import (
    KEEP_THE_REST,
    ClaimScope,
    Clause,
    fallback_text,
    is_licensed,
    repair_directive,
)

# An exact lookup the gate may run for a recollection: True found, False not found,
# None could not tell (unavailable, partial normalisation...).
Lookup = Callable[[tuple[str, ...]], bool | None]
MAX_LOOKUP_TERMS = 3


class Verdict(enum.Enum):
    RELEASE = "release"
    REGENERATE = "regenerate"
    FALLBACK = "fallback"


class Reason(enum.Enum):
    UNLICENSED_ABSENCE = "unlicensed_absence"
    UNSUPPORTED_RECOLLECTION = "unsupported_recollection"
    UNSURE_CLAIM = "unsure_claim"
    DECLARED_CLAIM_REFUSED = "declared_claim_refused"


@dataclass(frozen=True)
class DeclaredAbsence:
    topic_terms: tuple[str, ...]
    scope: ClaimScope


@dataclass(frozen=True)
class DeclaredRecollection:
    topic_terms: tuple[str, ...]
    record_ids: tuple[str, ...]


DeclaredClaim = DeclaredAbsence | DeclaredRecollection


@dataclass(frozen=True)
class Judgement:
    claim: FoundClaim
    judged: Judged
    licensed: bool
    reason: Reason | None = None


@dataclass(frozen=True)
class GateDecision:
    verdict: Verdict
    released_text: str
    repair_directive: str
    judgements: tuple[Judgement, ...]
    # The evidence the decision rests on: the first violation's, else the first
    # claim's, else the context's.
    evidence: Judged
    detail: str = ""

    @property
    def violations(self) -> tuple[Judgement, ...]:
        return tuple(j for j in self.judgements if not j.licensed)


_SUPPORTED = common_pb2.ABSENCE_STATE_NOT_ABSENT
_UNSUPPORTED = common_pb2.ABSENCE_STATE_NOT_SEARCHED


def _judge_absence(evidence: ContextEvidence, claim: FoundClaim) -> Judgement:
    judged = judge_claim(evidence, claim.topic)
    if claim.phrase:
        judged = replace(judged, topic=claim.phrase)
    scope = claim.scope or ClaimScope.CORPUS_WIDE
    ok = is_licensed(scope, judged.state)
    return Judgement(claim, judged, ok, None if ok else Reason.UNLICENSED_ABSENCE)


def _lookup_terms(topic: Topic) -> tuple[str, ...]:
    # The most specific words: FindExact requires them all, so fewer is safer.
    ranked = sorted(topic.exact, key=lambda w: (-len(w), topic.exact.index(w)))
    return tuple(ranked[:MAX_LOOKUP_TERMS])


def _judge_recollection(
    evidence: ContextEvidence, claim: FoundClaim, lookup: Lookup | None
) -> Judgement:
    topic = claim.topic
    records = evidence.rendered_records
    # A record supports the fact as stated (one of its readings), or shares two words of
    # the whole sentence and repeats every name and number the readings hold.
    names = tuple(dict.fromkeys(w for f in claim.facts for w in f.specific))
    if any(supported_by_records(f, records) for f in claim.facts) or supported_by_records(
        replace(topic, specific=names), records
    ):
        judged = Judged(_SUPPORTED, "records", "a record in the context supports it", None)
        return Judgement(claim, judged, True)
    if topic and lookup is not None:
        wanted = _lookup_terms(topic)
        if lookup(wanted) is True:
            judged = Judged(
                _SUPPORTED, "exact_lookup", f"exact lookup found {', '.join(wanted)}", None
            )
            return Judgement(claim, judged, True)
    what = topic.describe() or "it"
    judged = Judged(
        _UNSUPPORTED, "unsupported", f"no record in the context or the journal shows {what}", what
    )
    return Judgement(claim, judged, False, Reason.UNSUPPORTED_RECOLLECTION)


def _judge_unsure(evidence: ContextEvidence, claim: FoundClaim, attempt: int) -> Judgement:
    judged = judge_claim(evidence, claim.topic)
    if attempt > 1 or is_licensed(ClaimScope.QUERY_SCOPED, judged.state):
        return Judgement(claim, judged, True)
    return Judgement(claim, judged, False, Reason.UNSURE_CLAIM)


def _declared_clause(kind: str, words: Sequence[str]) -> Clause:
    text = f"[declared {kind}: {' '.join(words)}]"
    return Clause(text, -1, -1)


def _judge_declared(evidence: ContextEvidence, declared: DeclaredClaim) -> Judgement:
    topic = Topic(tuple(w for t in declared.topic_terms for w in terms.exact_terms(t)))
    if isinstance(declared, DeclaredAbsence):
        claim = FoundClaim(
            ClaimKind.ABSENCE,
            _declared_clause("absence", declared.topic_terms),
            topic,
            "declared",
            declared.scope,
        )
        judged = judge_claim(evidence, topic)
        ok = is_licensed(declared.scope, judged.state)
        return Judgement(claim, judged, ok, None if ok else Reason.DECLARED_CLAIM_REFUSED)
    claim = FoundClaim(
        ClaimKind.RECOLLECTION,
        _declared_clause("recollection", declared.topic_terms),
        topic,
        "declared",
    )
    missing = [r for r in declared.record_ids if r not in evidence.record_ids]
    if not declared.record_ids or missing:
        why = (
            f"cited records not in the context: {', '.join(missing[:5])}"
            if missing
            else "no record cited"
        )
        judged = Judged(_UNSUPPORTED, "declared", why, topic.describe() or None)
        return Judgement(claim, judged, False, Reason.DECLARED_CLAIM_REFUSED)
    if evidence.rendered_records and not supported_by_records(topic, evidence.rendered_records):
        judged = Judged(
            _UNSUPPORTED, "declared", "the cited records do not mention the topic", None
        )
        return Judgement(claim, judged, False, Reason.DECLARED_CLAIM_REFUSED)
    return Judgement(claim, Judged(_SUPPORTED, "declared", "cited records", None), True)


def judge_all(
    evidence: ContextEvidence,
    candidate_text: str,
    attempt: int,
    *,
    declared: Sequence[DeclaredClaim] = (),
    lookup: Lookup | None = None,
    model: ClaimClassifier | None = None,
) -> list[Judgement]:
    judgements: list[Judgement] = []
    for claim in find_claims(candidate_text, model):
        if claim.kind is ClaimKind.ABSENCE:
            judgements.append(_judge_absence(evidence, claim))
        elif claim.kind is ClaimKind.RECOLLECTION:
            judgements.append(_judge_recollection(evidence, claim, lookup))
        else:
            judgements.append(_judge_unsure(evidence, claim, attempt))
    judgements = _covered_by_recollections(judgements)
    judgements.extend(_judge_declared(evidence, d) for d in declared)
    return judgements


def _covered_by_recollections(judgements: list[Judgement]) -> list[Judgement]:
    """An unsure clause in a sentence whose recollection a record supports is part of
    that supported statement ("As you told me, | your sister Anna loves pottery")."""
    supported = {
        j.claim.sentence
        for j in judgements
        if j.claim.kind is ClaimKind.RECOLLECTION and j.licensed
    }
    return [
        replace(j, licensed=True, reason=None)
        if j.reason is Reason.UNSURE_CLAIM and j.claim.sentence in supported
        else j
        for j in judgements
    ]


def _directive(violations: Sequence[Judgement], basis: Judged) -> str:
    parts: list[str] = []
    absences = [v.claim.as_absence() for v in violations if v.reason is Reason.UNLICENSED_ABSENCE]
    if absences:
        directive = repair_directive(absences, basis.state, basis.summary)
        parts.append(directive.removesuffix(" " + KEEP_THE_REST))
    recalled = [v for v in violations if v.reason is Reason.UNSUPPORTED_RECOLLECTION]
    if recalled:
        quoted = "; ".join(f'"{v.claim.clause.text}"' for v in recalled[:3])
        parts.append(
            f"Your draft presents something as what the user told you ({quoted}), but no "
            "record in the context or the journal supports it. Do not attribute it to the "
            "user; answer from the provided records, or ask the user."
        )
    unsure = [v for v in violations if v.reason is Reason.UNSURE_CLAIM]
    if unsure:
        quoted = "; ".join(f'"{v.claim.clause.text}"' for v in unsure[:3])
        parts.append(
            f"It could not be verified whether {quoted} makes a claim about what memory "
            "holds. Do not say or imply that something is absent from memory unless the "
            f"search supports it ({basis.summary or 'no search summary'}); state plainly "
            "what was searched and what was found."
        )
    declared = [v for v in violations if v.reason is Reason.DECLARED_CLAIM_REFUSED]
    if declared:
        why = "; ".join(f"{v.claim.clause.text}: {v.judged.summary}" for v in declared[:3])
        parts.append(f"Declared claims were refused ({why}); do not make them.")
    return " ".join([*parts, KEEP_THE_REST])


def decide(
    evidence: ContextEvidence,
    candidate_text: str,
    attempt: int,
    *,
    declared: Sequence[DeclaredClaim] = (),
    lookup: Lookup | None = None,
    model: ClaimClassifier | None = None,
) -> GateDecision:
    judgements = judge_all(
        evidence, candidate_text, attempt, declared=declared, lookup=lookup, model=model
    )
    violations = [j for j in judgements if not j.licensed]
    if violations:
        basis = violations[0].judged
    elif judgements:
        basis = judgements[0].judged
    else:
        basis = judge_context(evidence)
    if not violations:
        return GateDecision(Verdict.RELEASE, candidate_text, "", tuple(judgements), basis)
    if attempt <= 1:
        return GateDecision(
            Verdict.REGENERATE, "", _directive(violations, basis), tuple(judgements), basis
        )
    text = fallback_text(basis.state, basis.summary, basis.topic)
    return GateDecision(Verdict.FALLBACK, text, "", tuple(judgements), basis)


def unrecorded_text(topic: str | None) -> str:
    """Fallback when the verdict could not be journaled: no claim at all."""
    about = " ".join(topic.split()) if topic and topic.strip() else "that"
    return (
        f"I can't confirm anything about {about} right now: my answer could not be "
        "recorded, so it was withheld."
    )


def unjournaled(decision: GateDecision, error: str) -> GateDecision:
    """Fail closed when the verdict could not be journaled (module docstring)."""
    detail = f"verdict could not be journaled ({error})"
    if decision.verdict is Verdict.REGENERATE:
        return replace(decision, detail=detail)
    if decision.verdict is Verdict.RELEASE and not decision.judgements:
        return replace(decision, detail=detail + "; released: the text makes no claim")
    return replace(
        decision,
        verdict=Verdict.FALLBACK,
        released_text=unrecorded_text(decision.evidence.topic),
        repair_directive="",
        detail=detail + "; a claim is not released without its record",
    )
