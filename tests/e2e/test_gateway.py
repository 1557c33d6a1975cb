"""GatewayService end to end: the full suite (journal, learning, retrieval, gateway)
in one process on real PostgreSQL, driven only through gRPC."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.server import Suite
from gateway.truthfulness import find_absence_claims
from tests.helpers import enable_preference_publication, error_field

pytestmark = pytest.mark.e2e

ALL = ["journal", "learning", "retrieval", "gateway"]
SUBJECT = "alice"
T = TypeVar("T")


@dataclass
class Stubs:
    journal: jpb_grpc.JournalServiceStub
    learning: lpb_grpc.LearningServiceStub
    gateway: gpb_grpc.GatewayServiceStub


@pytest.fixture
def suite(start_services: Callable[..., Suite]) -> Suite:
    # Fan-out deadlines sized for a loaded test machine: a FindExact that misses its
    # deadline fails closed, which these tests would read as a wrong verdict.
    return start_services(ALL, downstream_timeout_ms=10_000)


@pytest.fixture
def stubs(suite: Suite, channel_to: Callable[..., grpc.Channel]) -> Stubs:
    channel = channel_to(suite)
    return Stubs(
        jpb_grpc.JournalServiceStub(channel),
        lpb_grpc.LearningServiceStub(channel),
        gpb_grpc.GatewayServiceStub(channel),
    )


def eventually(probe: Callable[[], T | None], what: str, timeout: float = 30.0) -> T:
    """Poll until probe() returns something truthy (background workers catch up)."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def commit(
    stubs: Stubs,
    user: str,
    assistant: str = "Noted.",
    *,
    session: str = "s1",
    subject: str = SUBJECT,
    workspace: str = "",
    run_id: str = "",
) -> jpb.TurnReceipt:
    return stubs.journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject=subject,
            workspace=workspace,
            session_id=session,
            user_text=user,
            assistant_text=assistant,
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
            run_id=run_id,
        )
    ).receipt


def complete_run(
    stubs: Stubs,
    run_id: str,
    request: str,
    outcome: str,
    *,
    session: str = "s1",
    subject: str = SUBJECT,
) -> jpb.CompleteRunResponse:
    return stubs.journal.CompleteRun(
        jpb.CompleteRunRequest(
            run_id=run_id,
            session_id=session,
            subject=subject,
            status=jpb.RUN_STATUS_COMPLETED,
            request_text=request,
            outcome_text=outcome,
            request_id=str(uuid.uuid4()),
        )
    )


def assemble(
    stubs: Stubs,
    text: str,
    *,
    session: str = "s1",
    subject: str = SUBJECT,
    workspace: str = "",
    **extra: Any,
) -> gpb.AssembleContextResponse:
    return stubs.gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject=subject,
            workspace=workspace,
            session_id=session,
            input_text=text,
            request_id=str(uuid.uuid4()),
            **extra,
        )
    )


def block(response: gpb.AssembleContextResponse, name: str) -> gpb.ContextSection:
    return next(s for s in response.sections if s.name == name)


def trace(response: gpb.AssembleContextResponse, name: str) -> gpb.SectionTrace:
    return next(t for t in response.trace.sections if t.name == name)


def release(stubs: Stubs, context_id: str, text: str, attempt: int) -> gpb.ReleaseResponseResponse:
    return stubs.gateway.ReleaseResponse(
        gpb.ReleaseResponseRequest(
            context_id=context_id,
            candidate_text=text,
            attempt=attempt,
            request_id=str(uuid.uuid4()),
        )
    )


def everything_rendered(response: gpb.AssembleContextResponse) -> str:
    return "\n".join(s.rendered for s in response.sections)


def active_preferences(stubs: Stubs) -> list[lpb.Learning]:
    return list(
        stubs.learning.ListLearnings(
            lpb.ListLearningsRequest(
                status=lpb.LEARNING_STATUS_FILTER_ACTIVE,
                kind=lpb.LEARNING_KIND_PREFERENCE,
            )
        ).learnings
    )


# ------------------------------------------------------------------ (a) worked scenario


