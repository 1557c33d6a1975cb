"""Durable learning policy: every accepted policy is a new version row."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from engram.auth import current_actor
from engram.db import Database
from engram.db.errors import translating
from learning_service import policy as policy_rules
from learning_service.policy import DEFAULT_POLICY, Policy
from learning_service.store import CONSTRAINT_ERRORS, Conn, Idempotency, Q


def load(conn: Conn) -> Policy:
    """The current policy, or the defaults (mode shadow) when none was set."""
    row = conn.execute(Q["policy_current"]).fetchone()
    if row is None:
        return DEFAULT_POLICY
    return policy_rules.parse(
        row["document"], updated_at=row["updated_at"], updated_by=row["updated_by"]
    )


class PolicyStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self) -> Policy:
        with self.db.connection() as conn:
            return load(conn)

    def check(self, document: Mapping[str, Any]) -> Policy:
        """The policy `set` would store (InvalidArgument as `set`); writes nothing."""
        parsed = policy_rules.parse(document)
        return policy_rules.parse(policy_rules.to_document(parsed), updated_by="")

    def set(self, document: Mapping[str, Any], request_id: UUID | None) -> Policy:
        """Validate (InvalidArgument naming the field and rule; nothing
        written) and store a new policy version."""
        parsed = policy_rules.parse(document)
        stored = policy_rules.to_document(parsed)
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(conn, "set_learning_policy", request_id, stored)
            if idem.replay() is None:
                conn.execute(
                    Q["insert_policy"], {"document": Jsonb(stored), "updated_by": current_actor()}
                )
                idem.store({"ok": True})
            return load(conn)
