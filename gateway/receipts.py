"""Receipts through JournalService, fail closed, in one call and one transaction.

RecordContextReceipts writes, all or nothing: one retrieval-audit row for every candidate
a plane returned (EVALUATED, then SELECTED, DROPPED_BUDGET or WITHHELD), one
context-injection receipt per rendered block (record ids, SHA-256 of the exact block,
injected and omitted counts) and the context's trace event. If the call fails, nothing
was written, so every block it covered is removed (SECTION_STATUS_WITHHELD_RECEIPT_FAILED)
and no injection receipt can record a block that was then removed. A section omitted by
budget gets a receipt for the empty block so the omission counters stay exact. A receipt
proves evaluation or exposure, not influence.
"""

from __future__ import annotations

import logging

from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.metrics import count_plane_event
from gateway import render
from gateway.blocks import PackedSection
from gateway.downstream import DownstreamError, Planes
from gateway.packing import Entry
from gateway.sections import RECORD_KINDS, Who

log = logging.getLogger("engram.gateway")

_EMPTY_BLOCK_SHA256 = render.block_sha256("")


def _audit_row(section: str, entry: Entry, score: float, decision: int) -> jpb.RetrievalAuditEntry:
    return jpb.RetrievalAuditEntry(
        section=section,
        record_kind=RECORD_KINDS[section],
        record_id=entry.record_id,
        decision=decision,  # type: ignore[arg-type]
        score=score,
        rank=entry.rank + 1,
    )


def audit_entries(sections: list[PackedSection]) -> list[jpb.RetrievalAuditEntry]:
    """EVALUATED for every candidate, then SELECTED, DROPPED_BUDGET or WITHHELD."""
    entries = []
    for packed in sections:
        kept = {e.record_id for e in packed.kept}
        dropped = {e.record_id for e in packed.dropped}
        for candidate in packed.source.candidates:
            entry, score = candidate.entry, candidate.score
            entries.append(_audit_row(packed.name, entry, score, jpb.AUDIT_DECISION_EVALUATED))
            if candidate.withheld:
                decision = jpb.AUDIT_DECISION_WITHHELD
            elif entry.record_id in kept:
                decision = jpb.AUDIT_DECISION_SELECTED
            elif entry.record_id in dropped:
                decision = jpb.AUDIT_DECISION_DROPPED_BUDGET
            else:
                continue
            entries.append(_audit_row(packed.name, entry, score, decision))
    return entries


def _injection(packed: PackedSection) -> jpb.ContextInjection:
    included = packed.status == gpb.SECTION_STATUS_INCLUDED
    return jpb.ContextInjection(
        section=packed.name,
        record_ids=[e.record_id for e in packed.kept],
        block_sha256=render.block_sha256(packed.rendered) if included else _EMPTY_BLOCK_SHA256,
        injected_count=len(packed.kept),
        omitted_count=len(packed.dropped),
    )


class ReceiptWriter:
    def __init__(self, planes: Planes) -> None:
        self._planes = planes

    def record(
        self,
        who: Who,
        context_id: str,
        sections: list[PackedSection],
        trace: jpb.ContextTraceEvent,
        request_id: str,
    ) -> int:
        """Writes the context's receipts and trace event; returns the event's id, or 0
        when the write failed (every included block is then withheld)."""
        exposed = [
            packed
            for packed in sections
            if packed.status in (gpb.SECTION_STATUS_INCLUDED, gpb.SECTION_STATUS_OMITTED_BUDGET)
        ]
        request = jpb.RecordContextReceiptsRequest(
            context_id=context_id,
            subject=who.subject,
            workspace=who.workspace,
            session_id=who.session_id,
            audit_entries=audit_entries(sections),
            injections=[_injection(packed) for packed in exposed],
            trace_event=trace,
            request_id=request_id,
        )
        try:
            response = self._planes.call(
                "journal", "RecordContextReceipts", request, jpb.RecordContextReceiptsResponse
            )
        except DownstreamError as exc:
            count_plane_event("gateway", "receipt_failed")
            count_plane_event("gateway", "trace_not_journaled")
            log.warning(
                "context receipts not written", extra={"context_id": context_id, "error": str(exc)}
            )
            for packed in exposed:
                if packed.status == gpb.SECTION_STATUS_INCLUDED:
                    packed.withhold(f"context receipts failed: {exc}")
                else:
                    packed.details.append(f"omission receipt failed: {exc}")
            return 0
        for packed, receipt_id in zip(exposed, response.injection_receipt_ids, strict=True):
            packed.receipt_id = receipt_id
        return int(response.event_id)
