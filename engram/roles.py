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

Besides the method table, journal events in the gateway's namespace
(``gateway.*``: assembled contexts and verdicts) and events with
``PROVENANCE_SYSTEM`` are written by services only: ``AppendEvent`` checks
them with :func:`authorize_event`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor

from engram.auth import ANONYMOUS_LOCAL, Role, authorize, principal_var
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
        "ListReceipts": OP,
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


if __name__ == "__main__":
    print(markdown_table())
