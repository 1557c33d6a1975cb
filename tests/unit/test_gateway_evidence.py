"""Which evidence judges an absence claim, and the release decision built on it."""

from __future__ import annotations

import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage, derive_absence, unavailable_coverage
from gateway.evidence import (
    EXACT_PATH,
    SECTIONS_PATH,
    UNBOUND_PATH,
    ContextEvidence,
    ExactEvidence,
    SectionEvidence,
    combine_section_states,
    judge_claim,
    judge_context,
)
from gateway.gate import Verdict, decide, unjournaled
from gateway.topics import Topic, topic_of
from gateway.truthfulness import find_absence_claims

S = cpb.AbsenceState
C, P, U = cpb.DIMENSION_STATE_COMPLETE, cpb.DIMENSION_STATE_PARTIAL, cpb.DIMENSION_STATE_UNKNOWN


def exact_cov(matched: int, *, verified: bool = True, agrees: bool = True) -> cpb.Coverage:
    verifier = cpb.Verifier(
        ran=verified,
        read_path="v",
        source_system="s",
        count=matched if agrees else matched + 1,
        agrees=verified and agrees,
    )
    return build_coverage(
        read_path="retrieval.find_exact.v1",
        source_systems=["pg"],
        query="q",
        returned=matched,
        limit=20,
        matched_before_limit=matched,
        exactness=cpb.EXACTNESS_EXACT,
        semantic=C,
        field=C,
        temporal=C,
        visibility=C,
        normalization=C,
        verifier=verifier,
    )


def ranked_cov(returned: int) -> cpb.Coverage:
    return build_coverage(
        read_path="retrieval.recall.v1",
        source_systems=["faiss"],
        query="q",
        returned=returned,
        limit=5,
        matched_before_limit=None,
        exactness=cpb.EXACTNESS_UNKNOWN,
        semantic=U,
        field=C,
        temporal=C,
        visibility=C,
        normalization=P,
    )


def scoped_cov() -> cpb.Coverage:
    return build_coverage(
        read_path="journal.recovered.v1",
        source_systems=["pg"],
        query="q",
        returned=0,
        limit=3,
        matched_before_limit=0,
        exactness=cpb.EXACTNESS_EXACT,
        semantic=P,
        field=C,
        temporal=C,
        visibility=C,
        normalization=P,
    )


def section(name: str, coverage: cpb.Coverage, hits: int = 0) -> SectionEvidence:
    return SectionEvidence(name, derive_absence(coverage, hits), coverage, hits)


def exact(coverage: cpb.Coverage, hits: int = 0) -> ExactEvidence:
    return ExactEvidence(
        ("zelda",),
        "your sister Zelda",
        derive_absence(coverage, hits),
        coverage,
        hits,
        "every committed turn of alice in default",
    )


SECTIONS = (
    section("learned_context", scoped_cov()),
    section("recovered_memory", scoped_cov()),
    section("episodic_recall", ranked_cov(0)),
)


QUERY = "Did I ever tell you about my sister Zelda?"


def ctx(
    exact_evidence: ExactEvidence | None = None,
    mentions: bool = False,
    sections: tuple[SectionEvidence, ...] = SECTIONS,
    query: str = QUERY,
) -> ContextEvidence:
    return ContextEvidence.build(
        sections, exact=exact_evidence, context_mentions_terms=mentions, query_text=query
    )


def about(sentence: str) -> Topic:
    return topic_of(sentence)


# --------------------------------------------------------------- combination rule


@pytest.mark.parametrize(
    ("states", "expected"),
    [
        ([], S.ABSENCE_STATE_NOT_SEARCHED),
        ([S.ABSENCE_STATE_ABSENT_IN_SCOPE], S.ABSENCE_STATE_ABSENT_IN_SCOPE),
        ([S.ABSENCE_STATE_ABSENT_AUTHORITATIVE], S.ABSENCE_STATE_ABSENT_IN_SCOPE),
        (
            [S.ABSENCE_STATE_ABSENT_IN_SCOPE, S.ABSENCE_STATE_COVERAGE_UNKNOWN],
            S.ABSENCE_STATE_COVERAGE_UNKNOWN,
        ),
        (
            [S.ABSENCE_STATE_COVERAGE_UNKNOWN, S.ABSENCE_STATE_NOT_ABSENT],
            S.ABSENCE_STATE_NOT_ABSENT,
        ),
        ([S.ABSENCE_STATE_NOT_ABSENT, S.ABSENCE_STATE_NOT_SEARCHED], S.ABSENCE_STATE_NOT_SEARCHED),
        (
            [S.ABSENCE_STATE_NOT_SEARCHED, S.ABSENCE_STATE_COVERAGE_DISAGREEMENT],
            S.ABSENCE_STATE_COVERAGE_DISAGREEMENT,
        ),
        (
            [S.ABSENCE_STATE_COVERAGE_DISAGREEMENT, S.ABSENCE_STATE_UNAVAILABLE],
            S.ABSENCE_STATE_UNAVAILABLE,
        ),
        ([S.ABSENCE_STATE_UNAVAILABLE, S.ABSENCE_STATE_FAILED], S.ABSENCE_STATE_FAILED),
        ([S.ABSENCE_STATE_UNSPECIFIED, S.ABSENCE_STATE_ABSENT_IN_SCOPE], S.ABSENCE_STATE_FAILED),
        ([99], S.ABSENCE_STATE_FAILED),
    ],
)
def test_sections_combine_conservatively(states: list[int], expected: int) -> None:
    assert combine_section_states(states) == expected


