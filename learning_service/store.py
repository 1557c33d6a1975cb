"""Storage helpers of the learning service: named queries, the constraint
table, AIP-155 idempotency records, durable counters and worker cursors."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from engram.db.errors import ErrorFactory
from engram.db.queries import Queries
from engram.errors import AlreadyExists, InvalidArgument

Q = Queries(Path(__file__).with_name("queries.sql"))

Conn = psycopg.Connection[dict[str, Any]]
Row = dict[str, Any]

# psycopg errors by constraint name -> domain errors; the one table for this service.
CONSTRAINT_ERRORS: dict[str, ErrorFactory] = {
    "idempotency_pkey": lambda _e: AlreadyExists(
        "request_id was already used", reason="REQUEST_ID_REUSED"
    ),
    "candidates_workspace_default": lambda _e: InvalidArgument(
        "scope.id", 'the workspace scope id is always "default"', reason="INVALID_WORKSPACE"
    ),
    "candidates_run_summary_daemon_owned": lambda _e: InvalidArgument(
        "kind", "run_summary candidates are daemon-owned", reason="RUN_SUMMARY_DAEMON_OWNED"
    ),
    "candidates_content_length": lambda _e: InvalidArgument(
        "content", "must be 1..4000 characters"
    ),
    "candidates_confidence_range": lambda _e: InvalidArgument("confidence", "must be 0..100"),
    "skill_versions_pkey": lambda _e: AlreadyExists("skill name is taken", reason="SKILL_EXISTS"),
}


def fingerprint(fields: Mapping[str, Any]) -> str:
    """Digest of a request's meaningful fields, to tell a replay from a reuse."""
    body = json.dumps(dict(fields), sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def lock_key(conn: Conn, key: str) -> None:
    """Transaction-scoped advisory lock on an arbitrary key."""
    conn.execute(Q["advisory_lock"], {"key": key})


class Idempotency:
    """AIP-155 for one operation inside the caller's transaction: take the
    request's lock, replay a stored result, or store a new one."""

    def __init__(
        self, conn: Conn, operation: str, request_id: UUID | None, request: Mapping[str, Any]
    ) -> None:
        self.conn = conn
        self.operation = operation
        self.request_id = request_id
        self.request_sha256 = fingerprint(request)

    def replay(self) -> dict[str, Any] | None:
        if self.request_id is None:
            return None
        lock_key(self.conn, f"learning:{self.operation}:{self.request_id}")
        row = self.conn.execute(
            Q["idempotency_get"], {"operation": self.operation, "request_id": self.request_id}
        ).fetchone()
        if row is None:
            return None
        if row["request_sha256"] != self.request_sha256:
            raise AlreadyExists(
                f"request_id {self.request_id} was already used for a different "
                f"{self.operation} request",
                reason="REQUEST_ID_REUSED",
            )
        response: dict[str, Any] = row["response"]
        return response

    def store(self, response: Mapping[str, Any]) -> None:
        if self.request_id is None:
            return
        self.conn.execute(
            Q["idempotency_put"],
            {
                "operation": self.operation,
                "request_id": self.request_id,
                "request_sha256": self.request_sha256,
                "response": Jsonb(dict(response)),
            },
        )


def add_counter(conn: Conn, name: str, amount: int = 1) -> None:
    if amount:
        conn.execute(Q["counter_add"], {"name": name, "amount": amount})


def counters(conn: Conn) -> dict[str, int]:
    return {str(r["name"]): int(r["value"]) for r in conn.execute(Q["counters_all"]).fetchall()}


def cursor_position(conn: Conn, name: str, *, for_update: bool = False) -> int:
    query = "cursor_for_update" if for_update else "cursor_get"
    row = conn.execute(Q[query], {"name": name}).fetchone()
    assert row is not None, f"worker cursor {name} missing (migration not applied?)"
    return int(row["position"])


def advance_cursor(conn: Conn, name: str, position: int) -> None:
    conn.execute(Q["cursor_advance"], {"name": name, "position": position})
