"""Helpers shared by integration and end-to-end tests."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.learning.v1 import learning_pb2 as lpb
from engram.learning.v1 import learning_pb2_grpc as lpb_grpc
from engram.timeutil import to_timestamp


def commit_turn(
    stub: pb_grpc.JournalServiceStub,
    user_text: str,
    assistant_text: str = "ok",
    *,
    subject: str = "alice",
    session_id: str = "s1",
    workspace: str = "",
    learning_eligible: bool = True,
    occurred_at: datetime | None = None,
) -> pb.TurnReceipt:
    """Commit one turn with a fresh request id; returns its receipt."""
    request = pb.CommitTurnRequest(
        subject=subject,
        workspace=workspace,
        session_id=session_id,
        user_text=user_text,
        assistant_text=assistant_text,
        request_id=str(uuid.uuid4()),
        learning_eligible=learning_eligible,
    )
    if occurred_at is not None:
        request.occurred_at.CopyFrom(to_timestamp(occurred_at))
    return stub.CommitTurn(request).receipt


def complete_run(
    stub: pb_grpc.JournalServiceStub,
    session_id: str,
    request_text: str = "Summarise the report",
    outcome_text: str = "Done.",
    *,
    subject: str = "alice",
    run_id: str = "",
) -> pb.CompleteRunResponse:
    """Record one completed run (a fresh run id and request id unless given)."""
    response: pb.CompleteRunResponse = stub.CompleteRun(
        pb.CompleteRunRequest(
            run_id=run_id or f"run-{uuid.uuid4().hex[:8]}",
            session_id=session_id,
            subject=subject,
            status=pb.RUN_STATUS_COMPLETED,
            request_text=request_text,
            outcome_text=outcome_text,
            request_id=str(uuid.uuid4()),
        )
    )
    return response


def wait_for_embeddings(
    stub: pb_grpc.JournalServiceStub, timeout: float = 20.0, interval: float = 0.05
) -> pb.GetStatusResponse:
    """Poll GetStatus until no episode waits for its embedding; returns that
    status. Raises TimeoutError (with the last status) at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        status = stub.GetStatus(pb.GetStatusRequest())
        if status.episodes_pending_embedding == 0:
            return status
        if time.monotonic() >= deadline:
            raise TimeoutError(
                f"{status.episodes_pending_embedding} episodes still pending embedding "
                f"after {timeout}s ({status.episodes_embedded} embedded)"
            )
        time.sleep(interval)


def error_info(err: grpc.RpcError) -> error_details_pb2.ErrorInfo:
    """The single google.rpc.ErrorInfo every engram error carries."""
    status = rpc_status.from_call(err)  # type: ignore[arg-type]
    assert status is not None, "every error carries a google.rpc.Status"
    infos = []
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            infos.append(info)
    assert len(infos) == 1, "exactly one ErrorInfo per error"
    return infos[0]


def error_field(err: grpc.RpcError) -> str:
    """The field an INVALID_ARGUMENT names."""
    return str(error_info(err).metadata["field"])


def enable_preference_publication(learning: lpb_grpc.LearningServiceStub) -> None:
    """Automation on, run-summary capture on, and a rule that publishes preferences
    captured from runs (require_source_run matches daemon-origin candidates only: an
    operator's own candidates stay for manual review)."""
    learning.SetLearningPolicy(
        lpb.SetLearningPolicyRequest(
            policy=lpb.LearningPolicy(
                mode=lpb.AUTOMATION_MODE_ENABLED,
                capture=lpb.CaptureSettings(semantic_enabled=True, max_candidates_per_run=2),
                publication=lpb.PublicationSettings(
                    rules=[
                        lpb.PublicationRule(
                            name="preferences",
                            kind=lpb.LEARNING_KIND_PREFERENCE,
                            require_source_run=True,
                            action=lpb.PUBLICATION_ACTION_PUBLISH_ACTIVE,
                        )
                    ],
                    default_action=lpb.PUBLICATION_ACTION_MANUAL_REVIEW,
                ),
            ),
            request_id=str(uuid.uuid4()),
        )
    )


@contextlib.contextmanager
def server_scratch_dir(prefix: str) -> Iterator[Path]:
    """A scratch directory for PostgreSQL data (and processes that start a
    server), removed afterwards. Not under pytest's basetemp: a pytest session
    starting meanwhile makes /tmp/pytest-of-<user> private again, and as root
    the server runs as another user (engram.db.instance), which then loses
    access to its own data directory."""
    path = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)
