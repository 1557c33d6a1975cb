"""One end-to-end pass that can target a running deployment.

With ENGRAM_E2E_TARGET=host:port (and ENGRAM_E2E_TOKEN, an operator token: it
reads GetStatus and GetIndexStatus) it runs against that server, which must
serve all four services; otherwise against the full suite
started in-process. It writes only under a fresh subject, and asserts nothing
about data it did not write.

    ENGRAM_E2E_TARGET=127.0.0.1:50051 .venv/bin/pytest tests/e2e/test_live_target.py -q

Against `engram cluster up` (`make test-cluster`), ENGRAM_E2E_CLUSTER names its
cluster.json, and the tests marked ``cluster`` also call every retrieval and
gateway replica directly, and the router often enough to reach each of them.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from engram.channels import open_channel
from engram.common.v1 import common_pb2 as cpb
from engram.coverage import validate
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc

SERVICES = (
    "engram.journal.v1.JournalService",
    "engram.learning.v1.LearningService",
    "engram.retrieval.v1.RetrievalService",
    "engram.gateway.v1.GatewayService",
)
RECALL_TIMEOUT_SECONDS = 30.0


def wait_recalled(
    retrieval: rpb_grpc.RetrievalServiceStub, subject: str, episode_id: str
) -> rpb.RecallResponse:
    """Poll Recall until the committed episode is embedded and indexed."""
    deadline = time.monotonic() + RECALL_TIMEOUT_SECONDS
    while True:
        response: rpb.RecallResponse = retrieval.Recall(
            rpb.RecallRequest(subject=subject, query_text="what is my cat called", limit=5),
            timeout=10,
        )
        validate(response.coverage)
        if any(hit.episode_id == episode_id for hit in response.hits):
            return response
        assert time.monotonic() < deadline, f"episode not recalled in {RECALL_TIMEOUT_SECONDS}s"
        time.sleep(0.2)


def read_session(
    journal: jpb_grpc.JournalServiceStub, subject: str, session_id: str
) -> jpb.ReadSessionJournalResponse:
    """ReadSessionJournal right after the commit, without retrying: a journal
    that reads from a streaming standby serves this RPC there only once the
    standby has replayed every commit (read-your-writes, docs/journal.md)."""
    page: jpb.ReadSessionJournalResponse = journal.ReadSessionJournal(
        jpb.ReadSessionJournalRequest(subject=subject, session_id=session_id), timeout=10
    )
    return page


def test_commit_read_recall_assemble_status(live_target: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(live_target)
    for service in SERVICES:
        answer = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING, service

    journal = jpb_grpc.JournalServiceStub(live_target)
    subject = f"e2e-{uuid.uuid4().hex[:12]}"
    request = jpb.CommitTurnRequest(
        subject=subject,
        session_id="s-1",
        user_text="My cat is called Miso and she sleeps in the laundry basket.",
        assistant_text="Noted: Miso sleeps in the laundry basket.",
        request_id=str(uuid.uuid4()),
        learning_eligible=True,
    )
    receipt = journal.CommitTurn(request, timeout=10).receipt
    assert receipt.episode_id and not receipt.replayed
    replay = journal.CommitTurn(request, timeout=10).receipt
    assert replay.replayed and replay.event_id == receipt.event_id

    page = read_session(journal, subject, "s-1")
    assert [e.event_id for e in page.events] == [receipt.event_id]
    assert page.events[0].payload["user_text"] == request.user_text
    validate(page.coverage)
    assert page.coverage.cardinality.matched_before_limit == 1

    retrieval = rpb_grpc.RetrievalServiceStub(live_target)
    recalled = wait_recalled(retrieval, subject, receipt.episode_id)
    assert recalled.absence_state == cpb.ABSENCE_STATE_NOT_ABSENT

    gateway = gpb_grpc.GatewayServiceStub(live_target)
    context = gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject=subject,
            session_id="s-2",
            input_text="Remind me: what is my cat called?",
            request_id=str(uuid.uuid4()),
        ),
        timeout=30,
    )
    assert context.context_id
    traces = {t.name: t for t in context.trace.sections}
    assert {"learned_context", "recovered_memory", "episodic_recall"} <= set(traces)
    for trace in traces.values():
        validate(trace.coverage)
    assert receipt.episode_id in traces["episodic_recall"].record_ids
    episodic = next(s for s in context.sections if s.name == "episodic_recall")
    assert "Miso" in episodic.rendered

    status = journal.GetStatus(jpb.GetStatusRequest(), timeout=10)
    assert status.version
    assert status.events >= 1 and status.feed_watermark >= 1
    learning = lpb_grpc.LearningServiceStub(live_target)
    learning_status = learning.GetLearningStatus(lpb.GetLearningStatusRequest(), timeout=10)
    assert learning_status.mode != lpb.AUTOMATION_MODE_UNSPECIFIED
    index = retrieval.GetIndexStatus(rpb.GetIndexStatusRequest(), timeout=10)
    assert index.ready
    assert index.applied_cursor >= 1


# -- against `engram cluster up`: every replica, directly and through the router --


@pytest.fixture
def cluster() -> Iterator[dict[str, list[str]]]:
    """The services' addresses from ENGRAM_E2E_CLUSTER (a cluster.json)."""
    path = os.environ.get("ENGRAM_E2E_CLUSTER", "")
    if not path:
        pytest.skip("ENGRAM_E2E_CLUSTER (cluster.json of engram cluster up) is not set")
    yield json.loads(Path(path).read_text("utf-8"))["services"]


