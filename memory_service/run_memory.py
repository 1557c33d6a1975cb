"""Recovered run memory, the pure part: what one terminal run leaves behind
(scrubbed previews, failure markers, a summary capped at 480 characters), the
run-memory policy and its validation, and the lexical ranking that picks the
few records worth showing a prompt. No database and no gRPC here."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from engram.errors import InvalidArgument
from engram.redaction import MARKERS, ScrubResult, looks_like_secret, scrub, scrub_secrets
from engram.terms import index_terms, surface_words
from engram.validation import ID_PATTERN, require_id, require_text

TERMINAL_STATUSES = ("completed", "failed", "interrupted", "cancelled")
NON_TERMINAL_STATUSES = ("queued", "running", "waiting_for_approval", "waiting_for_user_question")

# The episodic footprint of one run: a postcard, not a diary.
MAX_SUMMARY_CHARS = 480
PREVIEW_CHARS = 240
ERROR_PREVIEW_CHARS = 160
ELLIPSIS = "\u2026"
MAX_RUN_TEXT = 32_768
MAX_ARTIFACTS = 64
MAX_SCOPE_KEYS = 32
MAX_MARKER_CHARS = 64

SCOPE_KINDS = ("session", "persona", "project", "workspace")
WORKSPACE_ID = "default"

SESSION_ONLY = "session_only"
LEARNING_SCOPES = "learning_scopes"
SEARCH_VISIBILITIES = (SESSION_ONLY, LEARNING_SCOPES)

DEFAULT_RETENTION_SECONDS = 30 * 24 * 3600
DEFAULT_MAX_TRACKED = 32
DEFAULT_MAX_PROMPT_ENTRIES = 3
MAX_RETENTION_SECONDS = 10 * 365 * 24 * 3600
MAX_TRACKED_LIMIT = 10_000


# --------------------------------------------------------------------- policy


@dataclass(frozen=True)
class RunMemoryPolicy:
    enabled: bool = True
    retention_seconds: int = DEFAULT_RETENTION_SECONDS
    max_tracked_per_session: int = DEFAULT_MAX_TRACKED
    max_prompt_entries: int = DEFAULT_MAX_PROMPT_ENTRIES
    redact_pii: bool = True
    search_visibility: str = SESSION_ONLY
    updated_at: datetime | None = None
    updated_by: str = ""


DEFAULT_POLICY = RunMemoryPolicy()


def validate_policy(
    *,
    enabled: bool,
    retention_seconds: int,
    max_tracked_per_session: int,
    max_prompt_entries: int,
    redact_pii: bool,
    search_visibility: str,
    prefix: str = "policy.",
) -> RunMemoryPolicy:
    """The policy a SetRunMemoryPolicy request asks for, or InvalidArgument
    naming the first bad field. A disabled policy may leave the bounds unset
    (zero): they then take their defaults, so re-enabling later is safe."""
    bounds = (
        ("retention_seconds", retention_seconds, MAX_RETENTION_SECONDS),
        ("max_tracked_per_session", max_tracked_per_session, MAX_TRACKED_LIMIT),
        ("max_prompt_entries", max_prompt_entries, MAX_TRACKED_LIMIT),
    )
    for name, value, maximum in bounds:
        if value < 0:
            raise InvalidArgument(prefix + name, "must not be negative")
        if value > maximum:
            raise InvalidArgument(prefix + name, f"must be at most {maximum}")
        if enabled and value == 0:
            raise InvalidArgument(prefix + name, "must be positive while run memory is enabled")
    if search_visibility and search_visibility not in SEARCH_VISIBILITIES:
        raise InvalidArgument(
            prefix + "search_visibility", f"must be one of {', '.join(SEARCH_VISIBILITIES)}"
        )
    if enabled and not search_visibility:
        raise InvalidArgument(prefix + "search_visibility", "must be set")
    policy = RunMemoryPolicy(
        enabled=enabled,
        retention_seconds=retention_seconds or DEFAULT_RETENTION_SECONDS,
        max_tracked_per_session=max_tracked_per_session or DEFAULT_MAX_TRACKED,
        max_prompt_entries=max_prompt_entries or DEFAULT_MAX_PROMPT_ENTRIES,
        redact_pii=redact_pii,
        search_visibility=search_visibility or SESSION_ONLY,
    )
    if policy.max_prompt_entries > policy.max_tracked_per_session:
        raise InvalidArgument(
            prefix + "max_prompt_entries",
            f"must not exceed max_tracked_per_session ({policy.max_tracked_per_session})",
        )
    return policy


# ----------------------------------------------------------------- the input


@dataclass(frozen=True)
class RunInput:
    run_id: str
    session_id: str
    subject: str
    workspace: str
    status: str
    request_text: str
    outcome_text: str
    error_text: str
    artifact_ids: tuple[str, ...]
    scope_keys: tuple[str, ...]

    def fingerprint_fields(self) -> dict[str, Any]:
        """What makes two CompleteRun calls "the same run" (request_id excluded:
        a retry may carry a fresh one)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.__dict__.items()}


