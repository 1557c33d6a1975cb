"""JournalService transport: validate requests, call the domain, build responses.

Thin on purpose: every rule lives in the domain modules; errors are domain
exceptions that the shared interceptor maps to status codes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
from google.protobuf.json_format import MessageToDict

from engram import __version__
from engram.auth import current_scope
from engram.common.v1 import common_pb2 as cpb
from engram.coverage import build_coverage
from engram.db import Database
from engram.errors import InvalidArgument, OutOfRange
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.pagination import decode, encode
from engram.pending_counters import PendingCounters
from engram.roles import authorize_event
from engram.timeutil import from_timestamp
from engram.validation import (
    optional_display_name,
    optional_id,
    page_size,
    require_id,
    require_request_id,
    require_text,
    workspace_or_default,
)
from memory_service import convert, feed
from memory_service.journal import (
    MAX_REASON,
    MAX_TURN_TEXT,
    EventCommand,
    Journal,
    TurnCommand,
)
from memory_service.read_replica import ReadRouter
from memory_service.store import Q
from memory_service.transcript import refuse_rendered_context

SERVICE = pb.DESCRIPTOR.services_by_name["JournalService"].full_name


SESSION_JOURNAL_PATH = "journal.session_journal.v1"
EVENTS_SOURCE = "postgresql:journal.events"


class FoundationRpcs(pb_grpc.JournalServiceServicer):
    """CommitTurn, AppendEvent, ReadSessionJournal, StreamChanges, quarantine,
    purge and status."""

    def __init__(
        self,
        db: Database,
        journal: Journal,
        notifier: feed.FeedNotifier,
        reads: ReadRouter | None = None,
        counters: PendingCounters | None = None,
    ) -> None:
        self.db = db
        self.journal = journal
        self.notifier = notifier
        self.reads = reads or ReadRouter(db)
        self.counters = counters

    def CommitTurn(
        self, request: pb.CommitTurnRequest, context: grpc.ServicerContext
    ) -> pb.CommitTurnResponse:
        request_id = require_request_id("request_id", request.request_id)
        assert request_id is not None
        expected = request.expected_content_sha256
        if expected and (
            len(expected) != 64 or any(c not in "0123456789abcdefABCDEF" for c in expected)
        ):
            raise InvalidArgument("expected_content_sha256", "must be 64 hex characters")
        # No self-duplication: a block the gateway rendered is never a turn.
        refuse_rendered_context(request.user_text, request.assistant_text)
        command = TurnCommand(
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            session_id=require_id("session_id", request.session_id),
            user_text=require_text("user_text", request.user_text, max_chars=MAX_TURN_TEXT),
            assistant_text=require_text(
                "assistant_text", request.assistant_text, max_chars=MAX_TURN_TEXT
            ),
            request_id=request_id,
            expected_content_sha256=expected,
            learning_eligible=request.learning_eligible,
            run_id=optional_id("run_id", request.run_id),
            occurred_at=from_timestamp(request.occurred_at, "occurred_at"),
            user_name=optional_display_name("user_name", request.user_name),
            assistant_name=optional_display_name("assistant_name", request.assistant_name),
        )
        return pb.CommitTurnResponse(receipt=convert.receipt(self.journal.commit_turn(command)))

    def AppendEvent(
        self, request: pb.AppendEventRequest, context: grpc.ServicerContext
    ) -> pb.AppendEventResponse:
        request_id = require_request_id("request_id", request.request_id)
        assert request_id is not None
        provenance = convert.PROVENANCE_FROM_PB.get(request.provenance)
        if provenance is None:
            raise InvalidArgument("provenance", "must be set")
        # Contexts and verdicts (gateway.*) and SYSTEM events are service writes.
        authorize_event(request.event_type, request.provenance, "AppendEvent")
        command = EventCommand(
            event_type=require_text("event_type", request.event_type, max_chars=128),
            subject=require_id("subject", request.subject),
            workspace=workspace_or_default("workspace", request.workspace),
            session_id=optional_id("session_id", request.session_id),
            payload=MessageToDict(request.payload),
            provenance=provenance,
            request_id=request_id,
            occurred_at=from_timestamp(request.occurred_at, "occurred_at"),
        )
        event, replayed = self.journal.append_event(command)
        return pb.AppendEventResponse(event=convert.event(event), replayed=replayed)

    def ReadSessionJournal(
        self, request: pb.ReadSessionJournalRequest, context: grpc.ServicerContext
    ) -> pb.ReadSessionJournalResponse:
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        session_id = require_id("session_id", request.session_id)
        limit = page_size("page_size", request.page_size, default=100, maximum=1000)
        types = sorted(set(request.event_types))
        query = {
            "subject": subject,
            "workspace": workspace,
            "session_id": session_id,
            "event_types": types,
        }
        after = decode(request.page_token, query, {"after": int}).get("after", 0)
        # Callers read what they were just told of (learning capture after the
        # feed announced a run.completed event, the gateway recovering a
        # context) and a page cannot say which events it lacks: a standby
        # serves only when caught up (memory_service/read_replica.py).
        (rows, matched, watermark), served = self.reads.read(
            lambda db: self.journal.read_session(
                subject, workspace, session_id, after, limit, types, db
            ),
            caught_up_only=True,
        )
        coverage = build_coverage(
            read_path=SESSION_JOURNAL_PATH,
            source_systems=[EVENTS_SOURCE],
            query={**query, "after": after, "limit": limit},
            returned=len(rows),
            limit=limit,
            matched_before_limit=matched,
            exactness=cpb.EXACTNESS_EXACT,
            # An exact enumeration of one session: nothing is ranked or sampled.
            semantic=cpb.DIMENSION_STATE_COMPLETE,
            field=cpb.DIMENSION_STATE_COMPLETE,
            temporal=cpb.DIMENSION_STATE_COMPLETE,
            visibility=cpb.DIMENSION_STATE_COMPLETE,
            normalization=cpb.DIMENSION_STATE_COMPLETE,
            snapshot_version=str(watermark),
        )
        coverage = served.coverage(coverage)
        next_token = ""
        if matched > len(rows) and rows:
            next_token = encode(query, {"after": int(rows[-1]["event_id"])})
        return pb.ReadSessionJournalResponse(
            events=[convert.event(r) for r in rows],
            next_page_token=next_token,
            coverage=coverage,
        )

    def StreamChanges(
        self, request: pb.StreamChangesRequest, context: grpc.ServicerContext
    ) -> Iterator[pb.StreamChangesResponse]:
        if request.after_cursor < 0:
            raise InvalidArgument("after_cursor", "must not be negative")
        kinds = sorted(
            convert.CHANGE_KIND_FROM_PB[k]
            for k in request.kinds
            if k in convert.CHANGE_KIND_FROM_PB
        )
        if len(kinds) != len(set(request.kinds)):
            raise InvalidArgument("kinds", "contains an unknown change kind")
        # Beyond every committed change: another (or a restored) database.
        head = feed.head(self.db)
        if request.after_cursor > head:
            raise OutOfRange(f"after_cursor {request.after_cursor} is beyond the head {head}")
        for rows, watermark in feed.follow(
            self.db,
            self.notifier,
            request.after_cursor,
            kinds,
            keep_following=request.follow,
            is_active=context.is_active,
        ):
            yield pb.StreamChangesResponse(
                changes=self._with_episodes(rows, request.include_embeddings),
                watermark=watermark,
            )

    def _with_episodes(
        self, rows: list[dict[str, Any]], include_embeddings: bool
    ) -> list[pb.Change]:
        # The feed reflects current state: a quarantined or purged episode is
        # announced without its body, so followers drop it.
        ids = sorted(
            {
                str(r["record_id"])
                for r in rows
                if r["record_kind"] == "episode"
                and r["kind"] in ("episode_upserted", "episode_embedded", "record_restored")
            }
        )
        episodes: dict[str, dict[str, Any]] = {}
        if ids:
            with self.db.connection() as conn:
                for row in conn.execute(
                    Q["episodes_by_id"], {"ids": ids, "include_embeddings": include_embeddings}
                ).fetchall():
                    episodes[str(row["episode_id"])] = row
        return [
            convert.change(
                r, episodes.get(str(r["record_id"])) if r["record_kind"] == "episode" else None
            )
            for r in rows
        ]

    def Quarantine(
        self, request: pb.QuarantineRequest, context: grpc.ServicerContext
    ) -> pb.QuarantineResponse:
        entry, cursor = self._set_quarantine(request, quarantine=True)
        return pb.QuarantineResponse(entry=convert.quarantine_entry(entry), change_cursor=cursor)

    def Restore(
        self, request: pb.RestoreRequest, context: grpc.ServicerContext
    ) -> pb.RestoreResponse:
        entry, cursor = self._set_quarantine(request, quarantine=False)
        return pb.RestoreResponse(entry=convert.quarantine_entry(entry), change_cursor=cursor)

    def _set_quarantine(
        self, request: pb.QuarantineRequest | pb.RestoreRequest, *, quarantine: bool
    ) -> tuple[dict[str, Any], int]:
        record_kind = convert.RECORD_KIND_FROM_PB.get(request.record_kind)
        if record_kind is None:
            raise InvalidArgument("record_kind", "must be episode, event or run_record")
        return self.journal.set_quarantine(
            record_kind,
            require_text("record_id", request.record_id, max_chars=128),
            require_text("reason", request.reason, max_chars=MAX_REASON),
            require_request_id("request_id", request.request_id, required=False),
            quarantine=quarantine,
            scope=current_scope(),
        )

    def ListQuarantine(
        self, request: pb.ListQuarantineRequest, context: grpc.ServicerContext
    ) -> pb.ListQuarantineResponse:
        limit = page_size("page_size", request.page_size, default=50, maximum=500)
        query = {"active_only": request.active_only}
        before = decode(request.page_token, query, {"before": int}).get("before", 2**62)
        rows = self.journal.list_quarantine(request.active_only, before, limit + 1, current_scope())
        token = (
            encode(query, {"before": int(rows[limit - 1]["entry_id"])}) if len(rows) > limit else ""
        )
        return pb.ListQuarantineResponse(
            entries=[convert.quarantine_entry(r) for r in rows[:limit]], next_page_token=token
        )

    def Purge(self, request: pb.PurgeRequest, context: grpc.ServicerContext) -> pb.PurgeResponse:
        result = self.journal.purge(
            require_id("subject", request.subject),
            optional_id("workspace", request.workspace),
            require_text("reason", request.reason, max_chars=MAX_REASON),
            require_request_id("request_id", request.request_id, required=False),
        )
        return pb.PurgeResponse(
            purge_id=result["purge_id"],
            events_removed=result["events"],
            episodes_removed=result["episodes"],
            run_records_removed=result["run_records"],
            receipts_removed=result["receipts"],
            change_cursor=result["change_cursor"],
        )

    def GetStatus(
        self, request: pb.GetStatusRequest, context: grpc.ServicerContext
    ) -> pb.GetStatusResponse:
        if self.counters is not None:
            self.counters.flush()  # what this process counted is in the status
        counts, counters = self.journal.status_counts()
        response = pb.GetStatusResponse(
            version=__version__,
            events=counts["events"],
            episodes=counts["episodes"],
            episodes_embedded=counts["episodes_embedded"],
            episodes_pending_embedding=counts["episodes_pending"],
            quarantined_records=counts["quarantined"],
            feed_watermark=counts["watermark"],
            metrics=counters,
            schema_version=self.journal.schema_version(),
        )
        self.extend_status(response)
        return response

    def extend_status(self, response: pb.GetStatusResponse) -> None:
        """Hook for the other planes of this service to add their status."""
