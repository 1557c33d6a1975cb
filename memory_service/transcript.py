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

Incremental verification: a :class:`VerifiedPrefix` stands for the session's
turns up to its ``through_event_id`` as these rules found them (all clean:
visible ones well-formed, hash-matched and analysed, hidden ones listed; no
tool or lone message among them). :func:`plan` takes it with only the turns
and events after it, and gives the same plan as over the whole session;
:func:`extend_prefix` says how far the next prefix may reach. The store
decides when a prefix may be trusted (memory_service/transcript_store.py).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
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


@dataclass(frozen=True)
class VerifiedPrefix:
    """The session's turns up to ``through_event_id``, verified clean under
    ``policy_version``: the visible ones (ids, hashes, analysis ids, event
    order), the hidden ones, their canonical size, the separate count of the
    visible ones and the running digest of (id, hash, analysis id)."""

    policy_version: int
    frontier: int
    through_event_id: int
    event_ids: Sequence[int]
    content_hashes: Sequence[str]
    analysis_event_ids: Sequence[int]
    withheld_event_ids: Sequence[int]
    canonical_chars: int
    visible_count: int
    chain_sha256: str

    def meta(self, index: int) -> TurnMeta:
        """Visible turn ``index`` as a TurnMeta (its summary is not kept)."""
        sha = self.content_hashes[index]
        return TurnMeta(
            event_id=self.event_ids[index],
            content_sha256=sha,
            withheld=False,
            chars=0,
            canonical_sha256=sha,
            roles_ok=True,
            analysis_event_id=self.analysis_event_ids[index],
            analysis_sha256=sha,
        )


@dataclass
class PrunedRange:
    """The pruned turns: the first ``prefix_count`` visible turns of a
    verified prefix (kept as its arrays, not as objects), then ``fresh``."""

    fresh: list[TurnMeta]
    prefix: VerifiedPrefix | None = None
    prefix_count: int = 0

    def __len__(self) -> int:
        return self.prefix_count + len(self.fresh)

    def __iter__(self) -> Iterator[TurnMeta]:
        assert self.prefix is not None or not self.prefix_count
        for i in range(self.prefix_count):
            assert self.prefix is not None
            yield self.prefix.meta(i)
        yield from self.fresh

    def sources(self) -> Iterator[tuple[int, str, int]]:
        """(turn event id, content hash, analysis event id) in event order."""
        if self.prefix is not None and self.prefix_count:
            p, n = self.prefix, self.prefix_count
            yield from zip(
                p.event_ids[:n], p.content_hashes[:n], p.analysis_event_ids[:n], strict=True
            )
        for t in self.fresh:
            yield t.event_id, t.content_sha256, t.analysis_event_id

    def event_id(self, index: int) -> int:
        if index < self.prefix_count:
            assert self.prefix is not None
            return self.prefix.event_ids[index]
        return self.fresh[index - self.prefix_count].event_id

    def chain(self) -> str:
        """The running digest of the range (a prefix's, extended by fresh)."""
        p = self.prefix
        if p is not None and self.prefix_count == len(p.event_ids):
            return chain_sha256(p.chain_sha256, self._fresh_sources())
        return chain_sha256("", self.sources())

    def _fresh_sources(self) -> Iterator[tuple[int, str, int]]:
        for t in self.fresh:
            yield t.event_id, t.content_sha256, t.analysis_event_id


@dataclass
class Plan:
    outcome: str
    literal: list[TurnMeta]
    pruned: PrunedRange
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
    prefix: VerifiedPrefix | None = None,
) -> Plan:
    """Which turns are literal, which pruned, and whether compaction may go
    ahead. With a prefix, ``turns`` and ``others`` are only those after it."""
    visible = [t for t in turns if not t.withheld]
    hidden = [t for t in turns if t.withheld]
    held = list(prefix.event_ids) if prefix is not None else []
    withheld_before = list(prefix.withheld_event_ids) if prefix is not None else []
    total = sum(t.chars for t in visible) + (prefix.canonical_chars if prefix else 0)
    quarantined = len(hidden) + len(withheld_before)
    if total <= policy.trigger_chars or len(held) + len(visible) <= tail_turns:
        assert prefix is not None or not held
        everything = [prefix.meta(i) for i in range(len(held))] if prefix else []
        return Plan(NOT_NEEDED, everything + visible, PrunedRange([]), quarantined=quarantined)
    if len(visible) >= tail_turns:
        literal, fresh_pruned = visible[-tail_turns:], visible[:-tail_turns]
        pruned = PrunedRange(fresh_pruned, prefix, len(held))
    else:
        assert prefix is not None
        from_prefix = tail_turns - len(visible)
        keep = len(held) - from_prefix
        literal = [prefix.meta(i) for i in range(keep, len(held))] + visible
        pruned = PrunedRange([], prefix, keep)
    boundary = literal[0].event_id
    issues: list[Issue] = []
    for turn in pruned.fresh:
        issues.extend(turn_issues(turn))
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
    for event_id in withheld_before + [t.event_id for t in hidden]:
        if event_id < boundary:
            issues.append(
                Issue(
                    QUARANTINED_IN_RANGE,
                    event_id,
                    "hidden by a quarantine; the checkpoint was rebuilt without it",
                )
            )
    issues.sort(key=lambda i: (i.event_id, i.reason))
    outcome = DECLINED if any(i.reason in DECLINING for i in issues) else COMPACTED
    return Plan(outcome, literal, pruned, issues, quarantined=quarantined)


