"""The canonical journal: turn commits, typed events, session reads,
quarantine and the audited purge. Domain code: no gRPC here."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from psycopg.types.json import Jsonb

from engram import dates as dates_mod
from engram.auth import UNRESTRICTED, TokenScope, current_actor
from engram.db import Database, migrations, read_snapshot
from engram.db.errors import translating
from engram.errors import (
    AlreadyExists,
    FailedPrecondition,
    IllegalTransition,
    InvalidArgument,
    NotFound,
    TransitionDetail,
)
from memory_service.search import store_episode_dates
from memory_service.store import (
    CONSTRAINT_ERRORS,
    ChangeRow,
    Conn,
    Q,
    append_changes,
    fingerprint,
    idempotent_lookup,
    idempotent_store,
    lock_key,
    sha256_hex,
)

TURN_EVENT = "conversation.turn.completed"
RUN_EVENT = "run.completed"
RESERVED_EVENT_TYPES = frozenset({TURN_EVENT, RUN_EVENT})
EVENT_TYPE_PATTERN = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+")  # use fullmatch
MAX_TURN_TEXT = 32_768
MAX_PAYLOAD_BYTES = 64 * 1024
MAX_REASON = 1000

# A repetition loop: one line (or sentence) making up most of a long text.
LOOP_MIN_REPEATS = 8
LOOP_MIN_SHARE = 0.5


def canonical_content(
    user_text: str, assistant_text: str, user_name: str = "", assistant_name: str = ""
) -> str:
    """The turn's canonical content, whose SHA-256 identifies its episode.

    Speakers' names, when the commit gives them, are part of it ("User (Zoë):
    ...") so the same words from two people are two episodes; the text
    embedded and indexed is always the nameless form.
    """
    user = f"User ({user_name})" if user_name else "User"
    assistant = f"Assistant ({assistant_name})" if assistant_name else "Assistant"
    return f"{user}: {user_text}\n{assistant}: {assistant_text}"


def speaker_fields(user_name: str, assistant_name: str) -> dict[str, str]:
    """The speakers' names an event payload records (only those given)."""
    names = {"user_name": user_name, "assistant_name": assistant_name}
    return {key: name for key, name in names.items() if name}


def is_repetition_loop(text: str) -> bool:
    """True when one line or sentence repeats LOOP_MIN_REPEATS+ times and
    makes up at least half of the text's units (a degenerate generation)."""
    for units in (
        [line.strip() for line in text.splitlines() if line.strip()],
        [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()],
    ):
        if len(units) < LOOP_MIN_REPEATS:
            continue
        unit, count = Counter(units).most_common(1)[0]
        if count >= LOOP_MIN_REPEATS and count / len(units) >= LOOP_MIN_SHARE and len(unit) > 1:
            return True
    return False


@dataclass(frozen=True)
class TurnCommand:
    subject: str
    workspace: str
    session_id: str
    user_text: str
    assistant_text: str
    request_id: UUID
    expected_content_sha256: str
    learning_eligible: bool
    run_id: str
    occurred_at: datetime | None
    user_name: str = ""
    assistant_name: str = ""


@dataclass(frozen=True)
class EventCommand:
    event_type: str
    subject: str
    workspace: str
    session_id: str
    payload: dict[str, Any]
    provenance: str
    request_id: UUID
    occurred_at: datetime | None


def turn_payload(
    cmd: TurnCommand, content: str, user_sha: str, assistant_sha: str
) -> dict[str, Any]:
    """The canonical conversation.turn.completed event's payload."""
    return {
        "user_text": cmd.user_text,
        "assistant_text": cmd.assistant_text,
        "canonical_content": content,
        **{
            k: v
            for k, v in (("user_name", cmd.user_name), ("assistant_name", cmd.assistant_name))
            if v
        },
        "user_sha256": user_sha,
        "assistant_sha256": assistant_sha,
        "learning_eligible": cmd.learning_eligible,
        "run_id": cmd.run_id,
        # The event is authoritative about the speech act, not about the
        # propositions inside the generated answer.
        "field_provenance": {
            "user_text": "user_input",
            "assistant_text": "generated_output_unverified",
        },
    }


