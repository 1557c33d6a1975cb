"""AIP-158 page tokens: opaque, signed, bound to the query they page.

A token is base64url(JSON body "." HMAC-SHA256). The key is the deployment's
page-token secret (ENGRAM_PAGE_TOKEN_SECRET, or generated once into the data
directory: see :func:`load_secret`); the server installs it for the duration of
each call (:data:`secret_var`). Outside a call (tools, unit tests) a random
per-process key is used. Positions are typed: :func:`decode` checks every
value against the schema the caller pages by, so even a correctly signed token
cannot smuggle a value of the wrong type or range into a query.
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import json
import logging
import math
import os
import secrets
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from engram.errors import InvalidArgument

log = logging.getLogger("engram.pagination")

SECRET_FILE = "page-token-secret"
MIN_SECRET_CHARS = 16
MAX_TOKEN_CHARS = 4096
MAX_POSITION_STRING = 512
_INT_MAX = 2**63 - 1

_PROCESS_SECRET = secrets.token_bytes(32)

# The key of the serving deployment, set by the server interceptor per call.
secret_var: contextvars.ContextVar[bytes | None] = contextvars.ContextVar(
    "page_token_secret", default=None
)

# A position value: int (0..2**63-1), float (finite), str (<= 512 chars) or
# datetime (timezone-aware, carried as ISO 8601).
PositionType = type[int] | type[float] | type[str] | type[datetime]


def _key() -> bytes:
    return secret_var.get() or _PROCESS_SECRET


def _mac(payload: bytes) -> str:
    return hmac.new(_key(), b"engram-page-token-v2." + payload, hashlib.sha256).hexdigest()


def _wire(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


def encode(query: Mapping[str, Any], position: Mapping[str, Any]) -> str:
    body = json.dumps(
        {"q": _query_digest(query), "p": {k: _wire(v) for k, v in position.items()}},
        separators=(",", ":"),
        sort_keys=True,
        allow_nan=False,
    ).encode()
    return base64.urlsafe_b64encode(body + b"." + _mac(body).encode()).decode().rstrip("=")


def decode(
    token: str,
    query: Mapping[str, Any],
    schema: Mapping[str, PositionType],
    field: str = "page_token",
) -> dict[str, Any]:
    """Position stored in `token`: {} for an empty token, else exactly the
    keys of `schema`, each of its type."""
    if not token:
        return {}
    if len(token) > MAX_TOKEN_CHARS:
        raise InvalidArgument(field, "is not a token this service issued")
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        body, _, mac = raw.rpartition(b".")
        if not hmac.compare_digest(_mac(body).encode(), mac):
            raise ValueError("mac")
        data = json.loads(body)
    except (ValueError, TypeError):
        raise InvalidArgument(field, "is not a token this service issued") from None
    if not isinstance(data, dict) or data.get("q") != _query_digest(query):
        raise InvalidArgument(field, "was issued for a different query")
    position = data.get("p")
    if not isinstance(position, dict) or set(position) != set(schema):
        raise InvalidArgument(field, "is malformed")
    return {key: _typed(field, key, position[key], kind) for key, kind in schema.items()}


def _typed(field: str, key: str, value: Any, kind: PositionType) -> Any:
    bad = InvalidArgument(field, f"is malformed (position {key!r})")
    if kind is int:
        if type(value) is not int or not 0 <= value <= _INT_MAX:
            raise bad
        return value
    if kind is float:
        if type(value) not in (int, float) or not math.isfinite(value):
            raise bad
        return float(value)
    if kind is str:
        if type(value) is not str or len(value) > MAX_POSITION_STRING or "\x00" in value:
            raise bad
        return value
    if kind is datetime:
        if type(value) is not str or len(value) > 64:
            raise bad
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            raise bad from None
        if parsed.tzinfo is None:
            raise bad
        return parsed
    raise TypeError(f"unsupported position type {kind!r}")


def _query_digest(query: Mapping[str, Any]) -> str:
    return hashlib.sha256(
        json.dumps(dict(query), sort_keys=True, separators=(",", ":"), default=str).encode()
    ).hexdigest()[:16]


def load_secret(configured: str, data_dir: Path) -> bytes:
    """The deployment's page-token key: `configured` (ENGRAM_PAGE_TOKEN_SECRET)
    when set, else the secret in <data_dir>/page-token-secret, created on first
    use. Replicas that page for each other must share it; when the data
    directory cannot be written, a per-process key is used (tokens then do not
    survive a restart)."""
    if configured:
        if len(configured) < MIN_SECRET_CHARS:
            raise InvalidArgument(
                "page_token_secret", f"must have at least {MIN_SECRET_CHARS} characters"
            )
        return configured.encode()
    path = data_dir / SECRET_FILE
    try:
        existing = _read_secret(path)
        if existing is None:
            data_dir.mkdir(parents=True, exist_ok=True)
            # Written beside, then linked into place: a reader never sees a
            # partial file, and of two racing processes the first one wins.
            scratch = data_dir / f".{SECRET_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
            fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(secrets.token_hex(32) + "\n")
            try:
                os.link(scratch, path)
            except FileExistsError:
                pass
            finally:
                scratch.unlink()
            existing = _read_secret(path)
    except OSError as exc:
        log.warning(
            "cannot keep a page-token secret in the data directory; using a per-process key",
            extra={"path": str(path), "error": str(exc)},
        )
        return _PROCESS_SECRET
    if existing is None or len(existing) < MIN_SECRET_CHARS:
        raise InvalidArgument(
            "page_token_secret",
            f"{path} must hold a secret of at least {MIN_SECRET_CHARS} characters",
        )
    return existing.encode()


def _read_secret(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        return ""
