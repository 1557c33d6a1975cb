"""Validation at the edge: every request, before any servicer sees it.

One walk over the request, driven by its message descriptor, applied by the
server interceptor to every RPC. It rejects, with INVALID_ARGUMENT naming the
field (``entries[3].record_kind``, ``payload.tags[0]``):

* strings with NUL or lone surrogates, or longer than their bound;
* repeated and map fields with more items than their bound;
* NaN and infinities in float and double fields (Struct numbers included);
* enum values the schema does not define;
* Timestamps outside 0001-01-01..9999-12-31 or with nanos outside
  0..999,999,999.

An item of a repeated message field is named by index
(``entries[3].record_kind``), an item of a repeated scalar by its field with
the index in the message (``record_ids: item 2 must not contain ...``).

Bounds are generic (:data:`DEFAULT_MAX_CHARS`, :data:`DEFAULT_MAX_ITEMS`)
unless :data:`LIMITS` names the field; the services keep their own, usually
tighter, rules on top. Malformed wire bytes never reach this far: the
interceptor answers them with :func:`malformed`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from engram.errors import InvalidArgument

DEFAULT_MAX_CHARS = 4096
DEFAULT_MAX_ITEMS = 256

# "package.Message.field" -> the most characters (strings) or items (repeated,
# map) the field may hold. Every bound is at least the owning service's own
# limit (tests/unit/test_edge.py checks), so those keep their messages.
LIMITS: Mapping[str, int] = {
    # Long texts.
    "engram.journal.v1.CommitTurnRequest.user_text": 32_768,
    "engram.journal.v1.CommitTurnRequest.assistant_text": 32_768,
    "engram.journal.v1.CompleteRunRequest.request_text": 32_768,
    "engram.journal.v1.CompleteRunRequest.outcome_text": 32_768,
    "engram.journal.v1.CompleteRunRequest.error_text": 32_768,
    "engram.journal.v1.GetRecoveredMemoryRequest.pending_input": 32_768,
    "engram.learning.v1.GetLearnedContextRequest.pending_input": 32_768,
    "engram.gateway.v1.AssembleContextRequest.input_text": 16_384,
    "engram.gateway.v1.GetMemoryContextRequest.pending_input": 32_768,
    "engram.gateway.v1.ReleaseResponseRequest.candidate_text": 65_536,
    # Short fields that the defaults would let grow.
    "engram.journal.v1.RetrievalAuditEntry.record_kind": 64,
    "engram.journal.v1.RetrievalAuditEntry.section": 64,
    "engram.journal.v1.RetrievalAuditEntry.record_id": 128,
    # Large lists.
    "engram.journal.v1.SearchEpisodesRequest.query_embedding": 4096,
    "engram.retrieval.v1.RecallRequest.query_embedding": 4096,
    "engram.journal.v1.BatchGetEpisodesRequest.episode_ids": 1000,
    "engram.journal.v1.RecordRetrievalAuditRequest.entries": 256,
    # Struct payloads (AppendEvent): the journal also caps the encoded payload.
    "google.protobuf.Struct.fields": 4096,
    "google.protobuf.ListValue.values": 4096,
    "google.protobuf.Value.string_value": 262_144,
    "google.protobuf.Struct.FieldsEntry.key": 256,
}

# google.protobuf.Timestamp's valid range: 0001-01-01T00:00:00Z..9999-12-31T23:59:59Z.
MIN_TIMESTAMP_SECONDS = -62_135_596_800
MAX_TIMESTAMP_SECONDS = 253_402_300_799
MAX_NANOS = 999_999_999
MAX_DEPTH = 100

_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
_FLOATS = (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT)
_STRUCT = "google.protobuf.Struct"
_VALUE = "google.protobuf.Value"
_LIST = "google.protobuf.ListValue"
_TIMESTAMP = "google.protobuf.Timestamp"


def check(request: Message) -> None:
    """Raise InvalidArgument naming the first field that breaks an edge rule."""
    # Nearly every request is clean: a walk that builds no field paths says so;
    # only a request it rejects takes the walk that names the field.
    if not _clean(request, 0):
        _message(request, "", 0)


# -- the fast walk: the same rules, no field paths --------------------------------

# Per field: (type, limit, is map, is repeated, enum numbers, map key and value fields).
_Plan = tuple[int, int, bool, bool, frozenset[int], FieldDescriptor | None, FieldDescriptor | None]
_PLANS: dict[FieldDescriptor, _Plan] = {}


def _plan(field: FieldDescriptor) -> _Plan:
    plan = _PLANS.get(field)
    if plan is None:
        kind = field.type
        is_map = field.message_type is not None and field.message_type.GetOptions().map_entry
        default = DEFAULT_MAX_ITEMS if field.is_repeated else DEFAULT_MAX_CHARS
        enum = field.enum_type
        entry = field.message_type if is_map else None
        plan = (
            kind,
            _limit(field, default),
            is_map,
            field.is_repeated,
            frozenset(enum.values_by_number) if enum is not None else frozenset(),
            entry.fields_by_name["key"] if entry is not None else None,
            entry.fields_by_name["value"] if entry is not None else None,
        )
        _PLANS[field] = plan
    return plan


def _clean(message: Message, depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    if message.DESCRIPTOR.full_name == _TIMESTAMP:
        seconds = getattr(message, "seconds", 0)
        nanos = getattr(message, "nanos", 0)
        return MIN_TIMESTAMP_SECONDS <= seconds <= MAX_TIMESTAMP_SECONDS and 0 <= nanos <= MAX_NANOS
    for field, value in message.ListFields():
        kind, limit, is_map, repeated, _, key_field, value_field = _plan(field)
        if is_map:
            assert key_field is not None and value_field is not None
            if len(value) > limit:
                return False
            key_limit = _plan(key_field)[1]
            value_plan = _plan(value_field)
            for key, item in value.items():
                if isinstance(key, str) and (len(key) > key_limit or _BAD_CHARS.search(key)):
                    return False
                if not _clean_single(value_plan, item, depth):
                    return False
        elif repeated:
            if len(value) > limit:
                return False
            item_plan = _PLANS[field] if kind == FieldDescriptor.TYPE_MESSAGE else _scalar(field)
            for item in value:
                if not _clean_single(item_plan, item, depth):
                    return False
        elif not _clean_single(_PLANS[field], value, depth):
            return False
    return True


_SCALAR_PLANS: dict[FieldDescriptor, _Plan] = {}


def _scalar(field: FieldDescriptor) -> _Plan:
    """A repeated scalar's items take the per-item bound (chars, bytes), not the count."""
    plan = _SCALAR_PLANS.get(field)
    if plan is None:
        kind, _, is_map, _, enums, key_field, value_field = _plan(field)
        plan = (
            kind,
            _limit(field, DEFAULT_MAX_CHARS),
            is_map,
            False,
            enums,
            key_field,
            value_field,
        )
        _SCALAR_PLANS[field] = plan
    return plan