def turn_issues(turn: TurnMeta) -> list[Issue]:
    """The findings on one pruned, visible turn (none: it is clean)."""
    issues: list[Issue] = []
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
    return issues


@dataclass(frozen=True)
class PrefixExtension:
    """What a new verified prefix adds to the old one (or to nothing)."""

    through_event_id: int
    visible: list[TurnMeta]
    withheld_event_ids: list[int]

    @property
    def size(self) -> int:
        return len(self.visible) + len(self.withheld_event_ids)


def extend_prefix(
    result: Plan, turns: Sequence[TurnMeta], others: Sequence[OtherEvent]
) -> PrefixExtension | None:
    """How far a verified prefix may now reach past the old one: over the
    fresh turns before the tail, in event order, up to (not including) the
    first event with a declining finding and the first tool or lone
    conversation event. None when nothing may be added."""
    if not result.pruned.fresh:
        return None
    boundary = result.literal[0].event_id
    stop = boundary
    for issue in result.issues:
        if issue.reason in DECLINING:
            stop = min(stop, issue.event_id)
            break
    for event in others:
        stop = min(stop, event.event_id)
    visible: list[TurnMeta] = []
    hidden: list[int] = []
    through = 0
    for turn in turns:
        if turn.event_id >= stop:
            break
        if turn.withheld:
            hidden.append(turn.event_id)
        else:
            visible.append(turn)
        through = turn.event_id
    if not through:
        return None
    return PrefixExtension(through, visible, hidden)


# ---------------------------------------------------------------- checkpoint


@dataclass(frozen=True)
class Checkpoint:
    text: str
    sha256: str
    through_event_id: int
    elided: int


def chain_sha256(start: str, sources: Iterable[tuple[int, str, int]]) -> str:
    """The running digest of a range: each (turn id, content hash, analysis
    id) folded into the SHA-256 of the previous digest, so a prefix's digest
    extends without rereading the range."""
    digest = start
    for event_id, content_sha256, analysis_event_id in sources:
        digest = hashlib.sha256(
            f"{digest}|{event_id}:{content_sha256}:{analysis_event_id}".encode()
        ).hexdigest()
    return digest


def input_digest(chain: str, policy_version: int) -> str:
    """What a stored checkpoint was built from (the pruned range's running
    digest and the policy version); equal digests, equal bytes."""
    return hashlib.sha256(f"checkpoint/v2|{policy_version}|{chain}".encode()).hexdigest()


def render_checkpoint(pruned: Sequence[TurnMeta], policy: CompactionPolicy) -> Checkpoint:
    """The deterministic checkpoint of these pruned turns (their summaries)."""
    return render_checkpoint_from(
        len(pruned),
        lambda i: pruned[i].event_id,
        lambda i: pruned[i].summary,
        policy,
    )


def render_checkpoint_from(
    count: int,
    event_id: Callable[[int], int],
    summary: Callable[[int], str],
    policy: CompactionPolicy,
) -> Checkpoint:
    """The deterministic checkpoint of ``count`` pruned turns (non-empty,
    analysed), given each one's event id and summary by index.

    A header line, then ``[event N] summary`` per turn, oldest first. When the
    text would exceed ``checkpoint_max_chars``, the oldest summaries are left
    out first and one line says how many. Only the inputs (event ids, stored
    summaries, policy version and cap) shape the bytes: no clock, no locale.
    Summaries are asked for newest first and only as far back as the cap
    reaches, so a long range costs what fits, not what it holds.
    """
    first, last = event_id(0), event_id(count - 1)
    head = (
        f"Checkpoint of {count} earlier turns (events {first}..{last}), "
        f"compaction policy v{policy.version}: analysed summaries, not the turns themselves."
    )
    cap = policy.checkpoint_max_chars

    def elision(dropped: int) -> str:
        return f"[{dropped} earlier summaries left out by the {cap}-character cap]"

    def line(i: int) -> str:
        return f"[event {event_id(i)}] {summary(i)}"

    # start = the fewest oldest lines to leave out so the text fits: 0 when
    # everything fits, else the smallest s >= 1 whose text (header, elision
    # line, lines[s:]) fits, else count. For s >= 1 that length strictly
    # falls as s grows (a line is longer than the elision line grows), so
    # walk back from the newest line while the next older one still fits.
    lines: list[str] = []  # newest first
    suffix = 0  # characters of the kept lines, each with its newline
    start = count
    while start > 1:
        candidate = line(start - 1)
        if len(head) + len(elision(start - 1)) + 1 + suffix + len(candidate) + 1 > cap:
            break
        lines.append(candidate)
        suffix += len(candidate) + 1
        start -= 1
    # Without the elision line the whole text may still fit: a few more
    # lines decide it (each is at least 11 characters).
    rest: list[str] = []
    total = len(head) + suffix
    for i in range(start - 1, -1, -1):
        candidate = line(i)
        total += len(candidate) + 1
        if total > cap:
            break
        rest.append(candidate)
    else:
        lines.extend(rest)
        start = 0
    lines.reverse()
    parts = [head] + ([elision(start)] if start else []) + lines
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
