"""Recovered run memory, the durable part: CompleteRun's one-transaction
write (record + run.completed event), the policy table, the three pruning
triggers (insert, policy change, boot repair) and the read paths. Domain
code: raises engram.errors, knows nothing of gRPC."""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from engram.db import Database, read_snapshot
from engram.db.errors import translating
from engram.db.queries import Queries
from engram.errors import AlreadyExists, Internal, InvalidArgument
from engram.metrics import count_plane_event
from engram.pending_counters import PendingCounters
from memory_service.journal import RUN_EVENT, EventCommand, Journal
from memory_service.run_memory import (
    LEARNING_SCOPES,
    RecordBody,
    RunInput,
    RunMemoryPolicy,
    build_body,
    prompt_limit,
    rank,
    search_words,
)
from memory_service.store import (
    CONSTRAINT_ERRORS,
    Conn,
    add_counter,
    fingerprint,
    idempotent_lookup,
    idempotent_store,
    lock_key,
    sha256_hex,
)

log = logging.getLogger("engram.journal.run_memory")

RQ = Queries(Path(__file__).with_name("run_memory.sql"))

PLANE = "run_memory"
COUNTER_REDACTED = "run_memory.redacted_fields_total"
COUNTER_PRUNED = "run_memory.records_pruned_total"
COUNTER_OMITTED = "run_memory.prompt_limit_omitted_total"
COUNTER_INJECTED = "run_memory.injected_total"

MAX_WARNINGS = 20
# A served record's columns (run_memory.sql session_records_served).
RECORD_COLUMNS = (
    "run_id",
    "session_id",
    "subject",
    "workspace",
    "status",
    "summary",
    "request_preview",
    "outcome_preview",
    "failure_markers",
    "artifact_ids",
    "scope_keys",
    "redaction_count",
    "event_id",
    "recorded_at",
    "expires_at",
)
KEEP_REPORTS = 100
# Request ids of run.completed events when the caller sent none: stable per run.
RUN_EVENT_NAMESPACE = uuid.UUID("5d0c8f3e-3a1b-4c61-9a59-6f1f3f0b7e21")

ERRORS = {
    **CONSTRAINT_ERRORS,
    "events_run_completed_key": lambda _e: AlreadyExists(
        "this run_id was already recorded", reason="RUN_ALREADY_RECORDED"
    ),
    "run_records_pkey": lambda _e: AlreadyExists(
        "this run_id was already recorded", reason="RUN_ALREADY_RECORDED"
    ),
}


class PruningFailedError(Exception):
    """A pruning statement failed; the surrounding transaction rolls back."""


@dataclass(frozen=True)
class Completion:
    record: dict[str, Any] | None
    event_id: int
    recorded: bool
    replayed: bool


@dataclass
class PruneCounts:
    expired: int = 0
    overflow: int = 0
    orphans: int = 0
    warnings: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.expired + self.overflow + self.orphans


@dataclass(frozen=True)
class Recovered:
    ranked: list[tuple[dict[str, Any], float]]
    matched: int
    limit: int
    omitted: int
    enabled: bool


@dataclass(frozen=True)
class SearchPage:
    rows: list[dict[str, Any]]
    matched: int
    next_position: dict[str, Any] | None
    widened: bool


def policy_from_row(row: Mapping[str, Any]) -> RunMemoryPolicy:
    return RunMemoryPolicy(
        enabled=bool(row["enabled"]),
        retention_seconds=int(row["retention_seconds"]),
        max_tracked_per_session=int(row["max_tracked_per_session"]),
        max_prompt_entries=int(row["max_prompt_entries"]),
        redact_pii=bool(row["redact_pii"]),
        search_visibility=str(row["search_visibility"]),
        updated_at=row["updated_at"],
        updated_by=str(row["updated_by"]),
    )


def policy_to_dict(policy: RunMemoryPolicy) -> dict[str, Any]:
    data = dict(policy.__dict__)
    data["updated_at"] = policy.updated_at.isoformat() if policy.updated_at else None
    return data


def policy_from_dict(data: Mapping[str, Any]) -> RunMemoryPolicy:
    at = data.get("updated_at")
    return RunMemoryPolicy(**{**data, "updated_at": datetime.fromisoformat(at) if at else None})


