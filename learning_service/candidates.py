"""Candidates: creation (API and daemon), listing, rejection and the
candidate lifecycle. Domain code: no gRPC here.

    pending --> escalated            (automation handed it to a human)
    pending | escalated --> published | rejected
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from engram.auth import current_actor
from engram.db import Database
from engram.db.errors import translating
from engram.errors import IllegalTransition, InvalidArgument, NotFound, TransitionDetail
from engram.redaction import looks_like_secret
from engram.timeutil import now
from learning_service.model import (
    OPEN_CANDIDATE_STATUSES,
    CandidateStatus,
    Kind,
    Origin,
    Scope,
    ScopeKind,
    Sensitivity,
)
from learning_service.store import CONSTRAINT_ERRORS, Conn, Idempotency, Q, Row
from learning_service.text import content_hash

MAX_CONTENT = 4000
MAX_REASON = 1000
MAX_EVIDENCE_REFS = 32
MAX_EVIDENCE_REF_CHARS = 256

# Legal moves of a candidate, for IllegalTransition details.
CANDIDATE_MOVES: dict[CandidateStatus, tuple[CandidateStatus, ...]] = {
    CandidateStatus.PENDING: (
        CandidateStatus.ESCALATED,
        CandidateStatus.PUBLISHED,
        CandidateStatus.REJECTED,
    ),
    CandidateStatus.ESCALATED: (CandidateStatus.PUBLISHED, CandidateStatus.REJECTED),
    CandidateStatus.PUBLISHED: (),
    CandidateStatus.REJECTED: (),
}


@dataclass(frozen=True)
class SourceRef:
    run_id: str = ""
    session_id: str = ""
    subject: str = ""
    workspace: str = ""
    event_id: int = 0


@dataclass(frozen=True)
class NewCandidate:
    origin: Origin
    scope: Scope
    kind: Kind
    content: str
    confidence: int
    source: SourceRef = field(default_factory=SourceRef)
    evidence_refs: tuple[str, ...] = ()
    sensitivity: Sensitivity = Sensitivity.NORMAL
    expires_at: datetime | None = None


def check_not_secret(field_name: str, text: str) -> None:
    """Secret-looking text (credentials, assignment shapes, redaction markers)
    is refused before anything is stored."""
    if looks_like_secret(text):
        raise InvalidArgument(
            field_name, "looks like secret material; it is never stored", reason="SECRET_CONTENT"
        )


def check_reason(field_name: str, reason: str, *, required: bool) -> str:
    reason = reason.strip()
    if required and not reason:
        raise InvalidArgument(field_name, "must not be empty")
    if len(reason) > MAX_REASON:
        raise InvalidArgument(field_name, f"is {len(reason)} chars; the limit is {MAX_REASON}")
    check_not_secret(field_name, reason)
    return reason


def check_content(content: str) -> str:
    if not content.strip():
        raise InvalidArgument("content", "must not be empty")
    if len(content) > MAX_CONTENT:
        raise InvalidArgument("content", f"is {len(content)} chars; the limit is {MAX_CONTENT}")
    if "\x00" in content:
        raise InvalidArgument("content", "must not contain NUL characters")
    check_not_secret("content", content)
    return content


def validate_api_candidate(candidate: NewCandidate) -> None:
    if candidate.kind is Kind.RUN_SUMMARY:
        raise InvalidArgument(
            "kind", "run_summary candidates are daemon-owned", reason="RUN_SUMMARY_DAEMON_OWNED"
        )
    check_content(candidate.content)
    if not 0 <= candidate.confidence <= 100:
        raise InvalidArgument("confidence", "must be 0..100")
    if len(candidate.evidence_refs) > MAX_EVIDENCE_REFS:
        raise InvalidArgument("evidence_refs", f"at most {MAX_EVIDENCE_REFS} references")
    for i, ref in enumerate(candidate.evidence_refs):
        if not ref or len(ref) > MAX_EVIDENCE_REF_CHARS:
            raise InvalidArgument(
                f"evidence_refs[{i}]", f"must be 1..{MAX_EVIDENCE_REF_CHARS} chars"
            )
        check_not_secret(f"evidence_refs[{i}]", ref)
    if candidate.expires_at is not None and candidate.expires_at <= now():
        raise InvalidArgument("expires_at", "must be in the future")
    if candidate.scope.kind is ScopeKind.SESSION and not candidate.source.subject:
        # A session id is only unique within a subject's workspace: the
        # learning is visible to reads by this subject and workspace only.
        raise InvalidArgument(
            "source.subject", "a session-scoped candidate must name whose session it is"
        )


def _params(candidate: NewCandidate) -> dict[str, Any]:
    return {
        "origin": candidate.origin.value,
        "scope_kind": candidate.scope.kind.value,
        "scope_id": candidate.scope.id,
        "kind": candidate.kind.value,
        "content": candidate.content,
        "content_sha256": content_hash(candidate.content),
        "confidence": candidate.confidence,
        "source_run_id": candidate.source.run_id,
        "source_session_id": candidate.source.session_id,
        "source_subject": candidate.source.subject,
        "source_workspace": candidate.source.workspace,
        "source_event_id": candidate.source.event_id,
        "evidence_refs": list(candidate.evidence_refs),
        "sensitivity": candidate.sensitivity.value,
        "expires_at": candidate.expires_at,
    }


def record_status(
    conn: Conn,
    candidate_id: UUID | str,
    status: CandidateStatus,
    *,
    actor: str,
    reason: str = "",
    learning_id: UUID | str | None = None,
) -> None:
    conn.execute(
        Q["insert_candidate_event"],
        {
            "candidate_id": candidate_id,
            "status": status.value,
            "reason": reason,
            "actor": actor,
            "learning_id": learning_id,
        },
    )


def insert_daemon_candidate(conn: Conn, candidate: NewCandidate) -> UUID | None:
    """Insert a capture candidate; None when this (run, kind, content) exists."""
    row = conn.execute(Q["insert_daemon_candidate"], _params(candidate)).fetchone()
    if row is None:
        return None
    candidate_id: UUID = row["candidate_id"]
    record_status(conn, candidate_id, CandidateStatus.PENDING, actor="capture")
    return candidate_id


def get_candidate(conn: Conn, candidate_id: UUID | str) -> Row:
    row = conn.execute(Q["candidate_by_id"], {"candidate_id": candidate_id}).fetchone()
    if row is None:
        raise NotFound(f"no candidate {candidate_id}")
    return row


def lock_open_candidate(conn: Conn, candidate_id: UUID | str, requested: CandidateStatus) -> Row:
    """Lock the candidate's state row and require pending/escalated."""
    state = conn.execute(Q["lock_candidate_state"], {"candidate_id": candidate_id}).fetchone()
    if state is None:
        raise NotFound(f"no candidate {candidate_id}")
    current = CandidateStatus(state["status"])
    if current not in OPEN_CANDIDATE_STATUSES:
        raise IllegalTransition(
            TransitionDetail(
                entity="candidate",
                entity_id=str(candidate_id),
                current_state=current.value,
                requested_state=requested.value,
                allowed_states=tuple(s.value for s in CANDIDATE_MOVES[current]),
            ),
            reason="CANDIDATE_NOT_OPEN",
        )
    return get_candidate(conn, candidate_id)


