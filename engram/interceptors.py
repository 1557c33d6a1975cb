"""The one server interceptor: request id, auth, structured logs, metrics and
the single table that maps domain exceptions to gRPC status codes."""

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
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from engram import errors
from engram.auth import Principal, Role, TokenAuthenticator, authorize, principal_var
from engram.common.v1 import common_pb2
from engram.coverage import CoverageContractError
from engram.logs import method_var, request_id_var
from engram.metrics import RPC_LATENCY, RPC_REQUESTS

log = logging.getLogger("engram.rpc")

ERROR_DOMAIN = "engram"
REQUEST_ID_HEADER = "x-request-id"

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


def _rich_status(exc: BaseException, request_id: str) -> grpc.Status:
    code, reason, message, metadata = status_for(exc)
    details: list[any_pb2.Any] = []
    info = error_details_pb2.ErrorInfo(
        reason=reason, domain=ERROR_DOMAIN, metadata={**metadata, "request_id": request_id}
    )
    packed = any_pb2.Any()
    packed.Pack(info)
    details.append(packed)
    if isinstance(exc, errors.IllegalTransition):
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
    return rpc_status.to_status(status)


def _reset(tokens: list[Any]) -> None:
    for token in reversed(tokens):
        # A stream may finish in another context; nothing to restore then.
        with contextlib.suppress(ValueError):
            token.var.reset(token)


class EngramServerInterceptor(grpc.ServerInterceptor):  # type: ignore[type-arg]
    def __init__(
        self,
        authenticator: TokenAuthenticator,
        method_roles: Mapping[str, Role],
        default_role: Role = Role.RUNTIME,
    ) -> None:
        self._auth = authenticator
        # Kept by reference: the server adds roles as services are registered.
        self._roles = method_roles
        self._default_role = default_role

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
        required = self._roles.get(method, self._default_role)
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(handler.unary_unary, method, metadata, required),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(handler.unary_stream, method, metadata, required),
                request_deserializer=handler.request_deserializer,
                response_serializer=handler.response_serializer,
            )
        return handler

    def _begin(
        self,
        method: str,
        metadata: Mapping[str, Any],
        required: Role,
        context: grpc.ServicerContext,
    ) -> tuple[str, list[Any]]:
        request_id = str(metadata.get(REQUEST_ID_HEADER) or uuid.uuid4())
        tokens: list[Any] = [request_id_var.set(request_id), method_var.set(method)]
        context.set_trailing_metadata(((REQUEST_ID_HEADER, request_id),))
        principal: Principal = self._auth.authenticate(metadata.get("authorization"))
        tokens.append(principal_var.set(principal))
        authorize(principal, required, method)
        return request_id, tokens

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
        required: Role,
    ) -> Callable[[Any, grpc.ServicerContext], Any]:
        def wrapper(request: Any, context: grpc.ServicerContext) -> Any:
            started = time.perf_counter()
            request_id = ""
            tokens: list[Any] = []
            try:
                request_id, tokens = self._begin(method, metadata, required, context)
                response = behavior(request, context)
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
        required: Role,
    ) -> Callable[[Any, grpc.ServicerContext], Iterator[Any]]:
        def wrapper(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
            started = time.perf_counter()
            request_id = ""
            tokens: list[Any] = []
            try:
                request_id, tokens = self._begin(method, metadata, required, context)
                yield from behavior(request, context)
                RPC_REQUESTS.labels(method=method, code="OK").inc()
            except Exception as exc:
                self._fail(exc, method, request_id, context)
            finally:
                RPC_LATENCY.labels(method=method).observe(time.perf_counter() - started)
                _reset(tokens)

        return wrapper