def test_preference_from_statement_to_injection_to_supersession(stubs: Stubs) -> None:
    enable_preference_publication(stubs.learning)
    statement = "Preference: always report sizes in gigabytes, not gibibytes."
    commit(stubs, statement, "Understood, gigabytes it is.", run_id="run-1")
    complete_run(stubs, "run-1", statement, "Understood, gigabytes it is.")

    [learning] = eventually(lambda: active_preferences(stubs), "the preference to publish")
    assert "gigabytes, not gibibytes" in learning.content
    assert learning.policy_decision == lpb.POLICY_DECISION_AUTOMATIC
    assert learning.verification_status == lpb.VERIFICATION_STATUS_VERIFIED

    # Learned-context scoring is lexical: the question shares "size" and "report".
    question = "How big is the disk? Report the size."
    context = assemble(stubs, question)
    learned = block(context, "learned_context")
    assert learned.status == gpb.SECTION_STATUS_INCLUDED
    assert "always report sizes in gigabytes, not gibibytes" in learned.rendered
    assert list(trace(context, "learned_context").record_ids) == [learning.learning_id]
    recovered = block(context, "recovered_memory")
    assert recovered.status == gpb.SECTION_STATUS_INCLUDED
    assert "run-1" in list(trace(context, "recovered_memory").record_ids)

    # Receipts: the injected block is bound to its hash and record ids.
    receipts = stubs.journal.ListReceipts(
        jpb.ListReceiptsRequest(context_id=context.context_id)
    ).receipts
    injected = {r.section: r for r in receipts if r.receipt_type == "context_injection"}
    learned_trace = trace(context, "learned_context")
    assert injected["learned_context"].block_sha256 == learned_trace.block_sha256
    assert list(injected["learned_context"].record_ids) == [learning.learning_id]
    audited = [r for r in receipts if r.receipt_type == "retrieval_audit"]
    assert {r.detail["decision"] for r in audited} >= {"evaluated", "selected"}

    # An operator supersedes the preference: only the new value is injected.
    # The session scope is the subject's, so the replacement names them.
    candidate = stubs.learning.CreateCandidate(
        lpb.CreateCandidateRequest(
            scope=learning.scope,
            kind=lpb.LEARNING_KIND_PREFERENCE,
            content="always report sizes in gibibytes, not gigabytes.",
            confidence=90,
            source=lpb.Source(subject=learning.source.subject, workspace=learning.source.workspace),
            request_id=str(uuid.uuid4()),
        )
    ).candidate
    newer = stubs.learning.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=candidate.candidate_id,
            publish_tier=lpb.PUBLISH_TIER_ACTIVE,
            supersedes=learning.learning_id,
            reason="the team standardised on gibibytes",
            request_id=str(uuid.uuid4()),
        )
    ).learning
    later = assemble(stubs, question)
    learned = block(later, "learned_context")
    assert "sizes in gibibytes, not gigabytes" in learned.rendered
    assert "sizes in gigabytes" not in learned.rendered
    assert list(trace(later, "learned_context").record_ids) == [newer.learning_id]
    old = stubs.learning.GetLearning(lpb.GetLearningRequest(learning_id=learning.learning_id))
    assert old.learning.status == lpb.LEARNING_STATUS_SUPERSEDED


# ------------------------------------------------------------- (b) unlicensed negatives


def test_negative_without_authoritative_coverage_is_blocked_then_replaced(stubs: Stubs) -> None:
    commit(stubs, "the build server is called Hydra", session="s0")
    context = assemble(stubs, "What is my sister's name?")
    assert not context.trace.exact_lookup.ran
    claim = "You never told me about your sister."

    first = release(stubs, context.context_id, claim, 1)
    assert first.verdict == gpb.VERDICT_REGENERATE
    assert first.released_text == ""
    assert first.repair_directive
    assert first.evidence_state not in (
        cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE,
        cpb.ABSENCE_STATE_ABSENT_IN_SCOPE,
    )
    assert [v.scope for v in first.violations] == [gpb.CLAIM_SCOPE_CORPUS_WIDE]

    second = release(stubs, context.context_id, claim, 2)
    assert second.verdict == gpb.VERDICT_FALLBACK
    assert "your sister" in second.released_text
    assert "searched" in second.released_text  # says what was searched and how far
    assert find_absence_claims(second.released_text) == []

    # A plain answer passes.
    fine = release(stubs, context.context_id, "Could you tell me her name?", 1)
    assert fine.verdict == gpb.VERDICT_RELEASE

    verdicts = stubs.journal.ReadSessionJournal(
        jpb.ReadSessionJournalRequest(
            subject=SUBJECT, session_id="s1", event_types=["gateway.response.verdict"]
        )
    ).events
    assert [e.event_id for e in verdicts] == [
        first.verdict_event_id,
        second.verdict_event_id,
        fine.verdict_event_id,
    ]
    assert {e.provenance for e in verdicts} == {jpb.PROVENANCE_SYSTEM}


