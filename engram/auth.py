"""Bearer-token authentication with four ordered roles.

Tokens come from a file (JSON or YAML list of {name, role, token} with optional
``subjects`` and ``workspaces`` lists) and/or the ENGRAM_TOKENS environment
variable ("name:role:token,...", unscoped). Tokens are kept only as SHA-256
digests in memory and compared in constant time.

A scoped token (runtime or operator) reaches only the subjects and workspaces
it lists; which RPCs honour a scope, and how, is declared beside the roles in
`engram.roles`.
"""

from __future__ import annotations

import contextvars
import enum
import hashlib
import hmac
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from engram.errors import InvalidArgument, PermissionDenied, Unauthenticated
from engram.validation import DEFAULT_WORKSPACE, require_id


class Role(enum.IntEnum):
    """Ordered: a higher role may call everything a lower one may.

    RUNTIME is an agent runtime; SERVICE is one engram service calling another
    (ENGRAM_SERVICE_TOKEN); OPERATOR reviews and governs; ADMIN may purge.
    Which role each RPC needs is declared in `engram.roles`.
    """

    RUNTIME = 1
    SERVICE = 2
    OPERATOR = 3
    ADMIN = 4

    @classmethod
    def parse(cls, value: str) -> Role:
        try:
            return cls[value.strip().upper()]
        except KeyError:
            choices = ", ".join(r.name.lower() for r in cls)
            raise InvalidArgument("role", f"unknown role {value!r} (choose {choices})") from None


@dataclass(frozen=True)
class TokenScope:
    """The subjects and workspaces a token may reach; an empty set means any."""

    subjects: frozenset[str] = frozenset()
    workspaces: frozenset[str] = frozenset()

    @property
    def restricted(self) -> bool:
        return bool(self.subjects or self.workspaces)

    def permits_subject(self, subject: str) -> bool:
        return not self.subjects or subject in self.subjects

    def permits_workspace(self, workspace: str) -> bool:
        """Whether `workspace` ("" is the default workspace) is in scope."""
        return not self.workspaces or (workspace or DEFAULT_WORKSPACE) in self.workspaces

    def permits(self, subject: str, workspace: str) -> bool:
        """Whether a record of `subject` in `workspace` is in scope."""
        return self.permits_subject(subject) and self.permits_workspace(workspace)

    def sql_params(self) -> dict[str, list[str] | None]:
        """Parameters of the named queries' scope filter: NULL means unrestricted.

        Queries filter with ``(%(scope_subjects)s::text[] IS NULL OR subject =
        ANY (%(scope_subjects)s::text[]))`` and the same for workspace.
        """
        return {
            "scope_subjects": sorted(self.subjects) or None,
            "scope_workspaces": sorted(self.workspaces) or None,
        }

    def describe(self) -> str:
        parts = [
            f"{label} {', '.join(sorted(values))}"
            for label, values in (("subjects", self.subjects), ("workspaces", self.workspaces))
            if values
        ]
        return "; ".join(parts) or "everything"


UNRESTRICTED = TokenScope()

# Roles a token may be scoped for: service and admin tokens act for everyone.
SCOPABLE_ROLES = frozenset({Role.RUNTIME, Role.OPERATOR})


@dataclass(frozen=True)
class Principal:
    name: str
    role: Role
    scope: TokenScope = UNRESTRICTED


ANONYMOUS_LOCAL = Principal("local", Role.ADMIN)

principal_var: contextvars.ContextVar[Principal | None] = contextvars.ContextVar(
    "principal", default=None
)


def current_scope() -> TokenScope:
    """The calling token's scope (unrestricted when auth is off or outside a call)."""
    principal = principal_var.get()
    return principal.scope if principal else UNRESTRICTED


def current_actor() -> str:
    """Name of the caller for audit fields ("local" when auth is off)."""
    principal = principal_var.get()
    return principal.name if principal else "system"


@dataclass(frozen=True)
class TokenEntry:
    name: str
    role: Role
    token: str
    scope: TokenScope = UNRESTRICTED


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


class TokenAuthenticator:
    def __init__(self, entries: Iterable[TokenEntry]) -> None:
        self._by_digest: dict[bytes, Principal] = {}
        for entry in entries:
            self.add(entry)

    def add(self, entry: TokenEntry) -> None:
        if len(entry.token) < 16:
            raise InvalidArgument("tokens", f"token for {entry.name!r} is shorter than 16 chars")
        if entry.scope.restricted and entry.role not in SCOPABLE_ROLES:
            raise InvalidArgument(
                "tokens",
                f"token {entry.name!r}: a {entry.role.name.lower()} token acts for every "
                "subject and cannot be scoped (scope runtime or operator tokens)",
            )
        self._by_digest[_digest(entry.token)] = Principal(entry.name, entry.role, entry.scope)

    @property
    def enabled(self) -> bool:
        return bool(self._by_digest)

    def authenticate(self, authorization: str | None) -> Principal:
        if not self.enabled:
            return ANONYMOUS_LOCAL
        if not authorization:
            raise Unauthenticated("missing authorization metadata (Bearer token)")
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthenticated("authorization must be 'Bearer <token>'")
        wanted = _digest(token.strip())
        for known, principal in self._by_digest.items():
            if hmac.compare_digest(known, wanted):
                return principal
        raise Unauthenticated("unknown token")


def authorize(principal: Principal, required: Role, method: str) -> None:
    if principal.role < required:
        raise PermissionDenied(
            f"{method} needs role {required.name.lower()}; "
            f"{principal.name} has {principal.role.name.lower()}",
            metadata={"required_role": required.name.lower()},
        )


def parse_token_spec(spec: str) -> list[TokenEntry]:
    """Parse "name:role:token,name:role:token"."""
    entries: list[TokenEntry] = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        name, role, token = [*item.split(":", 2), "", ""][:3]
        if not name or not token:
            raise InvalidArgument(
                "ENGRAM_TOKENS", f"entry {name or item[:8]!r} is not name:role:token"
            )
        entries.append(TokenEntry(name, Role.parse(role), token))
    return entries


def _scope_list(entry: int, key: str, value: object) -> frozenset[str]:
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not value:
        raise InvalidArgument("tokens_file", f"entry {entry}: {key} must be a non-empty list")
    return frozenset(require_id(f"tokens_file entry {entry} {key}", str(v)) for v in value)


def load_token_file(path: Path) -> list[TokenEntry]:
    text = path.read_text()
    data = json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)
    if isinstance(data, dict):
        data = data.get("tokens", [])
    if not isinstance(data, list):
        raise InvalidArgument("tokens_file", "expected a list of {name, role, token}")
    entries = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not {"name", "role", "token"} <= item.keys():
            raise InvalidArgument("tokens_file", f"entry {i} needs name, role and token")
        unknown = set(item) - {"name", "role", "token", "subjects", "workspaces"}
        if unknown:
            raise InvalidArgument("tokens_file", f"entry {i} has unknown keys {sorted(unknown)}")
        scope = TokenScope(
            subjects=_scope_list(i, "subjects", item.get("subjects")),
            workspaces=_scope_list(i, "workspaces", item.get("workspaces")),
        )
        entries.append(
            TokenEntry(str(item["name"]), Role.parse(str(item["role"])), str(item["token"]), scope)
        )
    return entries
