"""Capture: completed runs become daemon-origin candidates.

The worker follows JournalService.StreamChanges for `run.completed` events
and, per run:

1. explicit `Fact:` / `Preference:` / `Decision:` labels in the request become
   candidates at confidence 98 with no model call (a trailing "reply /
   respond / answer exactly ..." instruction is trimmed off);
2. otherwise the pluggable ExtractorService (if configured) proposes at most
   capture.max_candidates_per_run fact/preference/decision candidates;
   secret-looking and duplicate proposals are dropped;
3. with run-summary capture on, the run's summary becomes a sensitive
   run_summary candidate (stored for review, verification and audit; never
   injected).

The same feed, under the same cursor, announces subject purges: the
worker erases what the plane derived from the purged subject (see
learning_service.erasure), in feed order, so a run captured before its
subject's purge is always erased after it.

Restart-safe and idempotent: the journal change cursor is stored in
learning.worker_cursors ('capture') and advanced in the same transaction as
the candidates it produced (or the erasure it made); a (source run, kind,
content) triple is unique, and the learning purge ledger is keyed by the
change cursor.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engram.db import Database
from engram.metrics import FEED_LAG, count_plane_event
from engram.redaction import looks_like_secret
from learning_service.candidates import (
    MAX_CONTENT,
    NewCandidate,
    SourceRef,
    insert_daemon_candidate,
)
from learning_service.erasure import Erasure, SubjectPurge, erase_subject
from learning_service.journal_client import (
    RUN_EVENT,
    SUBJECT_PURGED,
    ChangeStream,
    JournalClient,
    RunCompletion,
)
from learning_service.model import SEMANTIC_KINDS, Kind, Origin, Scope, ScopeKind, Sensitivity
from learning_service.plugins import ExtractorClient, PluginError
from learning_service.policy import CaptureSettings
from learning_service.policy_store import load
from learning_service.store import add_counter, advance_cursor, cursor_position
from learning_service.text import normalize

log = logging.getLogger("engram.learning.capture")

CURSOR = "capture"
LABEL_CONFIDENCE = 98
RUN_SUMMARY_CONFIDENCE = 100
MAX_LABELS_PER_RUN = 10

# A label starts the text, a line or a sentence (any case), or is a
# capitalised word after whitespace (run previews fold lines into one);
# "the decision: ..." is prose.
_LABEL = re.compile(
    r"(?:(?:^|(?<=\n)|(?<=[.!?;]\s))[ \t]*(?P<label>(?i:fact|preference|decision))"
    r"|(?<=\s)(?P<capital>Fact|Preference|Decision|FACT|PREFERENCE|DECISION))"
    r"[ \t]*:[ \t]*"
)
# Previews are capped with an ellipsis: a cut label text is not a statement.
TRUNCATION_MARK = "\u2026"
# A formatting order that ends the labelled text: it must start a new clause.
_TRAILING_INSTRUCTION = re.compile(
    r"(?:(?<=[.!?;,:\-])|^)\s*(?:(?:please|now|then|and)\s+)*(?:reply|respond|answer)\b"
    r".*?\bexactly\b.*$",
    re.IGNORECASE | re.DOTALL,
)
_TRAILING_SEPARATORS = re.compile(r"[\s,;:\-]+$")
_WORDLIKE = re.compile(r"\w")


def trim_instruction(text: str) -> str:
    """Cut a trailing "Reply exactly OK."-style instruction off labelled text."""
    match = _TRAILING_INSTRUCTION.search(text)
    if match is not None:
        text = text[: match.start()]
    return _TRAILING_SEPARATORS.sub("", text.strip())


def label_candidates(request_text: str) -> list[tuple[Kind, str]]:
    """(kind, content) for every explicit label, in order, deduplicated.
    A labelled text runs to the end of its line or the next label."""
    found: list[tuple[Kind, str]] = []
    seen: set[tuple[Kind, str]] = set()
    matches = list(_LABEL.finditer(request_text))
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(request_text)
        segment = request_text[match.end() : end].split("\n", 1)[0]
        content = " ".join(trim_instruction(segment).split())
        if not _WORDLIKE.search(content) or content.endswith(TRUNCATION_MARK):
            continue
        kind = Kind((match.group("label") or match.group("capital")).lower())
        key = (kind, normalize(content))
        if key not in seen:
            seen.add(key)
            found.append((kind, content))
    return found[:MAX_LABELS_PER_RUN]


@dataclass
class CapturePlan:
    candidates: list[NewCandidate] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)


def _candidate(
    run: RunCompletion,
    kind: Kind,
    content: str,
    confidence: int,
    sensitivity: Sensitivity = Sensitivity.NORMAL,
) -> NewCandidate:
    return NewCandidate(
        origin=Origin.DAEMON,
        scope=Scope(ScopeKind.SESSION, run.session_id),
        kind=kind,
        content=content,
        confidence=confidence,
        source=SourceRef(run.run_id, run.session_id, run.subject, run.workspace, run.event_id),
        evidence_refs=(f"run:{run.run_id}", f"event:{run.event_id}"),
        sensitivity=sensitivity,
    )


def _acceptable(content: str, plan: CapturePlan) -> bool:
    if not content.strip() or len(content) > MAX_CONTENT:
        plan.counts["capture_invalid_dropped_total"] += 1
        return False
    if looks_like_secret(content):
        plan.counts["capture_secret_dropped_total"] += 1
        return False
    return True


def plan_capture(
    run: RunCompletion, settings: CaptureSettings, extractor: ExtractorClient | None
) -> CapturePlan:
    """The candidates one completed run produces (remote extractor call
    included); nothing is written here."""
    plan = CapturePlan()
    if settings.semantic_enabled:
        labels = label_candidates(run.request_text)
        if labels:
            for kind, content in labels:
                if _acceptable(content, plan):
                    plan.candidates.append(_candidate(run, kind, content, LABEL_CONFIDENCE))
                    plan.counts["capture_label_candidates_total"] += 1
        elif extractor is not None:
            _extract(run, settings, extractor, plan)
    if settings.run_summary_enabled and run.summary.strip() and _acceptable(run.summary, plan):
        plan.candidates.append(
            _candidate(
                run,
                Kind.RUN_SUMMARY,
                run.summary.strip(),
                RUN_SUMMARY_CONFIDENCE,
                Sensitivity.SENSITIVE,
            )
        )
        plan.counts["capture_run_summary_total"] += 1
    return plan


def _extract(
    run: RunCompletion, settings: CaptureSettings, extractor: ExtractorClient, plan: CapturePlan
) -> None:
    try:
        proposals = extractor.extract(
            run.run_id,
            run.session_id,
            run.request_text,
            run.outcome_text,
            settings.max_candidates_per_run,
        )
    except PluginError as exc:
        plan.counts["capture_extractor_errors_total"] += 1
        log.warning(
            "extractor failed; no candidates for this run",
            extra={"run_id": run.run_id, "error": str(exc)},
        )
        return
    seen: set[tuple[Kind, str]] = set()
    for proposal in proposals:
        if len(seen) >= settings.max_candidates_per_run:
            plan.counts["capture_over_limit_dropped_total"] += 1
            continue
        if proposal.kind not in SEMANTIC_KINDS or proposal.kind is None:
            plan.counts["capture_invalid_dropped_total"] += 1
            continue
        content = " ".join(proposal.content.split())
        key = (proposal.kind, normalize(content))
        if key in seen:
            plan.counts["capture_duplicate_dropped_total"] += 1
            continue
        if not _acceptable(content, plan):
            continue
        seen.add(key)
        confidence = min(100, max(0, proposal.confidence))
        plan.candidates.append(_candidate(run, proposal.kind, content, confidence))
        plan.counts["capture_extractor_candidates_total"] += 1


class CaptureInterrupted(Exception):
    """The worker is stopping; the change stays uncaptured."""


class CaptureWorker:
    """Follows the journal feed; one step follows until the stream ends."""

    def __init__(
        self,
        db: Database,
        journal: JournalClient,
        extractor: ExtractorClient | None,
        on_new_candidates: Callable[[], None],
    ) -> None:
        self.db = db
        self.journal = journal
        self.extractor = extractor
        self.on_new_candidates = on_new_candidates
        self._stopping = False
        self._stream: ChangeStream | None = None
        # (journal watermark, cursor captured up to) as of the last batch.
        self._position: tuple[int, int] | None = None
        self._untrack = FEED_LAG.track(self._lag, consumer="learning_capture")

    def cancel(self) -> None:
        """Stop following: ends the current stream and any extractor call (the
        loop is stopping). Work in progress is not committed."""
        self._stopping = True
        self._untrack()
        stream = self._stream
        if stream is not None:
            stream.cancel()
        if self.extractor is not None:
            self.extractor.cancel()

    def _lag(self) -> float:
        if self._position is None:
            return float("nan")  # not following yet: no sample
        watermark, captured = self._position
        return max(0, watermark - captured)

    def step(self) -> bool:
        if self._stopping:
            return False
        with self.db.connection() as conn:
            cursor = cursor_position(conn, CURSOR)
        self._stream = self.journal.follow_capture_changes(cursor)
        try:
            for batch in self._stream:
                if self._stopping:
                    return False
                last = 0
                for change in batch.changes:
                    if change.kind == SUBJECT_PURGED:
                        self.erase(SubjectPurge(change.cursor, change.subject, change.workspace))
                    elif change.event_type == RUN_EVENT:
                        self.capture(
                            change.cursor,
                            change.subject,
                            change.workspace,
                            change.session_id,
                            change.event_id,
                        )
                    last = change.cursor
                # An empty batch means every matching change up to the
                # watermark was delivered.
                self._advance(last or batch.watermark)
                self._position = (int(batch.watermark), int(last or batch.watermark))
        finally:
            self._stream = None
        return False

    def _advance(self, position: int) -> None:
        with self.db.transaction() as conn:
            if cursor_position(conn, CURSOR, for_update=True) < position:
                advance_cursor(conn, CURSOR, position)

    def capture(
        self, cursor: int, subject: str, workspace: str, session_id: str, event_id: int
    ) -> int:
        """Capture one run.completed change; returns the candidates created."""
        run = self.journal.read_run_completion(subject, workspace, session_id, event_id)
        with self.db.connection() as conn:
            settings = load(conn).capture
        plan = CapturePlan()
        if run is None:
            plan.counts["capture_unreadable_events_total"] += 1
        elif not run.run_id or not run.session_id:
            plan.counts["capture_malformed_events_total"] += 1
        else:
            plan = plan_capture(run, settings, self.extractor)
        if self._stopping:
            # An interrupted plan (e.g. a cancelled extractor call) is not a
            # result: leave the cursor so the next process captures this run.
            raise CaptureInterrupted(f"capture of event {event_id} interrupted by shutdown")
        created = self._commit(cursor, plan.candidates, plan.counts)
        if created:
            self.on_new_candidates()
        for name, amount in plan.counts.items():
            count_plane_event("learning", name.removesuffix("_total"), amount)
        return created

    def _commit(self, cursor: int, candidates: Sequence[NewCandidate], counts: Counter[str]) -> int:
        created = 0
        with self.db.transaction() as conn:
            if cursor_position(conn, CURSOR, for_update=True) >= cursor:
                return 0  # another replica captured it
            for candidate in candidates:
                if insert_daemon_candidate(conn, candidate) is None:
                    counts["capture_duplicate_dropped_total"] += 1
                else:
                    created += 1
            counts["capture_runs_total"] += 1
            counts["capture_candidates_created_total"] += created
            for name, amount in counts.items():
                add_counter(conn, name, amount)
            advance_cursor(conn, CURSOR, cursor)
        return created

    def erase(self, purge: SubjectPurge) -> Erasure | None:
        """Erase one purged subject; None when the change was handled before."""
        with self.db.transaction() as conn:
            if cursor_position(conn, CURSOR, for_update=True) >= purge.change_cursor:
                return None  # another replica erased it
            erasure = erase_subject(conn, purge)
            if erasure is not None:
                counts = erasure.counts
                add_counter(conn, "purge_subjects_total")
                add_counter(conn, "purge_candidates_removed_total", counts["candidates"])
                add_counter(conn, "purge_learnings_removed_total", counts["learnings"])
                add_counter(conn, "purge_skill_versions_removed_total", counts["skill_versions"])
            advance_cursor(conn, CURSOR, purge.change_cursor)
        if erasure is not None:
            count_plane_event("learning", "purge_subjects")
            log.info(
                "purged subject erased from the learning plane",
                extra={
                    "purge_id": erasure.purge_id,
                    "change_cursor": purge.change_cursor,
                    "counts": erasure.counts,
                },
            )
        return erasure
