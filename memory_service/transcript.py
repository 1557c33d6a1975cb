"""The transcript plane in the context, the pure part: the compaction policy
and its validation, the built-in extractive analyzer, the compaction rules
and the deterministic checkpoint. No database and no gRPC here.

The rules (docs/journal.md, "Compaction"):

* A session's *visible* turns are its `conversation.turn.completed` events
  that no quarantine hides (journal.turn_withheld). Hidden turns are left out
  and reported (QUARANTINED_IN_RANGE when before the tail); they never decline.
* When the visible turns' canonical content is at most ``trigger_chars``, or
  there are no more of them than the tail, every visible turn is literal
  (NOT_NEEDED). Otherwise the last ``tail_turns`` are the literal tail and the
  turns before it are *pruned*.
* Every pruned turn must recompose as its canonical content (else
  MALFORMED_ROLES), its stored hash must be the SHA-256 of that content and
  its latest system `turn.analyzed` event must name the same hash (else
  HASH_MISMATCH), and it must have one (else MISSING_ANALYSIS). A `tool.*`
  event before the tail is TOOL_EVENTS_IN_RANGE and a lone `conversation.*`
  message there is MALFORMED_ROLES. Any of those declines: the tail alone is
  returned and the pruned turns are reported omitted.
* Otherwise the checkpoint is :func:`render_checkpoint` over the pruned turns'
  summaries: byte-identical for the same journal and policy in any process.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from engram.errors import InvalidArgument
from engram.redaction import scrub

TURN_EVENT = "conversation.turn.completed"
ANALYZED_EVENT = "turn.analyzed"
ANALYSIS_FAILED_EVENT = "turn.analysis_failed"

BUILTIN_ANALYZER = "builtin-extractive/1"
MAX_SUMMARY_CHARS = 320
SIDE_CHARS = 150
ELLIPSIS = "\u2026"

DEFAULT_TAIL_TURNS = 8
DEFAULT_TRIGGER_CHARS = 24_000
DEFAULT_CHECKPOINT_MAX_CHARS = 4_000
DEFAULT_ANALYZER_TIMEOUT_MS = 5_000
MAX_TAIL_TURNS = 256
MAX_TRIGGER_CHARS = 10_000_000
MIN_CHECKPOINT_CHARS, MAX_CHECKPOINT_CHARS = 256, 32_768
MIN_TIMEOUT_MS, MAX_TIMEOUT_MS = 100, 60_000
MAX_ISSUES = 64
ADDRESS = re.compile(r"[A-Za-z0-9._\-\[\]:]+:\d{1,5}")  # use fullmatch

# Compaction outcomes and issue reasons (the proto enums, by name).
NOT_NEEDED, COMPACTED, DECLINED = "not_needed", "compacted", "declined"
MISSING_ANALYSIS = "missing_analysis"
HASH_MISMATCH = "hash_mismatch"
MALFORMED_ROLES = "malformed_roles"
TOOL_EVENTS_IN_RANGE = "tool_events_in_range"
QUARANTINED_IN_RANGE = "quarantined_in_range"
DECLINING = frozenset({MISSING_ANALYSIS, HASH_MISMATCH, MALFORMED_ROLES, TOOL_EVENTS_IN_RANGE})

# Text the gateway rendered is framed by these tags (gateway/render.py).
RENDERED_FRAME = re.compile(r"</?engram:[a-z_]+>")


# --------------------------------------------------------------------- policy


@dataclass(frozen=True)
class CompactionPolicy:
    tail_turns: int = DEFAULT_TAIL_TURNS
    trigger_chars: int = DEFAULT_TRIGGER_CHARS
    checkpoint_max_chars: int = DEFAULT_CHECKPOINT_MAX_CHARS
    analyzer_address: str = ""
    analyzer_timeout_ms: int = DEFAULT_ANALYZER_TIMEOUT_MS
    version: int = 1
    updated_at: datetime | None = None
    updated_by: str = ""

    @property
    def analyzer(self) -> str:
        return f"grpc:{self.analyzer_address}" if self.analyzer_address else BUILTIN_ANALYZER


def _bounded(name: str, value: int, low: int, high: int, default: int, prefix: str) -> int:
    if value < 0:
        raise InvalidArgument(prefix + name, "must not be negative")
    if value == 0:
        return default
    if not low <= value <= high:
        raise InvalidArgument(prefix + name, f"must be between {low} and {high} (0: default)")
    return value


def validate_policy(
    *,
    tail_turns: int,
    trigger_chars: int,
    checkpoint_max_chars: int,
    analyzer_address: str,
    analyzer_timeout_ms: int,
    prefix: str = "policy.",
) -> CompactionPolicy:
    """The policy a SetCompactionPolicy request asks for, or InvalidArgument
    naming the first bad field. Zero takes a field's default."""
    address = analyzer_address.strip()
    if address and not ADDRESS.fullmatch(address):
        raise InvalidArgument(prefix + "analyzer_address", "must be host:port (or empty)")
    return CompactionPolicy(
        tail_turns=_bounded(
            "tail_turns", tail_turns, 1, MAX_TAIL_TURNS, DEFAULT_TAIL_TURNS, prefix
        ),
        trigger_chars=_bounded(
            "trigger_chars", trigger_chars, 1, MAX_TRIGGER_CHARS, DEFAULT_TRIGGER_CHARS, prefix
        ),
        checkpoint_max_chars=_bounded(
            "checkpoint_max_chars",
            checkpoint_max_chars,
            MIN_CHECKPOINT_CHARS,
            MAX_CHECKPOINT_CHARS,
            DEFAULT_CHECKPOINT_MAX_CHARS,
            prefix,
        ),
        analyzer_address=address,
        analyzer_timeout_ms=_bounded(
            "analyzer_timeout_ms",
            analyzer_timeout_ms,
            MIN_TIMEOUT_MS,
            MAX_TIMEOUT_MS,
            DEFAULT_ANALYZER_TIMEOUT_MS,
            prefix,
        ),
    )


