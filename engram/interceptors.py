"""The one server interceptor: request id, auth against the role table
(engram.roles, deny by default), edge validation of every request
(engram.edge), structured logs, metrics and the single table that maps domain
exceptions to gRPC status codes."""

from __future__ import annotations

import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import grpc
import psycopg
from google.protobuf import any_pb2
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from engram import edge, errors, pagination
from engram.auth import (
    ANONYMOUS_LOCAL,
    Principal,
    Role,
    TokenAuthenticator,
    authorize,
    principal_var,
)
from engram.channels import REQUEST_ID_HEADER, REQUEST_ID_MAX_CHARS
from engram.common.v1 import common_pb2
from engram.coverage import CoverageContractError
from engram.logs import method_var, request_id_var
from engram.metrics import RPC_LATENCY, RPC_REQUESTS, RPC_STREAM_DURATION
from engram.roles import METHODS, ROLE_TABLE, check_scope, required_role

log = logging.getLogger("engram.rpc")

ERROR_DOMAIN = "engram"

# The one place domain errors become status codes. Order matters: first
# isinstance match wins, so subclasses come before their bases.
EXCEPTION_TO_STATUS: tuple[tuple[type[BaseException], grpc.StatusCode], ...] = (
    (errors.InvalidArgument, grpc.StatusCode.INVALID_ARGUMENT),
    (errors.NotFound, grpc.StatusCode.NOT_FOUND),
    (errors.AlreadyExists, grpc.StatusCode.ALREADY_EXISTS),
    (errors.IllegalTransition, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.FailedPrecondition, grpc.StatusCode.FAILED_PRECONDITION),
    (errors.Conflict, grpc.StatusCode.ABORTED),
    (errors.Unauthenticated, grpc.StatusCode.UNAUTHENTICATED),
    (errors.PermissionDenied, grpc.StatusCode.PERMISSION_DENIED),
    (errors.Unavailable, grpc.StatusCode.UNAVAILABLE),
    (errors.OutOfRange, grpc.StatusCode.OUT_OF_RANGE),
    (errors.Internal, grpc.StatusCode.INTERNAL),
    (CoverageContractError, grpc.StatusCode.INTERNAL),
    (psycopg.OperationalError, grpc.StatusCode.UNAVAILABLE),
)

# Read backwards on the calling side (engram.downstream): a status code stands
# for the most general domain class mapped to it, the last one listed.
_STATUS_TO_EXCEPTION: dict[grpc.StatusCode, type[errors.EngramError]] = {
    code: exc_type
    for exc_type, code in EXCEPTION_TO_STATUS
    if issubclass(exc_type, errors.EngramError)
}
# Codes no domain error raises: the call got no answer (past its deadline,
# cancelled, shed, or the method is not served at that address), which is what
# Unavailable means to the caller. Any other unmapped code is a fault: Internal.
NO_ANSWER_CODES = frozenset(
    {
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.UNIMPLEMENTED,
    }
)

# Infrastructure services that stay reachable without a token so load
# balancers and grpcurl can probe and list.
UNAUTHENTICATED_PREFIXES = ("/grpc.health.v1.", "/grpc.reflection.")


def status_for(exc: BaseException) -> tuple[grpc.StatusCode, str, str, dict[str, str]]:
    """(code, reason, message, metadata) for an exception."""
    for exc_type, code in EXCEPTION_TO_STATUS:
        if isinstance(exc, exc_type):
            if isinstance(exc, errors.EngramError):
                return code, exc.reason, exc.message, exc.metadata
            if isinstance(exc, CoverageContractError):
                return code, "COVERAGE_CONTRACT", str(exc), {}
            return code, "DATABASE_UNAVAILABLE", "database unavailable", {}
    return grpc.StatusCode.INTERNAL, "INTERNAL", "internal error", {}


def exception_for(code: grpc.StatusCode) -> type[errors.EngramError]:
    """The domain exception class a status code from another service stands for."""
    found = _STATUS_TO_EXCEPTION.get(code)
    if found is not None:
        return found
    return errors.Unavailable if code in NO_ANSWER_CODES else errors.Internal


class _Status(grpc.Status):
    def __init__(
        self, code: grpc.StatusCode, details: str, trailing_metadata: tuple[tuple[str, Any], ...]
    ) -> None:
        self.code = code
        self.details = details
        self.trailing_metadata = trailing_metadata


