"""Scoped tokens on the full suite: random tokens x records of several subjects
and workspaces x every read RPC a scoped token may call -> 0 leaks.

Three subjects each have a turn and a run in two workspaces, all under ONE
session id (the case session-keyed reads used to get wrong). Every record
carries a marker word of its (subject, workspace). A token file holds one
runtime and one operator token for every scope over those subjects and
workspaces; hypothesis draws a token, a (subject, workspace) to ask about and
a record id to name, calls one RPC through gRPC and checks:

* a request naming a subject or workspace outside the token's scope is
  PERMISSION_DENIED (OUT_OF_SCOPE); a record id outside it is NOT_FOUND;
* an answer holds no marker, episode id or context id of a record outside
  the token's scope;
* a method that reads every subject's records refuses a scoped token
  (TOKEN_SCOPED).
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml
from google.protobuf.json_format import MessageToJson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engram.auth import Role, TokenScope
from engram.common.v1 import common_pb2 as cpb
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc
from engram.server import Suite
from tests.helpers import error_info, wait_for_embeddings

pytestmark = pytest.mark.e2e

ALL = ["journal", "learning", "retrieval", "gateway"]
SUBJECTS = ("alice", "bob", "carol")
WORKSPACES = ("default", "w2")
PAIRS = tuple(itertools.product(SUBJECTS, WORKSPACES))
SESSION = "shared-session"
ADMIN_TOKEN = "admin-token-0123456789"


def marker(subject: str, workspace: str) -> str:
    return f"zq{subject}{workspace}zq"


def _subsets(values: tuple[str, ...]) -> list[frozenset[str]]:
    return [frozenset(c) for n in range(len(values) + 1) for c in itertools.combinations(values, n)]


SCOPES = [
    TokenScope(subjects, workspaces)
    for subjects in _subsets(SUBJECTS)
    for workspaces in _subsets(WORKSPACES)
    if subjects or workspaces
]


def token_of(role: Role, index: int) -> str:
    return f"{role.name.lower()}-scoped-{index:02d}-0123456789"


@dataclass
class Records:
    episode_id: str
    context_id: str


@dataclass
class World:
    suite: Suite
    records: dict[tuple[str, str], Records]
    stubs: Callable[[str], Stubs]


class Stubs:
    def __init__(self, channel: grpc.Channel) -> None:
        self.journal = jpb_grpc.JournalServiceStub(channel)
        self.learning = lpb_grpc.LearningServiceStub(channel)
        self.retrieval = rpb_grpc.RetrievalServiceStub(channel)
        self.gateway = gpb_grpc.GatewayServiceStub(channel)


def _write_tokens(path: Path) -> None:
    entries: list[dict[str, Any]] = [{"name": "admin", "role": "admin", "token": ADMIN_TOKEN}]
    for index, scope in enumerate(SCOPES):
        for role in (Role.RUNTIME, Role.OPERATOR):
            entry: dict[str, Any] = {
                "name": f"{role.name.lower()}-{index}",
                "role": role.name.lower(),
                "token": token_of(role, index),
            }
            if scope.subjects:
                entry["subjects"] = sorted(scope.subjects)
            if scope.workspaces:
                entry["workspaces"] = sorted(scope.workspaces)
            entries.append(entry)
    path.write_text(yaml.safe_dump(entries))


def _seed(admin: Stubs) -> dict[tuple[str, str], Records]:
    records: dict[tuple[str, str], Records] = {}
    for subject, workspace in PAIRS:
        mark = marker(subject, workspace)
        receipt = admin.journal.CommitTurn(
            jpb.CommitTurnRequest(
                subject=subject,
                workspace=workspace,
                session_id=SESSION,
                user_text=f"I keep my {mark} kayak at the lake house.",
                assistant_text="Noted, the kayak is at the lake house.",
                request_id=str(uuid.uuid4()),
                learning_eligible=True,
            )
        ).receipt
        admin.journal.CompleteRun(
            jpb.CompleteRunRequest(
                run_id=f"run-{subject}-{workspace}",
                session_id=SESSION,
                subject=subject,
                workspace=workspace,
                status=jpb.RUN_STATUS_COMPLETED,
                request_text=f"Plan the {mark} kayak trip.",
                outcome_text=f"Planned the {mark} kayak trip for Saturday.",
                request_id=str(uuid.uuid4()),
            )
        )
        for verb in (admin.journal.Quarantine, admin.journal.Restore):
            verb(
                jpb.QuarantineRequest(
                    record_kind=jpb.RECORD_KIND_EPISODE,
                    record_id=receipt.episode_id,
                    reason="scope test",
                )
            )
        # A session learning of this subject and workspace, under the shared
        # session id: only its owner's session reads may see it.
        candidate = admin.learning.CreateCandidate(
            lpb.CreateCandidateRequest(
                scope=cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id=SESSION),
                kind=lpb.LEARNING_KIND_FACT,
                content=f"the {mark} kayak paddle is blue",
                confidence=90,
                source=lpb.Source(subject=subject, workspace=workspace),
            )
        ).candidate
        admin.learning.PublishCandidate(
            lpb.PublishCandidateRequest(
                candidate_id=candidate.candidate_id, publish_tier=lpb.PUBLISH_TIER_ACTIVE
            )
        )
        context = admin.gateway.AssembleContext(
            gpb.AssembleContextRequest(
                subject=subject,
                workspace=workspace,
                session_id=SESSION,
                input_text="Where do I keep my kayak?",
                request_id=str(uuid.uuid4()),
            )
        )
        records[(subject, workspace)] = Records(receipt.episode_id, context.context_id)
    return records


def _settle(admin: Stubs) -> None:
    wait_for_embeddings(admin.journal)
    watermark = admin.journal.GetStatus(jpb.GetStatusRequest()).feed_watermark
    deadline = time.monotonic() + 30
    while True:
        status = admin.retrieval.GetIndexStatus(rpb.GetIndexStatusRequest())
        if status.ready and status.applied_cursor >= watermark:
            return
        assert time.monotonic() < deadline, "the index did not catch up"
        time.sleep(0.05)


@pytest.fixture
def world(
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
    tmp_path: Path,
) -> Iterator[World]:
    tokens = tmp_path / "tokens.yaml"
    _write_tokens(tokens)
    suite = start_services(ALL, tokens_file=str(tokens))
    cache: dict[str, Stubs] = {}

    def stubs(token: str) -> Stubs:
        if token not in cache:
            cache[token] = Stubs(channel_to(suite, token))
        return cache[token]

    admin = stubs(ADMIN_TOKEN)
    records = _seed(admin)
    _settle(admin)
    yield World(suite, records, stubs)


# ------------------------------------------------------------------- probes
# Each calls one RPC about (subject, workspace) and/or one record's ids.


@dataclass(frozen=True)
class Ask:
    subject: str
    workspace: str
    record: tuple[str, str]


Probe = Callable[[Stubs, Ask, Records], Any]


def _read_session(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.ReadSessionJournal(
        jpb.ReadSessionJournalRequest(subject=a.subject, workspace=a.workspace, session_id=SESSION)
    )


def _recovered(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.GetRecoveredMemory(
        jpb.GetRecoveredMemoryRequest(
            subject=a.subject, workspace=a.workspace, session_id=SESSION, pending_input="kayak"
        )
    )


def _search_runs(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.SearchRunMemory(
        jpb.SearchRunMemoryRequest(
            subject=a.subject, workspace=a.workspace, session_id=SESSION, query="kayak trip"
        )
    )


def _search_episodes(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.SearchEpisodes(
        jpb.SearchEpisodesRequest(
            query_text="kayak lake house", subject=a.subject, workspace=a.workspace, limit=20
        )
    )


def _journal_find_exact(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.FindExact(
        jpb.FindExactRequest(terms=["kayak"], subject=a.subject, workspace=a.workspace)
    )


def _recall(s: Stubs, a: Ask, r: Records) -> Any:
    return s.retrieval.Recall(
        rpb.RecallRequest(
            query_text="where is my kayak", subject=a.subject, workspace=a.workspace, limit=20
        )
    )


def _retrieval_find_exact(s: Stubs, a: Ask, r: Records) -> Any:
    return s.retrieval.FindExact(
        rpb.FindExactRequest(terms=["kayak"], subject=a.subject, workspace=a.workspace)
    )


def _assemble(s: Stubs, a: Ask, r: Records) -> Any:
    return s.gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject=a.subject,
            workspace=a.workspace,
            session_id=SESSION,
            input_text="Did I ever tell you where my kayak is?",
            request_id=str(uuid.uuid4()),
        )
    )


def _search_memory(s: Stubs, a: Ask, r: Records) -> Any:
    return s.gateway.SearchMemory(
        gpb.SearchMemoryRequest(
            subject=a.subject, workspace=a.workspace, session_id=SESSION, query="kayak"
        )
    )


def _memory_context(s: Stubs, a: Ask, r: Records) -> Any:
    return s.gateway.GetMemoryContext(
        gpb.GetMemoryContextRequest(
            subject=a.subject, workspace=a.workspace, session_id=SESSION, pending_input="kayak"
        )
    )


def _learned_context(s: Stubs, a: Ask, r: Records) -> Any:
    return s.learning.GetLearnedContext(
        lpb.GetLearnedContextRequest(
            subject=a.subject, workspace=a.workspace, session_id=SESSION, pending_input="kayak"
        )
    )


def _resolve_scopes(s: Stubs, a: Ask, r: Records) -> Any:
    return s.learning.ResolveScopes(
        lpb.ResolveScopesRequest(subject=a.subject, workspace=a.workspace, session_id=SESSION)
    )


REQUEST_PROBES: dict[str, tuple[Role, Probe]] = {
    "GetLearnedContext": (Role.RUNTIME, _learned_context),
    "ResolveScopes": (Role.RUNTIME, _resolve_scopes),
    "ReadSessionJournal": (Role.RUNTIME, _read_session),
    "GetRecoveredMemory": (Role.RUNTIME, _recovered),
    "SearchRunMemory": (Role.RUNTIME, _search_runs),
    "SearchEpisodes": (Role.RUNTIME, _search_episodes),
    "journal.FindExact": (Role.RUNTIME, _journal_find_exact),
    "Recall": (Role.RUNTIME, _recall),
    "retrieval.FindExact": (Role.RUNTIME, _retrieval_find_exact),
    "AssembleContext": (Role.RUNTIME, _assemble),
    "SearchMemory": (Role.OPERATOR, _search_memory),
    "GetMemoryContext": (Role.OPERATOR, _memory_context),
}


def _list_quarantine(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.ListQuarantine(jpb.ListQuarantineRequest(page_size=500))


def _list_receipts(s: Stubs, a: Ask, r: Records) -> Any:
    return s.journal.ListReceipts(jpb.ListReceiptsRequest(context_id=r.context_id))


def _release(s: Stubs, a: Ask, r: Records) -> Any:
    return s.gateway.ReleaseResponse(
        gpb.ReleaseResponseRequest(
            context_id=r.context_id,
            candidate_text="Your kayak is at the lake house.",
            attempt=1,
            request_id=str(uuid.uuid4()),
        )
    )


def _quarantine_and_restore(s: Stubs, a: Ask, r: Records) -> Any:
    request = jpb.QuarantineRequest(
        record_kind=jpb.RECORD_KIND_EPISODE, record_id=r.episode_id, reason="scope probe"
    )
    answer = s.journal.Quarantine(request)
    s.journal.Restore(
        jpb.RestoreRequest(
            record_kind=jpb.RECORD_KIND_EPISODE, record_id=r.episode_id, reason="scope probe"
        )
    )
    return answer


# Probes naming a record by id; `None` in the last place: the answer is a
# list filtered by scope (never NOT_FOUND).
RECORD_PROBES: dict[str, tuple[Role, Probe, bool]] = {
    "ListQuarantine": (Role.OPERATOR, _list_quarantine, False),
    "ListReceipts": (Role.OPERATOR, _list_receipts, False),
    "ReleaseResponse": (Role.RUNTIME, _release, True),
    "Quarantine": (Role.OPERATOR, _quarantine_and_restore, True),
}

UNSCOPED_ONLY: dict[str, Callable[[Stubs], Any]] = {
    "GetStatus": lambda s: s.journal.GetStatus(jpb.GetStatusRequest()),
    "ListCandidates": lambda s: s.learning.ListCandidates(lpb.ListCandidatesRequest()),
    "ListLearnings": lambda s: s.learning.ListLearnings(lpb.ListLearningsRequest()),
    "GetIndexStatus": lambda s: s.retrieval.GetIndexStatus(rpb.GetIndexStatusRequest()),
}


def _leaks(world: World, scope: TokenScope, answer: Any) -> list[str]:
    text = MessageToJson(answer)
    found = []
    for pair, records in world.records.items():
        if scope.permits(*pair):
            continue
        for needle in (marker(*pair), records.episode_id, records.context_id):
            if needle in text:
                found.append(f"{pair}: {needle}")
    return found


def _call(probe: Callable[[], Any]) -> tuple[Any, grpc.RpcError | None]:
    try:
        return probe(), None
    except grpc.RpcError as exc:
        return None, exc


asks = st.builds(
    Ask,
    st.sampled_from(SUBJECTS),
    st.sampled_from((*WORKSPACES, "")),
    st.sampled_from(PAIRS),
)
scope_index = st.integers(0, len(SCOPES) - 1)
roles_ = st.sampled_from((Role.RUNTIME, Role.OPERATOR))
fast = settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@fast
@given(index=scope_index, role=roles_, ask=asks, name=st.sampled_from(sorted(REQUEST_PROBES)))
def test_request_scoped_reads_never_leak(
    world: World, index: int, role: Role, ask: Ask, name: str
) -> None:
    scope = SCOPES[index]
    needs, probe = REQUEST_PROBES[name]
    answer, error = _call(
        lambda: probe(world.stubs(token_of(role, index)), ask, world.records[ask.record])
    )
    if role < needs:
        assert error is not None and error.code() == grpc.StatusCode.PERMISSION_DENIED
        return
    if not scope.permits(ask.subject, ask.workspace):
        assert error is not None, f"{name} answered out of scope"
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED, error.details()
        assert error_info(error).reason == "OUT_OF_SCOPE"
        return
    assert error is None, f"{name}: {error.code()} {error.details()}"
    assert _leaks(world, scope, answer) == [], name


@fast
@given(index=scope_index, role=roles_, ask=asks, name=st.sampled_from(sorted(RECORD_PROBES)))
def test_record_scoped_reads_never_leak(
    world: World, index: int, role: Role, ask: Ask, name: str
) -> None:
    scope = SCOPES[index]
    needs, probe, by_id = RECORD_PROBES[name]
    answer, error = _call(
        lambda: probe(world.stubs(token_of(role, index)), ask, world.records[ask.record])
    )
    if role < needs:
        assert error is not None and error.code() == grpc.StatusCode.PERMISSION_DENIED
        return
    if by_id and not scope.permits(*ask.record):
        assert error is not None, f"{name} answered for an out-of-scope record"
        assert error.code() == grpc.StatusCode.NOT_FOUND, error.details()
        return
    assert error is None, f"{name}: {error.code()} {error.details()}"
    assert _leaks(world, scope, answer) == [], name


def test_a_scoped_runtime_sees_its_own_session_learning(world: World) -> None:
    index = SCOPES.index(TokenScope(frozenset({"carol"}), frozenset()))
    runtime = world.stubs(token_of(Role.RUNTIME, index))
    entries = runtime.learning.GetLearnedContext(
        lpb.GetLearnedContextRequest(
            subject="carol", workspace="w2", session_id=SESSION, pending_input="kayak paddle"
        )
    ).entries
    assert [e.learning.content for e in entries] == [
        f"the {marker('carol', 'w2')} kayak paddle is blue"
    ]


def test_scoped_lists_show_what_is_in_scope(world: World) -> None:
    """The filter is a filter, not a refusal: a scoped operator sees its own
    subjects' quarantine entries and receipts."""
    index = SCOPES.index(TokenScope(frozenset({"bob"}), frozenset({"w2"})))
    operator = world.stubs(token_of(Role.OPERATOR, index))
    entries = operator.journal.ListQuarantine(jpb.ListQuarantineRequest()).entries
    assert entries and {(e.subject, e.workspace) for e in entries} == {("bob", "w2")}
    receipts = operator.journal.ListReceipts(
        jpb.ListReceiptsRequest(context_id=world.records[("bob", "w2")].context_id)
    ).receipts
    assert receipts


@pytest.mark.parametrize("name", sorted(UNSCOPED_ONLY))
def test_methods_reading_every_subject_refuse_a_scoped_token(world: World, name: str) -> None:
    operator = world.stubs(token_of(Role.OPERATOR, 0))
    _, error = _call(lambda: UNSCOPED_ONLY[name](operator))
    assert error is not None and error.code() == grpc.StatusCode.PERMISSION_DENIED
    assert error_info(error).reason == "TOKEN_SCOPED"