def turn_statement_params(cmd: TurnCommand) -> dict[str, Any]:
    """Validate a turn's content and compute what Q["commit_turn"] takes:
    hashes, the event payload and the request fingerprint. Raises before
    anything is written."""
    for name, text in (("user_text", cmd.user_text), ("assistant_text", cmd.assistant_text)):
        if is_repetition_loop(text):
            raise InvalidArgument(
                name,
                "looks like a repetition loop (one line repeated)",
                reason="REPETITION_LOOP",
            )
    content = canonical_content(
        cmd.user_text, cmd.assistant_text, cmd.user_name, cmd.assistant_name
    )
    content_sha = sha256_hex(content)
    if cmd.expected_content_sha256 and cmd.expected_content_sha256.lower() != content_sha:
        raise FailedPrecondition(
            "expected_content_sha256 does not match the canonical content",
            reason="CONTENT_HASH_MISMATCH",
            metadata={"actual_sha256": content_sha},
        )
    request_sha = fingerprint(
        {
            k: v
            for k, v in cmd.__dict__.items()
            if k not in ("request_id", "expected_content_sha256")
            # Unnamed speakers fingerprint as before the names existed.
            and not (k in ("user_name", "assistant_name") and not v)
        }
    )
    user_sha = sha256_hex(cmd.user_text)
    assistant_sha = sha256_hex(cmd.assistant_text)
    return {
        "request_id": cmd.request_id,
        "request_sha256": request_sha,
        "event_type": TURN_EVENT,
        "provenance": "generated_output_unverified",
        "subject": cmd.subject,
        "workspace": cmd.workspace,
        "session_id": cmd.session_id,
        "payload": Jsonb(turn_payload(cmd, content, user_sha, assistant_sha)),
        "content_sha256": content_sha,
        "user_sha256": user_sha,
        "assistant_sha256": assistant_sha,
        "occurred_at": cmd.occurred_at,
        "learning_eligible": cmd.learning_eligible,
        "user_text": cmd.user_text,
        "assistant_text": cmd.assistant_text,
        "user_name": cmd.user_name,
        "assistant_name": cmd.assistant_name,
    }


def has_relative_dates(cmd: TurnCommand) -> bool:
    """Whether the turn's text has relative dates to resolve (whichever day
    it is said: the rules that match do not depend on it)."""
    source = dates_mod.episode_source(cmd.user_text, cmd.assistant_text)
    return bool(dates_mod.resolve_codes(source, datetime.now(UTC)))