def _rich_status(exc: BaseException, request_id: str) -> grpc.Status:
    code, reason, message, metadata = status_for(exc)
    details: list[any_pb2.Any] = []
    info = error_details_pb2.ErrorInfo(
        reason=reason, domain=ERROR_DOMAIN, metadata={**metadata, "request_id": request_id}
    )
    packed = any_pb2.Any()
    packed.Pack(info)
    details.append(packed)
    if isinstance(exc, errors.InvalidArgument):
        violation = error_details_pb2.BadRequest.FieldViolation(
            field=exc.field, description=exc.description
        )
        bad_request = any_pb2.Any()
        bad_request.Pack(error_details_pb2.BadRequest(field_violations=[violation]))
        details.append(bad_request)
    elif isinstance(exc, errors.IllegalTransition):
        detail = exc.detail
        extra = any_pb2.Any()
        extra.Pack(
            common_pb2.IllegalTransition(
                entity=detail.entity,
                entity_id=detail.entity_id,
                current_state=detail.current_state,
                requested_state=detail.requested_state,
                allowed_states=list(detail.allowed_states),
            )
        )
        details.append(extra)
    elif isinstance(exc, errors.Conflict):
        extra = any_pb2.Any()
        extra.Pack(
            common_pb2.ConflictDetail(
                existing_id=exc.info.existing_id,
                subject_key=exc.info.subject_key,
                resolution=exc.info.resolution,
            )
        )
        details.append(extra)
    status = status_pb2.Status(code=getattr(code_pb2, code.name), message=message, details=details)
    rich = rpc_status.to_status(status)
    # abort_with_status replaces the trailers set earlier: the call id goes again.
    trailers = (*tuple(rich.trailing_metadata or ()), (REQUEST_ID_HEADER, request_id))
    return _Status(rich.code, rich.details, trailers)


def _request_id(metadata: Mapping[str, Any]) -> str:
    return str(metadata.get(REQUEST_ID_HEADER) or uuid.uuid4())[:REQUEST_ID_MAX_CHARS]


def _reset(tokens: list[Any]) -> None:
    for token in reversed(tokens):
        # A stream may finish in another context; nothing to restore then.
        with contextlib.suppress(ValueError):
            token.var.reset(token)


class _Malformed:
    """What the request deserializer hands on for bytes that do not parse, so
    the call is answered INVALID_ARGUMENT instead of grpcio's INTERNAL."""

    def __init__(self, error: errors.InvalidArgument) -> None:
        self.error = error


def _safe_deserializer(
    deserialize: Callable[[bytes], Any], descriptor: Descriptor | None
) -> Callable[[bytes], Any]:
    def wrapper(data: bytes) -> Any:
        try:
            return deserialize(data)
        except Exception:
            if descriptor is None:
                return _Malformed(
                    errors.InvalidArgument("request", "is malformed", reason="MALFORMED_REQUEST")
                )
            return _Malformed(edge.malformed(descriptor, data))

    return wrapper


def _admit(request: Any, method: str) -> Any:
    """The request if it passes the edge rules and the token's scope; raises
    InvalidArgument or PermissionDenied otherwise."""
    if isinstance(request, _Malformed):
        raise request.error
    if isinstance(request, Message):
        edge.check(request)
    check_scope(principal_var.get() or ANONYMOUS_LOCAL, method, request)
    return request


