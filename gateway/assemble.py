"""AssembleContext: fan out, validate coverage, pack, frame, receipt (fail closed), trace.

1. Fan out to the three planes in parallel, with deadlines (gateway.fanout).
2. Each answer's coverage is validated (gateway.sections); its AbsenceState is derived.
3. Each section is packed under its budget and rendered (gateway.blocks,
   gateway.packing, gateway.render).
4. Receipts through JournalService, fail closed (gateway.receipts): one
   RecordContextReceipts call writes the retrieval audit, the injection receipts and
   the ``gateway.context.assembled`` event (the evidence of the context: coverage,
   absence states, exact lookup, packed record ids and block hashes, before receipts)
   in one transaction; if it fails, every block is removed before the response returns.
5. The context is cached for ReleaseResponse. Exposure at the model boundary is what
   the injection receipts record.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from google.protobuf import struct_pb2

from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.metrics import count_plane_event
from engram.timeutil import now, to_timestamp
from gateway import render
from gateway.blocks import PackedSection, pack_section
from gateway.contexts import CONTEXT_EVENT, ContextState, SectionRecord
from gateway.downstream import Planes
from gateway.evidence import SectionEvidence, mentions_any
from gateway.fanout import AssembleCommand, ExactOutcome, Fanout
from gateway.packing import estimate_tokens, split_budget
from gateway.receipts import ReceiptWriter
from gateway.routing import route
from gateway.sections import SectionInput
from gateway.transcript import NAME as TRANSCRIPT_SECTION
from gateway.transcript import pack_transcript

__all__ = ["AssembleCommand", "Assembler", "derived_id"]

_ID_NAMESPACE = uuid.UUID("6f1c63e2-55a4-4d0c-9a57-0c5b1f3f8e21")

PayloadSealer = Callable[[dict[str, Any]], dict[str, Any]]


def derived_id(context_id: str, purpose: str) -> str:
    """A stable request id for one write of one context (safe to retry)."""
    return str(uuid.uuid5(_ID_NAMESPACE, f"{context_id}:{purpose}"))


class Assembler:
    def __init__(self, planes: Planes, executor: Executor, seal: PayloadSealer) -> None:
        self._planes = planes
        self._executor = executor
        self._seal = seal
        self._fanout = Fanout(planes, executor)
        self._receipts = ReceiptWriter(planes)

    def exact_lookup(
        self, subject: str, workspace: str
    ) -> Callable[[tuple[str, ...]], bool | None]:
        return self._fanout.exact_lookup(subject, workspace)

    def assemble(self, cmd: AssembleCommand) -> tuple[gpb.AssembleContextResponse, ContextState]:
        context_id = f"ctx_{uuid.uuid4().hex}"
        exact_route = route(cmd.input_text)
        inputs, exact = self._fanout.fetch(cmd, context_id, exact_route)
        budgets = split_budget(cmd.budget_tokens)
        sections = [
            pack_transcript(s, cmd.transcript_budget_tokens)
            if s.name == TRANSCRIPT_SECTION
            else pack_section(s, budgets[s.name])
            for s in inputs
        ]
        state = self._state(cmd, context_id, inputs, sections, exact)
        # The evidence event is written with the receipts, in one transaction: exposure
        # is what the injection receipts say.
        state.journal_event_id = self._receipts.record(
            cmd.who,
            context_id,
            sections,
            self._trace_event(state),
            derived_id(context_id, "context"),
        )
        for packed in sections:
            status_name = gpb.SectionStatus.Name(packed.status)  # type: ignore[arg-type]
            count_plane_event(
                "gateway", "section_" + status_name.removeprefix("SECTION_STATUS_").lower()
            )
        return self._response(state, sections, exact), state

    @staticmethod
    def _state(
        cmd: AssembleCommand,
        context_id: str,
        inputs: list[SectionInput],
        sections: list[PackedSection],
        exact: ExactOutcome | None,
    ) -> ContextState:
        """What ReleaseResponse needs, fixed before any receipt is written. A block later
        withheld for a failed receipt still counts as mentioning the looked-up terms:
        that errs towards NOT_ABSENT, never towards licensing a negative."""
        terms = exact.evidence.terms if exact is not None else ()
        mentions = bool(terms) and any(
            mentions_any(p.rendered, terms) for p in sections if p.rendered
        )
        return ContextState(
            context_id=context_id,
            subject=cmd.subject,
            workspace=cmd.workspace,
            session_id=cmd.session_id,
            request_id=cmd.request_id,
            input_sha256=hashlib.sha256(cmd.input_text.encode()).hexdigest(),
            input_excerpt=cmd.input_text,
            sections=tuple(
                SectionRecord(
                    evidence=SectionEvidence(
                        p.name, p.source.absence_state, p.source.coverage, p.source.hit_count
                    ),
                    status=gpb.SectionStatus.Name(p.status),  # type: ignore[arg-type]
                    record_ids=tuple(e.record_id for e in p.kept),
                    block_sha256=render.block_sha256(p.rendered) if p.rendered else "",
                )
                for p in sections
            ),
            exact=exact.evidence if exact is not None else None,
            context_mentions_terms=mentions,
            scope_keys=next((s.scope_keys for s in inputs if s.scope_keys), ()),
            assembled_at=now(),
            rendered_records=tuple(e.line for p in sections if p.rendered for e in p.kept),
        )

    def _trace_event(self, state: ContextState) -> jpb.ContextTraceEvent:
        payload = struct_pb2.Struct()
        payload.update(self._seal(state.to_payload()))
        return jpb.ContextTraceEvent(
            event_type=CONTEXT_EVENT, payload=payload, provenance=jpb.PROVENANCE_SYSTEM
        )

    @staticmethod
    def _response(
        state: ContextState, sections: list[PackedSection], exact: ExactOutcome | None
    ) -> gpb.AssembleContextResponse:
        traces = []
        for packed in sections:
            included = packed.status == gpb.SECTION_STATUS_INCLUDED
            traces.append(
                gpb.SectionTrace(
                    name=packed.name,
                    coverage=packed.source.coverage,
                    absence_state=packed.source.absence_state,  # type: ignore[arg-type]
                    record_ids=[e.record_id for e in packed.kept],
                    block_sha256=render.block_sha256(packed.rendered) if included else "",
                    status=packed.status,  # type: ignore[arg-type]
                    detail="; ".join(packed.details),
                    candidates_evaluated=len(packed.source.candidates),
                    entries_packed=len(packed.kept) if included else 0,
                    entries_dropped_budget=len(packed.dropped),
                    budget_tokens=packed.budget,
                    used_tokens=estimate_tokens(packed.rendered),
                    injection_receipt_id=packed.receipt_id if included else 0,
                )
            )
        trace = gpb.ContextTrace(
            sections=traces,
            exact_lookup=exact.trace if exact is not None else gpb.ExactLookupTrace(ran=False),
            scope_keys=list(state.scope_keys),
            assembled_at=to_timestamp(state.assembled_at),
            journal_event_id=state.journal_event_id,
        )
        return gpb.AssembleContextResponse(
            context_id=state.context_id,
            sections=[
                gpb.ContextSection(name=p.name, rendered=p.rendered, status=p.status)  # type: ignore[arg-type]
                for p in sections
            ],
            trace=trace,
        )
