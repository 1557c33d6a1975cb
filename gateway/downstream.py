"""gRPC clients of the three planes. The gateway reaches JournalService,
LearningService and RetrievalService only through their protos."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from engram.channels import open_channel
from engram.journal.v1 import journal_pb2_grpc
from engram.learning.v1 import learning_pb2_grpc
from engram.retrieval.v1 import retrieval_pb2_grpc

R = TypeVar("R")
T = TypeVar("T")

# Wait this long beyond the gRPC deadline before giving up on a pool task.
DEADLINE_SLACK_S = 1.0

# Codes meaning "the source could not be reached" (transport, deadline, not
# configured); every other failure means the source was reached and failed.
UNREACHABLE_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNIMPLEMENTED,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
    }
)


@dataclass(frozen=True)
class DownstreamError(Exception):
    """A failed downstream call, without the gRPC types."""

    service: str
    method: str
    code: str
    message: str
    unreachable: bool

    def __str__(self) -> str:
        return f"{self.service}.{self.method}: {self.code} {self.message}".strip()


class Planes:
    """Stubs of the three planes with one deadline for every call."""

    def __init__(
        self,
        journal_addr: str,
        learning_addr: str,
        retrieval_addr: str,
        token: str,
        timeout_ms: int,
    ) -> None:
        self._channels = [
            open_channel(addr, token) for addr in (journal_addr, learning_addr, retrieval_addr)
        ]
        self.journal = journal_pb2_grpc.JournalServiceStub(self._channels[0])
        self.learning = learning_pb2_grpc.LearningServiceStub(self._channels[1])
        self.retrieval = retrieval_pb2_grpc.RetrievalServiceStub(self._channels[2])
        self.timeout_s = max(0.001, timeout_ms / 1000.0)

    def call(self, plane: str, method: str, request: Any, response_type: type[R]) -> R:
        """Call ``<plane>.<method>(request)`` with the deadline; gRPC errors become
        :class:`DownstreamError`."""
        stub = {"journal": self.journal, "learning": self.learning, "retrieval": self.retrieval}[
            plane
        ]
        try:
            response = getattr(stub, method)(request, timeout=self.timeout_s)
        except grpc.RpcError as exc:
            code = exc.code() if hasattr(exc, "code") else None
            details = exc.details() if hasattr(exc, "details") else str(exc)
            raise DownstreamError(
                service=plane,
                method=method,
                code=code.name if code is not None else "UNKNOWN",
                message=details or "",
                unreachable=code in UNREACHABLE_CODES,
            ) from None
        if not isinstance(response, response_type):
            raise DownstreamError(plane, method, "INTERNAL", "unexpected response type", False)
        return response

    def close(self) -> None:
        for channel in self._channels:
            channel.close()


def wait(future: Future[T], timeout_s: float, on_timeout: Callable[[], T]) -> T:
    """The task's result, or on_timeout() once the deadline (plus slack) has passed."""
    try:
        return future.result(timeout=timeout_s + DEADLINE_SLACK_S)
    except FutureTimeout:
        return on_timeout()
