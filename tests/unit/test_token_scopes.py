"""Scoped tokens: how they are declared, which RPCs honour them, and the edge
check of a request's subject and workspace fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import roles
from engram.auth import (
    Principal,
    Role,
    TokenAuthenticator,
    TokenEntry,
    TokenScope,
    load_token_file,
)
from engram.errors import InvalidArgument, PermissionDenied
from engram.gateway.v1 import gateway_pb2
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2

DOC = Path(__file__).resolve().parents[2] / "docs" / "operators.md"
ALICE = TokenScope(subjects=frozenset({"alice"}))
WORK = TokenScope(workspaces=frozenset({"work"}))


def _method(service: str, name: str) -> str:
    return next(m for m in roles.METHODS if m.endswith(f"{service}/{name}"))


def _principal(scope: TokenScope, role: Role = Role.RUNTIME) -> Principal:
    return Principal("t", role, scope)


def test_every_request_scoped_method_names_a_subject_in_its_request() -> None:
    for method, rule in roles.SCOPE_RULES.items():
        if rule is roles.ScopeRule.REQUEST:
            paths = roles.scope_field_paths(roles.METHODS[method].input_type)
            assert any(p.endswith("subject") for p in paths), method


def test_scope_rules_are_declared_for_methods_that_exist() -> None:
    assert set(roles.SCOPE_RULES) <= set(roles.METHODS)
    # Nothing a scoped token may call needs a role it cannot have.
    for method in roles.SCOPE_RULES:
        assert roles.ROLE_TABLE[method] in (Role.RUNTIME, Role.OPERATOR), method


def test_a_scoped_token_is_refused_a_method_without_a_scope_rule() -> None:
    method = _method("JournalService", "GetStatus")
    with pytest.raises(PermissionDenied) as err:
        roles.check_scope(_principal(ALICE, Role.OPERATOR), method, journal_pb2.GetStatusRequest())
    assert err.value.reason == "TOKEN_SCOPED"
    # An unscoped token is not affected.
    roles.check_scope(_principal(TokenScope(), Role.OPERATOR), method, None)


def test_a_request_naming_another_subject_is_refused_naming_the_field() -> None:
    method = _method("JournalService", "CommitTurn")
    roles.check_scope(_principal(ALICE), method, journal_pb2.CommitTurnRequest(subject="alice"))
    with pytest.raises(PermissionDenied) as err:
        roles.check_scope(_principal(ALICE), method, journal_pb2.CommitTurnRequest(subject="bob"))
    assert err.value.reason == "OUT_OF_SCOPE"
    assert err.value.metadata["field"] == "subject"


def test_an_empty_workspace_is_the_default_workspace() -> None:
    method = _method("GatewayService", "AssembleContext")
    default_only = TokenScope(workspaces=frozenset({"default"}))
    alice = gateway_pb2.AssembleContextRequest(subject="alice")
    roles.check_scope(_principal(default_only), method, alice)
    with pytest.raises(PermissionDenied):
        roles.check_scope(_principal(WORK), method, alice)
    alice.workspace = "work"
    roles.check_scope(_principal(WORK), method, alice)


def test_nested_scope_fields_are_checked_with_their_path() -> None:
    # CreateCandidate's source names a subject; a scoped operator may not call
    # it at all (learnings are shared), so check the walk on the descriptor.
    paths = roles.scope_field_paths(learning_pb2.CreateCandidateRequest.DESCRIPTOR)
    assert "source.subject" in paths and "source.workspace" in paths


def test_tokens_file_declares_subjects_and_workspaces(tmp_path: Path) -> None:
    path = tmp_path / "tokens.yaml"
    path.write_text(
        "- {name: rt, role: runtime, token: runtime-token-0123456789, subjects: [alice, bob]}\n"
        "- {name: op, role: operator, token: operator-token-0123456789, workspaces: [work]}\n"
        "- {name: all, role: runtime, token: unscoped-token-0123456789}\n"
    )
    entries = {e.name: e for e in load_token_file(path)}
    assert entries["rt"].scope == TokenScope(subjects=frozenset({"alice", "bob"}))
    assert entries["op"].scope == TokenScope(workspaces=frozenset({"work"}))
    assert not entries["all"].scope.restricted
    auth = TokenAuthenticator(entries.values())
    assert auth.authenticate("Bearer runtime-token-0123456789").scope.subjects == {"alice", "bob"}


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("subjects: []", "subjects must be a non-empty list"),
        ("subjects: alice", "subjects must be a non-empty list"),
        ("subjects: ['bad subject']", "subjects"),
        ("subject: [alice]", "unknown keys"),
    ],
)
def test_a_malformed_scope_is_refused_at_load(tmp_path: Path, line: str, field: str) -> None:
    path = tmp_path / "tokens.yaml"
    path.write_text(f"- {{name: rt, role: runtime, token: runtime-token-0123456789, {line}}}\n")
    with pytest.raises(InvalidArgument) as err:
        load_token_file(path)
    assert field in str(err.value)


@pytest.mark.parametrize("role", [Role.SERVICE, Role.ADMIN])
def test_service_and_admin_tokens_cannot_be_scoped(role: Role) -> None:
    with pytest.raises(InvalidArgument, match="cannot be scoped"):
        TokenAuthenticator([TokenEntry("x", role, "a-long-enough-token-0123", ALICE)])


def test_sql_params_are_null_when_unrestricted() -> None:
    assert TokenScope().sql_params() == {"scope_subjects": None, "scope_workspaces": None}
    assert ALICE.sql_params() == {"scope_subjects": ["alice"], "scope_workspaces": None}


def test_operators_doc_shows_the_code_scope_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("\n", text.index("<!-- scopes:")) + 1
    end = text.index("<!-- /scopes -->")
    assert text[start:end].strip() == roles.scope_markdown_table(), (
        "docs/operators.md is out of date: paste `python -m engram.roles` between the markers"
    )
