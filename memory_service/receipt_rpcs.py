"""Receipts: what was evaluated for a context (retrieval audit) and what
crossed the model boundary (context injection). Append-only; a receipt
proves evaluation or exposure, not influence."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import grpc
from psycopg.types.json import Jsonb

from engram.auth import current_scope
from engram.db.errors import translating
from engram.db.queries import Queries
from engram.errors import InvalidArgument
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.metrics import count_plane_event
from engram.pagination import decode, encode
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
from memory_service.planes import Lifecycle, PlaneContext
from memory_service.store import (
    CONSTRAINT_ERRORS,
    Conn,
    add_counter,
    fingerprint,
    idempotent_lookup,
    idempotent_store,
    lock_key,
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
        context_id = require_text("context_id", request.context_id, max_chars=128)
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        session_id = optional_id("session_id", request.session_id)
        if not request.entries:
            raise InvalidArgument("entries", "must not be empty")
        if len(request.entries) > MAX_ENTRIES:
            raise InvalidArgument("entries", f"at most {MAX_ENTRIES} per call")
        rows = []
        for i, entry in enumerate(request.entries):
            decision = DECISIONS.get(entry.decision)
            if decision is None:
                raise InvalidArgument(f"entries[{i}].decision", "must be set")
            rows.append(
                {
                    "section": _section(f"entries[{i}].section", entry.section),
                    "record_ids": [
                        require_text(f"entries[{i}].record_id", entry.record_id, max_chars=128)
                    ],
                    "detail": {
                        "decision": decision,
                        "score": entry.score,
                        "rank": entry.rank,
                        "record_kind": _record_kind(f"entries[{i}].record_kind", entry.record_kind),
                    },
                }
            )
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
        context_id = require_text("context_id", request.context_id, max_chars=128)
        subject = require_id("subject", request.subject)
        workspace = workspace_or_default("workspace", request.workspace)
        session_id = optional_id("session_id", request.session_id)
        section = _section("section", request.section)
        block_sha = _sha256("block_sha256", request.block_sha256)
        if request.injected_count < 0 or request.omitted_count < 0:
            raise InvalidArgument("injected_count", "counts must not be negative")
        record_ids = [require_text("record_ids", r, max_chars=128) for r in request.record_ids]
        request_id = require_request_id("request_id", request.request_id, required=False)
        fields = {
            "context_id": context_id,
            "section": section,
            "block": block_sha,
            "ids": record_ids,
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
                    "section": section,
                    "record_ids": record_ids,
                    "block_sha256": block_sha,
                    "detail": Jsonb(
                        {
                            "injected_count": request.injected_count,
                            "omitted_count": request.omitted_count,
                        }
                    ),
                },
            ).fetchone()
            assert inserted is not None
            if section == "recovered_memory":
                # Injections count only once packing kept them at the boundary.
                add_counter(conn, "run_memory.injected_total", request.injected_count)
                add_counter(conn, "run_memory.prompt_limit_omitted_total", request.omitted_count)
            elif section == "learned_context":
                add_counter(
                    conn, "session_memory.prompt_limit_omitted_total", request.omitted_count
                )
            return {
                "receipt_id": int(inserted["receipt_id"]),
                "recorded_at": inserted["recorded_at"].isoformat(),
            }

        result = self._idempotent("record_context_injection", request_id, fields, subject, write)
        plane = {"recovered_memory": "run_memory", "learned_context": "learning"}.get(section)
        if plane == "run_memory":
            count_plane_event(plane, "injected", request.injected_count)
        if plane is not None:
            count_plane_event(plane, "prompt_limit_omitted", request.omitted_count)
        return pb.RecordContextInjectionResponse(
            receipt_id=result["receipt_id"], recorded_at=to_timestamp(result["recorded_at"])
        )

    def ListReceipts(
        self, request: pb.ListReceiptsRequest, context: grpc.ServicerContext
    ) -> pb.ListReceiptsResponse:
        context_id = require_text("context_id", request.context_id, max_chars=128)
        limit = page_size("page_size", request.page_size, default=100, maximum=1000)
        query = {"context_id": context_id}
        after = decode(request.page_token, query, {"after": int}).get("after", 0)
        with self.plane.db.connection() as conn:
            rows = conn.execute(
                RQ["receipts_page"],
                {
                    "context_id": context_id,
                    "after": after,
                    "limit": limit + 1,
                    **current_scope().sql_params(),
                },
            ).fetchall()
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
