"""Published learnings: publication (manual and automatic), same-subject
conflicts, supersede, revoke, and reads. Domain code: no gRPC here.

Nothing is overwritten. A learning's facts are one immutable row; each state
change appends a revision (learning.learning_revisions) and the current state
is the latest revision.

    active (provisional | active tier) --> revoked | superseded
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from engram.auth import current_actor
from engram.db import Database
from engram.db.errors import translating
from engram.errors import (
    Conflict,
    ConflictInfo,
    IllegalTransition,
    InvalidArgument,
    NotFound,
    TransitionDetail,
)
from engram.validation import DEFAULT_WORKSPACE
from learning_service import skills
from learning_service.candidates import (
    check_reason,
    get_candidate,
    lock_open_candidate,
    record_status,
)
from learning_service.model import (
    SEMANTIC_KINDS,
    CandidateStatus,
    Decision,
    Kind,
    LearningStatus,
    Scope,
    ScopeKind,
    Tier,
    Verification,
)
from learning_service.store import CONSTRAINT_ERRORS, Conn, Idempotency, Q, Row, lock_key
from learning_service.term_index import revision_terms
from learning_service.text import SubjectValue, subject_value

SUPERSEDE_RESOLUTION = "name the existing record in supersedes to replace it"


class StatusFilter:
    """ListLearnings filters: (statuses, tier or None)."""

    ACTIVE = (("active",), "active")
    PROVISIONAL = (("active",), "provisional")
    REVOKED = (("revoked",), None)
    SUPERSEDED = (("superseded",), None)
    ALL = (("active", "revoked", "superseded"), None)


@dataclass(frozen=True)
class Publication:
    tier: Tier
    decision: Decision
    actor: str
    verification: Verification
    reason: str = ""
    supersedes: UUID | None = None


@dataclass(frozen=True)
class ConflictFound:
    existing_id: UUID
    subject_key: str


def find_conflict(conn: Conn, candidate: Row, exclude: UUID | None = None) -> ConflictFound | None:
    """An active learning in the same scope and kind that states a different
    value for the same subject ("codename is Atlas" vs "codename is Borealis").

    Takes a transaction lock on the subject so two publications of the same
    subject cannot both pass the check.
    """
    if Kind(candidate["kind"]) not in SEMANTIC_KINDS:
        return None
    split = subject_value(candidate["content"])
    if split is None:
        return None
    lock_key(
        conn, f"learning-subject:{candidate['scope_key']}:{candidate['kind']}:{split.subject_key}"
    )
    rows = conn.execute(
        Q["conflicting_learnings"],
        {
            "scope_kind": candidate["scope_kind"],
            "scope_id": candidate["scope_id"],
            "kind": candidate["kind"],
            "subject_key": split.subject_key,
            "value_key": split.value_key,
            "source_subject": candidate["source_subject"],
            "source_workspace": candidate["source_workspace"],
        },
    ).fetchall()
    for row in rows:
        if row["learning_id"] != exclude:
            return ConflictFound(row["learning_id"], split.subject_key)
    return None


def same_session_owner(a: Row, b: Row) -> bool:
    """A session scope is its source subject/workspace's (as the SQL's
    learning.session_visible decides); other scopes are shared."""
    if a["scope_kind"] != ScopeKind.SESSION.value:
        return True
    return (a["source_subject"], a["source_workspace"] or DEFAULT_WORKSPACE) == (
        b["source_subject"],
        b["source_workspace"] or DEFAULT_WORKSPACE,
    )


def _lock_active_learning(conn: Conn, learning_id: UUID, requested: LearningStatus) -> Row:
    state = conn.execute(Q["lock_learning_state"], {"learning_id": learning_id}).fetchone()
    if state is None:
        raise NotFound(f"no learning {learning_id}")
    if state["status"] != LearningStatus.ACTIVE.value:
        raise IllegalTransition(
            TransitionDetail(
                entity="learning",
                entity_id=str(learning_id),
                current_state=state["status"],
                requested_state=requested.value,
                allowed_states=(),
            ),
            reason="LEARNING_NOT_ACTIVE",
        )
    return get_learning_row(conn, learning_id)


def _append_revision(
    conn: Conn,
    current: Row,
    status: LearningStatus,
    action: str,
    *,
    actor: str,
    reason: str,
    superseded_by: UUID | None = None,
) -> None:
    conn.execute(
        Q["insert_revision"],
        {
            "learning_id": current["learning_id"],
            "revision": int(current["revision"]) + 1,
            "status": status.value,
            "publish_tier": current["publish_tier"],
            "action": action,
            "actor": actor,
            "reason": reason,
            "superseded_by": superseded_by,
            **revision_terms(current["content"]),
        },
    )


def publish(conn: Conn, candidate: Row, pub: Publication) -> Row:
    """Write the learning for a locked, open candidate (inside the caller's
    transaction): the learning row, revision 1, the superseded revision of
    the replaced record (revoking its skills) and the candidate's move to
    published. Conflicts must have been checked by the caller."""
    split: SubjectValue | None = (
        subject_value(candidate["content"]) if Kind(candidate["kind"]) in SEMANTIC_KINDS else None
    )
    replaced: Row | None = None
    if pub.supersedes is not None:
        replaced = _lock_active_learning(conn, pub.supersedes, LearningStatus.SUPERSEDED)
        if (replaced["scope_key"], replaced["kind"]) != (candidate["scope_key"], candidate["kind"]):
            raise InvalidArgument(
                "supersedes",
                f"learning {pub.supersedes} is {replaced['kind']} in {replaced['scope_key']}; "
                f"a replacement must have the same scope and kind",
            )
        if not same_session_owner(replaced, candidate):
            raise InvalidArgument(
                "supersedes",
                f"learning {pub.supersedes} is in another subject's or workspace's "
                f"{replaced['scope_key']}; a replacement must have the same scope",
            )
    row = conn.execute(
        Q["insert_learning"],
        {
            "candidate_id": candidate["candidate_id"],
            "subject_key": split.subject_key if split else "",
            "value_key": split.value_key if split else "",
            "verification_status": pub.verification.value,
            "policy_decision": pub.decision.value,
            "policy_actor": pub.actor,
            "supersedes": pub.supersedes,
        },
    ).fetchone()
    assert row is not None
    learning_id: UUID = row["learning_id"]
    conn.execute(
        Q["insert_revision"],
        {
            "learning_id": learning_id,
            "revision": 1,
            "status": LearningStatus.ACTIVE.value,
            "publish_tier": pub.tier.value,
            "action": "published",
            "actor": pub.actor,
            "reason": pub.reason,
            "superseded_by": None,
            **revision_terms(candidate["content"]),
        },
    )
    if replaced is not None:
        _append_revision(
            conn,
            replaced,
            LearningStatus.SUPERSEDED,
            "superseded",
            actor=pub.actor,
            reason=f"superseded by {learning_id}",
            superseded_by=learning_id,
        )
        skills.revoke_for_learning(
            conn,
            replaced["learning_id"],
            actor=pub.actor,
            note=f"source learning superseded by {learning_id}",
        )
    record_status(
        conn,
        candidate["candidate_id"],
        CandidateStatus.PUBLISHED,
        actor=pub.actor,
        reason=pub.reason,
        learning_id=learning_id,
    )
    return get_learning_row(conn, learning_id)


def get_learning_row(conn: Conn, learning_id: UUID | str) -> Row:
    row = conn.execute(Q["learning_by_id"], {"learning_id": learning_id}).fetchone()
    if row is None:
        raise NotFound(f"no learning {learning_id}")
    return row


def history(conn: Conn, learning_ids: Sequence[UUID]) -> dict[UUID, list[Row]]:
    out: dict[UUID, list[Row]] = {i: [] for i in learning_ids}
    if learning_ids:
        for row in conn.execute(Q["revisions_for"], {"ids": list(learning_ids)}).fetchall():
            out[row["learning_id"]].append(row)
    return out


class LearningBook:
    def __init__(self, db: Database) -> None:
        self.db = db

    def publish_candidate(
        self,
        candidate_id: UUID,
        tier: Tier,
        supersedes: UUID | None,
        reason: str,
        request_id: UUID | None,
    ) -> tuple[Row, list[Row], Row]:
        """Manual publication: (learning, its history, candidate).

        A same-subject/different-value conflict with an active record is a
        Conflict unless `supersedes` names that record."""
        reason = check_reason("reason", reason, required=False)
        actor = current_actor()
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(
                conn,
                "publish_candidate",
                request_id,
                {
                    "candidate_id": str(candidate_id),
                    "tier": tier.value,
                    "supersedes": str(supersedes or ""),
                    "reason": reason,
                },
            )
            replay = idem.replay()
            if replay is not None:
                learning = get_learning_row(conn, replay["learning_id"])
            else:
                candidate = lock_open_candidate(conn, candidate_id, CandidateStatus.PUBLISHED)
                conflict = find_conflict(conn, candidate, exclude=supersedes)
                if conflict is not None:
                    raise Conflict(
                        ConflictInfo(
                            str(conflict.existing_id), conflict.subject_key, SUPERSEDE_RESOLUTION
                        ),
                        f"active learning {conflict.existing_id} states a different value for "
                        f"{conflict.subject_key!r} in {candidate['scope_key']}; "
                        f"{SUPERSEDE_RESOLUTION}",
                    )
                learning = publish(
                    conn,
                    candidate,
                    Publication(
                        tier=tier,
                        decision=Decision.MANUAL,
                        actor=actor,
                        # Manual publication does not consult evidence; the injection
                        # gate keeps manual active records visible without "verified".
                        verification=Verification.UNVERIFIED,
                        reason=reason or "published by operator",
                        supersedes=supersedes,
                    ),
                )
                idem.store({"learning_id": str(learning["learning_id"])})
            revisions = history(conn, [learning["learning_id"]])[learning["learning_id"]]
            return learning, revisions, get_candidate(conn, candidate_id)

    def revoke(
        self, learning_id: UUID, reason: str, request_id: UUID | None
    ) -> tuple[Row, list[Row], list[str]]:
        """Revoke a learning and, in the same transaction, every skill promoted from it."""
        reason = check_reason("reason", reason, required=True)
        actor = current_actor()
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(
                conn,
                "revoke_learning",
                request_id,
                {"learning_id": str(learning_id), "reason": reason},
            )
            replay = idem.replay()
            if replay is not None:
                revoked_skills: list[str] = list(replay["revoked_skills"])
            else:
                current = _lock_active_learning(conn, learning_id, LearningStatus.REVOKED)
                _append_revision(
                    conn, current, LearningStatus.REVOKED, "revoked", actor=actor, reason=reason
                )
                revoked_skills = skills.revoke_for_learning(
                    conn, learning_id, actor=actor, note=f"source learning revoked: {reason}"
                )
                idem.store({"revoked_skills": revoked_skills})
            learning = get_learning_row(conn, learning_id)
            return learning, history(conn, [learning_id])[learning_id], revoked_skills

    def get(self, learning_id: UUID) -> tuple[Row, list[Row]]:
        with self.db.connection() as conn:
            row = get_learning_row(conn, learning_id)
            return row, history(conn, [learning_id])[learning_id]

    def list(
        self,
        status: tuple[tuple[str, ...], str | None],
        kind: Kind | None,
        scope: Scope | None,
        before_seq: int,
        limit: int,
    ) -> list[Row]:
        statuses, tier = status
        params: dict[str, Any] = {
            "statuses": list(statuses),
            "tier": tier,
            "kind": kind.value if kind else None,
            "scope_key": scope.key if scope else None,
            "before": before_seq,
            "limit": limit,
        }
        with self.db.connection() as conn:
            return conn.execute(Q["learnings_page"], params).fetchall()