def require_status(value: str) -> str:
    if value in TERMINAL_STATUSES:
        return value
    if value in NON_TERMINAL_STATUSES:
        raise InvalidArgument(
            "status",
            f"{value} is not terminal; only {', '.join(TERMINAL_STATUSES)} runs are recorded",
            reason="RUN_NOT_TERMINAL",
        )
    raise InvalidArgument("status", "must be a terminal run status")


def optional_text(field_name: str, value: str) -> str:
    return require_text(field_name, value, max_chars=MAX_RUN_TEXT, min_chars=0)


def parse_scope_key(field_name: str, value: str) -> str:
    """kind:id with kind session/persona/project/workspace; workspace:default only."""
    kind, sep, ident = value.partition(":")
    if not sep or kind not in SCOPE_KINDS:
        raise InvalidArgument(
            field_name, f"{value[:60]!r} is not kind:id with kind in {', '.join(SCOPE_KINDS)}"
        )
    if not ident or not ID_PATTERN.match(ident) or ":" in ident:
        raise InvalidArgument(field_name, f"{value[:60]!r} has an invalid id")
    if kind == "workspace" and ident != WORKSPACE_ID:
        raise InvalidArgument(field_name, f"the only workspace scope is workspace:{WORKSPACE_ID}")
    return value


def scope_keys(
    field_name: str, values: Iterable[str], *, check_secrets: bool = True
) -> tuple[str, ...]:
    keys = _unique(parse_scope_key(field_name, v) for v in values)
    if len(keys) > MAX_SCOPE_KEYS:
        raise InvalidArgument(field_name, f"at most {MAX_SCOPE_KEYS} scope keys")
    if check_secrets:
        _refuse_secrets(field_name, keys)
    return keys


def artifact_ids(field_name: str, values: Iterable[str]) -> tuple[str, ...]:
    ids = _unique(require_id(field_name, v) for v in values)
    if len(ids) > MAX_ARTIFACTS:
        raise InvalidArgument(field_name, f"at most {MAX_ARTIFACTS} artifact ids")
    _refuse_secrets(field_name, ids)
    return ids


def _refuse_secrets(field_name: str, values: Sequence[str]) -> None:
    # Identifiers are stored verbatim (scrubbing would break them), so one
    # that carries a credential is refused instead.
    for value in values:
        if looks_like_secret(value):
            raise InvalidArgument(
                field_name, "an identifier looks like a credential", reason="SECRET_IN_IDENTIFIER"
            )


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


# ------------------------------------------------------------ the record body


@dataclass(frozen=True)
class RecordBody:
    """The scrubbed, capped text of one run record."""

    summary: str
    request_preview: str
    outcome_preview: str
    error_preview: str
    failure_markers: tuple[str, ...]
    redaction_count: int
    redactions_by_kind: Mapping[str, int] = field(default_factory=dict)


def build_body(run: RunInput, *, redact_pii: bool) -> RecordBody:
    """Scrub every text BEFORE it is cut or joined (a cut secret would no
    longer match its pattern and leak a prefix), then cap and assemble."""
    scrubber: Callable[[str], ScrubResult] = scrub if redact_pii else scrub_secrets
    results = [scrubber(t) for t in (run.request_text, run.outcome_text, run.error_text)]
    request, outcome, error = (_one_line(r.text) for r in results)
    request_preview = cap_text(request, PREVIEW_CHARS)
    outcome_preview = cap_text(outcome, PREVIEW_CHARS)
    error_preview = cap_text(error, ERROR_PREVIEW_CHARS)
    joined = scrubber(assemble_summary(run.status, request_preview, outcome_preview, error_preview))
    results.append(joined)
    by_kind: dict[str, int] = {}
    for result in results:
        for kind, n in result.by_kind.items():
            by_kind[kind] = by_kind.get(kind, 0) + n
    return RecordBody(
        summary=cap_text(joined.text, MAX_SUMMARY_CHARS),
        request_preview=request_preview,
        outcome_preview=outcome_preview,
        error_preview=error_preview,
        failure_markers=failure_markers(run.status, error),
        redaction_count=sum(r.redactions for r in results),
        redactions_by_kind=by_kind,
    )


def assemble_summary(
    status: str, request_preview: str, outcome_preview: str, error_preview: str
) -> str:
    """Request preview, latest outcome, error preview; or a bare status note."""
    parts = [
        f"Request: {request_preview}" if request_preview else "",
        f"Outcome: {outcome_preview}" if outcome_preview else "",
        f"Error: {error_preview}" if error_preview else "",
    ]
    body = " | ".join(p for p in parts if p)
    if not body:
        return f"Run {status}; no request, outcome or error text was recorded."
    return f"Run {status}. {body}"


_ERROR_CLASS = re.compile(
    r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.)*"
    r"([A-Z][A-Za-z0-9_]*(?:Error|Exception|Timeout|Failure|Fault|Exit|Interrupt))\b"
)
_TIMEOUT_WORDS = re.compile(r"\b(?:timed out|timeout|deadline exceeded)\b", re.IGNORECASE)


