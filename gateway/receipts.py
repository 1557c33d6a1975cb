"""Receipts through JournalService, fail closed.

One RecordRetrievalAudit for every candidate a plane returned (EVALUATED, then
SELECTED, DROPPED_BUDGET or WITHHELD); then, only once the audit is written, one
RecordContextInjection per rendered block (record ids, SHA-256 of the exact block,
injected and omitted counts), in parallel. A failed audit removes every block; a failed
injection receipt removes its block (SECTION_STATUS_WITHHELD_RECEIPT_FAILED). Writing the
injection receipts only after the audit means an injection receipt never records a block
that was then removed. A section omitted by budget gets a receipt for the empty block so
the omission counters stay exact. A receipt proves evaluation or exposure, not influence.
"""

from __future__ import annotations

from concurrent.futures import Executor

from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.metrics import count_plane_event
from gateway import render
from gateway.blocks import PackedSection
from gateway.downstream import DownstreamError, Planes, wait
from gateway.packing import Entry
from gateway.sections import RECORD_KINDS, Who

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


class ReceiptWriter:
    def __init__(self, planes: Planes, executor: Executor) -> None:
        self._planes = planes
        self._executor = executor

    def record(self, who: Who, context_id: str, sections: list[PackedSection]) -> None:
        entries = audit_entries(sections)
        if entries:
            try:
                request = jpb.RecordRetrievalAuditRequest(
                    context_id=context_id,
                    subject=who.subject,
                    workspace=who.workspace,
                    session_id=who.session_id,
                    entries=entries,
                )
                self._planes.call(
                    "journal", "RecordRetrievalAudit", request, jpb.RecordRetrievalAuditResponse
                )
            except DownstreamError as exc:
                count_plane_event("gateway", "receipt_failed")
                for packed in sections:
                    if packed.status == gpb.SECTION_STATUS_INCLUDED:
                        packed.withhold(f"retrieval audit receipt failed: {exc}")
                return
        injections = {
            packed.name: self._executor.submit(self._inject, who, context_id, packed)
            for packed in sections
            if packed.status in (gpb.SECTION_STATUS_INCLUDED, gpb.SECTION_STATUS_OMITTED_BUDGET)
        }
        for packed in sections:
            job = injections.get(packed.name)
            if job is None:
                continue
            error = wait(job, self._planes.timeout_s, lambda: "no answer within the deadline")
            if not error:
                continue
            count_plane_event("gateway", "receipt_failed")
            if packed.status == gpb.SECTION_STATUS_INCLUDED:
                packed.withhold(f"context injection receipt failed: {error}")
            else:
                packed.details.append(f"omission receipt failed: {error}")

    def _inject(self, who: Who, context_id: str, packed: PackedSection) -> str:
        """Writes the injection receipt; returns "" or the error."""
        included = packed.status == gpb.SECTION_STATUS_INCLUDED
        try:
            response = self._planes.call(
                "journal",
                "RecordContextInjection",
                jpb.RecordContextInjectionRequest(
                    context_id=context_id,
                    subject=who.subject,
                    workspace=who.workspace,
                    session_id=who.session_id,
                    section=packed.name,
                    record_ids=[e.record_id for e in packed.kept],
                    block_sha256=render.block_sha256(packed.rendered)
                    if included
                    else _EMPTY_BLOCK_SHA256,
                    injected_count=len(packed.kept),
                    omitted_count=len(packed.dropped),
                ),
                jpb.RecordContextInjectionResponse,
            )
        except DownstreamError as exc:
            return str(exc)
        packed.receipt_id = response.receipt_id
        return ""