def _commit(channel: grpc.Channel, subject: str) -> jpb.TurnReceipt:
    journal = jpb_grpc.JournalServiceStub(channel)
    return journal.CommitTurn(
        jpb.CommitTurnRequest(
            subject=subject,
            session_id="s-1",
            user_text="My cat is called Miso; le chat dort dans le panier à linge.",
            assistant_text="Noted: Miso sleeps in the laundry basket.",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        ),
        timeout=10,
    ).receipt


def _recalled_on_each(
    replicas: list[str], subject: str, episode_id: str
) -> list[rpb.RecallResponse]:
    """Recall on each retrieval replica directly, once each has the episode."""
    answers = []
    for address in replicas:
        channel = open_channel(address, os.environ.get("ENGRAM_E2E_TOKEN", ""))
        try:
            answers.append(
                wait_recalled(rpb_grpc.RetrievalServiceStub(channel), subject, episode_id)
            )
        finally:
            channel.close()
    return answers


@pytest.mark.cluster
def test_recall_on_every_retrieval_replica(
    live_target: grpc.Channel, cluster: dict[str, list[str]]
) -> None:
    replicas = cluster["retrieval"]
    assert len(replicas) >= 2, "the cluster runs one retrieval replica"
    subject = f"e2e-{uuid.uuid4().hex[:12]}"
    receipt = _commit(live_target, subject)
    answers = _recalled_on_each(replicas, subject, receipt.episode_id)
    for address, answer in zip(replicas, answers, strict=True):
        # Each replica says which snapshot answered (its applied change-feed cursor).
        assert answer.coverage.snapshot_version, address
    # Through the router, round-robin: enough calls to reach every replica,
    # each of which has the episode by now.
    retrieval = rpb_grpc.RetrievalServiceStub(live_target)
    for _ in range(2 * len(replicas)):
        answer = retrieval.Recall(
            rpb.RecallRequest(subject=subject, query_text="what is my cat called", limit=5),
            timeout=10,
        )
        validate(answer.coverage)
        assert answer.coverage.snapshot_version
        assert receipt.episode_id in [hit.episode_id for hit in answer.hits]


@pytest.mark.cluster
def test_assemble_context_on_every_gateway(
    live_target: grpc.Channel, cluster: dict[str, list[str]]
) -> None:
    gateways = cluster["gateway"]
    assert len(gateways) >= 2, "the cluster runs one gateway replica"
    subject = f"e2e-{uuid.uuid4().hex[:12]}"
    receipt = _commit(live_target, subject)
    _recalled_on_each(cluster["retrieval"], subject, receipt.episode_id)  # indexed everywhere
    channels = [open_channel(a, os.environ.get("ENGRAM_E2E_TOKEN", "")) for a in gateways]
    try:
        for channel in [*channels, live_target, live_target]:
            context = gpb_grpc.GatewayServiceStub(channel).AssembleContext(
                gpb.AssembleContextRequest(
                    subject=subject,
                    session_id="s-2",
                    input_text="Remind me: what is my cat called?",
                    request_id=str(uuid.uuid4()),
                ),
                timeout=30,
            )
            traces = {t.name: t for t in context.trace.sections}
            for trace in traces.values():
                validate(trace.coverage)
            assert receipt.episode_id in traces["episodic_recall"].record_ids
    finally:
        for channel in channels:
            channel.close()


@pytest.mark.cluster
def test_change_feed_streams_through_the_router(
    live_target: grpc.Channel, cluster: dict[str, list[str]]
) -> None:
    journal = jpb_grpc.JournalServiceStub(live_target)
    before = journal.GetStatus(jpb.GetStatusRequest(), timeout=10).feed_watermark
    _commit(live_target, f"e2e-{uuid.uuid4().hex[:12]}")
    batches = journal.StreamChanges(
        jpb.StreamChangesRequest(after_cursor=before, follow=False), timeout=30
    )
    cursors = [change.cursor for batch in batches for change in batch.changes]
    assert cursors and cursors == sorted(cursors) and cursors[0] > before
