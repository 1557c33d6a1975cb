"""The transcript plane's storage: the durable compaction policy, the reads
behind GetSessionContext (one repeatable-read snapshot, a separate count),
the checkpoint projection, and the journaling of turn analyses. Domain code:
no gRPC here (the analyzer client is injected)."""

from __future__ import annotations

import bisect
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from engram.db import Database, read_snapshot
from engram.db.errors import translating
from engram.db.queries import Queries
from memory_service import transcript as tr
from memory_service.journal import EventCommand, Journal
from memory_service.store import (
    CONSTRAINT_ERRORS,
    Conn,
    fingerprint,
    idempotent_lookup,
    idempotent_store,
    sha256_hex,
)

TQ = Queries(Path(__file__).with_name("transcript.sql"))
_ID_NAMESPACE = uuid.UUID("0b3a8f7e-5c1d-4e8a-9f60-2d7c4b1e9a35")
# Turns one GetSessionContext call analyses before it answers.
MAX_ANALYSES_PER_CALL = 512
# A verified prefix is trusted only when the changes since its snapshot can
# be looked at in one bounded scan; beyond it the call verifies everything.
PREFIX_SCAN_LIMIT = 20_000
# A prefix is rewritten once this many newer turns are verified clean (so a
# call verifies at most about this many plus the tail), or once its scan of
# later changes grows this long.
PREFIX_EXTEND_EVERY = 64
PREFIX_REFRESH_SCANNED = 2_048
# Summaries fetched per round when a checkpoint quotes a verified prefix.
SUMMARY_BATCH = 64


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
    sources: tr.PrunedRange = field(default_factory=lambda: tr.PrunedRange([]))
    # Turns this call verified (the rest came from a verified prefix).
    verified_turns: int = 0
    # The checkpoint's input digest: equal digests, equal sources.
    sources_digest: str = ""

    @property
    def represented(self) -> int:
        return len(self.tail) + (len(self.sources) if self.checkpoint is not None else 0)


