"""The gateway's clients of the three planes, through the kernel client layer
(engram.downstream): one deadline from configuration, the caller's call id on
every call, failures as :class:`DownstreamError`. The gateway reaches
JournalService, LearningService and RetrievalService only through their
protos."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, TypeVar

import grpc

from engram.downstream import DownstreamError, ServiceClient, downstream_error
from engram.journal.v1 import journal_pb2_grpc
from engram.learning.v1 import learning_pb2_grpc
from engram.retrieval.v1 import retrieval_pb2_grpc

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

    def call(self, plane: str, method: str, request: Any, response_type: type[R]) -> R:
        """``<plane>.<method>(request)`` with the deadline; failures raise
        :class:`DownstreamError`."""
        return self._clients[plane].call(method, request, response_type)

    def close(self) -> None:
        for client in self._clients.values():
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
