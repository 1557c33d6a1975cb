"""The only way RetrievalService reaches JournalService: its gRPC stub.

gRPC failures become domain outcomes here, so the rest of the package never
sees a status code: the journal unreachable (or past the deadline) is
:class:`engram.errors.Unavailable`; bad input the journal rejected is
:class:`engram.errors.InvalidArgument` naming the journal's field; anything
else the journal answered with is :class:`JournalFailed` (the source was
reached but the search failed).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram.errors import InvalidArgument, OutOfRange, Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc

_UNREACHABLE = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.DEADLINE_EXCEEDED,
    grpc.StatusCode.CANCELLED,
    grpc.StatusCode.UNAUTHENTICATED,
    grpc.StatusCode.PERMISSION_DENIED,
)


class JournalFailed(Exception):
    """The journal answered with an error other than bad input or unreachability."""


def _error_field(error: grpc.RpcError) -> str:
    try:
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
    except Exception:
        return "request"
    if status is None:
        return "request"
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info) and info.metadata.get("field"):
            return str(info.metadata["field"])
    return "request"


def translate(error: grpc.RpcError, what: str) -> Exception:
    code = error.code() if hasattr(error, "code") else grpc.StatusCode.UNKNOWN
    details = error.details() if hasattr(error, "details") else str(error)
    if code in _UNREACHABLE:
        return Unavailable(f"journal {what}: {code.name}: {details}", reason="JOURNAL_UNAVAILABLE")
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        return InvalidArgument(_error_field(error), str(details))
    if code == grpc.StatusCode.OUT_OF_RANGE:
        return OutOfRange(f"journal {what}: {details}")
    return JournalFailed(f"journal {what}: {code.name}: {details}")


class ChangeStream:
    """A StreamChanges call that another thread can cancel."""

    def __init__(self, call: Any) -> None:
        self._call = call

    def __iter__(self) -> Iterator[jpb.StreamChangesResponse]:
        try:
            yield from self._call
        except grpc.RpcError as error:
            raise translate(error, "StreamChanges") from None

    def cancel(self) -> None:
        self._call.cancel()


class JournalClient:
    def __init__(self, channel: grpc.Channel, timeout_seconds: float) -> None:
        self._stub = jgrpc.JournalServiceStub(channel)
        self._timeout = timeout_seconds

    def search_episodes(self, request: jpb.SearchEpisodesRequest) -> jpb.SearchEpisodesResponse:
        try:
            response: jpb.SearchEpisodesResponse = self._stub.SearchEpisodes(
                request, timeout=self._timeout
            )
        except grpc.RpcError as error:
            raise translate(error, "SearchEpisodes") from None
        return response

    def batch_get(self, episode_ids: Sequence[str], context_turns: int = 0) -> list[jpb.Episode]:
        """Visible (not quarantined, not purged) episodes among `episode_ids`,
        with up to `context_turns` neighbouring turns each."""
        if not episode_ids:
            return []
        request = jpb.BatchGetEpisodesRequest(
            episode_ids=list(episode_ids), context_turns=context_turns
        )
        try:
            response: jpb.BatchGetEpisodesResponse = self._stub.BatchGetEpisodes(
                request, timeout=self._timeout
            )
        except grpc.RpcError as error:
            raise translate(error, "BatchGetEpisodes") from None
        return list(response.episodes)

    def find_exact(self, request: jpb.FindExactRequest) -> jpb.FindExactResponse:
        try:
            response: jpb.FindExactResponse = self._stub.FindExact(request, timeout=self._timeout)
        except grpc.RpcError as error:
            raise translate(error, "FindExact") from None
        return response

    def stream_changes(self, after_cursor: int, *, follow: bool) -> ChangeStream:
        call = self._stub.StreamChanges(
            jpb.StreamChangesRequest(
                after_cursor=after_cursor, follow=follow, include_embeddings=True
            )
        )
        return ChangeStream(call)
