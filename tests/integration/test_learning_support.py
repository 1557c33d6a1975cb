"""Helpers shared by the learning-plane integration tests (no tests here):
stubs, run completion through the journal, polling, error-detail decoding and
a real fake JudgeService on port 0."""

from __future__ import annotations

import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
import psycopg
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from psycopg import sql

from engram.common.v1 import common_pb2 as cpb
from engram.config import Settings
from engram.db.urls import with_database
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import learning_pb2_grpc as pb_grpc
from engram.learning.v1 import plugins_pb2 as ppb
from engram.learning.v1 import plugins_pb2_grpc as ppb_grpc
from engram.server import Suite, start_suite

T = TypeVar("T")

SESSION = cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id="s1")
WORKSPACE = cpb.Scope(kind=cpb.SCOPE_KIND_WORKSPACE, id="default")
# Whose sessions the tests' session scopes are (complete_run's default subject).
SUBJECT = "u1"


@dataclass
class Stubs:
    learning: pb_grpc.LearningServiceStub
    journal: jpb_grpc.JournalServiceStub


def stubs(channel: grpc.Channel) -> Stubs:
    return Stubs(pb_grpc.LearningServiceStub(channel), jpb_grpc.JournalServiceStub(channel))


def unique_session() -> cpb.Scope:
    """A session scope no other test touches (for suites shared by a module)."""
    return cpb.Scope(kind=cpb.SCOPE_KIND_SESSION, id=f"s-{uuid.uuid4().hex[:10]}")


