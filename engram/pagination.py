"""AIP-158 page tokens: opaque, tamper-evident, bound to the query they page."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Mapping
from typing import Any

from engram.errors import InvalidArgument

# Tokens are opaque to clients but not secret: the MAC only detects tampering
# and reuse with a different query.
_KEY = b"engram-page-token-v1"


def _mac(payload: bytes) -> str:
    return hmac.new(_KEY, payload, hashlib.sha256).hexdigest()[:16]


def encode(query: Mapping[str, Any], position: Mapping[str, Any]) -> str:
    body = json.dumps(
        {"q": _query_digest(query), "p": dict(position)}, separators=(",", ":"), sort_keys=True
    ).encode()
    return base64.urlsafe_b64encode(body + b"." + _mac(body).encode()).decode().rstrip("=")


def decode(token: str, query: Mapping[str, Any], field: str = "page_token") -> dict[str, Any]:
    """Position stored in `token`; {} for an empty token."""
    if not token:
        return {}
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        body, _, mac = raw.rpartition(b".")
        if not hmac.compare_digest(_mac(body).encode(), mac):
            raise ValueError("mac")
        data = json.loads(body)
    except (ValueError, json.JSONDecodeError):
        raise InvalidArgument(field, "is not a token this service issued") from None
    if data.get("q") != _query_digest(query):
        raise InvalidArgument(field, "was issued for a different query")
    position = data.get("p")
    if not isinstance(position, dict):
        raise InvalidArgument(field, "is malformed")
    return position


def _query_digest(query: Mapping[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(dict(query), sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()[:16]
