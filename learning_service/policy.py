"""The learning policy: parsing with validation, defaults, ordered rule
matching and the judge clamp. Pure functions; storage lives in store.py.

A policy document is a plain mapping (the JSON stored in
learning.policy_versions, or a request converted by the servicer). Enum
fields hold the lowercase words of learning_service.model, "" when unset.
Unset means default: mode shadow, default_action manual_review,
max_candidates_per_run 2, judge timeout 5000 ms; an absent capture section
means run-summary and semantic capture both on. A given section reads like
its proto3 message (no presence): a missing flag is false, a zero number the
default. `engram policy set` merges a partial file onto the current policy
before it sends one, so a file's unnamed fields keep their values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from engram.errors import InvalidArgument
from engram.validation import DEFAULT_WORKSPACE, ID_PATTERN
from learning_service.model import Action, Kind, Mode, Origin, ScopeKind, Sensitivity

RULE_NAME = re.compile(r"[a-z0-9_-]{1,64}")  # use fullmatch
ADDRESS = re.compile(r"[A-Za-z0-9._\-\[\]:]+:\d{1,5}")  # use fullmatch
DEFAULT_MAX_CANDIDATES = 2
MAX_CANDIDATES_LIMIT = 10
DEFAULT_JUDGE_TIMEOUT_MS = 5000
MAX_JUDGE_TIMEOUT_MS = 60_000
MAX_RULES = 200


@dataclass(frozen=True)
class Rule:
    name: str
    action: Action
    scope_kind: ScopeKind | None = None
    scope_id: str = ""
    kind: Kind | None = None
    sensitivity: Sensitivity | None = None
    min_confidence: int = 0
    # Trusted-input gates: they only ever match daemon-origin candidates.
    require_evidence: bool = False
    require_source_run: bool = False
    require_source_session: bool = False


@dataclass(frozen=True)
class CaptureSettings:
    run_summary_enabled: bool = True
    semantic_enabled: bool = True
    max_candidates_per_run: int = DEFAULT_MAX_CANDIDATES


@dataclass(frozen=True)
class PublicationSettings:
    rules: tuple[Rule, ...] = ()
    default_action: Action = Action.MANUAL_REVIEW
    allow_api_origin_active_publication: bool = False
    quarantined_rule_names: tuple[str, ...] = ()


@dataclass(frozen=True)
class JudgeSettings:
    enabled: bool = False
    address: str = ""
    timeout_ms: int = DEFAULT_JUDGE_TIMEOUT_MS
    model: str = ""


@dataclass(frozen=True)
class Policy:
    mode: Mode = Mode.SHADOW
    capture: CaptureSettings = field(default_factory=CaptureSettings)
    publication: PublicationSettings = field(default_factory=PublicationSettings)
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    updated_at: datetime | None = None
    updated_by: str = "default"


DEFAULT_POLICY = Policy()


# ------------------------------------------------------------------ parsing


def _enum(cls: type[Any], field_name: str, value: Any, *, rule: str = "") -> Any:
    if value in ("", None):
        return None
    try:
        return cls(value)
    except ValueError:
        choices = ", ".join(m.value for m in cls)
        prefix = f'rule "{rule}": ' if rule else ""
        raise InvalidArgument(
            field_name, f"{prefix}unknown value {value!r} (choose {choices})"
        ) from None


def _int(field_name: str, value: Any, *, low: int, high: int, rule: str = "") -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        prefix = f'rule "{rule}": ' if rule else ""
        raise InvalidArgument(field_name, f"{prefix}must be an integer in {low}..{high}")
    return value


def _parse_rule(i: int, raw: Mapping[str, Any], seen: set[str]) -> Rule:
    base = f"publication.rules[{i}]"
    name = str(raw.get("name", ""))
    if not RULE_NAME.fullmatch(name):
        raise InvalidArgument(
            f"{base}.name", f"rule name {name[:70]!r} must match [a-z0-9_-]{{1,64}}"
        )
    if name in seen:
        raise InvalidArgument(f"{base}.name", f'rule name "{name}" is used more than once')
    seen.add(name)
    action = _enum(Action, f"{base}.action", raw.get("action"), rule=name)
    if action is None:
        raise InvalidArgument(f"{base}.action", f'rule "{name}": action must be set')
    kind = _enum(Kind, f"{base}.kind", raw.get("kind"), rule=name)
    scope_kind = _enum(ScopeKind, f"{base}.scope_kind", raw.get("scope_kind"), rule=name)
    scope_id = str(raw.get("scope_id", ""))
    if scope_id:
        if scope_kind is None:
            raise InvalidArgument(f"{base}.scope_id", f'rule "{name}": scope_id needs a scope_kind')
        if scope_kind is ScopeKind.WORKSPACE and scope_id != DEFAULT_WORKSPACE:
            raise InvalidArgument(
                f"{base}.scope_id", f'rule "{name}": the workspace scope id is always "default"'
            )
        if not ID_PATTERN.fullmatch(scope_id):
            raise InvalidArgument(f"{base}.scope_id", f'rule "{name}": malformed scope id')
    if action is Action.PUBLISH_ACTIVE:
        if kind is None:
            raise InvalidArgument(
                f"{base}.kind", f'rule "{name}": a publish_active rule must name a kind'
            )
        if kind is Kind.PROCEDURE:
            raise InvalidArgument(
                f"{base}.action",
                f'rule "{name}": procedures are never published active automatically',
            )
    return Rule(
        name=name,
        action=action,
        scope_kind=scope_kind,
        scope_id=scope_id,
        kind=kind,
        sensitivity=_enum(Sensitivity, f"{base}.sensitivity", raw.get("sensitivity"), rule=name),
        min_confidence=_int(
            f"{base}.min_confidence", raw.get("min_confidence", 0), low=0, high=100, rule=name
        ),
        require_evidence=bool(raw.get("require_evidence", False)),
        require_source_run=bool(raw.get("require_source_run", False)),
        require_source_session=bool(raw.get("require_source_session", False)),
    )


def _parse_publication(raw: Mapping[str, Any]) -> PublicationSettings:
    rules_raw: Sequence[Mapping[str, Any]] = raw.get("rules") or ()
    if len(rules_raw) > MAX_RULES:
        raise InvalidArgument("publication.rules", f"at most {MAX_RULES} rules")
    seen: set[str] = set()
    rules = tuple(_parse_rule(i, r, seen) for i, r in enumerate(rules_raw))
    default_action = _enum(Action, "publication.default_action", raw.get("default_action"))
    if default_action is Action.PUBLISH_ACTIVE:
        raise InvalidArgument(
            "publication.default_action",
            "cannot be publish_active; write an explicit rule that names a kind",
        )
    quarantined = tuple(str(n) for n in raw.get("quarantined_rule_names") or ())
    for i, name in enumerate(quarantined):
        if name not in seen:
            raise InvalidArgument(
                f"publication.quarantined_rule_names[{i}]", f'no rule is named "{name[:70]}"'
            )
    return PublicationSettings(
        rules=rules,
        default_action=default_action or Action.MANUAL_REVIEW,
        allow_api_origin_active_publication=bool(
            raw.get("allow_api_origin_active_publication", False)
        ),
        quarantined_rule_names=tuple(dict.fromkeys(quarantined)),
    )


def _parse_capture(raw: Mapping[str, Any] | None) -> CaptureSettings:
    if raw is None:
        return CaptureSettings()
    maximum = raw.get("max_candidates_per_run", 0) or DEFAULT_MAX_CANDIDATES
    return CaptureSettings(
        run_summary_enabled=bool(raw.get("run_summary_enabled", False)),
        semantic_enabled=bool(raw.get("semantic_enabled", False)),
        max_candidates_per_run=_int(
            "capture.max_candidates_per_run", maximum, low=1, high=MAX_CANDIDATES_LIMIT
        ),
    )


def _parse_judge(raw: Mapping[str, Any] | None) -> JudgeSettings:
    if raw is None:
        return JudgeSettings()
    address = str(raw.get("address", ""))
    enabled = bool(raw.get("enabled", False))
    if address and not ADDRESS.fullmatch(address):
        raise InvalidArgument("judge.address", "must be host:port")
    if enabled and not address:
        raise InvalidArgument("judge.address", "an enabled judge needs an address (host:port)")
    timeout = raw.get("timeout_ms", 0) or DEFAULT_JUDGE_TIMEOUT_MS
    model = str(raw.get("model", ""))
    if len(model) > 200:
        raise InvalidArgument("judge.model", "at most 200 characters")
    return JudgeSettings(
        enabled=enabled,
        address=address,
        timeout_ms=_int("judge.timeout_ms", timeout, low=1, high=MAX_JUDGE_TIMEOUT_MS),
        model=model,
    )


def parse(
    document: Mapping[str, Any], *, updated_at: datetime | None = None, updated_by: str = "default"
) -> Policy:
    """Validate a policy document; every error names its field (and rule)."""
    mode = _enum(Mode, "mode", document.get("mode"))
    return Policy(
        mode=mode or Mode.SHADOW,
        capture=_parse_capture(document.get("capture")),
        publication=_parse_publication(document.get("publication") or {}),
        judge=_parse_judge(document.get("judge")),
        updated_at=updated_at,
        updated_by=updated_by,
    )


def to_document(policy: Policy) -> dict[str, Any]:
    """The JSON form stored in learning.policy_versions (round-trips through parse)."""

    def rule(r: Rule) -> dict[str, Any]:
        data = asdict(r)
        for key in ("action", "scope_kind", "kind", "sensitivity"):
            data[key] = data[key].value if data[key] is not None else ""
        return data

    return {
        "mode": policy.mode.value,
        "capture": asdict(policy.capture),
        "publication": {
            "rules": [rule(r) for r in policy.publication.rules],
            "default_action": policy.publication.default_action.value,
            "allow_api_origin_active_publication": (
                policy.publication.allow_api_origin_active_publication
            ),
            "quarantined_rule_names": list(policy.publication.quarantined_rule_names),
        },
        "judge": asdict(policy.judge),
    }


# ------------------------------------------------------------------ matching


@dataclass(frozen=True)
class RuleInput:
    """What rules may look at. Provenance fields count only for daemon origin."""

    origin: Origin
    scope_kind: ScopeKind
    scope_id: str
    kind: Kind
    sensitivity: Sensitivity
    confidence: int
    has_evidence: bool
    has_source_run: bool
    has_source_session: bool


def rule_matches(rule: Rule, c: RuleInput) -> bool:
    trusted = c.origin is Origin.DAEMON
    return (
        (rule.scope_kind is None or rule.scope_kind is c.scope_kind)
        and (not rule.scope_id or rule.scope_id == c.scope_id)
        and (rule.kind is None or rule.kind is c.kind)
        and (rule.sensitivity is None or rule.sensitivity is c.sensitivity)
        and c.confidence >= rule.min_confidence
        # An API caller can attach evidence and a source, but they are never
        # trusted inputs: the strict gates do not match API-origin candidates.
        and (not rule.require_evidence or (trusted and c.has_evidence))
        and (not rule.require_source_run or (trusted and c.has_source_run))
        and (not rule.require_source_session or (trusted and c.has_source_session))
    )


def first_match(publication: PublicationSettings, c: RuleInput) -> tuple[str, Action]:
    """(matched rule name or "", action): first non-quarantined match wins,
    else the default action."""
    quarantined = set(publication.quarantined_rule_names)
    for rule in publication.rules:
        if rule.name not in quarantined and rule_matches(rule, c):
            return rule.name, rule.action
    return "", publication.default_action


# ------------------------------------------------------------------ judge clamp

# What the judge may pick for each baseline. It can only keep the baseline or
# move to something more conservative; everything else collapses as below.
#
#   baseline \ judge      manual_review  reject   provisional   active
#   reject                manual_review  reject   manual_review manual_review
#   publish_provisional   manual_review  reject   provisional   provisional
#   publish_active        manual_review  reject   provisional   active
#
# An unset or unknown judge action is manual_review (fail closed). The judge
# never runs on a manual_review baseline.
_PUBLISH_RANK = {Action.PUBLISH_PROVISIONAL: 1, Action.PUBLISH_ACTIVE: 2}


def clamp_judge_action(baseline: Action, requested: Action | None) -> Action:
    if requested is None or baseline is Action.MANUAL_REVIEW:
        return Action.MANUAL_REVIEW
    if requested in (Action.MANUAL_REVIEW, Action.REJECT):
        return requested
    # requested is a publish action
    if baseline is Action.REJECT:
        return Action.MANUAL_REVIEW
    return requested if _PUBLISH_RANK[requested] <= _PUBLISH_RANK[baseline] else baseline