def test_sections_never_yield_authoritative_absence() -> None:
    every = [s for s in S.values() if s != S.ABSENCE_STATE_ABSENT_AUTHORITATIVE]
    for state in [*every, S.ABSENCE_STATE_ABSENT_AUTHORITATIVE]:
        assert combine_section_states([state]) != S.ABSENCE_STATE_ABSENT_AUTHORITATIVE


# --------------------------------------------------------------- claim routing


def test_claim_about_looked_up_terms_uses_the_exact_lookup() -> None:
    judged = judge_claim(ctx(exact(exact_cov(0))), about("You never told me about Zelda"))
    assert judged.path == EXACT_PATH
    assert judged.state == S.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert "exact lookup for zelda" in judged.summary
    assert "verified absent" in judged.summary


def test_claim_without_topic_is_bound_to_no_search() -> None:
    judged = judge_claim(ctx(exact(exact_cov(0))), about("You never told me about it"))
    assert judged.path == UNBOUND_PATH
    assert judged.state == S.ABSENCE_STATE_NOT_SEARCHED


def test_claim_about_something_else_falls_back_to_sections() -> None:
    judged = judge_claim(
        ctx(exact(exact_cov(0)), query="Did I tell you about my brother Zed?"),
        about("You never mentioned your brother"),
    )
    assert judged.path == SECTIONS_PATH
    assert judged.state == S.ABSENCE_STATE_COVERAGE_UNKNOWN
    assert "episodic_recall: searched retrieval.recall.v1" in judged.summary


def test_context_mentioning_the_terms_contradicts_absence() -> None:
    judged = judge_claim(
        ctx(exact(exact_cov(0)), mentions=True), about("You never told me about Zelda")
    )
    assert judged.state == S.ABSENCE_STATE_NOT_ABSENT


def test_exact_hits_and_disagreement_are_reported() -> None:
    hit = judge_claim(ctx(exact(exact_cov(2), hits=2)), about("never told me about Zelda"))
    assert hit.state == S.ABSENCE_STATE_NOT_ABSENT
    disagree = judge_claim(
        ctx(exact(exact_cov(0, agrees=False))), about("never told me about Zelda")
    )
    assert disagree.state == S.ABSENCE_STATE_COVERAGE_DISAGREEMENT


def test_context_level_state() -> None:
    assert judge_context(ctx()).state == S.ABSENCE_STATE_COVERAGE_UNKNOWN
    assert judge_context(ctx(exact(exact_cov(0)))).state == S.ABSENCE_STATE_ABSENT_AUTHORITATIVE


# --------------------------------------------------------------- the gate


def test_plain_answer_is_released() -> None:
    decision = decide(ctx(), "The disk holds 512 GB.", 1)
    assert decision.verdict is Verdict.RELEASE
    assert decision.released_text == "The disk holds 512 GB."
    assert decision.violations == ()


def test_unlicensed_negative_regenerates_then_falls_back() -> None:
    text = "You never told me about your sister."
    first = decide(ctx(), text, 1)
    assert first.verdict is Verdict.REGENERATE
    assert first.released_text == ""
    assert "not exhaustive" in first.repair_directive
    assert first.evidence.state == S.ABSENCE_STATE_COVERAGE_UNKNOWN
    second = decide(ctx(), text, 2)
    assert second.verdict is Verdict.FALLBACK
    assert "your sister" in second.released_text
    assert "searched retrieval.recall.v1" in second.released_text  # says what was searched
    # The fallback's own claims are licensed by the state it was built from.
    assert decide(ctx(), second.released_text, 3).verdict is Verdict.RELEASE


def test_authoritative_absence_licenses_the_corpus_wide_negative() -> None:
    decision = decide(ctx(exact(exact_cov(0))), "You never told me about Zelda.", 1)
    assert decision.verdict is Verdict.RELEASE
    assert len(decision.judgements) == 1 and decision.judgements[0].licensed


