"""Vocabulary of the learning plane: kinds, scopes, statuses and actions.

Values are the lowercase words stored in the `learning` schema. Prompt
visibility is NOT decided here: the one injection gate is the SQL function
learning.is_prompt_eligible (see migrations/0001_learning.sql).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engram.errors import InvalidArgument
from engram.validation import DEFAULT_WORKSPACE, require_id


class Kind(StrEnum):
    FACT = "fact"
    PREFERENCE = "preference"
    DECISION = "decision"
    RUN_SUMMARY = "run_summary"
    PROCEDURE = "procedure"


# Kinds capture may propose and that carry "subject is value" claims (the
# conflict check). run_summary is materialised separately; procedure is
# operator-authored.
SEMANTIC_KINDS: frozenset[Kind] = frozenset({Kind.FACT, Kind.PREFERENCE, Kind.DECISION})


class ScopeKind(StrEnum):
    SESSION = "session"
    PERSONA = "persona"
    PROJECT = "project"
    WORKSPACE = "workspace"


class Origin(StrEnum):
    API = "api"
    DAEMON = "daemon"


class Sensitivity(StrEnum):
    NORMAL = "normal"
    SENSITIVE = "sensitive"


class CandidateStatus(StrEnum):
    PENDING = "pending"
    ESCALATED = "escalated"
    PUBLISHED = "published"
    REJECTED = "rejected"


OPEN_CANDIDATE_STATUSES: tuple[CandidateStatus, ...] = (
    CandidateStatus.PENDING,
    CandidateStatus.ESCALATED,
)


class LearningStatus(StrEnum):
    ACTIVE = "active"
    REVOKED = "revoked"
    SUPERSEDED = "superseded"


class Tier(StrEnum):
    PROVISIONAL = "provisional"
    ACTIVE = "active"


class Verification(StrEnum):
    UNVERIFIED = "unverified"
    VERIFIED = "verified"
    FAILED = "failed"


class Decision(StrEnum):
    AUTOMATIC = "automatic"
    MANUAL = "manual"
    ESCALATED = "escalated"


class Action(StrEnum):
    MANUAL_REVIEW = "manual_review"
    REJECT = "reject"
    PUBLISH_PROVISIONAL = "publish_provisional"
    PUBLISH_ACTIVE = "publish_active"


class Mode(StrEnum):
    MANUAL_ONLY = "manual_only"
    SHADOW = "shadow"
    ENABLED = "enabled"


class SkillState(StrEnum):
    DRAFT = "draft"
    VERIFIED = "verified"
    CANARY = "canary"
    ACTIVE = "active"
    REVOKED = "revoked"


class Stage(StrEnum):
    VERIFICATION = "verification"
    CANARY = "canary"


AUTOMATION_ACTOR = "automation"

# Narrowest first: the order ResolveScopes returns and ties are broken by.
SCOPE_ORDER: dict[ScopeKind, int] = {
    ScopeKind.SESSION: 0,
    ScopeKind.PERSONA: 1,
    ScopeKind.PROJECT: 2,
    ScopeKind.WORKSPACE: 3,
}


@dataclass(frozen=True)
class Scope:
    kind: ScopeKind
    id: str

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.id}"


def make_scope(field: str, kind: ScopeKind | None, scope_id: str) -> Scope:
    """A validated scope; the workspace ring has exactly one id, "default"."""
    if kind is None:
        raise InvalidArgument(f"{field}.kind", "must be session, persona, project or workspace")
    if kind is ScopeKind.WORKSPACE:
        if scope_id and scope_id != DEFAULT_WORKSPACE:
            raise InvalidArgument(
                f"{field}.id",
                f'the workspace scope id is always "default", got {scope_id!r}',
                reason="INVALID_WORKSPACE",
            )
        return Scope(kind, DEFAULT_WORKSPACE)
    return Scope(kind, require_id(f"{field}.id", scope_id))


def parse_scope_key(field: str, key: str) -> Scope:
    """ "project:p1" -> Scope(PROJECT, "p1")."""
    kind_text, sep, scope_id = key.partition(":")
    try:
        kind = ScopeKind(kind_text)
    except ValueError:
        kind = None
    if not sep or kind is None:
        raise InvalidArgument(
            field, f"{key[:60]!r} is not <session|persona|project|workspace>:<id>"
        )
    try:
        return make_scope(field, kind, scope_id)
    except InvalidArgument as exc:
        raise InvalidArgument(field, exc.message.split(": ", 1)[-1], reason=exc.reason) from None


def resolve_scopes(session_id: str, persona_id: str, project_ids: Sequence[str]) -> list[Scope]:
    """The ordered visible scopes: session, persona (if any), projects, workspace:default."""
    scopes = [Scope(ScopeKind.SESSION, require_id("session_id", session_id))]
    if persona_id:
        scopes.append(Scope(ScopeKind.PERSONA, require_id("persona_id", persona_id)))
    seen: set[str] = set()
    for i, project_id in enumerate(project_ids):
        require_id(f"project_ids[{i}]", project_id)
        if project_id not in seen:
            seen.add(project_id)
            scopes.append(Scope(ScopeKind.PROJECT, project_id))
    scopes.append(Scope(ScopeKind.WORKSPACE, DEFAULT_WORKSPACE))
    return scopes