@contextmanager
def shared_suite(
    pg_server_url: str, template_database: str, services: list[str], **overrides: Any
) -> Iterator[tuple[Suite, grpc.Channel]]:
    """One database cloned from the migrated template and one in-process suite
    for a whole test module: suite start-up and teardown are paid once."""
    name = f"engram_learning_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as conn:
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template_database)
            )
        )
    settings = Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": with_database(pg_server_url, name),
            "data_dir": tempfile.mkdtemp(prefix="engram-learning-"),
            "embedder": "hashing",
            "grace_seconds": 0.5,
            "pool_max_size": 8,
            "metrics_port": -1,
            **overrides,
        },
        env={},
    )
    suite = start_suite(settings, services)
    channel = grpc.insecure_channel(suite.address)
    try:
        yield suite, channel
    finally:
        channel.close()
        suite.stop(grace=0.2)
        with psycopg.connect(pg_server_url, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def complete_run(
    journal: jpb_grpc.JournalServiceStub,
    run_id: str,
    request: str,
    outcome: str = "OK",
    *,
    session_id: str = "s1",
    subject: str = "u1",
    status: jpb.RunStatus.ValueType = jpb.RUN_STATUS_COMPLETED,
) -> jpb.CompleteRunResponse:
    response: jpb.CompleteRunResponse = journal.CompleteRun(
        jpb.CompleteRunRequest(
            run_id=run_id,
            session_id=session_id,
            subject=subject,
            status=status,
            request_text=request,
            outcome_text=outcome,
            request_id=str(uuid.uuid4()),
        )
    )
    return response


def wait_until(
    check: Callable[[], T | None], *, timeout: float = 20.0, what: str = "condition"
) -> T:
    """Poll until `check` returns something truthy; that value is returned."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out waiting for {what}")
        time.sleep(0.05)


def candidate(
    stub: pb_grpc.LearningServiceStub,
    content: str,
    *,
    kind: pb.LearningKind.ValueType = pb.LEARNING_KIND_FACT,
    scope: cpb.Scope = SESSION,
    confidence: int = 90,
    **extra: Any,
) -> pb.Candidate:
    """An API candidate; a session-scoped one is SUBJECT's unless `source`
    says otherwise (a session scope names whose session it is)."""
    if scope.kind == cpb.SCOPE_KIND_SESSION and "source" not in extra:
        extra["source"] = pb.Source(subject=SUBJECT)
    response = stub.CreateCandidate(
        pb.CreateCandidateRequest(
            scope=scope, kind=kind, content=content, confidence=confidence, **extra
        )
    )
    result: pb.Candidate = response.candidate
    return result


def publish(
    stub: pb_grpc.LearningServiceStub,
    candidate_id: str,
    tier: pb.PublishTier.ValueType = pb.PUBLISH_TIER_ACTIVE,
    supersedes: str = "",
) -> pb.Learning:
    response = stub.PublishCandidate(
        pb.PublishCandidateRequest(
            candidate_id=candidate_id, publish_tier=tier, supersedes=supersedes
        )
    )
    learning: pb.Learning = response.learning
    return learning


def learn(stub: pb_grpc.LearningServiceStub, content: str, **kwargs: Any) -> pb.Learning:
    """Create and manually publish (active tier) one learning."""
    tier = kwargs.pop("tier", pb.PUBLISH_TIER_ACTIVE)
    return publish(stub, candidate(stub, content, **kwargs).candidate_id, tier)


def reviewed(stub: pb_grpc.LearningServiceStub, candidate_id: str) -> pb.Candidate:
    """The candidate once the review worker has recorded its review."""

    def check() -> pb.Candidate | None:
        found = stub.GetCandidate(pb.GetCandidateRequest(candidate_id=candidate_id)).candidate
        return found if found.HasField("review") else None

    return wait_until(check, what=f"review of candidate {candidate_id}")


def set_policy(
    stub: pb_grpc.LearningServiceStub,
    mode: pb.AutomationMode.ValueType,
    *,
    rules: list[pb.PublicationRule] | None = None,
    **publication: Any,
) -> pb.LearningPolicy:
    judge = publication.pop("judge", None)
    policy = pb.LearningPolicy(
        mode=mode, publication=pb.PublicationSettings(rules=rules or [], **publication)
    )
    if judge is not None:
        policy.judge.CopyFrom(judge)
    result: pb.LearningPolicy = stub.SetLearningPolicy(
        pb.SetLearningPolicyRequest(policy=policy)
    ).policy
    return result


def rule(name: str, action: pb.PublicationAction.ValueType, **match: Any) -> pb.PublicationRule:
    return pb.PublicationRule(name=name, action=action, **match)


def _details(err: grpc.RpcError) -> list[Any]:
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None, "every error carries a google.rpc.Status"
    return list(status.details)


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    infos = []
    for detail in _details(err):
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            infos.append(info)
    assert len(infos) == 1, "exactly one ErrorInfo per error"
    return infos[0]


def transition(err: grpc.RpcError) -> cpb.IllegalTransition:
    for detail in _details(err):
        found = cpb.IllegalTransition()
        if detail.Unpack(found):
            return found
    raise AssertionError(f"no IllegalTransition detail on {err}")


def conflict(err: grpc.RpcError) -> cpb.ConflictDetail:
    for detail in _details(err):
        found = cpb.ConflictDetail()
        if detail.Unpack(found):
            return found
    raise AssertionError(f"no ConflictDetail on {err}")


def fails(call: Callable[[], object]) -> grpc.RpcError:
    """The RpcError `call` raises (AssertionError when it succeeds)."""
    try:
        call()
    except grpc.RpcError as err:
        return err
    raise AssertionError("the call succeeded; an error was expected")


@dataclass
class FakeJudge(ppb_grpc.JudgeServiceServicer):
    """A real JudgeService on 127.0.0.1:0 answering `action`, failing with
    `error`, or blocking until released (a judge that times out)."""

    action: pb.PublicationAction.ValueType = pb.PUBLICATION_ACTION_PUBLISH_ACTIVE
    error: grpc.StatusCode | None = None
    hang: bool = False
    reason: str = "looks durable"
    calls: list[ppb.JudgeRequest] = field(default_factory=list)
    _release: threading.Event = field(default_factory=threading.Event)

    def Judge(self, request: ppb.JudgeRequest, context: grpc.ServicerContext) -> ppb.JudgeResponse:
        self.calls.append(request)
        if self.hang:
            self._release.wait(30)
        if self.error is not None:
            context.abort(self.error, "judge exploded")
        return ppb.JudgeResponse(action=self.action, reason=self.reason, model="fake-judge")

    def release(self) -> None:
        self._release.set()

    def reset(self) -> None:
        self.action = pb.PUBLICATION_ACTION_PUBLISH_ACTIVE
        self.error = None
        self.hang = False
        self.calls.clear()
        self._release = threading.Event()


@dataclass
class FakeExtractor(ppb_grpc.ExtractorServiceServicer):
    """A real ExtractorService proposing `proposals` for every run, or
    blocking until released (an extractor still busy at shutdown)."""

    proposals: list[ppb.ExtractedCandidate] = field(default_factory=list)
    calls: list[ppb.ExtractRequest] = field(default_factory=list)
    hang: bool = False
    _release: threading.Event = field(default_factory=threading.Event)

    def Extract(
        self, request: ppb.ExtractRequest, context: grpc.ServicerContext
    ) -> ppb.ExtractResponse:
        self.calls.append(request)
        if self.hang:
            self._release.wait(30)
        return ppb.ExtractResponse(candidates=self.proposals)

    def release(self) -> None:
        self._release.set()


@contextmanager
def serve_plugin(plugin: FakeJudge | FakeExtractor) -> Iterator[str]:
    """Serve a fake plugin on 127.0.0.1:0; yields its address."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    if isinstance(plugin, FakeJudge):
        ppb_grpc.add_JudgeServiceServicer_to_server(plugin, server)
    else:
        ppb_grpc.add_ExtractorServiceServicer_to_server(plugin, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        plugin.release()
        server.stop(0)
