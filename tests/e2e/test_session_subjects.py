"""A session scope is one subject's: two subjects (and one subject in two
workspaces) using the same session id never see, count or conflict with each
other's session-scoped learnings, on any read path, through the public API
of the full suite (journal, learning, retrieval, gateway) on real PostgreSQL.

Each party states a preference in a run of the shared session id; capture
proposes it, the publication rule publishes it (verified against that
party's own run record), and every session-keyed read is asked as each
party."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass

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
from tests.helpers import enable_preference_publication, error_field

pytestmark = pytest.mark.e2e

ALL = ["journal", "learning", "retrieval", "gateway"]
SESSION = "s-shared"
QUESTION = "Which font should the weekly report use?"


@dataclass(frozen=True)
class Party:
    subject: str
    workspace: str
    font: str

    @property
    def statement(self) -> str:
        return f"the weekly report font is {self.font}"


ALICE = Party("alice", "", "garamond")
BOB = Party("bob", "", "helvetica")
# The same subject in another workspace is another owner of the session id.
ALICE_AT_WORK = Party("alice", "work", "futura")
PARTIES = (ALICE, BOB, ALICE_AT_WORK)


@dataclass
class Stubs:
    journal: jpb_grpc.JournalServiceStub
    learning: lpb_grpc.LearningServiceStub
    gateway: gpb_grpc.GatewayServiceStub


@pytest.fixture
def stubs(start_services: Callable[..., Suite], channel_to: Callable[..., grpc.Channel]) -> Stubs:
    channel = channel_to(start_services(ALL))
    s = Stubs(
        jpb_grpc.JournalServiceStub(channel),
        lpb_grpc.LearningServiceStub(channel),
        gpb_grpc.GatewayServiceStub(channel),
    )
    enable_preference_publication(s.learning)
    for party in PARTIES:
        s.journal.CompleteRun(
            jpb.CompleteRunRequest(
                run_id=f"run-{party.subject}-{party.workspace or 'default'}",
                session_id=SESSION,
                subject=party.subject,
                workspace=party.workspace,
                status=jpb.RUN_STATUS_COMPLETED,
                request_text=f"Preference: {party.statement}.",
                outcome_text="Noted.",
                request_id=str(uuid.uuid4()),
            )
        )
    wait_for_publication(s)
    return s


def wait_for_publication(s: Stubs, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        published = {
            item.content
            for item in s.learning.ListLearnings(
                lpb.ListLearningsRequest(
                    status=lpb.LEARNING_STATUS_FILTER_ACTIVE, kind=lpb.LEARNING_KIND_PREFERENCE
                )
            ).learnings
        }
        if all(any(p.statement in c for c in published) for p in PARTIES):
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for every preference: {published}")
        time.sleep(0.05)


def fonts(texts: list[str]) -> set[str]:
    return {p.font for p in PARTIES if any(p.font in t for t in texts)}


def learned(s: Stubs, party: Party) -> lpb.GetLearnedContextResponse:
    response: lpb.GetLearnedContextResponse = s.learning.GetLearnedContext(
        lpb.GetLearnedContextRequest(
            subject=party.subject,
            workspace=party.workspace,
            session_id=SESSION,
            pending_input=QUESTION,
        )
    )
    return response


def test_every_party_sees_only_its_own_session_learnings(stubs: Stubs) -> None:
    s = stubs
    for party in PARTIES:
        response = learned(s, party)
        assert fonts([e.learning.content for e in response.entries]) == {party.font}
        # The others' are not merely cut: they were never candidates.
        assert response.omitted_zero_score == 0 and response.omitted_by_limit == 0
        assert response.coverage.cardinality.matched_before_limit == 1
        [entry] = response.entries
        assert (entry.learning.source.subject, entry.learning.source.workspace or "default") == (
            party.subject,
            party.workspace or "default",
        )
        # The same-subject/different-value check is per owner too: nobody's
        # preference conflicted with another party's, all were published.
        assert entry.learning.policy_decision == lpb.POLICY_DECISION_AUTOMATIC


def test_the_gateway_passes_the_subject_through(stubs: Stubs) -> None:
    s = stubs
    for party in PARTIES:
        context = s.gateway.AssembleContext(
            gpb.AssembleContextRequest(
                subject=party.subject,
                workspace=party.workspace,
                session_id=SESSION,
                input_text=QUESTION,
                request_id=str(uuid.uuid4()),
            )
        )
        section = next(x for x in context.sections if x.name == "learned_context")
        assert fonts([section.rendered]) == {party.font}

        view = s.gateway.GetMemoryContext(
            gpb.GetMemoryContextRequest(
                subject=party.subject,
                workspace=party.workspace,
                session_id=SESSION,
                pending_input=QUESTION,
            )
        )
        assert fonts([i.text for i in view.learned_context]) == {party.font}
        browse = s.gateway.GetMemoryContext(
            gpb.GetMemoryContextRequest(
                subject=party.subject, workspace=party.workspace, session_id=SESSION
            )
        )
        assert fonts([i.text for i in browse.learned_context]) == {party.font}

        hits = s.gateway.SearchMemory(
            gpb.SearchMemoryRequest(
                subject=party.subject,
                workspace=party.workspace,
                session_id=SESSION,
                query="weekly report font",
            )
        ).hits
        assert fonts([h.excerpt for h in hits if h.hit_kind == "learning"]) == {party.font}


def test_session_keyed_searches_filter_by_subject(stubs: Stubs) -> None:
    s = stubs
    for party in PARTIES:
        hits = s.learning.SearchLearnings(
            lpb.SearchLearningsRequest(
                subject=party.subject,
                workspace=party.workspace,
                scope_keys=[f"session:{SESSION}"],
                query="weekly report font",
            )
        ).hits
        assert fonts([h.excerpt for h in hits]) == {party.font}
    # Without a subject and without scope keys it is the operators' view of
    # everything.
    everything = s.learning.SearchLearnings(
        lpb.SearchLearningsRequest(query="weekly report font")
    ).hits
    assert fonts([h.excerpt for h in everything]) == {p.font for p in PARTIES}


def test_a_session_read_without_a_subject_is_invalid(stubs: Stubs) -> None:
    s = stubs
    calls: list[Callable[[], object]] = [
        lambda: s.learning.GetLearnedContext(
            lpb.GetLearnedContextRequest(session_id=SESSION, pending_input=QUESTION)
        ),
        lambda: s.learning.ResolveScopes(lpb.ResolveScopesRequest(session_id=SESSION)),
        lambda: s.learning.SearchLearnings(
            lpb.SearchLearningsRequest(scope_keys=[f"session:{SESSION}"], query="font")
        ),
    ]
    for call in calls:
        with pytest.raises(grpc.RpcError) as err:
            call()
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert error_field(err.value) == "subject"  # type: ignore[arg-type]


def test_an_operator_candidate_names_whose_session_it_is(stubs: Stubs) -> None:
    s = stubs
    scope = cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id=SESSION)
    with pytest.raises(grpc.RpcError) as err:
        s.learning.CreateCandidate(
            lpb.CreateCandidateRequest(
                scope=scope, kind=lpb.LEARNING_KIND_FACT, content="the desk is by the window"
            )
        )
    assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert error_field(err.value) == "source.subject"  # type: ignore[arg-type]

    made = s.learning.CreateCandidate(
        lpb.CreateCandidateRequest(
            scope=scope,
            kind=lpb.LEARNING_KIND_FACT,
            content="the weekly report font size is eleven",
            confidence=90,
            source=lpb.Source(subject=BOB.subject),
        )
    ).candidate
    s.learning.PublishCandidate(
        lpb.PublishCandidateRequest(
            candidate_id=made.candidate_id, publish_tier=lpb.PUBLISH_TIER_ACTIVE
        )
    )
    for party, sees in ((BOB, True), (ALICE, False), (ALICE_AT_WORK, False)):
        contents = [e.learning.content for e in learned(s, party).entries]
        assert any("size is eleven" in c for c in contents) is sees, party