# ------------------------------------------------------------ (c) licensed by FindExact


def test_exact_lookup_licenses_a_truthful_never(stubs: Stubs) -> None:
    commit(stubs, "my brother Tom likes sailing", session="s0")
    commit(stubs, "my sister Zelda lives in Oslo", session="s0", subject="bob")
    question = "did I ever tell you about my sister Zelda?"
    context = assemble(stubs, question)
    exact = context.trace.exact_lookup
    assert exact.ran
    assert list(exact.terms) == ["zelda"]
    assert exact.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert exact.hits == 0
    assert exact.scope_description

    verdict = release(stubs, context.context_id, "You never told me about Zelda.", 1)
    assert verdict.verdict == gpb.VERDICT_RELEASE
    assert verdict.released_text == "You never told me about Zelda."
    assert verdict.evidence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE

    # The licence covers the looked-up terms only.
    other = release(stubs, context.context_id, "You never told me about your brother.", 1)
    assert other.verdict == gpb.VERDICT_REGENERATE

    # Once Zelda has been mentioned, the same claim is contradicted.
    commit(stubs, "Zelda is visiting next week", session="s2")
    again = assemble(stubs, question)
    assert again.trace.exact_lookup.absence_state == cpb.ABSENCE_STATE_NOT_ABSENT
    blocked = release(stubs, again.context_id, "You never told me about Zelda.", 1)
    assert blocked.verdict == gpb.VERDICT_REGENERATE
    assert blocked.evidence_state == cpb.ABSENCE_STATE_NOT_ABSENT


def test_another_gateway_recovers_the_context_from_the_journal(
    suite: Suite,
    stubs: Stubs,
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
) -> None:
    context = assemble(stubs, "did I ever tell you about my sister Zelda?")
    replica = start_services(
        ["gateway"],
        journal_addr=suite.address,
        learning_addr=suite.address,
        retrieval_addr=suite.address,
    )
    other = gpb_grpc.GatewayServiceStub(channel_to(replica))
    request = gpb.ReleaseResponseRequest(
        context_id=context.context_id, attempt=1, candidate_text="You never told me about Zelda."
    )
    with pytest.raises(grpc.RpcError) as err:
        other.ReleaseResponse(request)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND
    request.subject, request.session_id = SUBJECT, "s1"
    verdict = other.ReleaseResponse(request)
    assert verdict.verdict == gpb.VERDICT_RELEASE
    assert verdict.evidence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE


# --------------------------------------------------------------- (d) journal outage


