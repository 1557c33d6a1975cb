"""Conversions between datetimes and protobuf Timestamps."""

from __future__ import annotations

from datetime import UTC, datetime

from google.protobuf.timestamp_pb2 import Timestamp

from engram.errors import InvalidArgument


def to_timestamp(value: datetime | str | None) -> Timestamp:
    ts = Timestamp()
    if value is None:
        return ts
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    ts.FromDatetime(value.astimezone(UTC))
    return ts


def from_timestamp(ts: Timestamp, field: str = "timestamp") -> datetime | None:
    """None for an unset (zero) Timestamp."""
    if ts.seconds == 0 and ts.nanos == 0:
        return None
    if ts.seconds < 0 or ts.seconds > 253402300799:
        raise InvalidArgument(field, "is out of range")
    return ts.ToDatetime(tzinfo=UTC)


def now() -> datetime:
    return datetime.now(UTC)
