"""Clients of the pluggable services engram calls out to (plugins.proto):
the ExtractorService proposes candidates, the JudgeService reviews them."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import grpc

from engram.channels import open_channel
from engram.learning.v1 import learning_pb2 as pb
from engram.learning.v1 import plugins_pb2 as ppb
from engram.learning.v1 import plugins_pb2_grpc as ppb_grpc
from learning_service.model import Action, Kind

EXTRACT_TIMEOUT_SECONDS = 10.0

KIND_FROM_PB: dict[pb.LearningKind.ValueType, Kind] = {
    pb.LEARNING_KIND_FACT: Kind.FACT,
    pb.LEARNING_KIND_PREFERENCE: Kind.PREFERENCE,
    pb.LEARNING_KIND_DECISION: Kind.DECISION,
    pb.LEARNING_KIND_RUN_SUMMARY: Kind.RUN_SUMMARY,
    pb.LEARNING_KIND_PROCEDURE: Kind.PROCEDURE,
}
ACTION_FROM_PB: dict[pb.PublicationAction.ValueType, Action] = {
    pb.PUBLICATION_ACTION_MANUAL_REVIEW: Action.MANUAL_REVIEW,
    pb.PUBLICATION_ACTION_REJECT: Action.REJECT,
    pb.PUBLICATION_ACTION_PUBLISH_PROVISIONAL: Action.PUBLISH_PROVISIONAL,
    pb.PUBLICATION_ACTION_PUBLISH_ACTIVE: Action.PUBLISH_ACTIVE,
}
ACTION_TO_PB: dict[Action, pb.PublicationAction.ValueType] = {
    v: k for k, v in ACTION_FROM_PB.items()
}


class PluginError(Exception):
    """A plugin failed, timed out or could not be reached."""


@dataclass(frozen=True)
class Proposal:
    kind: Kind | None
    content: str
    confidence: int


@dataclass(frozen=True)
class JudgeAnswer:
    action: Action | None
    reason: str
    model: str


class ExtractorClient:
    def __init__(self, address: str, token: str) -> None:
        self._channel = open_channel(address, token)
        self._stub = ppb_grpc.ExtractorServiceStub(self._channel)
        self._lock = threading.Lock()
        self._inflight: set[Any] = set()

    def close(self) -> None:
        self._channel.close()

    def cancel(self) -> None:
        """Cancel calls in flight (shutdown must not wait for a slow extractor)."""
        with self._lock:
            for call in self._inflight:
                call.cancel()

    def extract(
        self,
        run_id: str,
        session_id: str,
        request_text: str,
        outcome_text: str,
        max_candidates: int,
    ) -> list[Proposal]:
        call = self._stub.Extract.future(
            ppb.ExtractRequest(
                run_id=run_id,
                session_id=session_id,
                request_text=request_text,
                outcome_text=outcome_text,
                max_candidates=max_candidates,
            ),
            timeout=EXTRACT_TIMEOUT_SECONDS,
        )
        with self._lock:
            self._inflight.add(call)
        try:
            response = call.result()
        except grpc.RpcError as exc:
            raise PluginError(f"extractor failed: {exc.code().name}") from exc
        except grpc.FutureCancelledError as exc:
            raise PluginError("extractor call cancelled") from exc
        finally:
            with self._lock:
                self._inflight.discard(call)
        return [
            Proposal(KIND_FROM_PB.get(c.kind), c.content, int(c.confidence))
            for c in response.candidates
        ]


class JudgeClients:
    """One channel per judge address (the address comes from the live policy)."""

    def __init__(self, token: str) -> None:
        self._token = token
        self._channels: dict[str, grpc.Channel] = {}
        self._lock = threading.Lock()

    def _stub(self, address: str) -> ppb_grpc.JudgeServiceStub:
        with self._lock:
            channel = self._channels.get(address)
            if channel is None:
                channel = self._channels[address] = open_channel(address, self._token)
        return ppb_grpc.JudgeServiceStub(channel)

    def judge(
        self,
        address: str,
        timeout_ms: int,
        candidate: pb.Candidate,
        baseline: Action,
        matched_rule: str,
    ) -> JudgeAnswer:
        try:
            response = self._stub(address).Judge(
                ppb.JudgeRequest(
                    candidate=candidate,
                    baseline_action=ACTION_TO_PB[baseline],
                    matched_rule=matched_rule,
                ),
                timeout=timeout_ms / 1000.0,
            )
        except grpc.RpcError as exc:
            raise PluginError(f"judge failed: {exc.code().name}") from exc
        return JudgeAnswer(
            ACTION_FROM_PB.get(response.action), response.reason[:1000], response.model[:200]
        )

    def close(self) -> None:
        with self._lock:
            for channel in self._channels.values():
                channel.close()
            self._channels.clear()
