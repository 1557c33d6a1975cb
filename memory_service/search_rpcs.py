"""Episode search, FindExact and the embedding worker (placeholder until the plane lands)."""

from __future__ import annotations

from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from memory_service.planes import Lifecycle, PlaneContext


class SearchRpcs(pb_grpc.JournalServiceServicer):
    pass


def attach(plane: PlaneContext, lifecycle: Lifecycle) -> None:
    del plane, lifecycle
