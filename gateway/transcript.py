"""The session_transcript section: this session's own conversation, as
JournalService.GetSessionContext returns it (a checkpoint of hash-matched
analyses of older turns, then the literal recent tail), under its own budget.

Packing, in order: the tail turns newest first while they fit; then the
checkpoint, only if every tail turn fitted and it fits what is left (so the
checkpoint is always dropped before any tail turn); then, when older turns
are neither literal nor in the checkpoint (compaction declined, or dropped
by budget), one line saying so, its room reserved up front. The coverage is
the journal's, validated here and never upgraded; it goes into the trace.
The rendered lines are records of the context, so the gate reads this
session's own transcript as evidence (seed 004 section 17.9): a "you told
me X" about a minutes-old statement is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC

from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import transcript_pb2 as tpb
from gateway import render
from gateway.blocks import PackedSection, begin_packing
from gateway.packing import Entry, entry_cost, framing_cost
from gateway.sections import Candidate, SectionInput, checked

NAME = "session_transcript"
DEFAULT_TRANSCRIPT_BUDGET_TOKENS = 1024
MAX_TRANSCRIPT_BUDGET_TOKENS = 32768
CHECKPOINT_PREFIX = "checkpoint:"
_OMISSION_RESERVE = render.omission_line(10**9, "x" * 120)


@dataclass
class TranscriptInput(SectionInput):
    # Older turns the journal did not represent (declined or omitted).
    older_omitted: int = 0
    # Turns the checkpoint covers (omitted too when it is dropped by budget).
    checkpoint_turns: int = 0


def transcript_section(
    response: tpb.GetSessionContextResponse, query: Mapping[str, object]
) -> SectionInput:
    hits = response.coverage.cardinality.returned if response.HasField("coverage") else 0
    coverage, state, problem = checked(
        NAME, query, response.HasField("coverage"), response.coverage, hits
    )
    section = TranscriptInput(NAME, coverage, state, hits)
    outcome = tpb.CompactionOutcome.Name(response.outcome).removeprefix("COMPACTION_OUTCOME_")
    notes = [f"compaction {outcome.lower()}"]
    reasons = sorted(
        {
            tpb.CompactionIssueReason.Name(i.reason).removeprefix("COMPACTION_ISSUE_REASON_")
            for i in response.issues
        }
    )
    if reasons:
        notes.append("issues " + ",".join(reasons))
    if response.older_turns_omitted:
        notes.append(f"{response.older_turns_omitted} older turn(s) omitted by the journal")
    section.detail = "; ".join(notes)
    tail = list(response.tail)
    for rank, turn in enumerate(reversed(tail)):  # rank 0 = the newest turn
        when = turn.occurred_at.ToDatetime(tzinfo=UTC) if turn.HasField("occurred_at") else None
        line = render.transcript_line(
            turn.event_id,
            when,
            turn.user_text,
            turn.assistant_text,
            turn.user_name,
            turn.assistant_name,
        )
        recency = turn.occurred_at.seconds + turn.occurred_at.nanos / 1e9
        section.candidates.append(Candidate(Entry(str(turn.event_id), line, rank, recency), 1.0))
    if response.HasField("checkpoint"):
        cp = response.checkpoint
        line = render.checkpoint_entry(len(cp.sources), cp.sha256, cp.text)
        section.candidates.append(
            Candidate(Entry(CHECKPOINT_PREFIX + cp.sha256, line, len(tail), 0.0), 0.5)
        )
    # Withheld candidates carry the coverage problem (see sections._finish).
    if problem:
        section.blocked_status = gpb.SECTION_STATUS_WITHHELD_INVALID_COVERAGE
        section.detail = f"withheld: {problem}"
        section.candidates = [
            Candidate(c.entry, c.score, "invalid coverage") for c in section.candidates
        ]
    section.older_omitted = response.older_turns_omitted
    section.checkpoint_turns = (
        len(response.checkpoint.sources) if response.HasField("checkpoint") else 0
    )
    return section


def pack_transcript(section: SectionInput, budget: int) -> PackedSection:
    packed, done = begin_packing(section, budget)
    if done:
        return packed
    eligible = [c.entry for c in section.eligible]
    tail = sorted(
        (e for e in eligible if not e.record_id.startswith(CHECKPOINT_PREFIX)), key=lambda e: e.rank
    )
    checkpoint = next((e for e in eligible if e.record_id.startswith(CHECKPOINT_PREFIX)), None)
    available = budget - framing_cost(render.header(NAME), render.footer(NAME))
    available -= entry_cost(Entry("", _OMISSION_RESERVE, 0, 0.0))
    kept: list[Entry] = []
    dropped: list[Entry] = []
    used = 0
    for entry in tail:  # newest first
        cost = entry_cost(entry)
        if not dropped and used + cost <= available:
            kept.append(entry)
            used += cost
        else:
            dropped.append(entry)
    checkpoint_kept = False
    if checkpoint is not None:
        if not dropped and used + entry_cost(checkpoint) <= available:
            checkpoint_kept = True
        else:
            dropped.append(checkpoint)
    if not kept:
        packed.dropped = tuple(dropped)
        packed.status = gpb.SECTION_STATUS_OMITTED_BUDGET
        packed.details.append(f"nothing fitted {budget} tokens")
        return packed
    if dropped:
        packed.details.append(
            f"budget dropped {'the checkpoint and ' if checkpoint in dropped else ''}"
            f"{sum(1 for e in dropped if e is not checkpoint)} tail turn(s)"
        )
    tail_dropped = sum(1 for e in dropped if e is not checkpoint)
    older = section.older_omitted if isinstance(section, TranscriptInput) else 0
    omitted = older + tail_dropped
    if checkpoint is not None and not checkpoint_kept and isinstance(section, TranscriptInput):
        omitted += section.checkpoint_turns
    lines: list[str] = []
    if omitted:
        why = "compaction declined" if "declined" in section.detail else "left out by the budget"
        lines.append(render.omission_line(omitted, why))
    ordered = ([checkpoint] if checkpoint_kept and checkpoint is not None else []) + list(
        reversed(kept)
    )
    packed.kept = tuple(ordered)
    packed.dropped = tuple(dropped)
    packed.rendered = render.render_block(NAME, lines + [e.line for e in ordered])
    packed.status = gpb.SECTION_STATUS_INCLUDED
    return packed
