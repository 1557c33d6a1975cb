"""Policy files for `engram policy set`: read YAML or JSON, check every field
against the policy's proto descriptor (messages in the file's own snake_case
names, naming the file), and merge the partial policy onto the current one.

The merge rule (docs/operators.md, "Policy files"): a field the file names
replaces the current value; a field it leaves out keeps its current value
(the default until something set it); a list (publication.rules,
quarantined_rule_names) is replaced as a whole, never merged item by item.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, cast

import yaml
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

# Server-managed fields: shown by `policy get`, ignored when read back.
READ_ONLY_FIELDS = ("updated_at", "updated_by")

# Fields whose zero reads as "unset, use the default" on the wire (proto3
# scalars have no presence): an explicit 0 in a file would silently become
# the default, so it is refused instead.
ZERO_MEANS_DEFAULT: dict[str, str] = {
    "capture.max_candidates_per_run": (
        "must be at least 1 (0 would mean the default, 2); to capture no candidates "
        "set run_summary_enabled and semantic_enabled to false"
    ),
    "judge.timeout_ms": "must be at least 1 (0 would mean the default, 5000)",
    "retention_seconds": "must be at least 1 (0 would mean the default, 30 days)",
    "max_tracked_per_session": "must be at least 1 (0 would mean the default, 32)",
    "max_prompt_entries": "must be at least 1 (0 would mean the default, 3)",
}

_INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}
_FLOATS = (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE)


class PolicyFileError(ValueError):
    """Every problem found in a policy file, one "source: field: why" per line."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__("\n".join(f"{source}: {p}" for p in problems))


def read_policy_file(text: str, policy_type: type[Message], source: str) -> dict[str, Any]:
    """YAML or JSON text -> the partial `policy_type` it names, checked field
    by field and keyed by snake_case names; PolicyFileError otherwise."""
    descriptor = cast(Descriptor, policy_type.DESCRIPTOR)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise PolicyFileError(source, [f"not YAML or JSON: {first}"]) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise PolicyFileError(source, ["the policy must be a mapping of field names to values"])
    if set(data) == {"policy"} and isinstance(data["policy"], dict):
        data = data["policy"]
    for name in READ_ONLY_FIELDS:
        data.pop(name, None)
    problems: list[str] = []
    checked = _check_message(data, descriptor, "", problems)
    if problems:
        raise PolicyFileError(source, problems)
    return checked


def merge(current: Mapping[str, Any], partial: Mapping[str, Any]) -> dict[str, Any]:
    """`partial` over `current`: mappings merge field by field, anything else
    (scalars, lists) replaces."""
    merged = dict(current)
    for key, value in partial.items():
        base = merged.get(key)
        if isinstance(value, Mapping) and isinstance(base, Mapping):
            merged[key] = merge(base, value)
        else:
            merged[key] = value
    return merged


def changes(before: Mapping[str, Any], after: Mapping[str, Any], prefix: str = "") -> list[str]:
    """ "field: old -> new" for every leaf that differs (lists compared whole)."""
    out: list[str] = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        name = f"{prefix}{key}"
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            out.extend(changes(old, new, f"{name}."))
        elif old != new:
            out.append(f"{name}: {_show(old)} -> {_show(new)}")
    return out


def to_message(data: Mapping[str, Any], policy_type: type[Message]) -> Message:
    return json_format.ParseDict(dict(data), policy_type())


def without_read_only(data: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in READ_ONLY_FIELDS}


# ------------------------------------------------------------------ checking


def _show(value: Any) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, str):
        return value or "''"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return yaml.safe_dump(value, default_flow_style=True, width=10_000).strip()


def _field_for(descriptor: Descriptor, key: str) -> FieldDescriptor | None:
    field = descriptor.fields_by_name.get(key)
    if field is not None:
        return field
    # proto3 JSON also spells fields in lowerCamelCase; accept it.
    for candidate in descriptor.fields:
        if candidate.json_name == key:
            return candidate
    return None


def _unknown(descriptor: Descriptor, key: str, path: str) -> str:
    names = [f.name for f in descriptor.fields if path or f.name not in READ_ONLY_FIELDS]
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    hint = f"did you mean {close[0]}? " if close else ""
    return f"{path}{key}: unknown field ({hint}fields here: {', '.join(names)})"


def _check_message(
    data: Mapping[str, Any], descriptor: Descriptor, path: str, problems: list[str]
) -> dict[str, Any]:
    checked: dict[str, Any] = {}
    for key, raw in data.items():
        key_text = str(key)
        value = raw
        field = _field_for(descriptor, key_text)
        if field is None:
            problems.append(_unknown(descriptor, key_text, path))
            continue
        name = f"{path}{field.name}"
        if field.is_repeated:
            if value is None:
                value = []
            if not isinstance(value, list):
                problems.append(f"{name}: expected a list, got {_describe(value)}")
                continue
            checked[field.name] = [
                _check_value(item, field, f"{name}[{i}]", problems) for i, item in enumerate(value)
            ]
        else:
            checked[field.name] = _check_value(value, field, name, problems)
    return checked


def _check_value(value: Any, field: FieldDescriptor, name: str, problems: list[str]) -> Any:
    kind = field.type
    if kind == FieldDescriptor.TYPE_MESSAGE and field.message_type is not None:
        if value is None:
            value = {}
        if not isinstance(value, dict):
            problems.append(f"{name}: expected a mapping of fields, got {_describe(value)}")
            return value
        return _check_message(value, field.message_type, f"{name}.", problems)
    if kind == FieldDescriptor.TYPE_BOOL:
        if not isinstance(value, bool):
            problems.append(f"{name}: expected true or false, got {_describe(value)}")
        return value
    if kind == FieldDescriptor.TYPE_ENUM and field.enum_type is not None:
        return _check_enum(value, field.enum_type, name, problems)
    if kind == FieldDescriptor.TYPE_STRING:
        if not isinstance(value, str):
            problems.append(f"{name}: expected text, got {_describe(value)}")
        return value
    if kind in _FLOATS:
        if isinstance(value, bool) or not isinstance(value, int | float):
            problems.append(f"{name}: expected a number, got {_describe(value)}")
        return value
    if kind in _INT_RANGES:
        return _check_int(value, kind, name, problems)
    return value


def _check_int(value: Any, kind: int, name: str, problems: list[str]) -> Any:
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        number = int(value.strip())  # proto3 JSON writes 64-bit integers as strings
    if number is None:
        problems.append(f"{name}: expected a whole number, got {_describe(value)}")
        return value
    low, high = _INT_RANGES[kind]
    if not low <= number <= high:
        problems.append(f"{name}: {number} is out of range ({low}..{high})")
    elif number == 0 and name in ZERO_MEANS_DEFAULT:
        problems.append(f"{name}: {ZERO_MEANS_DEFAULT[name]}")
    return number


def _check_enum(value: Any, enum: EnumDescriptor, name: str, problems: list[str]) -> Any:
    names = [v.name for v in enum.values if not v.name.endswith("_UNSPECIFIED")]
    if isinstance(value, str) and value in enum.values_by_name:
        return value
    if isinstance(value, str):
        word = value.strip().upper().replace("-", "_")
        close = [n for n in names if n.endswith(f"_{word}")]
        close = close or difflib.get_close_matches(word, names, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}? " if close else ""
        problems.append(f"{name}: unknown value {value!r} ({hint}choose {', '.join(names)})")
    else:
        problems.append(f"{name}: expected one of {', '.join(names)}, got {_describe(value)}")
    return value


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int | float):
        return f"{value} (a number)"
    return repr(value)
