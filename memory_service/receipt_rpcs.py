"""Receipts: what was evaluated for a context (retrieval audit) and what
crossed the model boundary (context injection). Append-only; a receipt
proves evaluation or exposure, not influence."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
from google.protobuf.json_format import MessageToDict
from psycopg.types.json import Jsonb

from engram.auth import current_scope
from engram.db import Database
from engram.db.errors import translating
from engram.db.queries import Queries
from engram.errors import AlreadyExists, InvalidArgument
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.metrics import count_plane_event
from engram.pagination import decode, encode
from engram.roles import authorize_event
from engram.timeutil import to_timestamp
from engram.validation import (
    optional_id,
    page_size,
    require_id,
    require_request_id,
    require_text,
    workspace_or_default,
)
from memory_service import convert
from memory_service.journal import EventCommand
from memory_service.planes import Lifecycle, PlaneContext
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

RQ = Queries(Path(__file__).with_name("receipts.sql"))
MAX_ENTRIES = 256
MAX_RECORD_KIND = 64
SECTIONS = ("learned_context", "recovered_memory", "episodic_recall", "session_transcript")
DECISIONS = {
    pb.AUDIT_DECISION_EVALUATED: "evaluated",
    pb.AUDIT_DECISION_SELECTED: "selected",
    pb.AUDIT_DECISION_DROPPED_BUDGET: "dropped_budget",
    pb.AUDIT_DECISION_WITHHELD: "withheld",
}
DECISION_NAMES = {v: k for k, v in DECISIONS.items()}


def _section(field: str, value: str) -> str:
    if value not in SECTIONS:
        raise InvalidArgument(field, f"must be one of {', '.join(SECTIONS)}")
    return value


def _record_kind(field: str, value: str) -> str:
    """A short identifier such as "learning", "run_record" or "episode"."""
    if not value:
        return ""
    if len(value) > MAX_RECORD_KIND:
        raise InvalidArgument(field, f"is {len(value)} chars; the limit is {MAX_RECORD_KIND}")
    return require_id(field, value)


def _sha256(field: str, value: str) -> str:
    if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
        raise InvalidArgument(field, "must be 64 lowercase hex characters")
    return value


def _context_fields(request: Any) -> tuple[str, str, str, str]:
    """(context_id, subject, workspace, session_id) of a receipt request."""
    return (
        require_text("context_id", request.context_id, max_chars=128),
        require_id("subject", request.subject),
        workspace_or_default("workspace", request.workspace),
        optional_id("session_id", request.session_id),
    )


def _audit_rows(field: str, entries: Any) -> list[dict[str, Any]]:
    """Validated retrieval-audit rows: section, record_ids, detail."""
    if len(entries) > MAX_ENTRIES:
        raise InvalidArgument(field, f"at most {MAX_ENTRIES} per call")
    rows = []
    for i, entry in enumerate(entries):
        decision = DECISIONS.get(entry.decision)
        if decision is None:
            raise InvalidArgument(f"{field}[{i}].decision", "must be set")
        rows.append(
            {
                "section": _section(f"{field}[{i}].section", entry.section),
                "record_ids": [
                    require_text(f"{field}[{i}].record_id", entry.record_id, max_chars=128)
                ],
                "detail": {
                    "decision": decision,
                    "score": entry.score,
                    "rank": entry.rank,
                    "record_kind": _record_kind(f"{field}[{i}].record_kind", entry.record_kind),
                },
            }
        )
    return rows


def _injection_row(
    prefix: str,
    section: str,
    record_ids: Any,
    block_sha256: str,
    injected_count: int,
    omitted_count: int,
) -> dict[str, Any]:
    """A validated context-injection row: section, record_ids, block_sha256, detail."""
    section = _section(f"{prefix}section", section)
    block = _sha256(f"{prefix}block_sha256", block_sha256)
    if injected_count < 0 or omitted_count < 0:
        raise InvalidArgument(f"{prefix}injected_count", "counts must not be negative")
    return {
        "section": section,
        "record_ids": [require_text(f"{prefix}record_ids", r, max_chars=128) for r in record_ids],
        "block_sha256": block,
        "detail": {"injected_count": injected_count, "omitted_count": omitted_count},
    }


def _injection_counters(row: dict[str, Any]) -> list[tuple[str, int]]:
    """The durable counters an injection receipt moves. Injections count only
    once packing kept them at the boundary."""
    injected, omitted = row["detail"]["injected_count"], row["detail"]["omitted_count"]
    if row["section"] == "recovered_memory":
        return [
            ("run_memory.injected_total", injected),
            ("run_memory.prompt_limit_omitted_total", omitted),
        ]
    if row["section"] == "learned_context":
        return [("session_memory.prompt_limit_omitted_total", omitted)]
    return []


def _count_injection(row: dict[str, Any]) -> None:
    injected, omitted = row["detail"]["injected_count"], row["detail"]["omitted_count"]
    plane = {"recovered_memory": "run_memory", "learned_context": "learning"}.get(row["section"])
    if plane == "run_memory":
        count_plane_event(plane, "injected", injected)
    if plane is not None:
        count_plane_event(plane, "prompt_limit_omitted", omitted)


class ReceiptRpcs(pb_grpc.JournalServiceServicer):
    plane: PlaneContext

    def _idempotent(
        self,
        operation: str,
        request_id: UUID | None,
        fields: dict[str, Any],
        subject: str,
        write: Any,
    ) -> dict[str, Any]:
        with self.plane.db.transaction() as conn, translating(CONSTRAINT_ERRORS):
            if request_id is not None:
                lock_key(conn, f"{operation}:{request_id}")
                replay = idempotent_lookup(conn, operation, request_id, fingerprint(fields))
                if replay is not None:
                    return replay
            result: dict[str, Any] = write(conn)
            if request_id is not None:
                idempotent_store(conn, operation, request_id, fingerprint(fields), result, subject)
        return result

    def RecordRetrievalAudit(
        self, request: pb.RecordRetrievalAuditRequest, context: grpc.ServicerContext
    ) -> pb.RecordRetrievalAuditResponse:
        context_id, subject, workspace, session_id = _context_fields(request)
        if not request.entries:
            raise InvalidArgument("entries", "must not be empty")
        rows = _audit_rows("entries", request.entries)
        request_id = require_request_id("request_id", request.request_id, required=False)

        def write(conn: Conn) -> dict[str, Any]:
            ids = []
            for row in rows:
                inserted = conn.execute(
                    RQ["insert_receipt"],
                    {
                        "receipt_type": "retrieval_audit",
                        "context_id": context_id,
                        "subject": subject,
                        "workspace": workspace,
                        "session_id": session_id,
                        "section": row["section"],
                        "record_ids": row["record_ids"],
                        "block_sha256": "",
                        "detail": Jsonb(row["detail"]),
                    },
                ).fetchone()
                assert inserted is not None
                ids.append(int(inserted["receipt_id"]))
            return {"receipt_ids": ids}

        result = self._idempotent(
            "record_retrieval_audit",
            request_id,
            {"context_id": context_id, "rows": rows},
            subject,
            write,
        )
        return pb.RecordRetrievalAuditResponse(receipt_ids=result["receipt_ids"])

    def RecordContextInjection(
        self, request: pb.RecordContextInjectionRequest, context: grpc.ServicerContext
    ) -> pb.RecordContextInjectionResponse:
        context_id, subject, workspace, session_id = _context_fields(request)
        row = _injection_row(
            "",
            request.section,
            request.record_ids,
            request.block_sha256,
            request.injected_count,
            request.omitted_count,
        )
        request_id = require_request_id("request_id", request.request_id, required=False)
        fields = {
            "context_id": context_id,
            "section": row["section"],
            "block": row["block_sha256"],
            "ids": row["record_ids"],
            "n": request.injected_count,
            "o": request.omitted_count,
        }

        def write(conn: Conn) -> dict[str, Any]:
            inserted = conn.execute(
                RQ["insert_receipt"],
                {
                    "receipt_type": "context_injection",
                    "context_id": context_id,
                    "subject": subject,
                    "workspace": workspace,
                    "session_id": session_id,
                    "section": row["section"],
                    "record_ids": row["record_ids"],
                    "block_sha256": row["block_sha256"],
                    "detail": Jsonb(row["detail"]),
                },
            ).fetchone()
            assert inserted is not None
            for name, amount in _injection_counters(row):
                add_counter(conn, name, amount)
            return {
                "receipt_id": int(inserted["receipt_id"]),
                "recorded_at": inserted["recorded_at"].isoformat(),
            }

        result = self._idempotent("record_context_injection", request_id, fields, subject, write)
        _count_injection(row)
        return pb.RecordContextInjectionResponse(
            receipt_id=result["receipt_id"], recorded_at=to_timestamp(result["recorded_at"])
        )

    def RecordContextReceipts(
        self, request: pb.RecordContextReceiptsRequest, context: grpc.ServicerContext
    ) -> pb.RecordContextReceiptsResponse:
        context_id, subject, workspace, session_id = _context_fields(request)
        request_id = require_request_id("request_id", request.request_id)
        assert request_id is not None
        audits = _audit_rows("audit_entries", request.audit_entries)
        injections = [
            _injection_row(
                f"injections[{i}].",
                inj.section,
                inj.record_ids,
                inj.block_sha256,
                inj.injected_count,
                inj.omitted_count,
            )
            for i, inj in enumerate(request.injections)
        ]
        sections = [row["section"] for row in injections]
        if len(set(sections)) != len(sections):
            raise InvalidArgument("injections", "at most one injection receipt per section")
        event: EventCommand | None = None
        event_sha = None
        if request.HasField("trace_event"):
            trace = request.trace_event
            provenance = convert.PROVENANCE_FROM_PB.get(trace.provenance)
            if provenance is None:
                raise InvalidArgument("trace_event.provenance", "must be set")
            authorize_event(trace.event_type, trace.provenance, "RecordContextReceipts")
            event = EventCommand(
                event_type=require_text("trace_event.event_type", trace.event_type, max_chars=128),
                subject=subject,
                workspace=workspace,
                session_id=session_id,
                payload=MessageToDict(trace.payload),
                provenance=provenance,
                request_id=request_id,
                occurred_at=None,
            )
            event_sha = self.plane.journal.check_event(event, "trace_event.")
        if not audits and not injections and event is None:
            raise InvalidArgument("audit_entries", "nothing to record")
        rows = [("retrieval_audit", r) for r in audits] + [
            ("context_injection", r) for r in injections
        ]
        counters = [c for r in injections for c in _injection_counters(r)]
        # The request as sent, less its request id: one serialisation, no JSON walk.
        unkeyed = pb.RecordContextReceiptsRequest()
        unkeyed.CopyFrom(request)
        unkeyed.request_id = ""
        unkeyed.workspace = workspace
        request_sha = sha256_hex(unkeyed.SerializeToString(deterministic=True))
        with self.plane.db.connection() as conn, translating(CONSTRAINT_ERRORS):
            # One statement on an autocommit connection: one transaction, one commit.
            written = conn.execute(
                RQ["record_context_receipts"],
                {
                    "request_id": request_id,
                    "request_sha256": request_sha,
                    "context_id": context_id,
                    "subject": subject,
                    "workspace": workspace,
                    "session_id": session_id,
                    "receipts": Jsonb(
                        [{"receipt_type": kind, "block_sha256": "", **row} for kind, row in rows]
                    ),
                    "counter_names": [name for name, _ in counters],
                    "counter_amounts": [amount for _, amount in counters],
                    "event_type": None if event is None else event.event_type,
                    "event_payload": None if event is None else Jsonb(event.payload),
                    "event_provenance": None if event is None else event.provenance,
                    "event_sha256": event_sha,
                },
            ).fetchone()
        assert written is not None
        replayed = bool(written["replayed"])
        if replayed and written["request_sha256"] != request_sha:
            raise AlreadyExists(
                f"request_id {request_id} was already used for a different "
                "record_context_receipts request",
                reason="REQUEST_ID_REUSED",
            )
        response = written["response"]
        ids = [int(i) for i in response["receipt_ids"]]
        if not replayed:
            for row in injections:
                _count_injection(row)
            if event is not None:
                self.plane.journal.announce()
        return pb.RecordContextReceiptsResponse(
            audit_receipt_ids=ids[: len(audits)],
            injection_receipt_ids=ids[len(audits) :],
            event_id=int(response["event_id"]),
            recorded_at=to_timestamp(str(response["recorded_at"])),
            replayed=replayed,
        )

    def ListReceipts(
        self, request: pb.ListReceiptsRequest, context: grpc.ServicerContext
    ) -> pb.ListReceiptsResponse:
        context_id = require_text("context_id", request.context_id, max_chars=128)
        limit = page_size("page_size", request.page_size, default=100, maximum=1000)
        query = {"context_id": context_id}
        after = decode(request.page_token, query, {"after": int}).get("after", 0)
        params = {
            "context_id": context_id,
            "after": after,
            "limit": limit + 1,
            **current_scope().sql_params(),
        }

        def page(db: Database) -> list[dict[str, Any]]:
            with db.connection() as conn:
                return conn.execute(RQ["receipts_page"], params).fetchall()

        # No coverage to say a page is stale: a standby serves only when it has
        # replayed every receipt committed before the request.
        rows, _ = self.plane.reads.read(page, caught_up_only=True)
        token = (
            encode(query, {"after": int(rows[limit - 1]["receipt_id"])})
            if len(rows) > limit
            else ""
        )
        return pb.ListReceiptsResponse(
            receipts=[
                pb.Receipt(
                    receipt_id=int(r["receipt_id"]),
                    receipt_type=str(r["receipt_type"]),
                    context_id=str(r["context_id"]),
                    section=str(r["section"]),
                    record_ids=list(r["record_ids"]),
                    block_sha256=str(r["block_sha256"]),
                    detail=convert.struct(r["detail"]),
                    recorded_at=to_timestamp(r["recorded_at"]),
                )
                for r in rows[:limit]
            ],
            next_page_token=token,
        )


def attach(plane: PlaneContext, lifecycle: Lifecycle) -> None:
    del plane, lifecycle