def test_journal_outage_withholds_and_blocks_absence_claims(
    start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]
) -> None:
    journal_suite = start_services(["journal"])
    planes = start_services(
        ["learning", "retrieval", "gateway"],
        journal_addr=journal_suite.address,
        downstream_timeout_ms=1500,
    )
    journal = jpb_grpc.JournalServiceStub(channel_to(journal_suite))
    gateway = gpb_grpc.GatewayServiceStub(channel_to(planes))
    journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject=SUBJECT,
            session_id="s0",
            user_text="Zelda is my sister",
            assistant_text="Nice.",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    )
    journal_suite.stop(grace=0)  # the journal goes down

    context = gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject=SUBJECT,
            session_id="s1",
            input_text="did I ever tell you about Zelda?",
            request_id=str(uuid.uuid4()),
        )
    )
    recovered = trace(context, "recovered_memory")
    assert recovered.status == gpb.SECTION_STATUS_SOURCE_UNAVAILABLE
    assert recovered.coverage.outcome == cpb.SEARCH_OUTCOME_UNAVAILABLE
    assert recovered.absence_state == cpb.ABSENCE_STATE_UNAVAILABLE
    # No receipt can be written: nothing reaches the model boundary.
    assert all(s.rendered == "" for s in context.sections)
    assert all(s.status != gpb.SECTION_STATUS_INCLUDED for s in context.sections)
    assert context.trace.journal_event_id == 0
    exact = context.trace.exact_lookup
    assert exact.ran
    assert exact.absence_state in (cpb.ABSENCE_STATE_UNAVAILABLE, cpb.ABSENCE_STATE_FAILED)

    claim = "You never told me about Zelda."
    first = gateway.ReleaseResponse(
        gpb.ReleaseResponseRequest(context_id=context.context_id, candidate_text=claim, attempt=1)
    )
    assert first.verdict == gpb.VERDICT_REGENERATE
    assert first.evidence_state == exact.absence_state
    assert "could not be journaled" in first.detail
    second = gateway.ReleaseResponse(
        gpb.ReleaseResponseRequest(context_id=context.context_id, candidate_text=claim, attempt=2)
    )
    assert second.verdict == gpb.VERDICT_FALLBACK
    assert find_absence_claims(second.released_text) == []
    assert second.verdict_event_id == 0


def test_gateway_cut_off_from_the_journal_does_not_release_even_licensed_claims(
    suite: Suite,
    stubs: Stubs,
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
) -> None:
    # The planes still reach the journal (FindExact is authoritative); only the
    # gateway's own link is down, so receipts and verdicts cannot be recorded.
    cut_off = start_services(
        ["gateway"],
        journal_addr="127.0.0.1:1",
        learning_addr=suite.address,
        retrieval_addr=suite.address,
    )
    gateway = gpb_grpc.GatewayServiceStub(channel_to(cut_off))
    context = gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject=SUBJECT,
            session_id="s1",
            input_text="did I ever tell you about Zelda?",
            request_id=str(uuid.uuid4()),
        )
    )
    assert trace(context, "recovered_memory").absence_state == cpb.ABSENCE_STATE_UNAVAILABLE
    assert context.trace.exact_lookup.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    verdict = gateway.ReleaseResponse(
        gpb.ReleaseResponseRequest(
            context_id=context.context_id,
            candidate_text="You never told me about Zelda.",
            attempt=1,
        )
    )
    assert verdict.verdict == gpb.VERDICT_FALLBACK
    assert find_absence_claims(verdict.released_text) == []
    assert "could not be journaled" in verdict.detail


# --------------------------------------------------------------------- (e) quarantine


def test_quarantined_episode_never_reaches_a_block(stubs: Stubs) -> None:
    receipt = commit(
        stubs, "the launch code word is Bluebird", "I will remember Bluebird.", session="s0"
    )
    question = "What is the launch code word? Bluebird?"

    def recalled() -> gpb.AssembleContextResponse | None:
        response = assemble(stubs, question)
        return response if "Bluebird" in block(response, "episodic_recall").rendered else None

    before = eventually(recalled, "the episode to be recalled")
    assert receipt.episode_id in list(trace(before, "episodic_recall").record_ids)

    stubs.journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_EPISODE,
            record_id=receipt.episode_id,
            reason="poisoned memory",
            request_id=str(uuid.uuid4()),
        )
    )
    after = assemble(stubs, question)
    assert "Bluebird" not in everything_rendered(after)
    assert receipt.episode_id not in list(trace(after, "episodic_recall").record_ids)


def test_quarantined_run_record_is_not_recovered(stubs: Stubs) -> None:
    complete_run(stubs, "run-q", "rotate the vault keys", "rotated the vault keys")
    question = "did the vault keys rotation finish?"
    assert "vault keys" in block(assemble(stubs, question), "recovered_memory").rendered
    stubs.journal.Quarantine(
        jpb.QuarantineRequest(
            record_kind=jpb.RECORD_KIND_RUN_RECORD,
            record_id="run-q",
            reason="wrong",
            request_id=str(uuid.uuid4()),
        )
    )
    assert "vault keys" not in everything_rendered(assemble(stubs, question))


