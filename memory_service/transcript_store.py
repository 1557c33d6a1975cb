"""The transcript plane's storage: the durable compaction policy, the reads
behind GetSessionContext (one repeatable-read snapshot, a separate count),
the checkpoint projection, and the journaling of turn analyses. Domain code:
no gRPC here (the analyzer client is injected)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from engram.db import Database
from engram.db.errors import translating
from engram.db.queries import Queries
from memory_service import transcript as tr
from memory_service.journal import EventCommand, Journal
from memory_service.store import (
    CONSTRAINT_ERRORS,
    Conn,
    Q,
    fingerprint,
    idempotent_lookup,
    idempotent_store,
    sha256_hex,
)

TQ = Queries(Path(__file__).with_name("transcript.sql"))
_ID_NAMESPACE = uuid.UUID("0b3a8f7e-5c1d-4e8a-9f60-2d7c4b1e9a35")
# Turns one GetSessionContext call analyses before it answers.
MAX_ANALYSES_PER_CALL = 512


def policy_from_row(row: Mapping[str, Any]) -> tr.CompactionPolicy:
    return tr.CompactionPolicy(
        tail_turns=int(row["tail_turns"]),
        trigger_chars=int(row["trigger_chars"]),
        checkpoint_max_chars=int(row["checkpoint_max_chars"]),
        analyzer_address=str(row["analyzer_address"]),
        analyzer_timeout_ms=int(row["analyzer_timeout_ms"]),
        version=int(row["version"]),
        updated_at=row["updated_at"],
        updated_by=str(row["updated_by"]),
    )


@dataclass(frozen=True)
class LiteralTurn:
    event_id: int
    content_sha256: str
    user_text: str
    assistant_text: str
    user_name: str
    assistant_name: str
    occurred_at: datetime

    @property
    def canonical(self) -> str:
        return tr.canonical_content(
            self.user_text, self.assistant_text, self.user_name, self.assistant_name
        )


@dataclass
class SessionContext:
    policy: tr.CompactionPolicy
    plan: tr.Plan
    tail: list[LiteralTurn]
    checkpoint: tr.Checkpoint | None
    from_projection: bool
    matched: int
    watermark: int
    tail_dropped: int = 0
    checkpoint_dropped: bool = False
    sources: list[tr.TurnMeta] = field(default_factory=list)

    @property
    def represented(self) -> int:
        return len(self.tail) + (len(self.sources) if self.checkpoint is not None else 0)


@dataclass(frozen=True)
class Analysis:
    """What an analyzer returned for one turn."""

    summary: str
    content_sha256: str
    analyzer: str


# (policy, turn row) -> Analysis; raises on failure.
Analyzer = Callable[[tr.CompactionPolicy, Mapping[str, Any]], Analysis]


class TranscriptStore:
    def __init__(self, db: Database, journal: Journal) -> None:
        self.db = db
        self.journal = journal

    # -- policy ---------------------------------------------------------------

    def policy(self) -> tr.CompactionPolicy:
        with self.db.connection() as conn:
            row = conn.execute(TQ["policy_get"]).fetchone()
        assert row is not None
        return policy_from_row(row)

    def set_policy(
        self, policy: tr.CompactionPolicy, actor: str, request_id: uuid.UUID | None
    ) -> tr.CompactionPolicy:
        wanted = {
            "tail_turns": policy.tail_turns,
            "trigger_chars": policy.trigger_chars,
            "checkpoint_max_chars": policy.checkpoint_max_chars,
            "analyzer_address": policy.analyzer_address,
            "analyzer_timeout_ms": policy.analyzer_timeout_ms,
        }
        operation = "set_compaction_policy"
        request_sha = fingerprint(wanted)
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            conn.execute(TQ["policy_lock"])
            if request_id is not None:
                replay = idempotent_lookup(conn, operation, request_id, request_sha)
                if replay is not None:
                    at = replay.get("updated_at")
                    return tr.CompactionPolicy(
                        **{
                            **replay,
                            "updated_at": datetime.fromisoformat(at) if at else None,
                        }
                    )
            row = conn.execute(TQ["policy_put"], {**wanted, "updated_by": actor}).fetchone()
            assert row is not None
            stored = policy_from_row(row)
            if request_id is not None:
                body = dict(stored.__dict__)
                body["updated_at"] = stored.updated_at.isoformat() if stored.updated_at else None
                idempotent_store(conn, operation, request_id, request_sha, body, "")
        return stored

    # -- GetSessionContext ----------------------------------------------------

    def session_context(
        self,
        subject: str,
        workspace: str,
        session_id: str,
        *,
        budget_tokens: int,
        tail_turns: int,
        dry_run: bool,
        analyzer: Analyzer | None = None,
    ) -> SessionContext:
        """The context of one session. With an analyzer (and not dry_run), the
        pruned turns not analysed yet under this policy are analysed first, at
        most MAX_ANALYSES_PER_CALL per call (oldest first) and journaled; the
        rest stay MISSING_ANALYSIS until a later call."""
        params = {"subject": subject, "workspace": workspace, "session_id": session_id}
        read = self._read(params, tail_turns, dry_run)
        if analyzer is not None and not dry_run:
            pending = [
                t.event_id
                for t in read[1].pruned
                if not t.analysis_event_id and not t.failure_version_current
            ]
            if pending:
                self.analyse_turns(analyzer, params, pending[:MAX_ANALYSES_PER_CALL])
                read = self._read(params, tail_turns, dry_run)
        return self._finish(params, *read, budget_tokens, dry_run)

    def _read(
        self, params: Mapping[str, str], tail_turns: int, dry_run: bool
    ) -> tuple[tr.CompactionPolicy, tr.Plan, list[dict[str, Any]], Any, int, int]:
        with self.db.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            policy_row = conn.execute(TQ["policy_get"]).fetchone()
            assert policy_row is not None
            policy = policy_from_row(policy_row)
            metas = [_meta(r) for r in conn.execute(TQ["session_turn_meta"], params).fetchall()]
            others = [
                tr.OtherEvent(int(r["event_id"]), str(r["event_type"]))
                for r in conn.execute(TQ["session_range_events"], params).fetchall()
            ]
            count = conn.execute(TQ["session_turn_count"], params).fetchone()
            watermark = conn.execute(Q["feed_watermark"]).fetchone()
            assert count is not None and watermark is not None
            plan = tr.plan(metas, others, policy, tail_turns or policy.tail_turns)
            texts = conn.execute(
                TQ["session_turn_texts"], {**params, "ids": [t.event_id for t in plan.literal]}
            ).fetchall()
            stored = None
            if plan.outcome == tr.COMPACTED and not dry_run:
                stored = conn.execute(TQ["checkpoint_get"], params).fetchone()
        return policy, plan, texts, stored, int(count["n"]), int(watermark["last_cursor"])

    def _finish(
        self,
        params: Mapping[str, str],
        policy: tr.CompactionPolicy,
        plan: tr.Plan,
        texts: list[dict[str, Any]],
        stored: Any,
        matched: int,
        watermark: int,
        budget_tokens: int,
        dry_run: bool,
    ) -> SessionContext:
        tail = [
            LiteralTurn(
                event_id=int(r["event_id"]),
                content_sha256=str(r["content_sha256"]),
                user_text=str(r["user_text"]),
                assistant_text=str(r["assistant_text"]),
                user_name=str(r["user_name"]),
                assistant_name=str(r["assistant_name"]),
                occurred_at=r["occurred_at"],
            )
            for r in texts
        ]
        checkpoint, from_projection = None, False
        if plan.outcome == tr.COMPACTED:
            digest = tr.input_digest(plan.pruned, policy.version)
            if (
                stored is not None
                and stored["input_digest"] == digest
                and sha256_hex(str(stored["text"]).encode("utf-8")) == stored["sha256"]
            ):
                checkpoint = tr.Checkpoint(
                    str(stored["text"]),
                    str(stored["sha256"]),
                    int(stored["through_event_id"]),
                    int(stored["turns_elided_by_cap"]),
                )
                from_projection = True
            else:
                checkpoint = tr.render_checkpoint(plan.pruned, policy)
                if not dry_run:
                    self._store_checkpoint(params, policy, plan, checkpoint, digest)
        result = SessionContext(
            policy=policy,
            plan=plan,
            tail=tail,
            checkpoint=checkpoint,
            from_projection=from_projection,
            matched=matched,
            watermark=watermark,
            sources=list(plan.pruned) if checkpoint is not None else [],
        )
        if budget_tokens > 0:
            _pack(result, budget_tokens)
        return result

    def _store_checkpoint(
        self,
        params: Mapping[str, str],
        policy: tr.CompactionPolicy,
        plan: tr.Plan,
        checkpoint: tr.Checkpoint,
        digest: str,
    ) -> None:
        with self.db.transaction() as conn:
            conn.execute(
                TQ["checkpoint_put"],
                {
                    **params,
                    "policy_version": policy.version,
                    "input_digest": digest,
                    "through_event_id": checkpoint.through_event_id,
                    "text": checkpoint.text,
                    "sha256": checkpoint.sha256,
                    "source_event_ids": [t.event_id for t in plan.pruned],
                    "source_hashes": [t.content_sha256 for t in plan.pruned],
                    "analysis_event_ids": [t.analysis_event_id for t in plan.pruned],
                    "elided": checkpoint.elided,
                },
            )

    # -- analyses -------------------------------------------------------------

    def analyse_turns(
        self, analyzer: Analyzer, params: Mapping[str, str], event_ids: list[int]
    ) -> int:
        """Analyse these turns of one session (those still unanalysed): the
        analyzer runs outside any transaction, then every result is journaled
        in one transaction (one commit for the batch). A turn another replica
        holds, or analysed meanwhile, is skipped."""
        policy = self.policy()
        with self.db.connection() as conn:
            rows = conn.execute(
                TQ["analysis_rows"],
                {**params, "ids": event_ids, "policy_version": policy.version},
            ).fetchall()
        results = [(row, *self._analyse(analyzer, policy, row)) for row in rows]
        written = 0
        with self.db.transaction() as conn:
            for row, event_type, body in results:
                event_id = int(row["event_id"])
                claim = conn.execute(TQ["analysis_try_claim"], {"event_id": event_id}).fetchone()
                if claim is None or not claim["claimed"]:
                    continue  # another replica has it
                again = conn.execute(
                    TQ["analysis_exists"], {"event_id": event_id, "policy_version": policy.version}
                ).fetchone()
                if again is not None:
                    continue
                self._journal_analysis(conn, row, event_type, body, policy)
                written += 1
        if written:
            self.journal.announce()  # after the commit: wake the feed's followers
        return written

    @staticmethod
    def _analyse(
        analyzer: Analyzer, policy: tr.CompactionPolicy, row: Mapping[str, Any]
    ) -> tuple[str, dict[str, Any]]:
        """(event type, payload body) of one turn's analysis or its failure."""
        try:
            analysis = analyzer(policy, row)
        except Exception as exc:  # recorded, never guessed around
            error = str(exc)[:500] or type(exc).__name__
            return tr.ANALYSIS_FAILED_EVENT, {"analyzer": policy.analyzer, "error": error}
        summary = tr.clean_summary(analysis.summary)
        if not summary.text:
            return tr.ANALYSIS_FAILED_EVENT, {
                "analyzer": analysis.analyzer,
                "error": "empty summary",
            }
        return tr.ANALYZED_EVENT, {
            "analyzer": analysis.analyzer,
            "summary": summary.text,
            # The hash the analyzer says it analysed: compaction checks it.
            "turn_content_sha256": analysis.content_sha256,
            "redaction_count": summary.redactions,
        }

    def _journal_analysis(
        self,
        conn: Conn,
        row: Mapping[str, Any],
        event_type: str,
        body: dict[str, Any],
        policy: tr.CompactionPolicy,
    ) -> None:
        event_id = int(row["event_id"])
        payload = {
            "turn_event_id": str(event_id),
            "policy_version": str(policy.version),
            **body,
        }
        if event_type == tr.ANALYSIS_FAILED_EVENT:
            payload["turn_content_sha256"] = str(row["content_sha256"])
        self.journal.insert_event(
            conn,
            EventCommand(
                event_type=event_type,
                subject=str(row["subject"]),
                workspace=str(row["workspace"]),
                # Not an event of the session's own history: an analysis is
                # found through its turn (payload.turn_event_id), and
                # ReadSessionJournal keeps listing only what happened.
                session_id="",
                payload=payload,
                provenance="system",
                request_id=uuid.uuid5(_ID_NAMESPACE, f"{event_type}:{event_id}:{policy.version}"),
                occurred_at=None,
            ),
            fingerprint(payload),
        )