def _clean_single(plan: _Plan, value: Any, depth: int) -> bool:
    kind = plan[0]
    if kind == FieldDescriptor.TYPE_STRING:
        return len(value) <= plan[1] and _BAD_CHARS.search(value) is None
    if kind in _FLOATS:
        return math.isfinite(value)
    if kind == FieldDescriptor.TYPE_ENUM:
        return value in plan[4]
    if kind == FieldDescriptor.TYPE_BYTES:
        return len(value) <= plan[1]
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return _clean(value, depth + 1)
    return True


# -- the naming walk --------------------------------------------------------------


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _limit(field: FieldDescriptor, default: int) -> int:
    return LIMITS.get(field.full_name, default)


def _message(message: Message, path: str, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise InvalidArgument(path or "request", f"is nested deeper than {MAX_DEPTH} levels")
    name = message.DESCRIPTOR.full_name
    if name == _TIMESTAMP:
        _timestamp(message, path)
        return
    # Struct values are named by their keys and indexes, not by Struct's fields.
    well_known = name in (_VALUE, _LIST, _STRUCT)
    for field, value in message.ListFields():
        where = path if well_known else _join(path, field.name)
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            _map(field, value, where, depth)
        elif field.is_repeated:
            limit = _limit(field, DEFAULT_MAX_ITEMS)
            if len(value) > limit:
                raise InvalidArgument(where, f"has {len(value)} items; the limit is {limit}")
            # A message item is named by index (entries[3].record_kind); a
            # scalar one by its field, as the services name them.
            scalar = field.message_type is None
            for i, item in enumerate(value):
                if scalar:
                    _single(field, item, where, depth, item=i)
                else:
                    _single(field, item, f"{where}[{i}]", depth)
        else:
            _single(field, value, where, depth)


def _map(field: FieldDescriptor, value: Mapping[object, object], path: str, depth: int) -> None:
    limit = _limit(field, DEFAULT_MAX_ITEMS)
    if len(value) > limit:
        raise InvalidArgument(path, f"has {len(value)} entries; the limit is {limit}")
    entry = field.message_type
    assert entry is not None
    key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
    for key, item in value.items():
        if isinstance(key, str):
            _string(key_field, key, path or field.name, key=True)
        _single(value_field, item, _join(path, str(key)[:64]), depth)


def _error(path: str, item: int | None, message: str) -> InvalidArgument:
    return InvalidArgument(path, message if item is None else f"item {item} {message}")


def _single(
    field: FieldDescriptor, value: object, path: str, depth: int, item: int | None = None
) -> None:
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        assert isinstance(value, str)
        _string(field, value, path, item=item)
    elif kind in _FLOATS:
        assert isinstance(value, float | int)
        if not math.isfinite(value):
            raise _error(path, item, "must be a finite number (not NaN or infinity)")
    elif kind == FieldDescriptor.TYPE_ENUM:
        enum = field.enum_type
        assert enum is not None
        if value not in enum.values_by_number:
            raise _error(path, item, f"must be a value of {enum.name} (got {value})")
    elif kind == FieldDescriptor.TYPE_BYTES:
        assert isinstance(value, bytes)
        limit = _limit(field, DEFAULT_MAX_CHARS)
        if len(value) > limit:
            raise _error(path, item, f"is {len(value)} bytes; the limit is {limit}")
    elif kind == FieldDescriptor.TYPE_MESSAGE:
        assert isinstance(value, Message)
        _message(value, path, depth + 1)


def _string(
    field: FieldDescriptor, value: str, path: str, *, item: int | None = None, key: bool = False
) -> None:
    limit = _limit(field, DEFAULT_MAX_CHARS)
    what = "has a key of" if key else "is"
    if len(value) > limit:
        raise _error(path, item, f"{what} {len(value)} chars; the limit is {limit}")
    bad = _BAD_CHARS.search(value)
    if bad is not None:
        chars = "NUL characters" if bad.group() == "\x00" else "lone surrogates"
        raise _error(path, item, f"{'keys ' if key else ''}must not contain {chars}")


def _timestamp(message: Message, path: str) -> None:
    seconds = getattr(message, "seconds", 0)
    nanos = getattr(message, "nanos", 0)
    if not MIN_TIMESTAMP_SECONDS <= seconds <= MAX_TIMESTAMP_SECONDS:
        raise InvalidArgument(
            _join(path, "seconds"), "must lie within 0001-01-01 and 9999-12-31 (UTC)"
        )
    if not 0 <= nanos <= MAX_NANOS:
        raise InvalidArgument(_join(path, "nanos"), f"must be within 0..{MAX_NANOS}")


# -- malformed wire bytes -------------------------------------------------------


def malformed(descriptor: Descriptor, data: bytes) -> InvalidArgument:
    """The error for bytes that do not parse as `descriptor`, naming the field
    where parsing fails when it can be found (invalid UTF-8 in a string,
    truncated data)."""
    try:
        where = _locate(descriptor, data, "", 0)
    except Exception:  # the locator is best effort; the request is bad anyway
        where = None
    return InvalidArgument(
        where or "request",
        f"is not a valid {descriptor.name} (malformed protobuf or invalid UTF-8)",
        reason="MALFORMED_REQUEST",
    )


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ValueError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _locate(descriptor: Descriptor, data: bytes, prefix: str, depth: int) -> str | None:
    """Path of the first field at which `data` stops being a valid message."""
    if depth > 100:
        return prefix or None
    counts: dict[int, int] = {}
    pos = 0
    while pos < len(data):
        try:
            key, pos = _varint(data, pos)
        except ValueError:
            return prefix or None
        number, wire = key >> 3, key & 7
        field = descriptor.fields_by_number.get(number)
        name = _join(prefix, field.name) if field is not None else prefix
        try:
            if wire == 0:
                _, pos = _varint(data, pos)
                continue
            if wire in (1, 5):
                pos += 8 if wire == 1 else 4
                if pos > len(data):
                    return name or None
                continue
            if wire != 2:
                return name or None
            length, pos = _varint(data, pos)
        except ValueError:
            return name or None
        chunk, pos = data[pos : pos + length], pos + length
        if pos > len(data):
            return name or None
        if field is None:
            continue
        if field.is_repeated and field.type in (
            FieldDescriptor.TYPE_STRING,
            FieldDescriptor.TYPE_MESSAGE,
        ):
            index = counts.get(number, 0)
            counts[number] = index + 1
            if not (field.message_type is not None and field.message_type.GetOptions().map_entry):
                name = f"{name}[{index}]"
        if field.type == FieldDescriptor.TYPE_STRING:
            try:
                chunk.decode("utf-8")
            except UnicodeDecodeError:
                return name
        elif field.type == FieldDescriptor.TYPE_MESSAGE:
            assert field.message_type is not None
            inner = _locate(field.message_type, chunk, name, depth + 1)
            if inner:
                return inner
    return None
