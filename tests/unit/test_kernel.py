"""The shared kernel without a database: settings, tokens, page tokens,
validation and the one exception-to-status table."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram import errors
from engram.auth import Role, TokenAuthenticator, TokenEntry, authorize, parse_token_spec
from engram.common.v1 import common_pb2
from engram.config import Settings
from engram.interceptors import EngramServerInterceptor
from engram.journal.v1 import journal_pb2 as pb
from engram.pagination import decode, encode
from engram.validation import require_id, require_request_id, require_text


def test_settings_precedence_flag_over_env_over_default():
    env = {
        "ENGRAM_LISTEN": "0.0.0.0:1",
        "ENGRAM_GRACE_SECONDS": "3.5",
        "ENGRAM_INDEX_SHADOW_MODE": "yes",
    }
    assert Settings.load({}, env=env).listen == "0.0.0.0:1"
    assert Settings.load({"listen": "127.0.0.1:2"}, env=env).listen == "127.0.0.1:2"
    loaded = Settings.load({}, env=env)
    assert loaded.grace_seconds == 3.5 and loaded.index_shadow_mode is True
    assert Settings.load({}, env={}).listen == "127.0.0.1:50051"
    with pytest.raises(errors.InvalidArgument, match="max_workers"):
        Settings.load({}, env={"ENGRAM_MAX_WORKERS": "many"})


@pytest.mark.parametrize(
    ("listen", "loopback"),
    [
        ("127.0.0.1:50051", True),
        ("localhost:1", True),
        ("[::1]:5", True),
        ("0.0.0.0:50051", False),
        ("10.0.0.5:1", False),
        ("[::]:1", False),
    ],
)
def test_loopback_detection(listen, loopback):
    assert Settings(listen=listen).listen_is_loopback() is loopback


def test_tokens_roles_and_hierarchy():
    auth = TokenAuthenticator(parse_token_spec("ops:operator:operator-secret-123456"))
    principal = auth.authenticate("Bearer operator-secret-123456")
    assert principal.role is Role.OPERATOR
    authorize(principal, Role.RUNTIME, "m")
    with pytest.raises(errors.PermissionDenied):
        authorize(principal, Role.ADMIN, "m")
    for header in (None, "", "Bearer", "Basic operator-secret-123456", "Bearer nope"):
        with pytest.raises(errors.Unauthenticated):
            auth.authenticate(header)
    with pytest.raises(errors.InvalidArgument):
        TokenAuthenticator([TokenEntry("x", Role.ADMIN, "short")])
    with pytest.raises(errors.InvalidArgument, match="role"):
        parse_token_spec("x:superuser:abcdefghijklmnopq")


def test_page_tokens_are_bound_to_their_query():
    token = encode({"q": 1}, {"after": 42})
    assert decode(token, {"q": 1}, {"after": int}) == {"after": 42}
    assert decode("", {"q": 1}, {"after": int}) == {}
    with pytest.raises(errors.InvalidArgument, match="different query"):
        decode(token, {"q": 2}, {"after": int})
    with pytest.raises(errors.InvalidArgument, match="page_token"):
        decode(token[:-2] + "AA", {"q": 1}, {"after": int})


def test_validation_names_fields():
    assert require_id("subject", "alice@example.org") == "alice@example.org"
    for bad in ("", " lead", "a" * 129, "semi;colon"):
        with pytest.raises(errors.InvalidArgument) as err:
            require_id("subject", bad)
        assert err.value.field == "subject"
    assert require_request_id("request_id", str(uuid.UUID(int=1))) == uuid.UUID(int=1)
    with pytest.raises(errors.InvalidArgument):
        require_text("user_text", "x" * 11, max_chars=10)
    with pytest.raises(errors.InvalidArgument):
        require_text("user_text", "nul\x00", max_chars=10)


# -- the exception table, through a real server -----------------------------

RAISED: dict[str, BaseException] = {
    "invalid": errors.InvalidArgument("subject", "must not be empty"),
    "missing": errors.NotFound("no such thing"),
    "exists": errors.AlreadyExists("dup"),
    "illegal": errors.IllegalTransition(
        errors.TransitionDetail("skill", "s1", "draft", "active", ("verified",))
    ),
    "conflict": errors.Conflict(
        errors.ConflictInfo("l-1", "codename", "supersede it"), "conflicts"
    ),
    "down": errors.Unavailable("db down"),
    "bug": RuntimeError("secret internals"),
}
EXPECTED = {
    "invalid": grpc.StatusCode.INVALID_ARGUMENT,
    "missing": grpc.StatusCode.NOT_FOUND,
    "exists": grpc.StatusCode.ALREADY_EXISTS,
    "illegal": grpc.StatusCode.FAILED_PRECONDITION,
    "conflict": grpc.StatusCode.ABORTED,
    "down": grpc.StatusCode.UNAVAILABLE,
    "bug": grpc.StatusCode.INTERNAL,
}


@pytest.fixture
def raising_server() -> Iterator[grpc.Channel]:
    def handler(request: bytes, context: grpc.ServicerContext) -> bytes:
        raise RAISED[request.decode()]

    generic = grpc.method_handlers_generic_handler(
        "test.Raiser", {"Raise": grpc.unary_unary_rpc_method_handler(handler)}
    )
    server = grpc.server(
        futures.ThreadPoolExecutor(2),
        interceptors=[
            EngramServerInterceptor(TokenAuthenticator([]), {"/test.Raiser/Raise": Role.RUNTIME})
        ],
    )
    server.add_generic_rpc_handlers((generic,))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    yield channel
    channel.close()
    server.stop(0)


@pytest.mark.parametrize("name", sorted(RAISED))
def test_exception_maps_to_code_with_one_error_info(raising_server, name):
    call = raising_server.unary_unary("/test.Raiser/Raise")
    with pytest.raises(grpc.RpcError) as err:
        call(name.encode())
    assert err.value.code() == EXPECTED[name]
    status = rpc_status.from_call(err.value)
    assert status is not None
    infos = [d for d in status.details if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR)]
    assert len(infos) == 1
    info = error_details_pb2.ErrorInfo()
    infos[0].Unpack(info)
    assert info.domain == "engram" and info.reason.isupper()
    if name == "bug":
        assert "secret internals" not in (err.value.details() or "")
    if name == "illegal":
        transition = common_pb2.IllegalTransition()
        assert any(d.Unpack(transition) for d in status.details)
        assert list(transition.allowed_states) == ["verified"]
    if name == "invalid":
        assert info.metadata["field"] == "subject"
        bad_request = error_details_pb2.BadRequest()
        assert any(d.Unpack(bad_request) for d in status.details)
        violation = bad_request.field_violations[0]
        assert (violation.field, violation.description) == ("subject", "must not be empty")


def test_repetition_loop_detector():
    from memory_service.journal import is_repetition_loop

    assert is_repetition_loop("\n".join(["same line"] * 10))
    assert is_repetition_loop("Again. " * 20)
    assert not is_repetition_loop("\n".join(f"step {i}" for i in range(30)))
    assert not is_repetition_loop("ok\nok\nok")


def test_receipt_request_shape_is_stable():
    # The canonical content form is part of the contract (clients compute the
    # expected hash themselves).
    from memory_service.journal import canonical_content

    assert canonical_content("a", "b") == "User: a\nAssistant: b"
    assert pb.CommitTurnRequest.DESCRIPTOR.fields_by_name["expected_content_sha256"]


def test_readme_configuration_table_names_real_settings():
    import re
    from dataclasses import fields
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    table = readme[readme.index("## Configuration") :]
    documented = set(re.findall(r"ENGRAM_([A-Z_]+)", table)) - {"_ADDR"}
    known = {f.name.upper() for f in fields(Settings)}
    documented = {d for d in documented if not d.endswith("_")}
    assert documented - known == set()
    flags = set(re.findall(r"`--([a-z-]+)`", table))
    assert {f.replace("-", "_") for f in flags} <= {f.name for f in fields(Settings)}