def failure_markers(status: str, error_text: str) -> tuple[str, ...]:
    """Compact markers: the status for non-completed runs and a short error
    class taken from the (already scrubbed) error text."""
    markers: list[str] = []
    if status != "completed":
        markers.append(f"status:{status}")
    if error_text:
        match = _ERROR_CLASS.search(error_text)
        if match:
            markers.append(f"error:{match.group(1)}"[:MAX_MARKER_CHARS])
        elif _TIMEOUT_WORDS.search(error_text):
            markers.append("error:timeout")
        else:
            markers.append("error:unclassified")
    return tuple(markers)


def _one_line(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------- the capping

_ZWJ = "\u200d"
_VIRAMA = 9  # canonical combining class: joins the next consonant into a conjunct


def _is_extender(ch: str) -> bool:
    """A code point that belongs to the grapheme before it: combining marks,
    ZWJ, variation selectors, emoji modifiers and tags, Hangul vowel/final
    jamo, and the low half of a surrogate pair."""
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or ch == _ZWJ
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or 0x1160 <= cp <= 0x11FF
        or 0xDC00 <= cp <= 0xDFFF
    )


def _is_regional_indicator(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def safe_boundary(text: str, index: int) -> int:
    """The largest index <= `index` at which `text` can be cut without
    splitting a grapheme (base + marks, ZWJ emoji sequences, flag pairs) or
    a typed redaction marker."""
    index = max(0, min(index, len(text)))
    while 0 < index < len(text) and (
        _is_extender(text[index])
        or text[index - 1] == _ZWJ
        or unicodedata.combining(text[index - 1]) == _VIRAMA
    ):
        index -= 1
    if 0 < index < len(text) and _is_regional_indicator(text[index]):
        run = 0
        while index - run > 0 and _is_regional_indicator(text[index - run - 1]):
            run += 1
        index -= run % 2  # an odd run before the cut: keep the pair together
    opening = text.rfind("<", 0, index)
    if opening != -1 and ">" not in text[opening:index]:
        for marker in MARKERS:
            if text.startswith(marker, opening) and opening + len(marker) > index:
                return opening
    return index


def cap_text(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters (code points, as PostgreSQL's
    char_length counts them), else a cut at a safe boundary, preferring a word
    break near the end, plus an ellipsis."""
    if len(text) <= limit:
        return text
    cut = safe_boundary(text, limit - len(ELLIPSIS))
    space = text.rfind(" ", 0, cut + 1)
    if space > 0 and cut - space <= 24:
        cut = space
    return text[:cut].rstrip() + ELLIPSIS


# -------------------------------------------------------------------- ranking

_MARKER_RE = re.compile("|".join(re.escape(m) for m in sorted(MARKERS)))


def terms(text: str) -> set[str]:
    """Ranking terms of ``text``, redaction markers removed: engram.terms.index_terms
    (folded words of any script, stop words dropped, stemmed; scripts written
    without spaces as character bigrams)."""
    return set(index_terms(_MARKER_RE.sub(" ", text)))


def search_words(text: str) -> list[str]:
    """Words of a search query as written, markers removed, without repeats;
    PostgreSQL's English configuration folds case, stems them and drops stop words
    (engram.terms.surface_words)."""
    return sorted(set(surface_words(_MARKER_RE.sub(" ", text))))


def record_text(record: Mapping[str, Any]) -> str:
    return " ".join(
        str(record.get(k) or "") for k in ("summary", "request_preview", "outcome_preview")
    )


# Term sets of record texts, the most recently used: every GetRecoveredMemory
# ranks the session's records again, and a record's text does not change once
# it is recorded. Keyed by the text itself, so a record whose text did change
# (or a new record under an old run id) is never scored with stale terms.
RECORD_TERMS_CACHE = 4096


@functools.lru_cache(maxsize=RECORD_TERMS_CACHE)
def text_terms(text: str) -> frozenset[str]:
    """terms(text), computed once per distinct text while it stays cached."""
    return frozenset(terms(text))


def lexical_score(query_terms: set[str], record: Mapping[str, Any]) -> float:
    """Share of the query's terms found in the record (0..1)."""
    if not query_terms:
        return 0.0
    return len(query_terms & text_terms(record_text(record))) / len(query_terms)


@dataclass(frozen=True)
class Ranked:
    record: Mapping[str, Any]
    score: float


def rank(records: Sequence[Mapping[str, Any]], pending_input: str) -> list[Ranked]:
    """Every record, best first: lexical overlap with the pending input, then
    recency (newest first), then run id for a stable order."""
    query_terms = terms(pending_input)
    scored = [Ranked(r, lexical_score(query_terms, r)) for r in records]
    scored.sort(key=lambda x: str(x.record["run_id"]))
    scored.sort(
        key=lambda x: (x.score, x.record["recorded_at"], int(x.record.get("event_id", 0))),
        reverse=True,
    )
    return scored


def prompt_limit(requested: int, policy: RunMemoryPolicy) -> int:
    """min(requested or the policy's value, the policy's max_prompt_entries)."""
    if requested < 0:
        raise InvalidArgument("max_entries", "must not be negative")
    return min(requested or policy.max_prompt_entries, policy.max_prompt_entries)
