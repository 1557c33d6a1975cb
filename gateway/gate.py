"""The release decision for one candidate response. Pure functions.

Verdict flow:

* every absence claim found by :func:`gateway.truthfulness.find_absence_claims` is judged
  against its evidence (:func:`gateway.evidence.judge_claim`) and checked with
  :func:`gateway.truthfulness.is_licensed`;
* no unlicensed claim -> RELEASE the candidate as is;
* unlicensed claims on attempt 1 -> REGENERATE with an evidence-specific repair directive
  (nothing is released);
* unlicensed claims on attempt >= 2 -> FALLBACK: deterministic truthful text built from
  the evidence state, saying what was searched and how far.

When the verdict cannot be journaled, :func:`unjournaled` fails closed: a text that
contains any absence claim (licensed or not) is not released; the fallback then makes no
absence claim at all, since nothing would record why it was allowed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from gateway.evidence import ContextEvidence, Judged, judge_claim, judge_context
from gateway.truthfulness import (
    AbsenceClaim,
    fallback_text,
    find_absence_claims,
    is_licensed,
    repair_directive,
)


class Verdict(enum.Enum):
    RELEASE = "release"
    REGENERATE = "regenerate"
    FALLBACK = "fallback"


@dataclass(frozen=True)
class Judgement:
    claim: AbsenceClaim
    judged: Judged
    licensed: bool


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


def decide(evidence: ContextEvidence, candidate_text: str, attempt: int) -> GateDecision:
    judgements = []
    for claim in find_absence_claims(candidate_text):
        judged = judge_claim(evidence, claim.clause.text, claim.topic)
        judgements.append(Judgement(claim, judged, is_licensed(claim.scope, judged.state)))
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
        directive = repair_directive([v.claim for v in violations], basis.state, basis.summary)
        return GateDecision(Verdict.REGENERATE, "", directive, tuple(judgements), basis)
    text = fallback_text(basis.state, basis.summary, basis.topic)
    return GateDecision(Verdict.FALLBACK, text, "", tuple(judgements), basis)


def unrecorded_text(topic: str | None) -> str:
    """Fallback when the verdict could not be journaled: no absence claim at all."""
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
        return replace(decision, detail=detail + "; released: the text makes no absence claim")
    return replace(
        decision,
        verdict=Verdict.FALLBACK,
        released_text=unrecorded_text(decision.evidence.topic),
        repair_directive="",
        detail=detail + "; an absence claim is not released without its record",
    )