# ---------------------------------------------------------------------- (f) isolation


def test_sessions_workspaces_and_subjects_stay_isolated(stubs: Stubs) -> None:
    complete_run(
        stubs, "run-b", "where is the vault? Zurich", "The vault is in Zurich.", session="s-b"
    )
    commit(stubs, "the vault is in Geneva", "Geneva noted.", session="s-w2", workspace="w2")
    commit(stubs, "the vault is in Oslo", "Oslo noted.", session="s-bob", subject="bob")
    commit(stubs, "the vault is in Lisbon", "Lisbon noted.", session="s-own")
    question = "where is the vault? Zurich Geneva Oslo Lisbon"

    def with_episode() -> gpb.AssembleContextResponse | None:
        response = assemble(stubs, question, session="s-a")
        return response if "Lisbon" in block(response, "episodic_recall").rendered else None

    context = eventually(with_episode, "the same-workspace episode to be recalled")
    rendered = everything_rendered(context)
    assert "Zurich" not in block(context, "recovered_memory").rendered  # session B's run
    assert "Geneva" not in rendered  # workspace w2
    assert "Oslo" not in rendered  # subject bob
    # Session B itself sees its own recovered run.
    own = assemble(stubs, question, session="s-b")
    assert "Zurich" in block(own, "recovered_memory").rendered

    # Workspace w2 sees its own episode, never the default workspace's.
    def in_w2() -> gpb.AssembleContextResponse | None:
        response = assemble(stubs, question, session="s-x", workspace="w2")
        return response if "Geneva" in block(response, "episodic_recall").rendered else None

    w2 = eventually(in_w2, "the w2 episode to be recalled")
    assert "Lisbon" not in everything_rendered(w2)


# ------------------------------------------------------------------- operator views


def test_operator_search_and_memory_context(stubs: Stubs) -> None:
    enable_preference_publication(stubs.learning)
    statement = "Preference: label every chart axis with units."
    commit(stubs, statement, run_id="run-c")
    complete_run(stubs, "run-c", statement, "Will do.")
    complete_run(stubs, "run-other", "chart axis for session two", "ok", session="s2")
    [learning] = eventually(lambda: active_preferences(stubs), "the preference to publish")
    status_before = stubs.journal.GetStatus(jpb.GetStatusRequest()).run_memory

    hits = stubs.gateway.SearchMemory(
        gpb.SearchMemoryRequest(subject=SUBJECT, session_id="s1", query="chart axis units")
    ).hits
    by_kind = {h.hit_kind: h for h in hits}
    assert by_kind["learning"].id == learning.learning_id
    assert by_kind["learning"].prompt_eligible
    assert by_kind["recovered_run"].id == "run-c"
    assert by_kind["recovered_run"].prompt_eligible
    assert "run-other" not in {h.id for h in hits}  # session_only visibility

    seen: list[str] = []
    token = ""
    for _ in range(10):
        page = stubs.gateway.SearchMemory(
            gpb.SearchMemoryRequest(subject=SUBJECT, session_id="s1", page_size=1, page_token=token)
        )
        seen += [h.id for h in page.hits]
        token = page.next_page_token
        if not token:
            break
    assert sorted(seen) == sorted({learning.learning_id, "run-c"})

    view = stubs.gateway.GetMemoryContext(
        gpb.GetMemoryContextRequest(
            subject=SUBJECT, session_id="s1", pending_input="chart axis units"
        )
    )
    assert "session:s1" in view.scope_keys and "workspace:default" in view.scope_keys
    assert [i.id for i in view.learned_context] == [learning.learning_id]
    assert [i.id for i in view.recovered_memory] == ["run-c"]
    assert view.learned_coverage.outcome == cpb.SEARCH_OUTCOME_SEARCHED
    assert view.recovered_coverage.outcome == cpb.SEARCH_OUTCOME_SEARCHED
    browse = stubs.gateway.GetMemoryContext(
        gpb.GetMemoryContextRequest(subject=SUBJECT, session_id="s1")
    )
    assert [i.id for i in browse.learned_context] == [learning.learning_id]
    assert not browse.HasField("learned_coverage")
    # The view writes no receipts.
    assert stubs.journal.GetStatus(jpb.GetStatusRequest()).run_memory == status_before


