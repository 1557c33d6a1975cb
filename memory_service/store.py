"""Storage helpers shared by the journal's domain modules: named queries,
constraint translation, idempotency records and the ordered change feed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg

from engram.db.errors import ErrorFactory
from engram.db.queries import Queries
from engram.errors import AlreadyExists, InvalidArgument

Q = Queries(Path(__file__).with_name("queries.sql"))

Conn = psycopg.Connection[dict[str, Any]]

# psycopg errors by constraint name -> domain errors; the one table for this service.
CONSTRAINT_ERRORS: dict[str, ErrorFactory] = {
    "events_event_type_format": lambda _e: InvalidArgument(
        "event_type", "must be dotted lowercase segments, e.g. tool.call.completed"
    ),
    "idempotency_pkey": lambda _e: AlreadyExists(
        "request_id was already used", reason="REQUEST_ID_REUSED"
    ),
}


def sha256_hex(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


def fingerprint(fields: Mapping[str, Any]) -> str:
    """Digest of a request's meaningful fields, to tell a replay from a reuse."""
    return sha256_hex(json.dumps(dict(fields), sort_keys=True, default=str, separators=(",", ":")))


def idempotent_lookup(
    conn: Conn, operation: str, request_id: UUID, request_sha256: str
) -> dict[str, Any] | None:
    """The original response for request_id, or None; raises on reuse with other content."""
    row = conn.execute(
        Q["idempotency_get"], {"operation": operation, "request_id": request_id}
    ).fetchone()
    if row is None:
        return None
    if row["request_sha256"] != request_sha256:
        raise AlreadyExists(
            f"request_id {request_id} was already used for a different {operation} request",
            reason="REQUEST_ID_REUSED",
        )
    response: dict[str, Any] = json.loads(bytes(row["response"]))
    return response


def idempotent_store(
    conn: Conn,
    operation: str,
    request_id: UUID,
    request_sha256: str,
    response: Mapping[str, Any],
    subject: str,
) -> None:
    conn.execute(
        Q["idempotency_put"],
        {
            "operation": operation,
            "request_id": request_id,
            "request_sha256": request_sha256,
            "response": json.dumps(dict(response), default=str).encode(),
            "subject": subject,
        },
    )


def lock_key(conn: Conn, key: str) -> None:
    conn.execute(Q["advisory_lock"], {"key": key})


@dataclass(frozen=True)
class ChangeRow:
    kind: str
    subject: str
    workspace: str = ""
    session_id: str = ""
    record_kind: str = ""
    record_id: str = ""
    event_type: str = ""
    event_id: int = 0


def append_changes(conn: Conn, changes: Sequence[ChangeRow]) -> list[int]:
    """Insert changes in the caller's transaction; returns their cursors.

    Cursors come from the transaction's own id (migration 0008): no lock, so
    this may run anywhere in the transaction. Followers see the changes once
    every older transaction has ended; after the commit, the writer calls
    FeedNotifier.announce() (Journal.announce) to wake them."""
    if not changes:
        return []
    row = conn.execute(
        Q["append_changes"],
        {
            "kinds": [c.kind for c in changes],
            "subjects": [c.subject for c in changes],
            "workspaces": [c.workspace for c in changes],
            "session_ids": [c.session_id for c in changes],
            "record_kinds": [c.record_kind for c in changes],
            "record_ids": [c.record_id for c in changes],
            "event_types": [c.event_type for c in changes],
            "event_ids": [c.event_id for c in changes],
        },
    ).fetchone()
    assert row is not None
    return [int(c) for c in row["cursors"]]


def add_counter(conn: Conn, name: str, amount: int = 1) -> None:
    if amount:
        conn.execute(Q["counter_add"], {"name": name, "amount": amount})
