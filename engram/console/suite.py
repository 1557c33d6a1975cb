"""The console's only way to the data: the suite's gRPC API, called with the
signed-in operator's bearer token. Errors keep the typed details the servers
attach (google.rpc.ErrorInfo, IllegalTransition, ConflictDetail)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2_grpc

from engram.channels import open_channel
from engram.cli.client import RpcFailure, decode_rpc_error
from engram.gateway.v1 import gateway_pb2_grpc
from engram.journal.v1 import journal_pb2_grpc
from engram.learning.v1 import learning_pb2_grpc
from engram.retrieval.v1 import retrieval_pb2_grpc


class SuiteError(Exception):
    """A refused or failed call, with the server's typed reason."""

    def __init__(self, failure: RpcFailure) -> None:
        super().__init__(failure.describe())
        self.failure = failure


def new_request_id() -> str:
    return str(uuid.uuid4())


class SuiteClient:
    """One channel to the suite shared by every browser session; each call
    carries the caller's token as metadata."""

    def __init__(self, address: str, timeout: float) -> None:
        self.address = address
        self.timeout = timeout
        self.channel = open_channel(address)
        self.learning = learning_pb2_grpc.LearningServiceStub(self.channel)
        self.journal = journal_pb2_grpc.JournalServiceStub(self.channel)
        self.retrieval = retrieval_pb2_grpc.RetrievalServiceStub(self.channel)
        self.gateway = gateway_pb2_grpc.GatewayServiceStub(self.channel)
        self.health = health_pb2_grpc.HealthStub(self.channel)

    def call(self, token: str, method: Callable[..., Any], request: Message) -> Any:
        metadata = [("authorization", f"Bearer {token}")] if token else []
        try:
            return method(request, timeout=self.timeout, metadata=metadata)
        except grpc.RpcError as error:
            raise SuiteError(decode_rpc_error(error)) from None

    def close(self) -> None:
        self.channel.close()