def test_two_subjects_with_one_session_id_see_only_their_own_runs(stubs: Stubs) -> None:
    # The same session id, the same run id pattern, the same words.
    for subject in ("alice", "bob"):
        for n in (1, 2):
            complete_run(
                stubs,
                f"{subject}-run-{n}",
                f"where is the vault? {subject} asked, run {n}",
                f"The vault of {subject} is in room {n}.",
                session="session-1",
                subject=subject,
            )
    question = "where is the vault?"
    for subject, other in (("alice", "bob"), ("bob", "alice")):
        context = assemble(stubs, question, session="session-1", subject=subject)
        recovered = block(context, "recovered_memory")
        assert recovered.status == gpb.SECTION_STATUS_INCLUDED
        assert f"vault of {subject}" in recovered.rendered
        assert other not in recovered.rendered
        record_ids = list(trace(context, "recovered_memory").record_ids)
        assert sorted(record_ids) == [f"{subject}-run-1", f"{subject}-run-2"]
        # The journal counted only this subject's records: nothing was withheld.
        section_trace = trace(context, "recovered_memory")
        assert section_trace.coverage.cardinality.matched_before_limit == 2
        assert "withheld" not in section_trace.detail

        hits = stubs.gateway.SearchMemory(
            gpb.SearchMemoryRequest(subject=subject, session_id="session-1", query="vault")
        ).hits
        assert {h.id for h in hits if h.hit_kind == "recovered_run"} == {
            f"{subject}-run-1",
            f"{subject}-run-2",
        }
        view = stubs.gateway.GetMemoryContext(
            gpb.GetMemoryContextRequest(
                subject=subject, session_id="session-1", pending_input=question
            )
        )
        assert sorted(i.id for i in view.recovered_memory) == sorted(record_ids)
    # A subject with no runs in that session gets nothing at all.
    carol = assemble(stubs, question, session="session-1", subject="carol")
    assert "vault of" not in block(carol, "recovered_memory").rendered
    assert not list(trace(carol, "recovered_memory").record_ids)

    for request in (
        gpb.SearchMemoryRequest(session_id="session-1"),
        gpb.GetMemoryContextRequest(session_id="session-1"),
    ):
        method = (
            stubs.gateway.SearchMemory
            if isinstance(request, gpb.SearchMemoryRequest)
            else stubs.gateway.GetMemoryContext
        )
        with pytest.raises(grpc.RpcError) as err:
            method(request)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_field(err.value) == "subject"


def test_invalid_requests_name_their_field(stubs: Stubs) -> None:
    cases: list[tuple[Callable[[], Any], str]] = [
        (lambda: assemble(stubs, ""), "input_text"),
        (lambda: assemble(stubs, "x" * 16_385), "input_text"),
        (lambda: assemble(stubs, "hi", subject=""), "subject"),
        (lambda: assemble(stubs, "hi", session=""), "session_id"),
        (lambda: assemble(stubs, "hi", budget_tokens=10), "budget_tokens"),
        (lambda: release(stubs, "ctx_x", "text", 0), "attempt"),
        (lambda: release(stubs, "ctx_x", "", 1), "candidate_text"),
    ]
    for call, field in cases:
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_field(err.value) == field
    with pytest.raises(grpc.RpcError) as err:
        release(stubs, "ctx_unknown", "hello", 1)
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_unicode_topic_is_looked_up_whole_and_mentioned_means_no_never(stubs: Stubs) -> None:
    question = "Did I ever tell you about the Zürich office?"
    claim = "You've never mentioned the Zürich office."
    # Never mentioned: the exact lookup is authoritative and licenses the "never".
    commit(stubs, "I moved to Lisbon last year.", session="s0")
    first = assemble(stubs, question)
    assert list(first.trace.exact_lookup.terms) == ["zürich"]
    assert first.trace.exact_lookup.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    licensed = release(stubs, first.context_id, claim, 1)
    assert licensed.verdict == gpb.VERDICT_RELEASE
    # Mentioned in this very session: NOT_ABSENT, and the same claim is blocked.
    commit(stubs, "Our Zürich office opens in May.", session="s1")
    second = assemble(stubs, question)
    assert second.trace.exact_lookup.absence_state == cpb.ABSENCE_STATE_NOT_ABSENT
    blocked = release(stubs, second.context_id, claim, 1)
    assert blocked.verdict == gpb.VERDICT_REGENERATE
    assert blocked.violations[0].reason == gpb.VIOLATION_REASON_UNLICENSED_ABSENCE


