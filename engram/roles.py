"""Who may call what: the one role table of every RPC engram serves.

The table is built from the service descriptors: every method of the four
services must be declared here, keyed by its full gRPC method name
(``/engram.journal.v1.JournalService/CommitTurn``). The server refuses a
method that is not declared (PERMISSION_DENIED, deny by default), and
tests/unit/test_roles.py fails on one, so a new RPC cannot ship with an
accidental role.

Roles are ordered (``engram.auth.Role``): a higher role may call everything a
lower one may.

* ``runtime``: exactly what an agent runtime needs: commit turns, append its
  own events and complete runs, read its session, search and recall, assemble
  context and release responses, read learned context and active skills.
* ``service``: the calls engram services make to each other: the change
  feed, batch episode reads, receipt and verdict writes, the learning plane's
  journal reads and the learning search behind the gateway's operator view.
* ``operator``: governance: candidates, learnings, skills, policies,
  quarantine, receipts, status and index rebuilds.
* ``admin``: ``Purge``.

Scoped tokens (``subjects``/``workspaces`` in the tokens file) reach only
the methods of :data:`SCOPE_RULES`, each declaring how its reads stay inside
the scope:

* ``REQUEST``: the request names its subject and workspace; every such field
  is checked at the edge (:func:`check_request_scope`) and the service reads
  by them in SQL and in the resident index.
* ``RECORDS``: the request names records by id; the service's queries filter
  by the token's scope (``TokenScope.sql_params``) and an out-of-scope id is
  NOT_FOUND.
* ``SHARED``: the method reads no subject's records (published skills).

Any other method refuses a scoped token (PERMISSION_DENIED, reason
``TOKEN_SCOPED``): deny by default again, so a new RPC cannot leak through a
scope nobody thought about.

Besides the method table, journal events in the gateway's namespace
(``gateway.*``: assembled contexts and verdicts) and events with
``PROVENANCE_SYSTEM`` are written by services only: ``AppendEvent`` checks
them with :func:`authorize_event`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from types import MappingProxyType

from google.protobuf.descriptor import (
    Descriptor,
    FieldDescriptor,
    MethodDescriptor,
    ServiceDescriptor,
)
from google.protobuf.message import Message

from engram.auth import ANONYMOUS_LOCAL, Principal, Role, TokenScope, authorize, principal_var
from engram.errors import PermissionDenied
from engram.gateway.v1 import gateway_pb2
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2
from engram.retrieval.v1 import retrieval_pb2

R, S, OP, A = Role.RUNTIME, Role.SERVICE, Role.OPERATOR, Role.ADMIN

# Every RPC engram serves, by service.
SERVICES: tuple[ServiceDescriptor, ...] = (
    journal_pb2.DESCRIPTOR.services_by_name["JournalService"],
    learning_pb2.DESCRIPTOR.services_by_name["LearningService"],
    retrieval_pb2.DESCRIPTOR.services_by_name["RetrievalService"],
    gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"],
)

# The declarations: service full name -> method name -> role it needs.
DECLARED: Mapping[str, Mapping[str, Role]] = {
    "engram.journal.v1.JournalService": {
        "CommitTurn": R,
        "AppendEvent": R,  # gateway.* and SYSTEM events need service: authorize_event
        "ReadSessionJournal": R,
        "StreamChanges": S,
        "Quarantine": OP,
        "Restore": OP,
        "ListQuarantine": OP,
        "Purge": A,
        "GetStatus": OP,
        "CompleteRun": R,
        "GetRunRecord": S,
        "GetRunMemoryPolicy": OP,
        "SetRunMemoryPolicy": OP,
        "GetRecoveredMemory": R,
        "SearchRunMemory": R,
        "SearchEpisodes": R,
        "BatchGetEpisodes": S,
        "FindExact": R,
        "RecordRetrievalAudit": S,
        "RecordContextInjection": S,
        "RecordContextReceipts": S,
        "ListReceipts": OP,
        "GetSessionContext": R,
        "GetCompactionPolicy": OP,
        "SetCompactionPolicy": OP,
    },
    "engram.learning.v1.LearningService": {
        "ResolveScopes": R,
        "CreateCandidate": OP,
        "ListCandidates": OP,
        "GetCandidate": OP,
        "PublishCandidate": OP,
        "RejectCandidate": OP,
        "GetLearningPolicy": OP,
        "SetLearningPolicy": OP,
        "ListLearnings": OP,
        "GetLearning": OP,
        "RevokeLearning": OP,
        "GetLearnedContext": R,
        "SearchLearnings": S,  # the gateway's SearchMemory (operator) relays it
        "PromoteToSkill": OP,
        "ListSkills": OP,
        "GetSkill": OP,
        "RecordRolloutResult": OP,
        "RevokeSkill": OP,
        "RollbackSkill": OP,
        "ListActiveSkills": R,
        "GetLearningStatus": OP,
    },
    "engram.retrieval.v1.RetrievalService": {
        "Recall": R,
        "FindExact": R,
        "GetIndexStatus": OP,
        "RebuildIndex": OP,
    },
    "engram.gateway.v1.GatewayService": {
        "AssembleContext": R,
        "ReleaseResponse": R,
        "SearchMemory": OP,
        "GetMemoryContext": OP,
    },
}


class ScopeRule(enum.Enum):
    """How a method keeps a scoped token inside its subjects and workspaces."""

    REQUEST = "request"
    RECORDS = "records"
    SHARED = "shared"


Q_, REC, SH = ScopeRule.REQUEST, ScopeRule.RECORDS, ScopeRule.SHARED

# The methods a scoped token may call, and how each honours the scope.
SCOPE_DECLARED: Mapping[str, Mapping[str, ScopeRule]] = {
    "engram.journal.v1.JournalService": {
        "CommitTurn": Q_,
        "AppendEvent": Q_,
        "ReadSessionJournal": Q_,
        "CompleteRun": Q_,
        "GetRecoveredMemory": Q_,
        "SearchRunMemory": Q_,
        "SearchEpisodes": Q_,
        "FindExact": Q_,
        "GetSessionContext": Q_,
        "Quarantine": REC,
        "Restore": REC,
        "ListQuarantine": REC,
        "ListReceipts": REC,
    },
    "engram.learning.v1.LearningService": {
        # Session learnings are the subject's own (filtered in SQL); persona,
        # project and workspace learnings are shared knowledge.
        "ResolveScopes": Q_,
        "GetLearnedContext": Q_,
        "ListActiveSkills": SH,
    },
    "engram.retrieval.v1.RetrievalService": {
        "Recall": Q_,
        "FindExact": Q_,
    },
    "engram.gateway.v1.GatewayService": {
        "AssembleContext": Q_,
        # subject is optional: the gateway also checks the context's own scope.
        "ReleaseResponse": Q_,
        "SearchMemory": Q_,
        "GetMemoryContext": Q_,
    },
}

# Event types and provenance only services (or operators) may append.
SERVICE_EVENT_PREFIXES = ("gateway.",)
SERVICE_PROVENANCES = frozenset({journal_pb2.PROVENANCE_SYSTEM})


def method_name(service: ServiceDescriptor, method: MethodDescriptor) -> str:
    """The gRPC path of a method: /package.Service/Method."""
    return f"/{service.full_name}/{method.name}"


def _methods() -> dict[str, MethodDescriptor]:
    return {method_name(s, m): m for s in SERVICES for m in s.methods}


# Full method name -> descriptor, for every RPC engram serves.
METHODS: Mapping[str, MethodDescriptor] = MappingProxyType(_methods())


def _build() -> dict[str, Role]:
    table: dict[str, Role] = {}
    for service in SERVICES:
        declared = DECLARED.get(service.full_name, {})
        stale = set(declared) - {m.name for m in service.methods}
        if stale:
            raise RuntimeError(f"roles declared for unknown RPCs of {service.full_name}: {stale}")
        for method in service.methods:
            if method.name in declared:
                table[method_name(service, method)] = declared[method.name]
    return table


# Full method name -> the role it needs. A method missing here is refused.
ROLE_TABLE: Mapping[str, Role] = MappingProxyType(_build())


def _build_scope_rules() -> dict[str, ScopeRule]:
    rules: dict[str, ScopeRule] = {}
    for service in SERVICES:
        declared = SCOPE_DECLARED.get(service.full_name, {})
        stale = set(declared) - {m.name for m in service.methods}
        if stale:
            raise RuntimeError(f"scopes declared for unknown RPCs of {service.full_name}: {stale}")
        for name, rule in declared.items():
            rules[method_name(service, service.methods_by_name[name])] = rule
    return rules


# Full method name -> how it honours a token's scope. Missing: unscoped tokens only.
SCOPE_RULES: Mapping[str, ScopeRule] = MappingProxyType(_build_scope_rules())

SCOPE_FIELDS = ("subject", "workspace")


def scope_field_paths(message: Descriptor, prefix: str = "") -> list[str]:
    """Dotted paths of the string ``subject``/``workspace`` fields in a request type."""
    paths: list[str] = []
    for f in message.fields:
        if f.type == FieldDescriptor.TYPE_STRING and f.name in SCOPE_FIELDS:
            paths.append(prefix + f.name)
        elif f.message_type is not None and not f.message_type.full_name.startswith("google."):
            paths += scope_field_paths(f.message_type, f"{prefix}{f.name}.")
    return paths


def _scoped_messages(message: Message, path: str = "") -> Iterator[tuple[str, Message]]:
    """Every (sub)message of a request that carries a subject or workspace field."""
    names = {f.name for f in message.DESCRIPTOR.fields}
    if names & set(SCOPE_FIELDS):
        yield path, message
    for f, value in message.ListFields():
        if f.message_type is None or f.message_type.full_name.startswith("google."):
            continue
        items = value if f.is_repeated else [value]
        for i, item in enumerate(items):
            suffix = f"[{i}]" if f.is_repeated else ""
            yield from _scoped_messages(item, f"{path}{f.name}{suffix}.")


def _out_of_scope(method: str, scope: TokenScope, field: str, principal: Principal) -> None:
    raise PermissionDenied(
        f"{field} is outside the scope of token {principal.name} ({scope.describe()})",
        reason="OUT_OF_SCOPE",
        metadata={"field": field, "method": method},
    )


def check_scope(principal: Principal, method: str, request: object) -> None:
    """Refuse a scoped token a method that does not honour scopes, or a request
    naming a subject or workspace outside the scope.

    A (sub)message with an empty subject names no scope and is not checked
    here: a method whose subject is optional (ReleaseResponse) checks the
    scope of the record it reads, and the others refuse an empty subject as
    INVALID_ARGUMENT. An empty workspace is the default workspace, as
    everywhere in the suite.
    """
    scope = principal.scope
    if not scope.restricted:
        return
    rule = SCOPE_RULES.get(method)
    if rule is None:
        raise PermissionDenied(
            f"{method} reads records of every subject and needs an unscoped token; "
            f"{principal.name} is scoped to {scope.describe()}",
            reason="TOKEN_SCOPED",
            metadata={"method": method},
        )
    if rule is not ScopeRule.REQUEST or not isinstance(request, Message):
        return
    for path, message in _scoped_messages(request):
        fields = message.DESCRIPTOR.fields_by_name
        subject = str(getattr(message, "subject", ""))
        workspace = str(getattr(message, "workspace", ""))
        if "subject" in fields and not subject:
            continue  # no locator: the service refuses it or checks the record it reads
        if subject and not scope.permits_subject(subject):
            _out_of_scope(method, scope, path + "subject", principal)
        if "workspace" in fields and not scope.permits_workspace(workspace):
            _out_of_scope(method, scope, path + "workspace", principal)


def undeclared() -> list[str]:
    """Methods of the served services without a declared role (must be empty)."""
    return sorted(set(METHODS) - set(ROLE_TABLE))


def required_role(method: str, table: Mapping[str, Role] = ROLE_TABLE) -> Role:
    """The role `method` needs; PermissionDenied when none is declared."""
    role = table.get(method)
    if role is None:
        raise PermissionDenied(
            f"{method} has no declared role and is refused",
            reason="METHOD_NOT_DECLARED",
            metadata={"method": method},
        )
    return role


def authorize_event(event_type: str, provenance: int, method: str) -> None:
    """Events in a service namespace or with SYSTEM provenance need `service`."""
    if not (event_type.startswith(SERVICE_EVENT_PREFIXES) or provenance in SERVICE_PROVENANCES):
        return
    principal = principal_var.get() or ANONYMOUS_LOCAL
    authorize(principal, Role.SERVICE, f"{method} of {event_type or 'a SYSTEM event'}")


def methods_by_role() -> dict[Role, list[str]]:
    """Role -> "Service/Method" names that need exactly that role."""
    grouped: dict[Role, list[str]] = {role: [] for role in Role}
    for name, role in ROLE_TABLE.items():
        service, method = name.strip("/").split("/")
        grouped[role].append(f"{service.rsplit('.', 1)[-1]}/{method}")
    return grouped


def markdown_table() -> str:
    """The role table of docs/operators.md, rendered from ROLE_TABLE."""
    lines = ["| role | may call (besides every row above) |", "|---|---|"]
    for role, names in methods_by_role().items():
        by_service: dict[str, list[str]] = {}
        for name in names:
            service, method = name.split("/")
            by_service.setdefault(service, []).append(f"`{method}`")
        cell = "; ".join(f"{service}: {', '.join(ms)}" for service, ms in by_service.items())
        lines.append(f"| `{role.name.lower()}` | {cell} |")
    return "\n".join(lines)


def scope_markdown_table() -> str:
    """The scoped-token table of docs/operators.md, rendered from SCOPE_RULES."""
    lines = ["| a scoped token may call | how the scope holds |", "|---|---|"]
    how = {
        ScopeRule.REQUEST: "the request's `subject`/`workspace` must be in scope "
        "(else `PERMISSION_DENIED`, reason `OUT_OF_SCOPE`); reads filter by them",
        ScopeRule.RECORDS: "queries filter by the token's scope; an out-of-scope id is "
        "`NOT_FOUND`, lists hold only in-scope entries",
        ScopeRule.SHARED: "reads no subject's records (published skills)",
    }
    for rule in ScopeRule:
        names = [
            f"`{name.strip('/').split('/')[0].rsplit('.', 1)[-1]}/{name.rsplit('/', 1)[-1]}`"
            for name, declared in SCOPE_RULES.items()
            if declared is rule
        ]
        if names:
            lines.append(f"| {', '.join(names)} | {how[rule]} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown_table())
    print()
    print(scope_markdown_table())
