"""Domain exceptions shared by every service.

Domain code raises these and knows nothing of gRPC; `engram.interceptors`
maps each class to a status code in one table and attaches a
google.rpc.ErrorInfo (and, for InvalidArgument, a google.rpc.BadRequest naming
the field). `reason` is an UPPER_SNAKE machine-readable cause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


class EngramError(Exception):
    """Base of every error a client may see."""

    default_reason = "ENGRAM_ERROR"

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason or self.default_reason
        self.metadata: dict[str, str] = dict(metadata or {})


class InvalidArgument(EngramError):
    """Bad input. Names the offending field; nothing was written."""

    default_reason = "INVALID_ARGUMENT"

    def __init__(
        self,
        field_name: str,
        message: str,
        *,
        reason: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        merged = {"field": field_name, **(metadata or {})}
        super().__init__(f"{field_name}: {message}", reason=reason, metadata=merged)
        self.field = field_name
        self.description = message


class NotFound(EngramError):
    default_reason = "NOT_FOUND"


class AlreadyExists(EngramError):
    default_reason = "ALREADY_EXISTS"


class FailedPrecondition(EngramError):
    default_reason = "FAILED_PRECONDITION"


@dataclass(frozen=True)
class TransitionDetail:
    entity: str
    entity_id: str
    current_state: str
    requested_state: str
    allowed_states: Sequence[str] = field(default_factory=tuple)


class IllegalTransition(FailedPrecondition):
    """A verb RPC asked for a state move the lifecycle does not allow."""

    default_reason = "ILLEGAL_TRANSITION"

    def __init__(
        self,
        detail: TransitionDetail,
        message: str | None = None,
        *,
        reason: str | None = None,
    ) -> None:
        allowed = ", ".join(detail.allowed_states) or "none"
        super().__init__(
            message
            or (
                f"{detail.entity} {detail.entity_id} is {detail.current_state}; "
                f"cannot move to {detail.requested_state} (allowed: {allowed})"
            ),
            reason=reason,
            metadata={
                "entity": detail.entity,
                "current_state": detail.current_state,
                "requested_state": detail.requested_state,
            },
        )
        self.detail = detail


@dataclass(frozen=True)
class ConflictInfo:
    existing_id: str
    subject_key: str
    resolution: str


class Conflict(EngramError):
    """A same-subject, different-value conflict with an existing record."""

    default_reason = "CONFLICT"

    def __init__(self, info: ConflictInfo, message: str) -> None:
        super().__init__(message, metadata={"existing_id": info.existing_id})
        self.info = info


class Unauthenticated(EngramError):
    default_reason = "UNAUTHENTICATED"


class PermissionDenied(EngramError):
    default_reason = "PERMISSION_DENIED"


class Unavailable(EngramError):
    """A dependency (database, another service) cannot be reached."""

    default_reason = "UNAVAILABLE"


class OutOfRange(EngramError):
    default_reason = "OUT_OF_RANGE"


class Internal(EngramError):
    default_reason = "INTERNAL"