def test_a_licence_covers_only_the_topic_searched(stubs: Stubs) -> None:
    commit(stubs, "I moved to Lisbon last year.", session="s0")
    context = assemble(stubs, "Did I ever mention my sister?")
    assert context.trace.exact_lookup.absence_state == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    about_sister = release(stubs, context.context_id, "You never mentioned your sister.", 1)
    assert about_sister.verdict == gpb.VERDICT_RELEASE
    elsewhere = release(
        stubs, context.context_id, "I also looked up your vet's name, but nothing came back.", 1
    )
    assert elsewhere.verdict == gpb.VERDICT_REGENERATE
    assert elsewhere.evidence_state == cpb.ABSENCE_STATE_NOT_SEARCHED


def test_a_recollection_needs_a_record(stubs: Stubs) -> None:
    context = assemble(stubs, "What should I get my sister for her birthday?")
    claim = "As you told me last week, your sister Anna loves pottery."
    unsupported = release(stubs, context.context_id, claim, 1)
    assert unsupported.verdict == gpb.VERDICT_REGENERATE
    assert unsupported.violations[0].reason == gpb.VIOLATION_REASON_UNSUPPORTED_RECOLLECTION
    assert "told you" in unsupported.repair_directive
    assert release(stubs, context.context_id, claim, 2).verdict == gpb.VERDICT_FALLBACK
    # With the record in the journal, the gate's own exact lookup supports it.
    commit(stubs, "My sister Anna loves pottery.", session="s0")
    again = assemble(stubs, "What should I get my sister for her birthday?", session="s2")
    supported = release(stubs, again.context_id, claim, 1)
    assert supported.verdict == gpb.VERDICT_RELEASE, supported.violations


def test_declared_claims_are_verified_exactly(stubs: Stubs) -> None:
    commit(stubs, "I moved to Lisbon last year.", session="s0")
    context = assemble(stubs, "Did I ever mention my sister?")

    def declared(*claims: gpb.DeclaredClaim) -> gpb.ReleaseResponseResponse:
        return stubs.gateway.ReleaseResponse(
            gpb.ReleaseResponseRequest(
                context_id=context.context_id,
                candidate_text="Here is what I can say.",
                attempt=1,
                request_id=str(uuid.uuid4()),
                declared_claims=list(claims),
            )
        )

    absence = gpb.DeclaredAbsence(topic_terms=["sister"], scope=gpb.CLAIM_SCOPE_CORPUS_WIDE)
    assert declared(gpb.DeclaredClaim(absence=absence)).verdict == gpb.VERDICT_RELEASE
    other = gpb.DeclaredAbsence(topic_terms=["dog"], scope=gpb.CLAIM_SCOPE_CORPUS_WIDE)
    refused = declared(gpb.DeclaredClaim(absence=other))
    assert refused.verdict == gpb.VERDICT_REGENERATE
    assert refused.violations[0].reason == gpb.VIOLATION_REASON_DECLARED_CLAIM_REFUSED
    forged = gpb.DeclaredRecollection(topic_terms=["lisbon"], record_ids=["not-in-context"])
    assert declared(gpb.DeclaredClaim(recollection=forged)).verdict == gpb.VERDICT_REGENERATE
    with pytest.raises(grpc.RpcError) as err:
        declared(gpb.DeclaredClaim(absence=gpb.DeclaredAbsence(topic_terms=["x"])))
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(err.value) == "declared_claims[0].absence.scope"
