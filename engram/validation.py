"""Input validation shared by the servicers. Every failure names its field."""

from __future__ import annotations

import re
import unicodedata
import uuid

from engram.errors import InvalidArgument

# \Z, not $: "$" also matches before a trailing newline. Match with fullmatch.
ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}\Z")
MAX_ID_LENGTH = 128
DEFAULT_WORKSPACE = "default"


def require_id(field: str, value: str) -> str:
    """A non-empty identifier of at most 128 chars from [A-Za-z0-9._:@-]."""
    if not value:
        raise InvalidArgument(field, "must not be empty")
    if not ID_PATTERN.fullmatch(value):
        raise InvalidArgument(
            field, "must be 1..128 chars of letters, digits and . _ : @ - (starting alphanumeric)"
        )
    return value


def optional_id(field: str, value: str) -> str:
    return require_id(field, value) if value else ""


MAX_NAME_LENGTH = 128


def optional_display_name(field: str, value: str) -> str:
    """A person's display name in any script ("Zoë", "São", "李雷"), or "".

    At most 128 characters, no control characters or line breaks, no
    surrounding whitespace.
    """
    if not value:
        return ""
    if len(value) > MAX_NAME_LENGTH:
        raise InvalidArgument(field, f"is {len(value)} chars; the limit is {MAX_NAME_LENGTH}")
    if value != value.strip():
        raise InvalidArgument(field, "must not start or end with whitespace")
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in value):
        raise InvalidArgument(field, "must not contain control characters or line breaks")
    return value


MAX_CONTEXT_TURNS = 5


def context_turns(field: str, value: int) -> int:
    """How many neighbouring turns a read returns per hit: 0..5."""
    if not 0 <= value <= MAX_CONTEXT_TURNS:
        raise InvalidArgument(field, f"must be 0..{MAX_CONTEXT_TURNS}, got {value}")
    return value


def workspace_or_default(field: str, value: str) -> str:
    return require_id(field, value) if value else DEFAULT_WORKSPACE


def require_request_id(field: str, value: str, *, required: bool = True) -> uuid.UUID | None:
    """AIP-155 request ids are UUIDs."""
    if not value:
        if required:
            raise InvalidArgument(field, "must be set (a UUID)")
        return None
    try:
        return uuid.UUID(value)
    except ValueError:
        raise InvalidArgument(field, f"must be a UUID, got {value[:40]!r}") from None


def require_text(field: str, value: str, *, max_chars: int, min_chars: int = 1) -> str:
    if len(value) < min_chars:
        raise InvalidArgument(
            field,
            "must not be empty" if min_chars == 1 else f"must have at least {min_chars} chars",
        )
    if len(value) > max_chars:
        raise InvalidArgument(field, f"is {len(value)} chars; the limit is {max_chars}")
    if "\x00" in value:
        raise InvalidArgument(field, "must not contain NUL characters")
    return value


def page_size(field: str, value: int, *, default: int, maximum: int) -> int:
    if value < 0:
        raise InvalidArgument(field, "must not be negative")
    if value > maximum:
        raise InvalidArgument(field, f"must be at most {maximum}")
    return value or default
