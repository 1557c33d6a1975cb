"""The gateway's clients of the three planes, through the kernel client layer
(engram.downstream): one deadline from configuration, the caller's call id on
every call, failures as :class:`DownstreamError`. The gateway reaches
JournalService, LearningService and RetrievalService only through their
protos.

Retrieval may be partitioned by workspace (replicas started with
serve_workspaces): ``retrieval_routes`` maps a workspace to the replica that
serves it, every other workspace goes to ``retrieval_addr``. Every
RetrievalService request the gateway sends carries its workspace, so the
route is read from the request itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

import grpc

from engram.downstream import DownstreamError, ServiceClient, downstream_error
from engram.journal.v1 import journal_pb2_grpc
from engram.learning.v1 import learning_pb2_grpc
from engram.retrieval.v1 import retrieval_pb2_grpc
from engram.validation import DEFAULT_WORKSPACE

__all__ = ["DownstreamError", "Planes", "late", "wait"]

R = TypeVar("R")
T = TypeVar("T")

# Wait this long beyond the gRPC deadline before giving up on a pool task.
DEADLINE_SLACK_S = 1.0


class Planes:
    """Clients of the three planes, with one deadline for every call."""

    def __init__(
        self,
        journal_addr: str,
        learning_addr: str,
        retrieval_addr: str,
        token: str,
        timeout_ms: int,
        retrieval_routes: Mapping[str, str] | None = None,
    ) -> None:
        self.timeout_s = max(0.001, timeout_ms / 1000.0)
        self._clients = {
            "journal": ServiceClient.connect(
                "journal", journal_addr, token, journal_pb2_grpc.JournalServiceStub, self.timeout_s
            ),
            "learning": ServiceClient.connect(
                "learning",
                learning_addr,
                token,
                learning_pb2_grpc.LearningServiceStub,
                self.timeout_s,
            ),
            "retrieval": ServiceClient.connect(
                "retrieval",
                retrieval_addr,
                token,
                retrieval_pb2_grpc.RetrievalServiceStub,
                self.timeout_s,
            ),
        }
        # One client per routed replica address, shared by its workspaces.
        replicas: dict[str, ServiceClient] = {}
        self._retrieval_routes: dict[str, ServiceClient] = {}
        for workspace, address in (retrieval_routes or {}).items():
            if address not in replicas:
                replicas[address] = ServiceClient.connect(
                    "retrieval",
                    address,
                    token,
                    retrieval_pb2_grpc.RetrievalServiceStub,
                    self.timeout_s,
                )
            self._retrieval_routes[workspace] = replicas[address]
        self._routed = list(replicas.values())

    def call(self, plane: str, method: str, request: Any, response_type: type[R]) -> R:
        """``<plane>.<method>(request)`` with the deadline; failures raise
        :class:`DownstreamError`."""
        return self._client(plane, request).call(method, request, response_type)

    def _client(self, plane: str, request: Any) -> ServiceClient:
        if plane == "retrieval" and self._retrieval_routes:
            workspace = getattr(request, "workspace", "") or DEFAULT_WORKSPACE
            routed = self._retrieval_routes.get(workspace)
            if routed is not None:
                return routed
        return self._clients[plane]

    def close(self) -> None:
        for client in [*self._clients.values(), *self._routed]:
            client.close()


def late(plane: str, method: str) -> DownstreamError:
    """The error of a fan-out task that did not finish within the deadline."""
    return downstream_error(
        plane, method, grpc.StatusCode.DEADLINE_EXCEEDED, "no answer within the deadline"
    )


def wait(future: Future[T], timeout_s: float, on_timeout: Callable[[], T]) -> T:
    """The task's result, or on_timeout() once the deadline (plus slack) has passed."""
    try:
        return future.result(timeout=timeout_s + DEADLINE_SLACK_S)
    except FutureTimeout:
        return on_timeout()
