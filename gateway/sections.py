"""Turning downstream answers into section candidates, with their evidence.

Coverage is validated here and never upgraded: a missing or invalid seal, or an
absence state that contradicts the coverage, makes the section failed evidence
(status WITHHELD_INVALID_COVERAGE, absence FAILED). A downstream that could not be
reached yields a gateway-sealed UNAVAILABLE coverage (FAILED when it answered with an
error), never an empty SEARCHED one.

Defence in depth: records that break a visibility rule the downstream is responsible
for (the active session's own episodes, another subject/workspace's episodes, a
non-injectable or sensitive learning, a scope the session cannot see) are withheld and
counted in the section detail. Recovered memory needs no such filter: the journal
selects it by subject, workspace and session in SQL (GetRecoveredMemory).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC

from engram.common.v1 import common_pb2
from engram.coverage import CoverageContractError, derive_absence, unavailable_coverage, validate
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.journal.v1 import journal_pb2 as jpb
from engram.learning.v1 import learning_pb2 as lpb
from engram.retrieval.v1 import retrieval_pb2 as rpb
from gateway import render
from gateway.downstream import DownstreamError
from gateway.packing import DropOrder, Entry

READ_PATHS: dict[str, tuple[str, str]] = {
    "learned_context": ("learning.GetLearnedContext", "grpc:engram.learning.v1.LearningService"),
    "recovered_memory": ("journal.GetRecoveredMemory", "grpc:engram.journal.v1.JournalService"),
    "episodic_recall": ("retrieval.Recall", "grpc:engram.retrieval.v1.RetrievalService"),
    "exact_lookup": ("retrieval.FindExact", "grpc:engram.retrieval.v1.RetrievalService"),
    "session_transcript": ("journal.GetSessionContext", "grpc:engram.journal.v1.JournalService"),
}
DROP_ORDERS: dict[str, DropOrder] = {
    "learned_context": DropOrder.LOWEST_RANK_FIRST,
    "recovered_memory": DropOrder.OLDEST_FIRST,
    "episodic_recall": DropOrder.LOWEST_RANK_FIRST,
}
RECORD_KINDS = {
    "learned_context": "learning",
    "recovered_memory": "run_record",
    "episodic_recall": "episode",
    "session_transcript": "turn_event",
}
PROMPT_ELIGIBLE_KINDS = frozenset(
    {
        lpb.LEARNING_KIND_FACT,
        lpb.LEARNING_KIND_PREFERENCE,
        lpb.LEARNING_KIND_DECISION,
    }
)
_SCOPE_PREFIX = {
    common_pb2.SCOPE_KIND_SESSION: "session",
    common_pb2.SCOPE_KIND_PERSONA: "persona",
    common_pb2.SCOPE_KIND_PROJECT: "project",
    common_pb2.SCOPE_KIND_WORKSPACE: "workspace",
}

SectionStatus = int


@dataclass(frozen=True)
class Candidate:
    entry: Entry
    score: float
    # Why it is withheld before packing (visibility defence); empty when eligible.
    withheld: str = ""


@dataclass
class SectionInput:
    """One section's candidates and evidence, before packing."""

    name: str
    coverage: common_pb2.Coverage
    absence_state: int
    hit_count: int
    candidates: list[Candidate] = field(default_factory=list)
    # Set when the section cannot be rendered at all (unavailable/invalid coverage).
    blocked_status: SectionStatus = gpb.SECTION_STATUS_UNSPECIFIED
    detail: str = ""
    # Visible scope keys reported by the learning plane (learned_context only).
    scope_keys: tuple[str, ...] = ()

    @property
    def eligible(self) -> list[Candidate]:
        return [c for c in self.candidates if not c.withheld]


@dataclass(frozen=True)
class Who:
    """Whose context is being assembled."""

    subject: str
    workspace: str
    session_id: str


def scope_key(scope: common_pb2.Scope) -> str:
    return f"{_SCOPE_PREFIX.get(scope.kind, 'unknown')}:{scope.id}"


def failed_coverage(
    name: str, query: Mapping[str, object], *, unreachable: bool
) -> common_pb2.Coverage:
    read_path, source = READ_PATHS[name]
    return unavailable_coverage(read_path, [source], dict(query), failed=not unreachable)


def from_error(name: str, query: Mapping[str, object], error: DownstreamError) -> SectionInput:
    coverage = failed_coverage(name, query, unreachable=error.unreachable)
    return SectionInput(
        name=name,
        coverage=coverage,
        absence_state=derive_absence(coverage, 0),
        hit_count=0,
        blocked_status=gpb.SECTION_STATUS_SOURCE_UNAVAILABLE,
        detail=f"source {'unavailable' if error.unreachable else 'failed'}: {error}",
    )