def test_in_scope_absence_licenses_only_query_scoped_claims() -> None:
    scoped = ExactEvidence(
        ("zelda",), "Zelda", S.ABSENCE_STATE_ABSENT_IN_SCOPE, scoped_cov(), 0, ""
    )
    evidence = ctx(scoped)
    assert decide(evidence, "I couldn't find anything about Zelda.", 1).verdict is Verdict.RELEASE
    assert decide(evidence, "You never told me about Zelda.", 1).verdict is Verdict.REGENERATE


@pytest.mark.parametrize(
    ("coverage", "state"),
    [
        (unavailable_coverage("x", ["y"], "q"), S.ABSENCE_STATE_UNAVAILABLE),
        (unavailable_coverage("x", ["y"], "q", failed=True), S.ABSENCE_STATE_FAILED),
        (unavailable_coverage("x", ["y"], "q", not_searched=True), S.ABSENCE_STATE_NOT_SEARCHED),
    ],
)
def test_missing_evidence_blocks_and_the_fallback_says_why(
    coverage: cpb.Coverage, state: int
) -> None:
    evidence = ctx(sections=(*SECTIONS[:2], section("episodic_recall", coverage)))
    decision = decide(evidence, "I have no record of your sister.", 2)
    assert decision.verdict is Verdict.FALLBACK
    assert decision.evidence.state == state
    assert find_absence_claims(decision.released_text) == []


def test_unjournaled_verdicts_fail_closed() -> None:
    evidence = ctx(exact(exact_cov(0)))
    licensed = decide(evidence, "You never told me about Zelda.", 1)
    closed = unjournaled(licensed, "journal down")
    assert closed.verdict is Verdict.FALLBACK
    assert find_absence_claims(closed.released_text) == []
    assert "could not be journaled" in closed.detail

    plain = unjournaled(decide(evidence, "Hello!", 1), "journal down")
    assert plain.verdict is Verdict.RELEASE and plain.released_text == "Hello!"

    regen = unjournaled(decide(ctx(), "You never told me about Bob.", 1), "journal down")
    assert regen.verdict is Verdict.REGENERATE and regen.released_text == ""


# --------------------------------------------------------------- topic binding


def scoped_exact(state: int) -> ExactEvidence:
    return ExactEvidence(("sister",), "your sister", state, scoped_cov(), 0, "")


@pytest.mark.parametrize(
    ("claim", "licensed_by_authoritative", "licensed_in_scope"),
    [
        # searched X (sister), claim about X
        ("You never told me about your sister.", True, False),
        ("I couldn't find anything about your sister.", True, True),
        # searched X, claim about Y
        ("You never told me about your vet.", False, False),
        ("I also looked up your vet's name, but nothing came back.", False, False),
        ("I couldn't find anything about your dog.", False, False),
        # the searched words in quotation marks are the claim's topic
        ("I searched your notes for 'sister' and nothing came up.", True, True),
        ("I searched your notes for «vet» and nothing came up.", False, False),
        # a claim with no topic is bound to no search
        ("You never told me.", False, False),
        ("Nothing came up.", False, False),
    ],
)
def test_searched_x_claim_about_y(
    claim: str, licensed_by_authoritative: bool, licensed_in_scope: bool
) -> None:
    query = "Did I ever mention my sister?"
    authoritative = ContextEvidence.build(
        SECTIONS,
        exact=ExactEvidence(
            ("sister",), "your sister", S.ABSENCE_STATE_ABSENT_AUTHORITATIVE, exact_cov(0), 0, ""
        ),
        query_text=query,
    )
    in_scope = ctx(scoped_exact(S.ABSENCE_STATE_ABSENT_IN_SCOPE), query=query)
    released = decide(authoritative, claim, 1).verdict is Verdict.RELEASE
    assert released == licensed_by_authoritative
    assert (decide(in_scope, claim, 1).verdict is Verdict.RELEASE) == licensed_in_scope


def test_the_zurich_term_is_looked_up_whole() -> None:
    from gateway.routing import route

    found = route("Did I ever tell you about the Zürich office?")
    assert found is not None and found.terms == ("zürich",)
    context = ContextEvidence.build(
        SECTIONS,
        exact=ExactEvidence(
            ("zürich",),
            "the Zürich office",
            S.ABSENCE_STATE_ABSENT_AUTHORITATIVE,
            exact_cov(0),
            0,
            "",
        ),
        query_text="Did I ever tell you about the Zürich office?",
    )
    assert decide(context, "You've never mentioned the Zürich office.", 1).verdict is (
        Verdict.RELEASE
    )
    assert decide(context, "You've never mentioned the Zurich office.", 1).verdict is (
        Verdict.REGENERATE
    )