class CandidateBook:
    def __init__(self, db: Database) -> None:
        self.db = db

    def create(self, candidate: NewCandidate, request_id: UUID | None) -> Row:
        """An API-origin candidate, validated before anything is written."""
        validate_api_candidate(candidate)
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(conn, "create_candidate", request_id, _params(candidate))
            replay = idem.replay()
            if replay is not None:
                return get_candidate(conn, replay["candidate_id"])
            row = conn.execute(Q["insert_candidate"], _params(candidate)).fetchone()
            assert row is not None
            record_status(conn, row["candidate_id"], CandidateStatus.PENDING, actor=current_actor())
            idem.store({"candidate_id": str(row["candidate_id"])})
            return get_candidate(conn, row["candidate_id"])

    def get(self, candidate_id: UUID) -> Row:
        with self.db.connection() as conn:
            return get_candidate(conn, candidate_id)

    def list(
        self, statuses: Sequence[CandidateStatus], kind: Kind | None, before_seq: int, limit: int
    ) -> list[Row]:
        with self.db.connection() as conn:
            return conn.execute(
                Q["candidates_page"],
                {
                    "statuses": [s.value for s in statuses],
                    "kind": kind.value if kind else None,
                    "before": before_seq,
                    "limit": limit,
                },
            ).fetchall()

    def reject(self, candidate_id: UUID, reason: str, request_id: UUID | None) -> Row:
        reason = check_reason("reason", reason, required=False)
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(
                conn,
                "reject_candidate",
                request_id,
                {"candidate_id": str(candidate_id), "reason": reason},
            )
            if idem.replay() is not None:
                return get_candidate(conn, candidate_id)
            lock_open_candidate(conn, candidate_id, CandidateStatus.REJECTED)
            record_status(
                conn,
                candidate_id,
                CandidateStatus.REJECTED,
                actor=current_actor(),
                reason=reason or "rejected by operator",
            )
            idem.store({"candidate_id": str(candidate_id)})
            return get_candidate(conn, candidate_id)


def review_json(judge: dict[str, Any] | None) -> Jsonb | None:
    return Jsonb(judge) if judge is not None else None