def checked(
    name: str,
    query: Mapping[str, object],
    present: bool,
    coverage: common_pb2.Coverage,
    hits: int,
    claimed_state: int | None = None,
) -> tuple[common_pb2.Coverage, int, str]:
    """(coverage, absence state, problem); on a problem the coverage is a gateway-made
    FAILED one and the state FAILED."""
    problem = ""
    if not present:
        problem = "response carries no coverage"
    else:
        try:
            validate(coverage)
        except CoverageContractError as exc:
            problem = f"invalid coverage: {exc}"
    if not problem:
        state = derive_absence(coverage, hits)
        if claimed_state not in (None, common_pb2.ABSENCE_STATE_UNSPECIFIED, state):
            claimed = common_pb2.AbsenceState.Name(claimed_state)  # type: ignore[arg-type]
            problem = (
                f"absence state {claimed} contradicts its coverage "
                f"({common_pb2.AbsenceState.Name(state)})"
            )
        else:
            return coverage, state, ""
    failed = failed_coverage(name, query, unreachable=False)
    return failed, derive_absence(failed, 0), problem


def _finish(section: SectionInput, problem: str) -> SectionInput:
    if problem:
        section.blocked_status = gpb.SECTION_STATUS_WITHHELD_INVALID_COVERAGE
        section.detail = f"withheld: {problem}"
        section.candidates = [
            Candidate(c.entry, c.score, c.withheld or "invalid coverage")
            for c in section.candidates
        ]
    foreign = sum(1 for c in section.candidates if c.withheld and not problem)
    if foreign:
        section.detail = (section.detail + "; " if section.detail else "") + (
            f"{foreign} record(s) withheld: outside this context's visibility"
        )
    return section


def learning_withheld(learning: lpb.Learning, visible: set[str]) -> str:
    """Why a learning must not reach a prompt (empty when it may)."""
    if learning.kind not in PROMPT_ELIGIBLE_KINDS:
        return "kind is not prompt-eligible"
    if learning.sensitivity == lpb.SENSITIVITY_SENSITIVE:
        return "sensitive"
    if (
        learning.status != lpb.LEARNING_STATUS_ACTIVE
        or learning.publish_tier != lpb.PUBLISH_TIER_ACTIVE
    ):
        return "not active at the active tier"
    if visible and scope_key(learning.scope) not in visible:
        return "scope not visible"
    return ""


def learned_section(
    response: lpb.GetLearnedContextResponse, query: Mapping[str, object]
) -> SectionInput:
    hits = len(response.entries)
    coverage, state, problem = checked(
        "learned_context", query, response.HasField("coverage"), response.coverage, hits
    )
    visible = set(response.scope_keys)
    section = SectionInput(
        "learned_context", coverage, state, hits, scope_keys=tuple(response.scope_keys)
    )
    for rank, item in enumerate(response.entries):
        learning = item.learning
        key = scope_key(learning.scope)
        withheld = learning_withheld(learning, visible)
        kind = lpb.LearningKind.Name(learning.kind).removeprefix("LEARNING_KIND_").lower()
        line = render.learned_line(kind, key, learning.content)
        recency = learning.created_at.seconds + learning.created_at.nanos / 1e9
        section.candidates.append(
            Candidate(Entry(learning.learning_id, line, rank, recency), item.score, withheld)
        )
    return _finish(section, problem)


def recovered_section(
    response: jpb.GetRecoveredMemoryResponse, query: Mapping[str, object]
) -> SectionInput:
    """The journal returns this subject/workspace/session's records only (filtered in
    SQL), so every record is a candidate."""
    hits = len(response.records)
    coverage, state, problem = checked(
        "recovered_memory", query, response.HasField("coverage"), response.coverage, hits
    )
    section = SectionInput("recovered_memory", coverage, state, hits)
    if response.omitted_by_limit:
        section.detail = f"{response.omitted_by_limit} record(s) cut by max_prompt_entries"
    for rank, ranked in enumerate(response.records):
        record = ranked.record
        status = jpb.RunStatus.Name(record.status).removeprefix("RUN_STATUS_").lower()
        recorded_at = (
            record.recorded_at.ToDatetime(tzinfo=UTC) if record.HasField("recorded_at") else None
        )
        line = render.recovered_line(record.run_id, status, recorded_at, record.summary)
        recency = record.recorded_at.seconds + record.recorded_at.nanos / 1e9
        section.candidates.append(
            Candidate(Entry(record.run_id, line, rank, recency), ranked.score)
        )
    return _finish(section, problem)


def episodic_section(
    response: rpb.RecallResponse, query: Mapping[str, object], who: Who
) -> SectionInput:
    hits = len(response.hits)
    coverage, state, problem = checked(
        "episodic_recall",
        query,
        response.HasField("coverage"),
        response.coverage,
        hits,
        response.absence_state,
    )
    section = SectionInput("episodic_recall", coverage, state, hits)
    for rank, hit in enumerate(response.hits):
        withheld = ""
        if (
            hit.session_id == who.session_id
            or hit.subject != who.subject
            or (hit.workspace or "default") != who.workspace
        ):
            withheld = "outside the episodic scope (active session, subject or workspace)"
        when = hit.last_seen_at.ToDatetime(tzinfo=UTC) if hit.HasField("last_seen_at") else None
        line = render.episodic_line(when, hit.user_text, hit.assistant_text)
        recency = hit.last_seen_at.seconds + hit.last_seen_at.nanos / 1e9
        section.candidates.append(
            Candidate(Entry(hit.episode_id, line, rank, recency), hit.score, withheld)
        )
    return _finish(section, problem)