class RunMemoryStore:
    """`counters`: the plane's pending counters, so a read counts without a
    commit; without them a read commits its count itself."""

    def __init__(
        self, db: Database, journal: Journal, counters: PendingCounters | None = None
    ) -> None:
        self.db = db
        self.journal = journal
        self.counters = counters

    # -- policy ---------------------------------------------------------------

    def policy(self) -> RunMemoryPolicy:
        with self.db.connection() as conn:
            row = conn.execute(RQ["policy_get"]).fetchone()
        assert row is not None
        return policy_from_row(row)

    def set_policy(
        self, policy: RunMemoryPolicy, actor: str, request_id: uuid.UUID | None
    ) -> tuple[RunMemoryPolicy, dict[str, Any]]:
        """Replace the policy and re-apply pruning in the same transaction; a
        pruning failure rolls the policy back and raises Internal."""
        wanted = {k: v for k, v in policy.__dict__.items() if k not in ("updated_at", "updated_by")}
        request_sha = fingerprint(wanted)
        operation = "set_run_memory_policy"
        try:
            with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
                conn.execute(RQ["policy_lock"])
                if request_id is not None:
                    replay = idempotent_lookup(conn, operation, request_id, request_sha)
                    if replay is not None:
                        return policy_from_dict(replay["policy"]), replay["maintenance"]
                row = conn.execute(RQ["policy_put"], {**wanted, "updated_by": actor}).fetchone()
                assert row is not None
                stored = policy_from_row(row)
                counts = self._prune_all(conn, stored, recompute_expiry=True, orphans=False)
                report = self._write_report(conn, "policy_change", counts)
                add_counter(conn, COUNTER_PRUNED, counts.total)
                if request_id is not None:
                    idempotent_store(
                        conn,
                        operation,
                        request_id,
                        request_sha,
                        {"policy": policy_to_dict(stored), "maintenance": report},
                        "",
                    )
        except PruningFailedError as exc:
            self._write_failure("policy_change", str(exc))
            raise Internal(
                f"pruning under the new policy failed, the policy change was rolled back: {exc}",
                reason="PRUNING_FAILED",
            ) from exc
        count_plane_event(PLANE, "pruned", counts.total)
        return stored, report

    def preview_policy(self, policy: RunMemoryPolicy) -> dict[str, Any]:
        """The maintenance report set_policy would produce (trigger "dry_run"),
        changing nothing: the same pass runs in a transaction rolled back."""
        wanted = {k: v for k, v in policy.__dict__.items() if k not in ("updated_at", "updated_by")}
        counts = PruneCounts()
        try:
            with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
                conn.execute(RQ["policy_lock"])
                row = conn.execute(RQ["policy_put"], {**wanted, "updated_by": "dry_run"}).fetchone()
                assert row is not None
                counts = self._prune_all(
                    conn, policy_from_row(row), recompute_expiry=True, orphans=False
                )
                raise psycopg.Rollback()
        except PruningFailedError as exc:
            raise Internal(f"the dry run failed: {exc}", reason="PRUNING_FAILED") from exc
        return {
            "trigger": "dry_run",
            "ran_at": datetime.now(UTC).isoformat(),
            "ok": True,
            "expired_removed": counts.expired,
            "overflow_removed": counts.overflow,
            "orphans_removed": counts.orphans,
            "warnings": [],
            "error": "",
        }

    # -- CompleteRun ----------------------------------------------------------

    def complete_run(self, run: RunInput, request_id: uuid.UUID | None) -> Completion:
        request_sha = fingerprint(run.fingerprint_fields())
        with self.db.connection() as conn:
            replay = self._replay(conn, run, request_sha, request_id)
        if replay is not None:
            return replay
        with self.db.transaction() as conn, translating(ERRORS):
            # Check, lock, check again: a racing duplicate waits here and then
            # finds the first call's event.
            lock_key(conn, f"complete_run:{run.run_id}")
            replay = self._replay(conn, run, request_sha, request_id)
            if replay is not None:
                return replay
            policy_row = conn.execute(RQ["policy_get_for_share"]).fetchone()
            assert policy_row is not None
            policy = policy_from_row(policy_row)
            body = build_body(run, redact_pii=policy.redact_pii)
            pruned = PruneCounts()
            if policy.enabled:
                # Room for the new record: it is the session's newest. Only
                # this subject/workspace's session is pruned.
                pruned = self._prune_session(conn, run, policy.max_tracked_per_session - 1)
            add_counter(conn, COUNTER_REDACTED, body.redaction_count)
            add_counter(conn, COUNTER_PRUNED, pruned.total)
            if request_id is not None:
                idempotent_store(
                    conn,
                    "complete_run",
                    request_id,
                    request_sha,
                    {"run_id": run.run_id},
                    run.subject,
                )
            event = self._append_event(
                conn, run, body, request_sha, request_id, recorded=policy.enabled
            )
            record = None
            if policy.enabled:
                record = self._insert_record(
                    conn,
                    run,
                    body,
                    request_sha,
                    event_id=int(event["event_id"]),
                    retention_seconds=policy.retention_seconds,
                )
        self.journal.announce()  # the run.completed event's change
        count_plane_event(PLANE, "redacted", body.redaction_count)
        count_plane_event(PLANE, "pruned", pruned.total)
        count_plane_event(PLANE, "recorded" if record else "not_recorded")
        return Completion(record, int(event["event_id"]), record is not None, replayed=False)

    def _replay(
        self, conn: Conn, run: RunInput, request_sha: str, request_id: uuid.UUID | None
    ) -> Completion | None:
        if request_id is not None:
            # Raises REQUEST_ID_REUSED when the id was used for other content.
            idempotent_lookup(conn, "complete_run", request_id, request_sha)
        run_id = run.run_id
        event = conn.execute(RQ["run_completed_event"], {"run_id": run_id}).fetchone()
        if event is None:
            return None
        if (event["subject"], event["workspace"]) != (run.subject, run.workspace):
            # Run ids are unique across subjects: another subject's run is
            # refused, never replayed, returned or changed.
            raise AlreadyExists(f"run {run_id} is already recorded", reason="RUN_ALREADY_RECORDED")
        payload = event["payload"]
        if payload.get("request_fingerprint") != request_sha:
            raise AlreadyExists(
                f"run {run_id} was already recorded with different content",
                reason="RUN_ALREADY_RECORDED",
            )
        record = conn.execute(
            RQ["run_record_served"],
            {"run_id": run_id, "subject": run.subject, "workspace": run.workspace},
        ).fetchone()
        return Completion(
            record, int(event["event_id"]), bool(payload.get("recorded")), replayed=True
        )

    def _append_event(
        self,
        conn: Conn,
        run: RunInput,
        body: RecordBody,
        request_sha: str,
        request_id: uuid.UUID | None,
        *,
        recorded: bool,
    ) -> dict[str, Any]:
        # Only scrubbed text goes into the canonical event: the learning plane
        # consumes it from the change feed.
        payload = {
            "run_id": run.run_id,
            "session_id": run.session_id,
            "status": run.status,
            "summary": body.summary,
            "request_preview": body.request_preview,
            "outcome_preview": body.outcome_preview,
            "error_preview": body.error_preview,
            "failure_markers": list(body.failure_markers),
            "artifact_ids": list(run.artifact_ids),
            "scope_keys": list(run.scope_keys),
            "redaction_count": body.redaction_count,
            "recorded": recorded,
            "request_fingerprint": request_sha,
            "field_provenance": {
                "request_preview": "user_input",
                "outcome_preview": "generated_output_unverified",
                "summary": "system",
            },
        }
        command = EventCommand(
            event_type=RUN_EVENT,
            subject=run.subject,
            workspace=run.workspace,
            session_id=run.session_id,
            payload=payload,
            provenance="system",
            request_id=request_id or uuid.uuid5(RUN_EVENT_NAMESPACE, run.run_id),
            occurred_at=None,
        )
        encoded = json.dumps(payload, sort_keys=True, separators=(",", ":"))
        return self.journal.insert_event(conn, command, sha256_hex(encoded))

    @staticmethod
    def _insert_record(
        conn: Conn,
        run: RunInput,
        body: RecordBody,
        request_sha: str,
        *,
        event_id: int,
        retention_seconds: int,
    ) -> dict[str, Any]:
        row = conn.execute(
            RQ["insert_run_record"],
            {
                "run_id": run.run_id,
                "session_id": run.session_id,
                "subject": run.subject,
                "workspace": run.workspace,
                "status": run.status,
                "summary": body.summary,
                "request_preview": body.request_preview,
                "outcome_preview": body.outcome_preview,
                "failure_markers": list(body.failure_markers),
                "artifact_ids": list(run.artifact_ids),
                "scope_keys": list(run.scope_keys),
                "redaction_count": body.redaction_count,
                "event_id": event_id,
                "request_sha256": request_sha,
                "retention_seconds": retention_seconds,
            },
        ).fetchone()
        assert row is not None
        return row

    # -- pruning --------------------------------------------------------------

    @staticmethod
    def _prune_session(conn: Conn, run: RunInput, keep: int) -> PruneCounts:
        """Expired and overflow records of the run's own subject, workspace and
        session only."""
        scope = {"session_id": run.session_id, "subject": run.subject, "workspace": run.workspace}
        expired = conn.execute(RQ["delete_expired"], scope).fetchall()
        overflow = conn.execute(RQ["delete_overflow"], {**scope, "keep": keep}).fetchall()
        return PruneCounts(expired=len(expired), overflow=len(overflow))

    @staticmethod
    def _prune_all(
        conn: Conn, policy: RunMemoryPolicy, *, recompute_expiry: bool, orphans: bool
    ) -> PruneCounts:
        counts = PruneCounts()
        try:
            if recompute_expiry:
                conn.execute(
                    RQ["recompute_expiry"], {"retention_seconds": policy.retention_seconds}
                )
            every = {"session_id": None, "subject": None, "workspace": None}
            counts.expired = len(conn.execute(RQ["delete_expired"], every).fetchall())
            counts.overflow = len(
                conn.execute(
                    RQ["delete_overflow"], {**every, "keep": policy.max_tracked_per_session}
                ).fetchall()
            )
            if orphans:
                found = conn.execute(RQ["find_orphans"]).fetchall()
                if found:
                    deleted = conn.execute(
                        RQ["delete_records"], {"run_ids": [r["run_id"] for r in found]}
                    ).fetchall()
                    counts.orphans = len(deleted)
                counts.warnings = [
                    f"removed orphan run record {r['run_id']}: {r['problem']}"
                    for r in found[:MAX_WARNINGS]
                ]
                if len(found) > MAX_WARNINGS:
                    counts.warnings.append(f"... and {len(found) - MAX_WARNINGS} more orphans")
        except psycopg.Error as exc:
            raise PruningFailedError(str(exc).strip() or type(exc).__name__) from exc
        return counts

    @staticmethod
    def _write_report(conn: Conn, trigger: str, counts: PruneCounts) -> dict[str, Any]:
        row = conn.execute(
            RQ["insert_report"],
            {
                "trigger": trigger,
                "ok": True,
                "expired_removed": counts.expired,
                "overflow_removed": counts.overflow,
                "orphans_removed": counts.orphans,
                "warnings": counts.warnings,
                "error": "",
            },
        ).fetchone()
        assert row is not None
        conn.execute(RQ["trim_reports"], {"keep": KEEP_REPORTS})
        return _report_dict(row)

    def _write_failure(self, trigger: str, error: str) -> dict[str, Any]:
        """Record a failed pass in its own transaction (the pass rolled back)."""
        with self.db.transaction() as conn:
            row = conn.execute(
                RQ["insert_report"],
                {
                    "trigger": trigger,
                    "ok": False,
                    "expired_removed": 0,
                    "overflow_removed": 0,
                    "orphans_removed": 0,
                    "warnings": [],
                    "error": error[:2000],
                },
            ).fetchone()
            assert row is not None
            conn.execute(RQ["trim_reports"], {"keep": KEEP_REPORTS})
        count_plane_event(PLANE, "maintenance_failed")
        return _report_dict(row)

    def repair(self, trigger: str = "boot") -> dict[str, Any]:
        """Boot repair: remove expired, overflow and orphaned records and write
        a maintenance report. Never raises: a failed scan is reported
        (ok = false, with the error) and the service keeps serving."""
        try:
            with self.db.transaction() as conn:
                conn.execute(RQ["maintenance_lock"])
                row = conn.execute(RQ["policy_get"]).fetchone()
                assert row is not None
                counts = self._prune_all(
                    conn, policy_from_row(row), recompute_expiry=False, orphans=True
                )
                report = self._write_report(conn, trigger, counts)
                add_counter(conn, COUNTER_PRUNED, counts.total)
        except Exception as exc:  # reported, never fatal
            log.exception("run-memory %s repair failed", trigger)
            try:
                return self._write_failure(trigger, str(exc).strip() or type(exc).__name__)
            except Exception:  # the database itself is unreachable
                log.exception("could not record the failed %s repair", trigger)
                return {"trigger": trigger, "ok": False, "error": str(exc)}
        count_plane_event(PLANE, "pruned", counts.total)
        if counts.total:
            log.info("run-memory %s repair removed %d records", trigger, counts.total)
        return report

    # -- reads ------------------------------------------------------------------

    def get_record(self, subject: str, workspace: str, run_id: str) -> dict[str, Any] | None:
        """The served record of this subject/workspace's run; None for an
        unknown run id and for another subject's or workspace's."""
        with self.db.connection() as conn:
            row: dict[str, Any] | None = conn.execute(
                RQ["run_record_served"],
                {"run_id": run_id, "subject": subject, "workspace": workspace},
            ).fetchone()
        return row

    def recovered(
        self, subject: str, workspace: str, session_id: str, pending_input: str, max_entries: int
    ) -> Recovered:
        """This subject/workspace/session's served records ranked against the
        pending input, cut at the prompt limit; the cut is counted."""
        params = {"session_id": session_id, "subject": subject, "workspace": workspace}
        # The policy and the records in one statement: the policy is read
        # fresh on every call, at no extra round trip.
        with self.db.connection() as conn:
            joined: list[dict[str, Any]] = conn.execute(
                RQ["session_records_served"], params
            ).fetchall()
        policy = policy_from_row(joined[0])
        rows = [{k: row[k] for k in RECORD_COLUMNS} for row in joined if row["run_id"] is not None]
        limit = prompt_limit(max_entries, policy)
        if not policy.enabled:
            return Recovered([], 0, limit, 0, enabled=False)
        ranked = rank(rows, pending_input)
        kept = [(dict(r.record), r.score) for r in ranked[:limit]]
        omitted = len(ranked) - len(kept)
        if omitted:
            if self.counters is not None:
                self.counters.add({COUNTER_OMITTED: omitted})
            else:
                with self.db.transaction() as conn:
                    add_counter(conn, COUNTER_OMITTED, omitted)
            count_plane_event(PLANE, "prompt_limit_omitted", omitted)
        return Recovered(kept, len(rows), limit, omitted, enabled=True)

    def search(
        self,
        subject: str,
        workspace: str,
        session_id: str,
        query: str,
        visible_scope_keys: Sequence[str],
        limit: int,
        position: Mapping[str, Any],
    ) -> SearchPage:
        policy = self.policy()
        widened = policy.search_visibility == LEARNING_SCOPES and bool(visible_scope_keys)
        words = search_words(query)
        if query.strip() and not words:
            raise InvalidArgument("query", "has no searchable terms")
        params: dict[str, Any] = {
            "subject": subject,
            "workspace": workspace,
            "session_id": session_id,
            "widen": widened,
            "scope_keys": list(visible_scope_keys) if widened else [],
            "terms": words,
            "has_query": bool(words),
            "after_score": position.get("score"),
            "after_at": position.get("at"),
            "after_run": position.get("run"),
            "limit": limit + 1,
        }
        with read_snapshot(self.db) as conn:
            count: dict[str, Any] | None = conn.execute(RQ["search_count"], params).fetchone()
            rows: list[dict[str, Any]] = conn.execute(RQ["search_page"], params).fetchall()
        assert count is not None
        if words and not count["usable"]:
            raise InvalidArgument("query", "has no searchable terms (only stop words)")
        next_position = None
        if len(rows) > limit:
            last = rows[limit - 1]
            next_position = {
                "score": float(last["score"]),
                "at": last["recorded_at"].isoformat(),
                "run": str(last["run_id"]),
            }
        return SearchPage(rows[:limit], int(count["n"]), next_position, widened)

    # -- status -----------------------------------------------------------------

    def status(self) -> tuple[int, dict[str, int], dict[str, Any] | None]:
        if self.counters is not None:
            self.counters.flush()  # what this process counted is in the status
        with self.db.connection() as conn:
            row: dict[str, Any] | None = conn.execute(RQ["status"]).fetchone()
            report: dict[str, Any] | None = conn.execute(RQ["last_report"]).fetchone()
        assert row is not None
        counters = {str(k): int(v) for k, v in dict(row["counters"]).items()}
        return int(row["records_stored"]), counters, _report_dict(report) if report else None


def _report_dict(row: Mapping[str, Any]) -> dict[str, Any]:
    ran_at = row["ran_at"]
    return {
        "trigger": str(row["trigger"]),
        "ran_at": ran_at.isoformat() if ran_at is not None else None,
        "ok": bool(row["ok"]),
        "expired_removed": int(row["expired_removed"]),
        "overflow_removed": int(row["overflow_removed"]),
        "orphans_removed": int(row["orphans_removed"]),
        "warnings": list(row["warnings"]),
        "error": str(row["error"]),
    }
