"""The only way RetrievalService reaches JournalService: the kernel client
(engram.downstream), whose errors are the domain's.

What this package makes of them: a journal that could not be reached (or gave
no answer in time) is :class:`engram.errors.Unavailable`; bad input the
journal rejected is :class:`engram.errors.InvalidArgument` naming the
journal's field; a cursor it does not know is :class:`engram.errors.OutOfRange`;
anything else the journal answered with is :class:`JournalFailed` (the source
was reached but the search failed).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import grpc

from engram.downstream import (
    ChangeStream,
    DownstreamError,
    ServiceClient,
    change_stream,
)
from engram.errors import InvalidArgument, OutOfRange, Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jgrpc

__all__ = ["ChangeStream", "JournalClient", "JournalFailed"]

R = TypeVar("R")

# Passed on as they are: the caller decides (retry, rebuild, or answer with it).
_AS_IS = (Unavailable, InvalidArgument, OutOfRange)


class JournalFailed(Exception):
    """The journal answered with an error other than bad input or unreachability."""


class JournalClient:
    def __init__(self, channel: grpc.Channel, timeout_seconds: float) -> None:
        self._journal = ServiceClient("journal", channel, jgrpc.JournalServiceStub, timeout_seconds)

    def _call(self, method: str, request: object, response_type: type[R]) -> R:
        try:
            return self._journal.call(method, request, response_type)
        except DownstreamError as error:
            if isinstance(error, _AS_IS):
                raise
            raise JournalFailed(str(error)) from error

    def search_episodes(self, request: jpb.SearchEpisodesRequest) -> jpb.SearchEpisodesResponse:
        return self._call("SearchEpisodes", request, jpb.SearchEpisodesResponse)

    def batch_get(self, episode_ids: Sequence[str], context_turns: int = 0) -> list[jpb.Episode]:
        """Visible (not quarantined, not purged) episodes among `episode_ids`,
        with up to `context_turns` neighbouring turns each."""
        if not episode_ids:
            return []
        request = jpb.BatchGetEpisodesRequest(
            episode_ids=list(episode_ids), context_turns=context_turns
        )
        return list(self._call("BatchGetEpisodes", request, jpb.BatchGetEpisodesResponse).episodes)

    def find_exact(self, request: jpb.FindExactRequest) -> jpb.FindExactResponse:
        return self._call("FindExact", request, jpb.FindExactResponse)

    def stream_changes(self, after_cursor: int, *, follow: bool) -> ChangeStream:
        """Every change after the cursor, episodes with their vectors; reading
        it raises DownstreamError (an Unavailable, OutOfRange, ...)."""
        return change_stream(self._journal, after_cursor, follow=follow, include_embeddings=True)
