"""Procedures promoted to skills and their rollout ladder. Domain code.

    draft --verification result with the marker--> verified
    verified --first canary result (the evidence phase starts)--> canary
    canary --a canary result, then >= 1 canary success and 0 canary failures
             for the current definition fingerprint--> active
    any state but revoked --revoke, or the source learning is revoked or
             superseded (same transaction)--> revoked
    revoked --rollback to the latest historical active snapshot--> active
    revoked --re-promotion (a fresh draft, version + 1)--> draft

A skill version's definition is an immutable row (learning.skill_versions);
every move is an appended lifecycle event, so active skills cannot change.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from engram.auth import current_actor
from engram.db import Database
from engram.db.errors import translating
from engram.errors import (
    AlreadyExists,
    FailedPrecondition,
    IllegalTransition,
    InvalidArgument,
    NotFound,
    TransitionDetail,
)
from learning_service.candidates import check_reason
from learning_service.model import Kind, LearningStatus, ScopeKind, SkillState, Stage, Tier
from learning_service.store import CONSTRAINT_ERRORS, Conn, Idempotency, Q, Row, lock_key

SKILL_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")  # use fullmatch
FORK = "fork"
VERIFICATION_PROFILE = "verification"
MAX_MARKER = 500
LIFECYCLE_EVENTS_SHOWN = 50

SKILL_MOVES: dict[SkillState, tuple[SkillState, ...]] = {
    SkillState.DRAFT: (SkillState.VERIFIED, SkillState.REVOKED),
    SkillState.VERIFIED: (SkillState.CANARY, SkillState.REVOKED),
    SkillState.CANARY: (SkillState.ACTIVE, SkillState.REVOKED),
    SkillState.ACTIVE: (SkillState.REVOKED,),
    SkillState.REVOKED: (SkillState.ACTIVE, SkillState.DRAFT),
}


@dataclass(frozen=True)
class RunEvidence:
    """The daemon-owned record of a run, as the journal reports it."""

    run_id: str
    session_id: str
    status: str
    summary: str
    request_preview: str
    outcome_preview: str


class RunRecords(Protocol):
    def get_run_record(self, subject: str, workspace: str, run_id: str) -> RunEvidence | None:
        """The run's record under this subject and workspace ("" = "default");
        None when there is none (another subject's run id included)."""
        ...


def definition_fingerprint(
    name: str, instructions: str, execution_context: str, verification_profile: str
) -> str:
    """SHA-256 of the canonical JSON of the definition."""
    canonical = json.dumps(
        {
            "name": name,
            "instructions": instructions,
            "execution_context": execution_context,
            "verification_profile": verification_profile,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def require_skill_name(field: str, name: str) -> str:
    if not SKILL_NAME.fullmatch(name):
        raise InvalidArgument(field, "must match [a-z0-9][a-z0-9_-]{0,63}")
    return name


def _illegal(
    skill: Row, requested: SkillState | str, reason: str = "ILLEGAL_TRANSITION"
) -> IllegalTransition:
    current = SkillState(skill["state"])
    return IllegalTransition(
        TransitionDetail(
            entity="skill",
            entity_id=skill["skill_name"],
            current_state=current.value,
            requested_state=str(requested),
            allowed_states=tuple(s.value for s in SKILL_MOVES[current]),
        ),
        reason=reason,
    )


def _event(
    conn: Conn,
    skill: Row,
    action: str,
    to_state: SkillState,
    *,
    actor: str,
    note: str = "",
    stage: str = "",
    run_id: str = "",
    session_id: str = "",
    success: bool = False,
    version: int | None = None,
    fingerprint: str | None = None,
) -> None:
    conn.execute(
        Q["insert_skill_event"],
        {
            "skill_name": skill["skill_name"],
            "version": skill["version"] if version is None else version,
            "action": action,
            "from_state": skill["state"] or "",
            "to_state": to_state.value,
            "stage": stage,
            "run_id": run_id,
            "session_id": session_id,
            "definition_fingerprint": fingerprint or skill["definition_fingerprint"],
            "success": success,
            "actor": actor,
            "note": note,
        },
    )


def get_skill_row(conn: Conn, name: str, *, lock: bool = False) -> Row:
    if lock:
        lock_key(conn, f"skill:{name}")
    row = conn.execute(Q["skill_by_name"], {"skill_name": name}).fetchone()
    if row is None:
        raise NotFound(f"no skill {name}")
    return row


def lifecycle(conn: Conn, names: list[str]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {n: [] for n in names}
    if names:
        for row in conn.execute(
            Q["skill_events_for"], {"names": names, "limit": LIFECYCLE_EVENTS_SHOWN}
        ).fetchall():
            out[row["skill_name"]].append(row)
    return out


def revoke_for_learning(conn: Conn, learning_id: UUID, *, actor: str, note: str) -> list[str]:
    """Revoke every unrevoked skill whose current version came from this
    learning (inside the caller's transaction, so the cascade is atomic)."""
    revoked = []
    for row in conn.execute(Q["skills_from_learning"], {"learning_id": learning_id}).fetchall():
        skill = get_skill_row(conn, row["skill_name"], lock=True)
        if skill["state"] != SkillState.REVOKED.value:
            _event(conn, skill, "revoked", SkillState.REVOKED, actor=actor, note=note)
            revoked.append(str(skill["skill_name"]))
    return sorted(revoked)


@dataclass(frozen=True)
class SkillView:
    skill: Row
    events: list[Row]


class SkillBook:
    def __init__(self, db: Database, runs: RunRecords) -> None:
        self.db = db
        self.runs = runs

    def _view(self, conn: Conn, name: str) -> SkillView:
        return SkillView(get_skill_row(conn, name), lifecycle(conn, [name])[name])

    # -- promotion ------------------------------------------------------------

    def promote(
        self,
        learning_id: UUID,
        name: str,
        execution_context: str,
        verification_profile: str,
        request_id: Any,
    ) -> SkillView:
        require_skill_name("skill_name", name)
        if execution_context != FORK:
            raise InvalidArgument(
                "execution_context", "promoted skills must use EXECUTION_CONTEXT_FORK"
            )
        if verification_profile != VERIFICATION_PROFILE:
            raise InvalidArgument(
                "verification_profile",
                f'promoted skills must use the "{VERIFICATION_PROFILE}" profile',
            )
        actor = current_actor()
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(
                conn,
                "promote_to_skill",
                request_id,
                {"learning_id": str(learning_id), "name": name},
            )
            if idem.replay() is not None:
                return self._view(conn, name)
            learning = conn.execute(Q["learning_by_id"], {"learning_id": learning_id}).fetchone()
            if learning is None:
                raise NotFound(f"no learning {learning_id}")
            _require_promotable(learning)
            lock_key(conn, f"skill:{name}")
            existing = conn.execute(Q["skill_by_name"], {"skill_name": name}).fetchone()
            if existing is not None and existing["state"] != SkillState.REVOKED.value:
                raise AlreadyExists(
                    f"skill {name} exists ({existing['state']}); revoke it first "
                    "to promote a fresh draft",
                    reason="SKILL_EXISTS",
                )
            version = 1 if existing is None else int(existing["max_version"]) + 1
            instructions = str(learning["content"])
            fingerprint = definition_fingerprint(name, instructions, FORK, VERIFICATION_PROFILE)
            conn.execute(
                Q["insert_skill_version"],
                {
                    "skill_name": name,
                    "version": version,
                    "source_learning_id": learning_id,
                    "instructions": instructions,
                    "execution_context": FORK,
                    "verification_profile": VERIFICATION_PROFILE,
                    "definition_fingerprint": fingerprint,
                    "created_by": actor,
                },
            )
            stub = {
                "skill_name": name,
                "version": version,
                "state": existing["state"] if existing else "",
                "definition_fingerprint": fingerprint,
            }
            _event(
                conn,
                stub,
                "promoted",
                SkillState.DRAFT,
                actor=actor,
                note=f"promoted from learning {learning_id}",
            )
            idem.store({"skill_name": name})
            return self._view(conn, name)

    # -- rollout ladder -------------------------------------------------------

    def record_rollout(
        self,
        name: str,
        stage: Stage,
        run_id: str,
        marker: str,
        fingerprint: str,
        request_id: Any,
        *,
        subject: str,
        workspace: str,
    ) -> tuple[SkillView, bool]:
        """`subject`/`workspace` are the run's: it is looked up under them only."""
        require_skill_name("skill_name", name)
        if not marker or len(marker) > MAX_MARKER:
            raise InvalidArgument("expected_marker", f"must be 1..{MAX_MARKER} characters")
        if fingerprint and not re.fullmatch(r"[0-9a-f]{64}", fingerprint):
            raise InvalidArgument("definition_fingerprint", "must be 64 lowercase hex characters")
        request = {
            "name": name,
            "stage": stage.value,
            "run_id": run_id,
            "subject": subject,
            "workspace": workspace,
            "marker": marker,
            "fingerprint": fingerprint,
        }
        with self.db.transaction() as conn:
            replay = Idempotency(conn, "record_rollout", request_id, request).replay()
            if replay is not None:
                return self._view(conn, name), bool(replay["success"])
            skill = get_skill_row(conn, name)
        self._check_rollout(skill, stage, fingerprint)
        run = self.runs.get_run_record(subject, workspace, run_id)
        if run is None:
            raise NotFound(f"run {run_id} has no record in the journal", reason="RUN_NOT_FOUND")
        output = (run.outcome_preview, run.summary)
        success = run.status == "completed" and any(marker in text for text in output)
        actor = current_actor()
        rejected = False
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(conn, "record_rollout", request_id, request)
            replay = idem.replay()
            if replay is not None:
                return self._view(conn, name), bool(replay["success"])
            skill = get_skill_row(conn, name, lock=True)
            self._check_rollout(skill, stage, fingerprint)  # it may have moved meanwhile

            def evidence(action: str, to_state: SkillState, note: str) -> None:
                _event(
                    conn,
                    skill,
                    action,
                    to_state,
                    actor=actor,
                    note=note,
                    stage=stage.value,
                    run_id=run_id,
                    session_id=run.session_id,
                    success=success,
                )

            pinned = f" (pinned fingerprint {fingerprint})" if fingerprint else ""
            if stage is Stage.VERIFICATION:
                if success:
                    evidence(
                        "verification_passed",
                        SkillState.VERIFIED,
                        f"marker found in run {run_id}{pinned}",
                    )
                else:
                    evidence(
                        "rollout_rejected",
                        SkillState.DRAFT,
                        f"marker not found in completed output of run {run_id}{pinned}",
                    )
                    rejected = True
            else:
                was_canary = skill["state"] == SkillState.CANARY.value
                evidence(
                    "canary_recorded",
                    SkillState.CANARY,
                    f"canary {'passed' if success else 'failed'} in run {run_id}{pinned}",
                )
                if was_canary:
                    self._maybe_activate(conn, name, actor)
            if not rejected:
                idem.store({"success": success})
            view = self._view(conn, name)
        if rejected:
            # The rejection stays on record (committed above); the move itself fails.
            raise FailedPrecondition(
                f"run {run_id} did not complete with {marker!r} in its recorded output; "
                f"skill {name} stays draft",
                reason="MARKER_NOT_FOUND",
            )
        return view, success

    @staticmethod
    def _check_rollout(skill: Row, stage: Stage, fingerprint: str) -> None:
        state = SkillState(skill["state"])
        if stage is Stage.VERIFICATION and state is not SkillState.DRAFT:
            raise _illegal(skill, SkillState.VERIFIED)
        if stage is Stage.CANARY and state not in (SkillState.VERIFIED, SkillState.CANARY):
            raise _illegal(skill, SkillState.CANARY)
        if fingerprint and fingerprint != skill["definition_fingerprint"]:
            raise FailedPrecondition(
                f"definition_fingerprint {fingerprint[:12]}... is not the current "
                f"{skill['definition_fingerprint'][:12]}... of skill {skill['skill_name']}",
                reason="FINGERPRINT_MISMATCH",
                metadata={"current_fingerprint": skill["definition_fingerprint"]},
            )

    @staticmethod
    def _maybe_activate(conn: Conn, name: str, actor: str) -> None:
        skill = get_skill_row(conn, name)
        if int(skill["canary_successes"]) >= 1 and int(skill["canary_failures"]) == 0:
            _event(
                conn,
                skill,
                "activated",
                SkillState.ACTIVE,
                actor=actor,
                note=f"{skill['canary_successes']} canary successes, 0 failures for "
                f"fingerprint {skill['definition_fingerprint'][:12]}",
            )

    # -- revoke / rollback ----------------------------------------------------

    def revoke(self, name: str, reason: str, request_id: Any) -> SkillView:
        require_skill_name("skill_name", name)
        reason = check_reason("reason", reason, required=False)
        actor = current_actor()
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(conn, "revoke_skill", request_id, {"name": name, "reason": reason})
            if idem.replay() is not None:
                return self._view(conn, name)
            skill = get_skill_row(conn, name, lock=True)
            if skill["state"] == SkillState.REVOKED.value:
                raise _illegal(skill, SkillState.REVOKED, reason="SKILL_ALREADY_REVOKED")
            _event(
                conn,
                skill,
                "revoked",
                SkillState.REVOKED,
                actor=actor,
                note=reason or "revoked by operator",
            )
            idem.store({"skill_name": name})
            return self._view(conn, name)

    def rollback(self, name: str, reason: str, request_id: Any) -> SkillView:
        require_skill_name("skill_name", name)
        reason = check_reason("reason", reason, required=False)
        actor = current_actor()
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            idem = Idempotency(conn, "rollback_skill", request_id, {"name": name, "reason": reason})
            if idem.replay() is not None:
                return self._view(conn, name)
            skill = get_skill_row(conn, name, lock=True)
            if skill["state"] != SkillState.REVOKED.value:
                raise _illegal(skill, SkillState.ACTIVE, reason="SKILL_NOT_REVOKED")
            snapshot = conn.execute(Q["latest_active_snapshot"], {"skill_name": name}).fetchone()
            if snapshot is None:
                raise FailedPrecondition(
                    f"skill {name} was never active; nothing to roll back to",
                    reason="NO_ACTIVE_SNAPSHOT",
                )
            source = conn.execute(
                Q["learning_by_id"], {"learning_id": snapshot["source_learning_id"]}
            ).fetchone()
            if source is None or (source["status"], source["publish_tier"]) != (
                LearningStatus.ACTIVE.value,
                Tier.ACTIVE.value,
            ):
                state = f"{source['status']}/{source['publish_tier']}" if source else "missing"
                raise FailedPrecondition(
                    f"source learning {snapshot['source_learning_id']} is {state}; rollback "
                    "needs it active at the active tier",
                    reason="SOURCE_LEARNING_INACTIVE",
                )
            _event(
                conn,
                skill,
                "rolled_back",
                SkillState.ACTIVE,
                actor=actor,
                note=reason or f"rolled back to version {snapshot['version']}",
                version=int(snapshot["version"]),
                fingerprint=str(snapshot["definition_fingerprint"]),
            )
            idem.store({"skill_name": name})
            return self._view(conn, name)

    # -- reads ----------------------------------------------------------------

    def get(self, name: str) -> SkillView:
        require_skill_name("skill_name", name)
        with self.db.connection() as conn:
            return self._view(conn, name)

    def list(
        self,
        states: list[SkillState],
        after_name: str,
        limit: int,
        *,
        include_withheld: bool = True,
    ) -> list[SkillView]:
        """Skills by name; `include_withheld` False leaves out skills withheld
        by quarantine (the runtime catalog)."""
        with self.db.connection() as conn:
            rows = conn.execute(
                Q["skills_page"],
                {
                    "states": [s.value for s in states],
                    "after": after_name,
                    "limit": limit,
                    "include_withheld": include_withheld,
                },
            ).fetchall()
            events = lifecycle(conn, [r["skill_name"] for r in rows])
        return [SkillView(r, events[r["skill_name"]]) for r in rows]


def _require_promotable(learning: Row) -> None:
    checks = (
        (
            learning["kind"] == Kind.PROCEDURE.value,
            learning["kind"],
            Kind.PROCEDURE.value,
            "NOT_A_PROCEDURE",
            "only procedure learnings can be promoted",
        ),
        (
            learning["status"] == LearningStatus.ACTIVE.value,
            learning["status"],
            LearningStatus.ACTIVE.value,
            "LEARNING_NOT_ACTIVE",
            "the learning must be active",
        ),
        (
            learning["publish_tier"] == Tier.ACTIVE.value,
            learning["publish_tier"],
            Tier.ACTIVE.value,
            "NOT_ACTIVE_TIER",
            "the learning must be at the active tier",
        ),
        (
            learning["scope_kind"] == ScopeKind.WORKSPACE.value,
            learning["scope_key"],
            "workspace:default",
            "NOT_WORKSPACE_SCOPE",
            "only workspace-scoped procedures join the shared skill catalog",
        ),
    )
    for ok, current, wanted, reason, message in checks:
        if not ok:
            raise IllegalTransition(
                TransitionDetail(
                    entity="learning",
                    entity_id=str(learning["learning_id"]),
                    current_state=str(current),
                    requested_state="promoted",
                    allowed_states=(wanted,),
                ),
                f"learning {learning['learning_id']}: {message} (is {current})",
                reason=reason,
            )
