"""Automation review of new candidates: rules -> judge -> verification ->
conflict check, recorded on the candidate and (mode enabled) applied.

    manual_only  candidates are not reviewed (the cursor still moves on)
    shadow       the review is computed and recorded; the candidate stays pending
    enabled      reject | escalate (status escalated) | publish provisional | publish active

The worker follows candidates in insertion order through a durable cursor
(learning.worker_cursors 'review'), advanced in the same transaction as the
review it recorded, so a restart neither skips nor repeats a review.

A candidate withheld by journal quarantine (its source run's record or
event is quarantined) is never sent to the judge and never published by
automation: its review ends at manual_review (reject stays reject). The
quarantine state is synced before each batch is read; when the journal
cannot be read the step fails and is retried, nothing is reviewed.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

from engram.db import Database, read_snapshot
from engram.errors import EngramError
from engram.metrics import count_plane_event
from engram.timeutil import now
from learning_service import convert
from learning_service.candidates import record_status, review_json
from learning_service.learnings import Publication, find_conflict, publish
from learning_service.model import (
    AUTOMATION_ACTOR,
    OPEN_CANDIDATE_STATUSES,
    Action,
    CandidateStatus,
    Decision,
    Kind,
    Mode,
    Origin,
    ScopeKind,
    Sensitivity,
    Tier,
    Verification,
)
from learning_service.plugins import JudgeClients, PluginError
from learning_service.policy import Policy, RuleInput, clamp_judge_action, first_match
from learning_service.policy_store import load
from learning_service.quarantine import SourceQuarantine
from learning_service.skills import RunRecords
from learning_service.store import Conn, Q, Row, add_counter, advance_cursor, cursor_position
from learning_service.text import is_supported

log = logging.getLogger("engram.learning.review")

CURSOR = "review"
BATCH = 50
PUBLISH_ACTIONS = (Action.PUBLISH_PROVISIONAL, Action.PUBLISH_ACTIVE)


@dataclass
class JudgeRecord:
    requested: Action | None
    clamped: Action
    reason: str
    decided_at: datetime
    error: str = ""
    model: str = ""

    def as_json(self) -> dict[str, Any]:
        return {
            "requested_action": self.requested.value if self.requested else "",
            "clamped_action": self.clamped.value,
            "reason": self.reason,
            "decided_at": self.decided_at.isoformat(),
            "error": self.error,
            "model": self.model,
        }


@dataclass
class Outcome:
    mode: Mode
    matched_rule: str
    baseline: Action
    final: Action
    verification: Verification = Verification.UNVERIFIED
    judge: JudgeRecord | None = None
    conflict_with: UUID | None = None
    reasons: list[str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        return "; ".join(self.reasons)[:2000]


def rule_input(row: Row) -> RuleInput:
    return RuleInput(
        origin=Origin(row["origin"]),
        scope_kind=ScopeKind(row["scope_kind"]),
        scope_id=row["scope_id"],
        kind=Kind(row["kind"]),
        sensitivity=Sensitivity(row["sensitivity"]),
        confidence=int(row["confidence"]),
        has_evidence=bool(row["evidence_refs"]),
        has_source_run=bool(row["source_run_id"]),
        has_source_session=bool(row["source_session_id"]),
    )


def baseline(policy: Policy, row: Row) -> Outcome:
    """Rules (first match wins, else the default action) and the fixed
    envelope: API-origin and procedure candidates never keep publish_active."""
    matched, action = first_match(policy.publication, rule_input(row))
    outcome = Outcome(policy.mode, matched, action, action)
    outcome.reasons.append(
        f'rule "{matched}" matched: {action}'
        if matched
        else f"no rule matched; default action {action}"
    )
    if action is Action.PUBLISH_ACTIVE:
        if (
            row["origin"] == Origin.API.value
            and not policy.publication.allow_api_origin_active_publication
        ):
            action = Action.PUBLISH_PROVISIONAL
            outcome.reasons.append(
                "api-origin active publication is not allowed: publish_provisional"
            )
        elif row["kind"] == Kind.PROCEDURE.value:
            action = Action.PUBLISH_PROVISIONAL
            outcome.reasons.append("procedures are never published active automatically")
    outcome.baseline = outcome.final = action
    return outcome


def verify(runs: RunRecords, row: Row) -> tuple[Verification, str]:
    """Support for the content in the source run's daemon-owned record.

    VERIFIED: the record contains the content (verbatim or every term).
    FAILED: the record exists and does not support it.
    UNVERIFIED: there is nothing daemon-owned to check against (no source
    run, the record is gone, or the journal is unreachable).
    The caller's evidence_refs are never consulted: only the journal's record.
    """
    run_id = row["source_run_id"]
    if not run_id:
        return Verification.UNVERIFIED, "no source run to verify against"
    if not row["source_subject"]:
        return Verification.UNVERIFIED, f"run {run_id} names no subject to look it up under"
    try:
        record = runs.get_run_record(row["source_subject"], row["source_workspace"], run_id)
    except EngramError as exc:
        return Verification.UNVERIFIED, f"journal unavailable for verification ({exc.message})"
    if record is None:
        return Verification.UNVERIFIED, f"run {run_id} has no run-memory record"
    if row["source_session_id"] and record.session_id != row["source_session_id"]:
        return Verification.FAILED, f"run {run_id} belongs to another session"
    evidence = (record.request_preview, record.outcome_preview, record.summary)
    if is_supported(row["content"], evidence):
        return Verification.VERIFIED, f"supported by the run-memory record of run {run_id}"
    return Verification.FAILED, f"the run-memory record of run {run_id} does not support it"


def withhold(outcome: Outcome) -> Outcome:
    """A candidate withheld by quarantine: no judge, no automatic publication."""
    if outcome.final in PUBLISH_ACTIONS:
        outcome.final = Action.MANUAL_REVIEW
    outcome.reasons.append(
        "withheld by quarantine: a journal record it was derived from is quarantined; "
        f"the judge was not called: {outcome.final}"
    )
    return outcome


class Reviewer:
    def __init__(
        self,
        db: Database,
        judges: JudgeClients,
        runs: RunRecords,
        quarantine: SourceQuarantine | None = None,
    ) -> None:
        self.db = db
        self.judges = judges
        self.runs = runs
        self.quarantine = quarantine

    # -- evaluation (remote calls, no database locks held) -------------------

    def evaluate(self, policy: Policy, row: Row) -> Outcome:
        outcome = baseline(policy, row)
        if row.get("withheld_by_quarantine"):
            return withhold(outcome)
        if outcome.baseline is not Action.MANUAL_REVIEW and policy.judge.enabled:
            outcome.judge = self._judge(policy, row, outcome.baseline, outcome.matched_rule)
            outcome.final = outcome.judge.clamped
            outcome.reasons.append(
                f"judge failed ({outcome.judge.error}): manual_review"
                if outcome.judge.error
                else f"judge asked {outcome.judge.requested or 'nothing'}, clamped to "
                f"{outcome.judge.clamped}: {outcome.judge.reason}"
            )
        if outcome.final is Action.PUBLISH_ACTIVE:
            outcome.verification, why = verify(self.runs, row)
            outcome.reasons.append(f"verification {outcome.verification}: {why}")
            if outcome.verification is not Verification.VERIFIED:
                outcome.final = Action.PUBLISH_PROVISIONAL
                outcome.reasons.append("downgraded to publish_provisional")
        return outcome

    def _judge(self, policy: Policy, row: Row, base: Action, matched_rule: str) -> JudgeRecord:
        try:
            answer = self.judges.judge(
                policy.judge.address,
                policy.judge.timeout_ms,
                convert.candidate(row),
                base,
                matched_rule,
            )
        except PluginError as exc:
            # Fail closed: an error never becomes a publication.
            return JudgeRecord(None, Action.MANUAL_REVIEW, "", now(), error=str(exc))
        clamped = clamp_judge_action(base, answer.action)
        return JudgeRecord(answer.action, clamped, answer.reason, now(), model=answer.model)

    # -- recording (one transaction per candidate) ---------------------------

    def record(self, conn: Conn, row: Row, outcome: Outcome) -> bool:
        """Record (and in enabled mode apply) the review; False when another
        reviewer already handled this candidate."""
        if cursor_position(conn, CURSOR, for_update=True) >= int(row["seq"]):
            return False
        applied = outcome.mode is Mode.ENABLED
        state = conn.execute(
            Q["lock_candidate_state"], {"candidate_id": row["candidate_id"]}
        ).fetchone()
        if state is None:
            # Erased (its subject was purged) while it was being evaluated.
            advance_cursor(conn, CURSOR, int(row["seq"]))
            return False
        if CandidateStatus(state["status"]) not in OPEN_CANDIDATE_STATUSES:
            applied = False
            outcome.reasons.append(f"not applied: the candidate is already {state['status']}")
        if outcome.final in PUBLISH_ACTIONS:
            conflict = find_conflict(conn, row)
            if conflict is not None:
                outcome.conflict_with = conflict.existing_id
                outcome.final = Action.MANUAL_REVIEW
                outcome.reasons.append(
                    f"conflicts with active learning {conflict.existing_id} on "
                    f"{conflict.subject_key!r}: escalated to manual review"
                )
                add_counter(conn, "review_conflict_escalated_total")
        conn.execute(
            Q["insert_review"],
            {
                "candidate_id": row["candidate_id"],
                "mode": outcome.mode.value,
                "matched_rule": outcome.matched_rule,
                "baseline_action": outcome.baseline.value,
                "judge": review_json(outcome.judge.as_json() if outcome.judge else None),
                "final_action": outcome.final.value,
                "verification": outcome.verification.value,
                "reason": outcome.reason,
                "applied": applied,
                "conflict_with": outcome.conflict_with,
            },
        )
        if applied:
            self._apply(conn, row, outcome)
        add_counter(conn, "review_applied_total" if applied else "review_recorded_total")
        if outcome.judge is not None and outcome.judge.error:
            add_counter(conn, "review_judge_errors_total")
        advance_cursor(conn, CURSOR, int(row["seq"]))
        return True

    @staticmethod
    def _apply(conn: Conn, row: Row, outcome: Outcome) -> None:
        candidate_id = row["candidate_id"]
        if outcome.final is Action.REJECT:
            record_status(
                conn,
                candidate_id,
                CandidateStatus.REJECTED,
                actor=AUTOMATION_ACTOR,
                reason=outcome.reason,
            )
        elif outcome.final is Action.MANUAL_REVIEW:
            record_status(
                conn,
                candidate_id,
                CandidateStatus.ESCALATED,
                actor=AUTOMATION_ACTOR,
                reason=outcome.reason,
            )
        else:
            tier = Tier.ACTIVE if outcome.final is Action.PUBLISH_ACTIVE else Tier.PROVISIONAL
            publish(
                conn,
                row,
                Publication(
                    tier=tier,
                    decision=Decision.AUTOMATIC,
                    actor=AUTOMATION_ACTOR,
                    verification=outcome.verification,
                    reason=outcome.reason,
                ),
            )

    # -- the worker step -----------------------------------------------------

    def step(self) -> bool:
        """Review the next batch of new candidates; True when there was work."""
        policy, rows = self._batch()
        if rows and self.quarantine is not None:
            # Only when there is work: then read the batch again, so its
            # withheld_by_quarantine flags are the journal's current state.
            self.quarantine.sync()
            policy, rows = self._batch()
        for row in rows:
            self.review_one(policy, row)
        return bool(rows)

    def _batch(self) -> tuple[Policy, list[Row]]:
        # One snapshot for the policy and the batch: a candidate created
        # after a policy change is never reviewed under the older policy.
        with read_snapshot(self.db) as conn:
            policy = load(conn)
            after = cursor_position(conn, CURSOR)
            rows = conn.execute(
                Q["candidates_after_seq"], {"after": after, "limit": BATCH}
            ).fetchall()
        return policy, rows

    def review_one(self, policy: Policy, row: Row) -> None:
        skip = policy.mode is Mode.MANUAL_ONLY or row["status"] not in (
            s.value for s in OPEN_CANDIDATE_STATUSES
        )
        outcome = None if skip else self.evaluate(policy, row)
        with self.db.transaction() as conn:
            if outcome is None:
                # manual_only: nobody reviews; move past it for good.
                if cursor_position(conn, CURSOR, for_update=True) < int(row["seq"]):
                    advance_cursor(conn, CURSOR, int(row["seq"]))
                return
            recorded = self.record(conn, row, outcome)
        if recorded:
            count_plane_event("learning", f"review_{outcome.mode}_{outcome.final}")
            log.info(
                "candidate reviewed",
                extra={
                    "candidate_id": str(row["candidate_id"]),
                    "mode": outcome.mode.value,
                    "final_action": outcome.final.value,
                },
            )
