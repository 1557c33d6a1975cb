"""The role table on the all-in-one suite with tokens on: what a runtime may
and may not call, the `service` role of tokens files, and the services'
own calls to each other (receipts, verdicts, change feed) with the minted
internal service token."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator

import grpc
import pytest
from google.protobuf import struct_pb2
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engram import roles
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc
from engram.server import Suite
from tests.helpers import error_info

pytestmark = pytest.mark.e2e

RUNTIME = "runtime-token-0123456789"
SERVICE = "service-token-0123456789"
OPERATOR = "operator-token-0123456789"
TOKENS = f"rt:runtime:{RUNTIME},svc:service:{SERVICE},op:operator:{OPERATOR}"
ALL = ["journal", "learning", "retrieval", "gateway"]


class Stubs:
    def __init__(self, channel: grpc.Channel) -> None:
        self.journal = jpb_grpc.JournalServiceStub(channel)
        self.learning = lpb_grpc.LearningServiceStub(channel)
        self.retrieval = rpb_grpc.RetrievalServiceStub(channel)
        self.gateway = gpb_grpc.GatewayServiceStub(channel)


@pytest.fixture
def secured(start_services: Callable[..., Suite]) -> Suite:
    # No ENGRAM_SERVICE_TOKEN: the suite mints its own `service` token.
    return start_services(ALL, tokens=TOKENS)


@pytest.fixture
def as_role(
    secured: Suite, channel_to: Callable[..., grpc.Channel]
) -> Iterator[Callable[[str], Stubs]]:
    yield lambda token: Stubs(channel_to(secured, token))


def denied(call: Callable[[], object]) -> None:
    with pytest.raises(grpc.RpcError) as err:
        call()
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED, err.value.details()


def test_the_suite_serves_exactly_the_services_of_the_role_table(
    secured: Suite, channel_to: Callable[..., grpc.Channel]
) -> None:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel_to(secured))
    responses = stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    listed = {s.name for r in responses for s in r.list_services_response.service}
    infrastructure = {"grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"}
    assert listed - infrastructure == {s.full_name for s in roles.SERVICES}


def test_a_runtime_assembles_and_releases_with_receipts_and_verdicts_journaled(
    as_role: Callable[[str], Stubs],
) -> None:
    runtime, operator = as_role(RUNTIME), as_role(OPERATOR)
    runtime.journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject="alice",
            session_id="s1",
            user_text="the launch code word is Bluebird",
            assistant_text="I will remember Bluebird.",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    )
    deadline = time.monotonic() + 30
    while True:  # until the embedding worker and the index have caught up
        context = runtime.gateway.AssembleContext(
            gpb.AssembleContextRequest(
                subject="alice",
                session_id="s2",
                input_text="What is the launch code word? Bluebird?",
                request_id=str(uuid.uuid4()),
            )
        )
        if any(s.status == gpb.SECTION_STATUS_INCLUDED for s in context.sections):
            break
        assert time.monotonic() < deadline, "no section was ever included"
        time.sleep(0.2)
    # Receipts were written with the internal service token: no block withheld.
    statuses = {s.name: s.status for s in context.sections}
    assert gpb.SECTION_STATUS_WITHHELD_RECEIPT_FAILED not in statuses.values(), statuses
    receipts = operator.journal.ListReceipts(
        jpb.ListReceiptsRequest(context_id=context.context_id)
    ).receipts
    assert {r.receipt_type for r in receipts} >= {"retrieval_audit", "context_injection"}
    verdict = runtime.gateway.ReleaseResponse(
        gpb.ReleaseResponseRequest(
            context_id=context.context_id,
            candidate_text="The code word is Bluebird.",
            attempt=1,
            request_id=str(uuid.uuid4()),
        )
    )
    assert verdict.verdict_event_id > 0
    events = runtime.journal.ReadSessionJournal(
        jpb.ReadSessionJournalRequest(subject="alice", session_id="s2")
    ).events
    types = [e.event_type for e in events]
    assert types[-2:] == ["gateway.context.assembled", "gateway.response.verdict"]
    assert set(types) == {"gateway.context.assembled", "gateway.response.verdict"}
    # The operator view reaches SearchLearnings with the service token.
    operator.gateway.SearchMemory(gpb.SearchMemoryRequest(subject="alice", session_id="s2"))


def test_a_runtime_may_not_make_internal_or_operator_calls(
    as_role: Callable[[str], Stubs],
) -> None:
    rt = as_role(RUNTIME)
    for call in (
        lambda: list(rt.journal.StreamChanges(jpb.StreamChangesRequest(follow=False))),
        lambda: rt.journal.BatchGetEpisodes(jpb.BatchGetEpisodesRequest()),
        lambda: rt.journal.GetRunRecord(jpb.GetRunRecordRequest(subject="alice", run_id="run-1")),
        lambda: rt.journal.RecordContextInjection(jpb.RecordContextInjectionRequest()),
        lambda: rt.journal.RecordRetrievalAudit(jpb.RecordRetrievalAuditRequest()),
        lambda: rt.journal.RecordContextReceipts(jpb.RecordContextReceiptsRequest()),
        lambda: rt.journal.GetStatus(jpb.GetStatusRequest()),
        lambda: rt.journal.ListReceipts(jpb.ListReceiptsRequest(context_id="c")),
        lambda: rt.learning.SearchLearnings(lpb.SearchLearningsRequest()),
        lambda: rt.learning.CreateCandidate(lpb.CreateCandidateRequest()),
        lambda: rt.learning.ListCandidates(lpb.ListCandidatesRequest()),
        lambda: rt.learning.ListLearnings(lpb.ListLearningsRequest()),
        lambda: rt.learning.GetSkill(lpb.GetSkillRequest(skill_name="deploy")),
        lambda: rt.retrieval.GetIndexStatus(rpb.GetIndexStatusRequest()),
        lambda: rt.gateway.SearchMemory(gpb.SearchMemoryRequest(subject="alice", session_id="s1")),
    ):
        denied(call)


def test_only_services_write_gateway_and_system_events(as_role: Callable[[str], Stubs]) -> None:
    def append(stubs: Stubs, event_type: str, provenance: int) -> jpb.AppendEventResponse:
        payload = struct_pb2.Struct()
        payload.update({"context_id": "ctx-forged", "verdict": "release"})
        response: jpb.AppendEventResponse = stubs.journal.AppendEvent(
            jpb.AppendEventRequest(
                event_type=event_type,
                subject="alice",
                session_id="s1",
                payload=payload,
                provenance=provenance,  # type: ignore[arg-type]
                request_id=str(uuid.uuid4()),
            )
        )
        return response

    runtime, service = as_role(RUNTIME), as_role(SERVICE)
    assert append(runtime, "tool.call.completed", jpb.PROVENANCE_USER_INPUT).event.event_id
    for event_type, provenance in (
        ("gateway.response.verdict", jpb.PROVENANCE_SYSTEM),
        ("gateway.response.verdict", jpb.PROVENANCE_USER_INPUT),
        ("tool.call.completed", jpb.PROVENANCE_SYSTEM),
    ):
        with pytest.raises(grpc.RpcError) as err:
            append(runtime, event_type, provenance)
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert error_info(err.value).metadata["required_role"] == "service"
    assert append(service, "gateway.response.verdict", jpb.PROVENANCE_SYSTEM).event.event_id


def test_a_service_token_makes_internal_calls_but_governs_nothing(
    as_role: Callable[[str], Stubs],
) -> None:
    svc = as_role(SERVICE)
    list(svc.journal.StreamChanges(jpb.StreamChangesRequest(follow=False)))
    svc.journal.BatchGetEpisodes(jpb.BatchGetEpisodesRequest())
    svc.learning.SearchLearnings(lpb.SearchLearningsRequest())
    svc.journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject="alice",
            session_id="s1",
            user_text="hi",
            assistant_text="hello",
            request_id=str(uuid.uuid4()),
        )
    )
    for call in (
        lambda: svc.journal.ListQuarantine(jpb.ListQuarantineRequest()),
        lambda: svc.journal.Purge(jpb.PurgeRequest(subject="alice", reason="no")),
        lambda: svc.learning.GetLearningPolicy(lpb.GetLearningPolicyRequest()),
        lambda: list(svc.retrieval.RebuildIndex(rpb.RebuildIndexRequest())),
    ):
        denied(call)
