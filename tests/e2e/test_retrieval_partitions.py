"""Retrieval partitioned by workspace, end to end: replicas started with
serve_workspaces index only their workspaces (filtered at feed ingest),
refuse any other workspace with FAILED_PRECONDITION (reason
WORKSPACE_NOT_SERVED), and the gateway routes each workspace's Recall and
FindExact by retrieval_route, the rest to retrieval_addr."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.journal.v1 import journal_pb2 as jpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.server import Suite
from tests.helpers import commit_turn, error_info
from tests.integration.test_retrieval import Client, poll
from tests.integration.test_retrieval import _quarantine as quarantine
from tests.integration.test_retrieval_replicas import start_replica

pytestmark = pytest.mark.e2e

TURNS = {
    "red": ["The red team parks the rover at dock seven.", "Red team lunch is on Fridays."],
    "blue": ["The blue team rover needs new tyres.", "Blue team stand-up moved to nine."],
    "default": ["My default notebook lives in the top drawer."],
    "green": ["The green team rover is in the garage."],
}


def _replica(
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
    journal: Suite,
    data_dir: Path,
    workspaces: str,
) -> Client:
    return start_replica(start_services, channel_to, journal, data_dir, serve_workspaces=workspaces)


def _assemble(
    gateway: gpb_grpc.GatewayServiceStub, workspace: str, text: str
) -> gpb.AssembleContextResponse:
    response: gpb.AssembleContextResponse = gateway.AssembleContext(
        gpb.AssembleContextRequest(
            subject="alice",
            workspace=workspace,
            session_id="active",
            input_text=text,
            request_id=str(uuid.uuid4()),
        )
    )
    return response


def _episodic(response: gpb.AssembleContextResponse) -> gpb.SectionTrace:
    return next(t for t in response.trace.sections if t.name == "episodic_recall")


def test_partitioned_replicas_and_gateway_routing(
    start_services: Callable[..., Suite],
    channel_to: Callable[..., grpc.Channel],
    tmp_path: Path,
) -> None:
    planes = start_services(["journal", "learning"])
    writer = Client(planes, channel_to)
    episodes: dict[str, list[str]] = {}
    for workspace, texts in TURNS.items():
        episodes[workspace] = [
            commit_turn(writer.journal, t, "noted", workspace=workspace, session_id="s1").episode_id
            for t in texts
        ]
    red = _replica(start_services, channel_to, planes, tmp_path / "red", "red")
    blue = _replica(start_services, channel_to, planes, tmp_path / "blue", "blue")
    default = _replica(start_services, channel_to, planes, tmp_path / "default", "default")
    for replica, workspace in ((red, "red"), (blue, "blue"), (default, "default")):
        status = replica.caught_up()
        assert list(status.served_workspaces) == [workspace]
        # The resident index holds that workspace only.
        assert status.episodes == len(TURNS[workspace])

    # Served: resident answers from the replica's own workspace.
    hits = red.recall("rover dock", workspace="red", limit=10)
    assert hits.served_by == rpb.SERVED_BY_RESIDENT
    assert {h.episode_id for h in hits.hits} <= set(episodes["red"])
    assert hits.hits[0].episode_id == episodes["red"][0]

    # Not served: refused with a typed reason, never an empty answer.
    refusals = ((red, "blue", "red"), (red, "", "red"), (blue, "red", "blue"))
    for replica, workspace, served in refusals:
        with pytest.raises(grpc.RpcError) as raised:
            replica.recall("rover", workspace=workspace)
        assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        info = error_info(raised.value)
        assert info.reason == "WORKSPACE_NOT_SERVED"
        assert info.metadata["workspace"] == (workspace or "default")
        assert info.metadata["served_workspaces"] == served
        with pytest.raises(grpc.RpcError) as raised:
            replica.retrieval.FindExact(
                rpb.FindExactRequest(terms=["rover"], subject="alice", workspace=workspace)
            )
        assert raised.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert error_info(raised.value).reason == "WORKSPACE_NOT_SERVED"

    # The gateway routes red and blue to their replicas, the rest to the default one.
    gateway_suite = start_services(
        ["gateway"],
        journal_addr=planes.address,
        learning_addr=planes.address,
        retrieval_addr=default.suite.address,
        retrieval_route=f"red={red.suite.address},blue={blue.suite.address}",
    )
    gateway = gpb_grpc.GatewayServiceStub(channel_to(gateway_suite))
    for workspace in ("red", "blue", "default"):
        text = TURNS[workspace][0]
        traced = poll(
            lambda w=workspace, t=text: (
                trace if (trace := _episodic(_assemble(gateway, w, t))).record_ids else None
            ),
            what=f"episodic recall in {workspace}",
        )
        assert traced.status == gpb.SECTION_STATUS_INCLUDED
        assert set(traced.record_ids) <= set(episodes[workspace])
        assert episodes[workspace][0] in traced.record_ids
    # green is served by no replica: the section says its source failed.
    green = _episodic(_assemble(gateway, "green", TURNS["green"][0]))
    assert green.status == gpb.SECTION_STATUS_SOURCE_UNAVAILABLE
    assert not green.record_ids
    assert green.coverage.outcome in (cpb.SEARCH_OUTCOME_FAILED, cpb.SEARCH_OUTCOME_UNAVAILABLE)

    # A replica restarted with another workspace set does not reuse its snapshot.
    red.suite.stop(grace=0.5)
    again = _replica(start_services, channel_to, planes, tmp_path / "red", "red,green")
    status = again.caught_up()
    assert status.rebuild.total > 0
    assert list(status.served_workspaces) == ["green", "red"]
    assert status.episodes == len(TURNS["red"]) + len(TURNS["green"])
    quarantine(writer, jpb.RECORD_KIND_EPISODE, episodes["green"][0])
    assert again.caught_up().episodes == len(TURNS["red"])