@dataclass
class _Read:
    """One repeatable-read snapshot of a session, planned (and, compacted,
    with its checkpoint), plus what the call would store afterwards."""

    policy: tr.CompactionPolicy
    plan: tr.Plan
    texts: list[dict[str, Any]]
    matched: int
    watermark: int
    verified_turns: int
    prefix: tr.VerifiedPrefix | None
    # Changes the trusted prefix's check looked at.
    scanned: int = 0
    # The separate count's visible turn ids (after the prefix), in order.
    counted_ids: list[int] = field(default_factory=list)
    checkpoint: tr.Checkpoint | None = None
    # The input digest of a compacted plan (the sources and policy version).
    checkpoint_digest: str = ""
    from_projection: bool = False
    new_prefix: tr.VerifiedPrefix | None = None


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
        rest stay MISSING_ANALYSIS until a later call.

        Not dry_run, the call verifies only the turns after the session's
        verified prefix (when one may be trusted) and moves the prefix on;
        dry_run verifies the whole session and stores nothing."""
        params = {"subject": subject, "workspace": workspace, "session_id": session_id}
        read = self._read(params, tail_turns, dry_run)
        if analyzer is not None and not dry_run:
            pending = [
                t.event_id
                for t in read.plan.pruned.fresh
                if not t.analysis_event_id and not t.failure_version_current
            ]
            if pending:
                self.analyse_turns(analyzer, params, pending[:MAX_ANALYSES_PER_CALL])
                read = self._read(params, tail_turns, dry_run)
        if not dry_run:
            self._store(params, read)
        return self._finish(read, budget_tokens)

    def _read(self, params: Mapping[str, str], tail_turns: int, dry_run: bool) -> _Read:
        """One snapshot (begun by one statement), read in as few round trips
        as the plan allows: one statement for the policy, the watermark and
        the prefix; a session without any event stops there (nothing can
        match: no turn, no other event, no count). Then the turns after the
        prefix; the separate count with the other events; then the texts of
        the literal tail, when there is one."""
        with read_snapshot(self.db) as conn:
            # Binary results: three 10,000-element arrays parse in a few
            # milliseconds, not tens.
            head = conn.execute(
                TQ["session_context_head"],
                {**params, "with_prefix": not dry_run, "scan_limit": PREFIX_SCAN_LIMIT},
                binary=True,
            ).fetchone()
            assert head is not None
            policy = policy_from_row(head)
            has_prefix = head["policy_version"] is not None
            prefix, scanned = self._trusted_prefix(head if has_prefix else None, policy)
            after = prefix.through_event_id if prefix is not None else 0
            ranged = {**params, "after": after}
            metas: list[tr.TurnMeta] = []
            others: list[tr.OtherEvent] = []
            counted, counted_ids = 0, []
            if head["has_events"]:
                metas = [_meta(r) for r in conn.execute(TQ["session_turn_meta"], ranged)]
                count = conn.execute(TQ["session_turn_count"], ranged).fetchone()
                assert count is not None
                counted, counted_ids = int(count["n"]), list(count["ids"])
                others = [
                    tr.OtherEvent(int(event_id), str(event_type))
                    for event_id, event_type in zip(
                        count["other_ids"], count["other_types"], strict=True
                    )
                ]
            matched = counted + (prefix.visible_count if prefix is not None else 0)
            plan = tr.plan(metas, others, policy, tail_turns or policy.tail_turns, prefix)
            literal_ids = [t.event_id for t in plan.literal]
            texts = (
                conn.execute(TQ["session_turn_texts"], {**params, "ids": literal_ids}).fetchall()
                if literal_ids
                else []
            )
            read = _Read(
                policy,
                plan,
                texts,
                matched,
                int(head["last_cursor"]),
                len(metas),
                prefix,
                scanned,
                counted_ids,
            )
            if plan.outcome == tr.COMPACTED:
                self._checkpoint(conn, params, read, dry_run)
            if not dry_run:
                read.new_prefix = self._next_prefix(conn, params, read, metas, others)
        return read

    @staticmethod
    def _trusted_prefix(
        row: Mapping[str, Any] | None, policy: tr.CompactionPolicy
    ) -> tuple[tr.VerifiedPrefix | None, int]:
        """The session's verified prefix (a prefix_get row), when nothing
        since the snapshot that verified it can have changed its range (see
        migration 0012), and how many later changes that check looked at."""
        if row is None or row["touched"] or int(row["scanned"]) >= PREFIX_SCAN_LIMIT:
            return None, 0
        if int(row["policy_version"]) != policy.version:
            return None, 0
        prefix = tr.VerifiedPrefix(
            policy_version=int(row["policy_version"]),
            frontier=int(row["frontier"]),
            through_event_id=int(row["through_event_id"]),
            event_ids=list(row["turn_event_ids"]),
            content_hashes=list(row["content_hashes"]),
            analysis_event_ids=list(row["analysis_event_ids"]),
            withheld_event_ids=list(row["withheld_event_ids"]),
            canonical_chars=int(row["canonical_chars"]),
            visible_count=int(row["visible_count"]),
            chain_sha256=str(row["chain_sha256"]),
        )
        return prefix, int(row["scanned"])

    def _checkpoint(
        self, conn: Conn, params: Mapping[str, str], read: _Read, dry_run: bool
    ) -> None:
        """The checkpoint of a compacted plan: the stored projection when its
        inputs are the same, else rendered in this snapshot."""
        policy, pruned = read.policy, read.plan.pruned
        digest = tr.input_digest(pruned.chain(), policy.version)
        read.checkpoint_digest = digest
        stored = None if dry_run else conn.execute(TQ["checkpoint_get"], params).fetchone()
        if (
            stored is not None
            and stored["input_digest"] == digest
            and sha256_hex(str(stored["text"]).encode("utf-8")) == stored["sha256"]
        ):
            read.checkpoint = tr.Checkpoint(
                str(stored["text"]),
                str(stored["sha256"]),
                int(stored["through_event_id"]),
                int(stored["turns_elided_by_cap"]),
            )
            read.from_projection = True
            return
        summaries = _Summaries(conn, params, pruned)
        read.checkpoint = tr.render_checkpoint_from(
            len(pruned), pruned.event_id, summaries.get, policy
        )

    def _next_prefix(
        self,
        conn: Conn,
        params: Mapping[str, str],
        read: _Read,
        metas: list[tr.TurnMeta],
        others: list[tr.OtherEvent],
    ) -> tr.VerifiedPrefix | None:
        """The prefix to store after this call, or None to keep the one there.
        It extends the trusted one (or none) over the fresh turns verified
        clean, and is only built when its separate count agrees."""
        old = read.prefix
        extension = tr.extend_prefix(read.plan, metas, others)
        if (
            old is not None
            and (extension is None or extension.size < PREFIX_EXTEND_EVERY)
            and read.scanned < PREFIX_REFRESH_SCANNED
        ):
            return None
        if extension is None and old is None:
            return None
        frontier = conn.execute(TQ["snapshot_frontier"]).fetchone()
        assert frontier is not None
        if extension is None:
            assert old is not None
            return replace(old, frontier=int(frontier["frontier"]))
        counted = bisect.bisect_right(read.counted_ids, extension.through_event_id)
        if read.counted_ids[:counted] != [t.event_id for t in extension.visible]:
            return None  # the two visibility rules disagree: verify in full again
        added = [(t.event_id, t.content_sha256, t.analysis_event_id) for t in extension.visible]
        return tr.VerifiedPrefix(
            policy_version=read.policy.version,
            frontier=int(frontier["frontier"]),
            through_event_id=extension.through_event_id,
            event_ids=[*(old.event_ids if old else []), *(a[0] for a in added)],
            content_hashes=[*(old.content_hashes if old else []), *(a[1] for a in added)],
            analysis_event_ids=[*(old.analysis_event_ids if old else []), *(a[2] for a in added)],
            withheld_event_ids=[
                *(old.withheld_event_ids if old else []),
                *extension.withheld_event_ids,
            ],
            canonical_chars=(old.canonical_chars if old else 0)
            + sum(t.chars for t in extension.visible),
            visible_count=(old.visible_count if old else 0) + len(extension.visible),
            chain_sha256=tr.chain_sha256(old.chain_sha256 if old else "", added),
        )

    def _store(self, params: Mapping[str, str], read: _Read) -> None:
        """The projections this call rebuilt: the checkpoint, the prefix."""
        if read.checkpoint is None and read.new_prefix is None:
            return
        if read.checkpoint is not None and read.from_projection and read.new_prefix is None:
            return
        with self.db.transaction() as conn:
            if read.checkpoint is not None and not read.from_projection:
                self._store_checkpoint(conn, params, read)
            prefix = read.new_prefix
            if prefix is not None:
                conn.execute(
                    TQ["prefix_put"],
                    {
                        **params,
                        "policy_version": prefix.policy_version,
                        "frontier": prefix.frontier,
                        "through_event_id": prefix.through_event_id,
                        "turn_event_ids": list(prefix.event_ids),
                        "content_hashes": list(prefix.content_hashes),
                        "analysis_event_ids": list(prefix.analysis_event_ids),
                        "withheld_event_ids": list(prefix.withheld_event_ids),
                        "canonical_chars": prefix.canonical_chars,
                        "visible_count": prefix.visible_count,
                        "chain_sha256": prefix.chain_sha256,
                    },
                )

    def _finish(self, read: _Read, budget_tokens: int) -> SessionContext:
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
            for r in read.texts
        ]
        result = SessionContext(
            policy=read.policy,
            plan=read.plan,
            tail=tail,
            checkpoint=read.checkpoint,
            from_projection=read.from_projection,
            matched=read.matched,
            watermark=read.watermark,
            sources=read.plan.pruned if read.checkpoint is not None else tr.PrunedRange([]),
            verified_turns=read.verified_turns,
            sources_digest=read.checkpoint_digest,
        )
        if budget_tokens > 0:
            _pack(result, budget_tokens)
        return result

    def _store_checkpoint(self, conn: Conn, params: Mapping[str, str], read: _Read) -> None:
        checkpoint = read.checkpoint
        assert checkpoint is not None
        conn.execute(
            TQ["checkpoint_put"],
            {
                **params,
                "policy_version": read.policy.version,
                "input_digest": read.checkpoint_digest,
                "through_event_id": checkpoint.through_event_id,
                "text": checkpoint.text,
                "sha256": checkpoint.sha256,
                "source_count": len(read.plan.pruned),
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
        result.sources = tr.PrunedRange([])


class _Summaries:
    """The summary of pruned turn ``i`` for rendering: a fresh turn's own,
    a prefix turn's fetched (newest first, SUMMARY_BATCH at a time) from the
    analysis event the prefix quotes, checked against its turn and hash."""

    def __init__(self, conn: Conn, params: Mapping[str, str], pruned: tr.PrunedRange) -> None:
        self._conn = conn
        self._params = params
        self._pruned = pruned
        self._fetched: dict[int, str] = {}

    def get(self, index: int) -> str:
        pruned = self._pruned
        if index >= pruned.prefix_count:
            return pruned.fresh[index - pruned.prefix_count].summary
        if index not in self._fetched:
            self._fetch(max(0, index - SUMMARY_BATCH + 1), index + 1)
        return self._fetched[index]

    def _fetch(self, low: int, high: int) -> None:
        prefix = self._pruned.prefix
        assert prefix is not None
        analysis_ids = list(prefix.analysis_event_ids[low:high])
        rows = self._conn.execute(
            TQ["prefix_summaries"],
            {
                "subject": self._params["subject"],
                "workspace": self._params["workspace"],
                "analysis_ids": analysis_ids,
                "turn_ids": list(prefix.event_ids[low:high]),
                "hashes": list(prefix.content_hashes[low:high]),
            },
        ).fetchall()
        by_id = {int(r["event_id"]): str(r["summary"]) for r in rows}
        for offset, analysis_id in enumerate(analysis_ids):
            if analysis_id not in by_id:
                # The prefix was trusted in this very snapshot: a quoted
                # analysis that is not there is a defect, never a guess.
                raise RuntimeError(
                    f"verified prefix quotes analysis {analysis_id}, which is not in the journal"
                )
            self._fetched[low + offset] = by_id[analysis_id]