def builtin_analyzer(policy: tr.CompactionPolicy, row: Mapping[str, Any]) -> Analysis:
    summary = tr.builtin_summary(str(row["user_text"]), str(row["assistant_text"]))
    return Analysis(summary.text, str(row["content_sha256"]), tr.BUILTIN_ANALYZER)


def _meta(row: Mapping[str, Any]) -> tr.TurnMeta:
    return tr.TurnMeta(
        event_id=int(row["event_id"]),
        content_sha256=str(row["content_sha256"]),
        withheld=bool(row["withheld"]),
        chars=int(row["chars"]),
        canonical_sha256=str(row["canonical_sha256"]),
        roles_ok=bool(row["roles_ok"]),
        analysis_event_id=int(row["analysis_event_id"]),
        analysis_sha256=str(row["analysis_sha256"]),
        summary=str(row["summary"]),
        failure=str(row["failure"]),
        failure_version_current=bool(row["failure_current"]),
    )


def _pack(result: SessionContext, budget_tokens: int) -> None:
    """The tail first, newest turns first; the checkpoint only in what is left.
    The checkpoint is therefore always dropped before any tail turn."""
    used = 0
    kept: list[LiteralTurn] = []
    for turn in reversed(result.tail):
        cost = tr.estimate_tokens(turn.canonical + "\n")
        if used + cost > budget_tokens:
            break
        kept.append(turn)
        used += cost
    kept.reverse()
    result.tail_dropped = len(result.tail) - len(kept)
    result.tail = kept
    if result.checkpoint is not None and (
        result.tail_dropped
        or used + tr.estimate_tokens(result.checkpoint.text + "\n") > budget_tokens
    ):
        result.checkpoint = None
        result.checkpoint_dropped = True
        result.sources = []