# ------------------------------------------------------------------ analyzer

_SPACES = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?\u3002\uff01\uff1f])\s")


def one_line(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def _lead(text: str, cap: int) -> str:
    """The first sentence of a text, on one line, at most ``cap`` characters."""
    flat = one_line(text)
    first = _SENTENCE_END.split(flat, maxsplit=1)[0]
    if len(first) > cap:
        first = first[: cap - 1].rstrip() + ELLIPSIS
    return first


@dataclass(frozen=True)
class Summary:
    text: str
    redactions: int


def builtin_summary(user_text: str, assistant_text: str) -> Summary:
    """The built-in analyzer, extractive and deterministic: the first sentence
    of each side (at most 150 characters each), "user: ... | assistant: ...",
    scrubbed of secrets and PII (engram.redaction)."""
    raw = f"user: {_lead(user_text, SIDE_CHARS)} | assistant: {_lead(assistant_text, SIDE_CHARS)}"
    return clean_summary(raw)


def clean_summary(text: str) -> Summary:
    """Any analyzer's summary as stored: one line, scrubbed, capped."""
    scrubbed = scrub(one_line(text))
    out = scrubbed.text
    if len(out) > MAX_SUMMARY_CHARS:
        out = out[: MAX_SUMMARY_CHARS - 1].rstrip() + ELLIPSIS
    return Summary(out, scrubbed.redactions)


# ------------------------------------------------------------------- rules


def canonical_content(
    user_text: str, assistant_text: str, user_name: str = "", assistant_name: str = ""
) -> str:
    """CommitTurn's canonical form (memory_service.journal.canonical_content)."""
    user = f"User ({user_name})" if user_name else "User"
    assistant = f"Assistant ({assistant_name})" if assistant_name else "Assistant"
    return f"{user}: {user_text}\n{assistant}: {assistant_text}"


@dataclass(frozen=True)
class TurnMeta:
    """One turn event of the session, as the compaction rules need it."""

    event_id: int
    content_sha256: str
    withheld: bool
    chars: int
    canonical_sha256: str
    roles_ok: bool
    analysis_event_id: int = 0
    analysis_sha256: str = ""
    summary: str = ""
    failure: str = ""
    # The failure was recorded under the current policy (not retried).
    failure_version_current: bool = False


@dataclass(frozen=True)
class OtherEvent:
    event_id: int
    event_type: str


@dataclass(frozen=True)
class Issue:
    reason: str
    event_id: int
    detail: str


@dataclass
class Plan:
    outcome: str
    literal: list[TurnMeta]
    pruned: list[TurnMeta]
    issues: list[Issue] = field(default_factory=list)
    quarantined: int = 0

    @property
    def declined(self) -> bool:
        return self.outcome == DECLINED


def plan(
    turns: Sequence[TurnMeta],
    others: Sequence[OtherEvent],
    policy: CompactionPolicy,
    tail_turns: int,
) -> Plan:
    """Which turns are literal, which pruned, and whether compaction may go ahead."""
    visible = [t for t in turns if not t.withheld]
    hidden = [t for t in turns if t.withheld]
    total = sum(t.chars for t in visible)
    if total <= policy.trigger_chars or len(visible) <= tail_turns:
        return Plan(NOT_NEEDED, visible, [], quarantined=len(hidden))
    literal, pruned = visible[-tail_turns:], visible[:-tail_turns]
    boundary = literal[0].event_id
    issues: list[Issue] = []
    for turn in pruned:
        if not turn.roles_ok:
            issues.append(
                Issue(
                    MALFORMED_ROLES,
                    turn.event_id,
                    "does not recompose as User: ...\\nAssistant: ...",
                )
            )
        elif turn.canonical_sha256 != turn.content_sha256:
            issues.append(
                Issue(
                    HASH_MISMATCH,
                    turn.event_id,
                    "the stored content hash is not the SHA-256 of the canonical content",
                )
            )
        if not turn.analysis_event_id:
            detail = f"analysis failed: {turn.failure}" if turn.failure else "not analysed yet"
            issues.append(Issue(MISSING_ANALYSIS, turn.event_id, detail))
        elif turn.analysis_sha256 != turn.content_sha256:
            issues.append(
                Issue(
                    HASH_MISMATCH,
                    turn.event_id,
                    f"analysis {turn.analysis_event_id} was made for content "
                    f"{turn.analysis_sha256[:12] or '(none)'}, the turn is "
                    f"{turn.content_sha256[:12]}",
                )
            )
    for event in others:
        if event.event_id >= boundary:
            continue
        if event.event_type.startswith("tool."):
            issues.append(
                Issue(TOOL_EVENTS_IN_RANGE, event.event_id, f"{event.event_type} before the tail")
            )
        else:
            issues.append(
                Issue(
                    MALFORMED_ROLES,
                    event.event_id,
                    f"{event.event_type}: a lone message outside a user/assistant turn",
                )
            )
    for turn in hidden:
        if turn.event_id < boundary:
            issues.append(
                Issue(
                    QUARANTINED_IN_RANGE,
                    turn.event_id,
                    "hidden by a quarantine; the checkpoint was rebuilt without it",
                )
            )
    issues.sort(key=lambda i: (i.event_id, i.reason))
    outcome = DECLINED if any(i.reason in DECLINING for i in issues) else COMPACTED
    return Plan(outcome, literal, pruned, issues, quarantined=len(hidden))


# ---------------------------------------------------------------- checkpoint


@dataclass(frozen=True)
class Checkpoint:
    text: str
    sha256: str
    through_event_id: int
    elided: int


def input_digest(pruned: Sequence[TurnMeta], policy_version: int) -> str:
    """What a stored checkpoint was built from; equal digests, equal bytes."""
    inputs = [[t.event_id, t.content_sha256, t.analysis_event_id] for t in pruned]
    body = json.dumps({"policy_version": policy_version, "turns": inputs}, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def render_checkpoint(pruned: Sequence[TurnMeta], policy: CompactionPolicy) -> Checkpoint:
    """The deterministic checkpoint of the pruned turns (non-empty, analysed).

    A header line, then ``[event N] summary`` per turn, oldest first. When the
    text would exceed ``checkpoint_max_chars``, the oldest summaries are left
    out first and one line says how many. Only the inputs (event ids, stored
    summaries, policy version and cap) shape the bytes: no clock, no locale.
    """
    first, last = pruned[0].event_id, pruned[-1].event_id
    head = (
        f"Checkpoint of {len(pruned)} earlier turns (events {first}..{last}), "
        f"compaction policy v{policy.version}: analysed summaries, not the turns themselves."
    )
    lines = [f"[event {t.event_id}] {t.summary}" for t in pruned]
    cap = policy.checkpoint_max_chars

    def elision(count: int) -> str:
        return f"[{count} earlier summaries left out by the {cap}-character cap]"

    # suffix[i]: characters of lines[i:], each with its preceding newline.
    suffix = [0] * (len(lines) + 1)
    for i in range(len(lines) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + len(lines[i]) + 1
    start = 0
    # The newest summaries are kept: drop from the oldest until it fits.
    while (
        start < len(lines)
        and len(head) + (len(elision(start)) + 1 if start else 0) + suffix[start] > cap
    ):
        start += 1
    parts = [head] + ([elision(start)] if start else []) + lines[start:]
    text = "\n".join(parts)
    if len(text) > cap:  # only the header and the elision line are left
        text = text[: cap - 1] + ELLIPSIS
    return Checkpoint(text, hashlib.sha256(text.encode("utf-8")).hexdigest(), last, start)


def estimate_tokens(text: str) -> int:
    """ceil(chars / 4), the gateway's estimate."""
    return -(-len(text) // 4)


def contains_rendered_context(text: str) -> bool:
    """True when the text carries a block the gateway rendered (its framing tags)."""
    return RENDERED_FRAME.search(text) is not None


def refuse_rendered_context(user_text: str, assistant_text: str) -> None:
    """CommitTurn's guard: text carrying a block the gateway rendered (an
    ``<engram:...>`` frame) is refused, so a runtime that pasted its assembled
    context into the input cannot commit derived memory back as a turn."""
    for name, text in (("user_text", user_text), ("assistant_text", assistant_text)):
        if contains_rendered_context(text):
            raise InvalidArgument(
                name,
                "contains a context block the gateway rendered (<engram:...>); commit the "
                "exchange itself, without the assembled context",
                reason="RENDERED_CONTEXT_IN_TURN",
            )