class Journal:
    def __init__(self, db: Database, announce: Callable[[], None] | None = None) -> None:
        self.db = db
        self._announce = announce

    def announce(self) -> None:
        """Call after a transaction that appended changes has committed: wakes
        the feed's followers (FeedNotifier.announce; coalesced, never inside
        the commit)."""
        if self._announce is not None:
            self._announce()

    # -- CommitTurn ---------------------------------------------------------

    def commit_turn(self, cmd: TurnCommand) -> dict[str, Any]:
        """Returns the receipt as a dict (with "replayed")."""
        params = turn_statement_params(cmd)
        with self.db.connection() as conn, translating(CONSTRAINT_ERRORS):
            if not (cmd.learning_eligible and has_relative_dates(cmd)):
                # One statement on an autocommit connection, so one round trip
                # and one transaction: check, lock, check again, then the
                # event, the episode, the receipt for replay and the feed
                # entries (journal.commit_turn).
                row = conn.execute(Q["commit_turn"], params).fetchone()
            else:
                # A new episode also stores its relative dates, resolved
                # against the turn's time (memory_service/search.py), in the
                # same transaction.
                with conn.transaction():
                    row = conn.execute(Q["commit_turn"], params).fetchone()
                    assert row is not None
                    written = row["receipt"]
                    if not row["replayed"] and int(written["occurrence_count"]) == 1:
                        # occurred_at defaults to now(), the transaction's
                        # start, as committed_at does.
                        occurred = cmd.occurred_at or datetime.fromisoformat(
                            str(written["committed_at"])
                        )
                        store_episode_dates(
                            conn,
                            str(written["episode_id"]),
                            cmd.user_text,
                            cmd.assistant_text,
                            occurred,
                        )
        assert row is not None
        receipt: dict[str, Any] = dict(row["receipt"])
        if row["replayed"]:
            if row["request_sha256"] != params["request_sha256"]:
                raise AlreadyExists(
                    f"request_id {cmd.request_id} was already used for a different "
                    "commit_turn request",
                    reason="REQUEST_ID_REUSED",
                )
            return {**receipt, "replayed": True}
        self.announce()
        return {**receipt, "replayed": False}

    # -- AppendEvent --------------------------------------------------------

    @staticmethod
    def check_event(cmd: EventCommand, field_prefix: str = "") -> str:
        """The payload's content hash once type and size are acceptable; raises
        INVALID_ARGUMENT naming ``<field_prefix>event_type`` or ``...payload``."""
        if not EVENT_TYPE_PATTERN.fullmatch(cmd.event_type):
            raise InvalidArgument(
                f"{field_prefix}event_type",
                "must be dotted lowercase segments, e.g. tool.call.completed",
            )
        if cmd.event_type in RESERVED_EVENT_TYPES:
            raise InvalidArgument(
                f"{field_prefix}event_type",
                f"{cmd.event_type} is reserved; use CommitTurn or CompleteRun",
                reason="RESERVED_EVENT_TYPE",
            )
        encoded = json.dumps(cmd.payload, sort_keys=True, separators=(",", ":"))
        if len(encoded.encode()) > MAX_PAYLOAD_BYTES:
            raise InvalidArgument(
                f"{field_prefix}payload", f"is larger than {MAX_PAYLOAD_BYTES} bytes"
            )
        return sha256_hex(encoded)

    def append_event(self, cmd: EventCommand) -> tuple[dict[str, Any], bool]:
        content_sha = self.check_event(cmd)
        request_sha = fingerprint({k: v for k, v in cmd.__dict__.items() if k != "request_id"})
        operation = "append_event"
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            lock_key(conn, f"{operation}:{cmd.request_id}")
            replay = idempotent_lookup(conn, operation, cmd.request_id, request_sha)
            if replay is not None:
                return replay, True
            event = self.insert_event(conn, cmd, content_sha)
            idempotent_store(conn, operation, cmd.request_id, request_sha, event, cmd.subject)
        self.announce()
        return event, False

    def insert_event(self, conn: Conn, cmd: EventCommand, content_sha: str) -> dict[str, Any]:
        """Insert an event and its change (inside the caller's transaction; the
        caller calls announce() after its commit)."""
        row = conn.execute(
            Q["insert_event"],
            {
                "event_type": cmd.event_type,
                "subject": cmd.subject,
                "workspace": cmd.workspace,
                "session_id": cmd.session_id,
                "payload": Jsonb(cmd.payload),
                "provenance": cmd.provenance,
                "request_id": cmd.request_id,
                "content_sha256": content_sha,
                "occurred_at": cmd.occurred_at,
            },
        ).fetchone()
        assert row is not None
        event_id = int(row["event_id"])
        append_changes(
            conn,
            [
                ChangeRow(
                    "event_appended",
                    cmd.subject,
                    cmd.workspace,
                    cmd.session_id,
                    "event",
                    str(event_id),
                    cmd.event_type,
                    event_id,
                )
            ],
        )
        return {
            "event_id": event_id,
            "event_type": cmd.event_type,
            "subject": cmd.subject,
            "workspace": cmd.workspace,
            "session_id": cmd.session_id,
            "payload": cmd.payload,
            "provenance": cmd.provenance,
            "request_id": str(cmd.request_id),
            "occurred_at": row["occurred_at"].isoformat(),
            "recorded_at": row["recorded_at"].isoformat(),
            "content_sha256": content_sha,
        }

    # -- ReadSessionJournal -------------------------------------------------

    def read_session(
        self,
        subject: str,
        workspace: str,
        session_id: str,
        after_event_id: int,
        limit: int,
        event_types: list[str],
        db: Database | None = None,
    ) -> tuple[list[dict[str, Any]], int, int]:
        """(rows, matched_before_limit, watermark) from one consistent snapshot
        of ``db`` (a read replica's pool; the primary by default)."""
        params = {
            "subject": subject,
            "workspace": workspace,
            "session_id": session_id,
            "after": after_event_id,
            "limit": limit,
            "types": event_types,
        }
        with read_snapshot(db or self.db) as conn:
            rows = conn.execute(Q["session_events_page"], params).fetchall()
            count = conn.execute(Q["session_events_count"], params).fetchone()
            watermark = conn.execute(Q["feed_watermark"]).fetchone()
        assert count is not None and watermark is not None
        return rows, int(count["n"]), int(watermark["last_cursor"])

    # -- Quarantine / Restore -----------------------------------------------

    def set_quarantine(
        self,
        record_kind: str,
        record_id: str,
        reason: str,
        request_id: UUID | None,
        *,
        quarantine: bool,
        scope: TokenScope = UNRESTRICTED,
    ) -> tuple[dict[str, Any], int]:
        action = "quarantine" if quarantine else "restore"
        with self.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            owner = self._record_owner(conn, record_kind, record_id, scope)
            lock_key(conn, f"quarantine:{record_kind}:{record_id}")
            current = conn.execute(
                Q["quarantine_state"], {"record_kind": record_kind, "record_id": record_id}
            ).fetchone()
            is_quarantined = current is not None
            if is_quarantined == quarantine:
                state = "quarantined" if is_quarantined else "visible"
                raise IllegalTransition(
                    TransitionDetail(
                        entity=record_kind,
                        entity_id=record_id,
                        current_state=state,
                        requested_state="quarantined" if quarantine else "visible",
                        allowed_states=("visible",) if is_quarantined else ("quarantined",),
                    ),
                    reason="ALREADY_QUARANTINED" if quarantine else "NOT_QUARANTINED",
                )
            entry = conn.execute(
                Q["insert_quarantine_entry"],
                {
                    "record_kind": record_kind,
                    "record_id": record_id,
                    "action": action,
                    "reason": reason,
                    "actor": current_actor(),
                    "subject": owner["subject"],
                    "workspace": owner["workspace"],
                    "request_id": request_id,
                },
            ).fetchone()
            assert entry is not None
            if quarantine:
                conn.execute(
                    Q["mark_quarantined"],
                    {
                        "record_kind": record_kind,
                        "record_id": record_id,
                        "entry_id": entry["entry_id"],
                        "since": entry["recorded_at"],
                    },
                )
            else:
                conn.execute(
                    Q["unmark_quarantined"], {"record_kind": record_kind, "record_id": record_id}
                )
            kind = "record_quarantined" if quarantine else "record_restored"
            changes = [
                ChangeRow(kind, owner["subject"], owner["workspace"], "", record_kind, record_id)
            ]
            if record_kind == "event":
                # A turn event's quarantine hides its episode (FindExact's
                # content rule): announce the episode too, so an index drops it
                # or, on restore, reads its current body again (none while the
                # episode stays hidden for another reason).
                episode = conn.execute(Q["turn_event_episode"], {"id": record_id}).fetchone()
                if episode is not None:
                    changes.append(
                        ChangeRow(
                            kind,
                            owner["subject"],
                            owner["workspace"],
                            "",
                            "episode",
                            str(episode["episode_id"]),
                            TURN_EVENT,
                            int(record_id),
                        )
                    )
            cursor = append_changes(conn, changes)[0]
        self.announce()
        return {
            "entry_id": int(entry["entry_id"]),
            "record_kind": record_kind,
            "record_id": record_id,
            "action": action,
            "reason": reason,
            "actor": current_actor(),
            "recorded_at": entry["recorded_at"],
            "subject": owner["subject"],
            "workspace": owner["workspace"],
        }, cursor

    def _record_owner(
        self, conn: Conn, record_kind: str, record_id: str, scope: TokenScope
    ) -> dict[str, Any]:
        """Subject and workspace of a record in `scope`; NotFound outside it."""
        query = {
            "episode": "record_owner_episode",
            "event": "record_owner_event",
            "run_record": "record_owner_run",
        }[record_kind]
        if record_kind == "episode":
            _require_uuid("record_id", record_id)
        if record_kind == "event" and not record_id.isdigit():
            raise InvalidArgument("record_id", "an event id is a positive integer")
        row = conn.execute(Q[query], {"id": record_id, **scope.sql_params()}).fetchone()
        if row is None:
            raise NotFound(f"no {record_kind} {record_id}")
        return row

    def list_quarantine(
        self,
        active_only: bool,
        before_entry_id: int,
        limit: int,
        scope: TokenScope = UNRESTRICTED,
    ) -> list[dict[str, Any]]:
        params = {"active_only": active_only, "before": before_entry_id, "limit": limit}
        with self.db.connection() as conn:
            return conn.execute(Q["quarantine_page"], {**params, **scope.sql_params()}).fetchall()

    # -- Purge ----------------------------------------------------------------

    def purge(
        self, subject: str, workspace: str, reason: str, request_id: UUID | None
    ) -> dict[str, Any]:
        params = {"subject": subject, "workspace": workspace}
        with self.db.transaction() as conn:
            lock_key(conn, f"purge:{subject}")
            counts = conn.execute(Q["purge_counts"], params).fetchone()
            assert counts is not None
            extra = self._purge_extra_counts(conn, params)
            all_counts = {**{k: int(v) for k, v in counts.items()}, **extra}
            purge = conn.execute(
                Q["insert_purge"],
                {
                    **params,
                    "reason": reason,
                    "actor": current_actor(),
                    "request_id": request_id,
                    "counts": Jsonb(all_counts),
                },
            ).fetchone()
            assert purge is not None
            # The ledger entry exists first; only now may append-only rows go.
            conn.execute(Q["enable_audited_purge"])
            for statement in self.purge_statements():
                conn.execute(Q[statement], params)
            (cursor,) = append_changes(conn, [ChangeRow("subject_purged", subject, workspace)])
        self.announce()
        return {"purge_id": int(purge["purge_id"]), "change_cursor": cursor, **all_counts}

    def _purge_extra_counts(self, conn: Conn, params: dict[str, Any]) -> dict[str, int]:
        """Counts of rows other planes keep for the subject (run records)."""
        row = conn.execute(Q["purge_run_record_count"], params).fetchone()
        return {"run_records": int(row["n"]) if row else 0}

    @staticmethod
    def purge_statements() -> tuple[str, ...]:
        return (
            "purge_events",
            "purge_episodes",
            "purge_receipts",
            "purge_run_records",
            "purge_idempotency",
        )

    # -- Status ---------------------------------------------------------------

    def schema_version(self) -> int:
        with self.db.connection() as conn:
            return migrations.current_version(conn, "journal")

    def status_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        with self.db.connection() as conn:
            counts = conn.execute(Q["status_counts"]).fetchone()
            counters = conn.execute(Q["counters_all"]).fetchall()
        assert counts is not None
        return (
            {k: int(v) for k, v in counts.items()},
            {str(r["name"]): int(r["value"]) for r in counters},
        )


def _require_uuid(field: str, value: str) -> None:
    try:
        UUID(value)
    except ValueError:
        raise InvalidArgument(field, "an episode id is a UUID") from None
