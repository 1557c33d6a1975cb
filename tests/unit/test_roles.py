"""The one role table: every RPC of every served service is declared, the
server refuses what is not, the internal RPCs need the service role, and
docs/operators.md shows exactly the code's table."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram import errors, roles
from engram.auth import (
    Principal,
    Role,
    TokenAuthenticator,
    TokenEntry,
    load_token_file,
    parse_token_spec,
    principal_var,
)
from engram.gateway.v1 import gateway_pb2
from engram.interceptors import EngramServerInterceptor
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2
from engram.retrieval.v1 import retrieval_pb2

DOC = Path(__file__).resolve().parents[2] / "docs" / "operators.md"

# What an agent runtime needs, and nothing more.
RUNTIME = {
    "JournalService/CommitTurn",
    "JournalService/AppendEvent",
    "JournalService/ReadSessionJournal",
    "JournalService/CompleteRun",
    "JournalService/GetRecoveredMemory",
    "JournalService/SearchRunMemory",
    "JournalService/SearchEpisodes",
    "JournalService/FindExact",
    "JournalService/GetSessionContext",
    "LearningService/ResolveScopes",
    "LearningService/GetLearnedContext",
    "LearningService/ListActiveSkills",
    "RetrievalService/Recall",
    "RetrievalService/FindExact",
    "GatewayService/AssembleContext",
    "GatewayService/ReleaseResponse",
}
# Service-to-service calls: a runtime may not make them.
INTERNAL = {
    "JournalService/StreamChanges",
    "JournalService/BatchGetEpisodes",
    "JournalService/RecordContextInjection",
    "JournalService/RecordRetrievalAudit",
    "JournalService/RecordContextReceipts",
    "JournalService/GetRunRecord",
    "LearningService/SearchLearnings",
}
# docs/operators.md promises these to operators, not runtimes.
OPERATOR_ONLY = {
    "LearningService/CreateCandidate",
    "LearningService/ListCandidates",
    "LearningService/ListLearnings",
    "LearningService/GetSkill",
    "GatewayService/SearchMemory",
    "GatewayService/GetMemoryContext",
    "JournalService/Quarantine",
    "JournalService/SetRunMemoryPolicy",
    "JournalService/SetCompactionPolicy",
    "JournalService/ListReceipts",
}


def _short(full: str) -> str:
    service, method = full.strip("/").split("/")
    return f"{service.rsplit('.', 1)[-1]}/{method}"


def test_every_rpc_of_every_service_has_a_declared_role() -> None:
    # Enumerate the descriptors themselves, not the table built from them.
    modules = (journal_pb2, learning_pb2, retrieval_pb2, gateway_pb2)
    served = {"JournalService", "LearningService", "RetrievalService", "GatewayService"}
    undeclared = []
    count = 0
    for module in modules:
        for service in module.DESCRIPTOR.services_by_name.values():
            assert service.name in served
            for method in service.methods:
                count += 1
                name = f"/{service.full_name}/{method.name}"
                if name not in roles.ROLE_TABLE:
                    undeclared.append(name)
    assert undeclared == [], f"declare a role in engram/roles.py for {undeclared}"
    assert roles.undeclared() == []
    assert len(roles.ROLE_TABLE) == count == len(roles.METHODS)


def test_the_table_holds_no_stale_declarations() -> None:
    for service in roles.SERVICES:
        declared = set(roles.DECLARED[service.full_name])
        assert declared == {m.name for m in service.methods}
    assert set(roles.DECLARED) == {s.full_name for s in roles.SERVICES}


def test_runtime_keeps_exactly_what_an_agent_runtime_needs() -> None:
    by_role = roles.methods_by_role()
    assert set(by_role[Role.RUNTIME]) == RUNTIME
    for name, role in roles.ROLE_TABLE.items():
        if _short(name) in INTERNAL:
            assert role is Role.SERVICE, name
        if _short(name) in OPERATOR_ONLY:
            assert role is Role.OPERATOR, name
    assert by_role[Role.ADMIN] == ["JournalService/Purge"]


def test_operators_doc_shows_the_code_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- roles:")
    start = text.index("\n", start) + 1
    end = text.index("<!-- /roles -->")
    assert text[start:end].strip() == roles.markdown_table(), (
        "docs/operators.md is out of date: paste `python -m engram.roles` between the markers"
    )


def test_tokens_accept_the_service_role(tmp_path: Path) -> None:
    (entry,) = parse_token_spec("svc:service:service-token-0123456789")
    assert entry.role is Role.SERVICE
    path = tmp_path / "tokens.yaml"
    path.write_text("- {name: svc, role: service, token: service-token-0123456789}\n")
    assert [e.role for e in load_token_file(path)] == [Role.SERVICE]
    assert Role.RUNTIME < Role.SERVICE < Role.OPERATOR < Role.ADMIN


def test_the_minted_internal_token_has_the_service_role() -> None:
    from engram.config import SERVICES, Settings
    from engram.server import _with_service_token, build_authenticator

    settings = Settings.load({"tokens": "rt:runtime:runtime-token-0123456789"}, env={})
    auth = build_authenticator(settings)
    minted = _with_service_token(settings, auth, SERVICES)
    assert minted.service_token
    assert auth.authenticate(f"Bearer {minted.service_token}").role is Role.SERVICE


@pytest.mark.parametrize(
    ("event_type", "provenance", "allowed_for_runtime"),
    [
        ("tool.call.completed", journal_pb2.PROVENANCE_USER_INPUT, True),
        ("gateway.response.verdict", journal_pb2.PROVENANCE_SYSTEM, False),
        ("gateway.context.assembled", journal_pb2.PROVENANCE_USER_INPUT, False),
        ("tool.call.completed", journal_pb2.PROVENANCE_SYSTEM, False),
    ],
)
def test_service_events_need_the_service_role(
    event_type: str, provenance: int, allowed_for_runtime: bool
) -> None:
    for role, allowed in (
        (Role.RUNTIME, allowed_for_runtime),
        (Role.SERVICE, True),
        (Role.OPERATOR, True),
    ):
        token = principal_var.set(Principal("p", role))
        try:
            if allowed:
                roles.authorize_event(event_type, provenance, "AppendEvent")
            else:
                with pytest.raises(errors.PermissionDenied):
                    roles.authorize_event(event_type, provenance, "AppendEvent")
        finally:
            principal_var.reset(token)


# -- deny by default, through a real server ---------------------------------


@pytest.fixture
def echo_server() -> Iterator[grpc.Channel]:
    def echo(request: bytes, context: grpc.ServicerContext) -> bytes:
        return request

    generic = grpc.method_handlers_generic_handler(
        "test.Echo",
        {
            "Declared": grpc.unary_unary_rpc_method_handler(echo),
            "Undeclared": grpc.unary_unary_rpc_method_handler(echo),
            "Streaming": grpc.stream_unary_rpc_method_handler(lambda it, ctx: b""),
        },
    )
    auth = TokenAuthenticator([TokenEntry("ad", Role.ADMIN, "admin-token-0123456789")])
    table = {"/test.Echo/Declared": Role.RUNTIME, "/test.Echo/Streaming": Role.RUNTIME}
    server = grpc.server(
        futures.ThreadPoolExecutor(2), interceptors=[EngramServerInterceptor(auth, table)]
    )
    server.add_generic_rpc_handlers((generic,))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield channel
    channel.close()
    server.stop(0)


def test_a_method_without_a_declared_role_is_refused(echo_server: grpc.Channel) -> None:
    admin = (("authorization", "Bearer admin-token-0123456789"),)
    assert echo_server.unary_unary("/test.Echo/Declared")(b"hi", metadata=admin) == b"hi"
    with pytest.raises(grpc.RpcError) as err:
        echo_server.unary_unary("/test.Echo/Undeclared")(b"hi", metadata=admin)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    status = rpc_status.from_call(err.value)
    assert status is not None
    info = error_details_pb2.ErrorInfo()
    assert any(d.Unpack(info) for d in status.details)
    assert info.reason == "METHOD_NOT_DECLARED"
    with pytest.raises(grpc.RpcError) as err:
        echo_server.stream_unary("/test.Echo/Streaming")(iter([b"x"]), metadata=admin)
    assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_the_real_table_refuses_unknown_methods() -> None:
    with pytest.raises(errors.PermissionDenied):
        roles.required_role("/engram.journal.v1.JournalService/NotARealMethod")
    assert roles.required_role("/engram.journal.v1.JournalService/Purge") is Role.ADMIN