class EngramServerInterceptor(grpc.ServerInterceptor):  # type: ignore[type-arg]
    def __init__(
        self,
        authenticator: TokenAuthenticator,
        method_roles: Mapping[str, Role] = ROLE_TABLE,
        page_token_secret: bytes | None = None,
    ) -> None:
        self._auth = authenticator
        self._roles = method_roles
        self._page_secret = page_token_secret

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Any],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> Any:
        handler = continuation(handler_call_details)
        if handler is None:
            return None
        method: str = handler_call_details.method
        if method.startswith(UNAUTHENTICATED_PREFIXES):
            return handler
        metadata = {k: v for k, v in (handler_call_details.invocation_metadata or ())}
        descriptor = METHODS.get(method)
        deserializer = handler.request_deserializer
        if deserializer is not None:
            deserializer = _safe_deserializer(
                deserializer, descriptor.input_type if descriptor is not None else None
            )
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(handler.unary_unary, method, metadata),
                request_deserializer=deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(handler.unary_stream, method, metadata),
                request_deserializer=deserializer,
                response_serializer=handler.response_serializer,
            )
        # Client-streaming RPCs are not part of the API: refuse rather than
        # serve them without authorization and validation.
        refuse = self._refusal(method, _request_id(metadata))
        if handler.stream_unary:
            return grpc.stream_unary_rpc_method_handler(
                refuse,
                request_deserializer=deserializer,
                response_serializer=handler.response_serializer,
            )
        return grpc.stream_stream_rpc_method_handler(
            refuse,
            request_deserializer=deserializer,
            response_serializer=handler.response_serializer,
        )

    def _refusal(self, method: str, request_id: str) -> Callable[[Any, grpc.ServicerContext], Any]:
        def refuse(_requests: Any, context: grpc.ServicerContext) -> Any:
            exc = errors.PermissionDenied(
                f"{method}: client-streaming RPCs are not served", reason="METHOD_NOT_DECLARED"
            )
            self._fail(exc, method, request_id, context)

        return refuse

    def _begin(
        self,
        method: str,
        metadata: Mapping[str, Any],
        context: grpc.ServicerContext,
        request_id: str,
        tokens: list[Any],
    ) -> None:
        tokens += [request_id_var.set(request_id), method_var.set(method)]
        if self._page_secret is not None:
            tokens.append(pagination.secret_var.set(self._page_secret))
        context.set_trailing_metadata(((REQUEST_ID_HEADER, request_id),))
        required = required_role(method, self._roles)  # deny by default
        principal: Principal = self._auth.authenticate(metadata.get("authorization"))
        tokens.append(principal_var.set(principal))
        authorize(principal, required, method)

    def _fail(
        self, exc: BaseException, method: str, request_id: str, context: grpc.ServicerContext
    ) -> None:
        code, reason, message, _ = status_for(exc)
        RPC_REQUESTS.labels(method=method, code=code.name).inc()
        if code is grpc.StatusCode.INTERNAL:
            log.exception("rpc failed", extra={"code": code.name, "reason": reason})
        else:
            log.info("rpc error", extra={"code": code.name, "reason": reason, "detail": message})
        context.abort_with_status(_rich_status(exc, request_id))

    def _wrap_unary(
        self,
        behavior: Callable[[Any, grpc.ServicerContext], Any],
        method: str,
        metadata: Mapping[str, Any],
    ) -> Callable[[Any, grpc.ServicerContext], Any]:
        def wrapper(request: Any, context: grpc.ServicerContext) -> Any:
            started = time.perf_counter()
            request_id = _request_id(metadata)
            tokens: list[Any] = []
            try:
                self._begin(method, metadata, context, request_id, tokens)
                response = behavior(_admit(request, method), context)
                RPC_REQUESTS.labels(method=method, code="OK").inc()
                return response
            except Exception as exc:
                self._fail(exc, method, request_id, context)
                return None  # unreachable: abort raises
            finally:
                elapsed = time.perf_counter() - started
                RPC_LATENCY.labels(method=method).observe(elapsed)
                log.debug("rpc done", extra={"ms": round(elapsed * 1000, 3)})
                _reset(tokens)

        return wrapper

    def _wrap_stream(
        self,
        behavior: Callable[[Any, grpc.ServicerContext], Iterator[Any]],
        method: str,
        metadata: Mapping[str, Any],
    ) -> Callable[[Any, grpc.ServicerContext], Iterator[Any]]:
        def wrapper(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            started = time.perf_counter()
            request_id = _request_id(metadata)
            tokens: list[Any] = []
            try:
                self._begin(method, metadata, context, request_id, tokens)
                yield from behavior(_admit(request, method), context)
                RPC_REQUESTS.labels(method=method, code="OK").inc()
            except Exception as exc:
                self._fail(exc, method, request_id, context)
            finally:
                elapsed = time.perf_counter() - started
                RPC_STREAM_DURATION.labels(method=method).observe(elapsed)
                log.debug("stream done", extra={"ms": round(elapsed * 1000, 3)})
                _reset(tokens)

        return wrapper
