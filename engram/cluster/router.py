"""One front address for a split deployment: a gRPC router that forwards each
call by its service path (``/engram.journal.v1.JournalService/...``) to that
service's backends, balanced round-robin (engram.channels address lists).

It forwards bytes: requests and responses are never deserialised, so it needs
no knowledge of a message and adds no validation of its own. The caller's
metadata (authorization, x-request-id, ...) goes to the backend, and the
backend's trailing metadata and status, the ``grpc-status-details-bin``
carrying the ErrorInfo included, come back unchanged; the backends
authenticate and authorise every call. Unary and server-streaming RPCs are
routed (every engram RPC is one of the two).

Its own ``grpc.health.v1`` reports each routed service SERVING while at
least one of its backends says SERVING. In production a gRPC-aware proxy
(Envoy, a service mesh, a cloud load balancer with HTTP/2) does this job;
this router is what ``engram cluster`` runs on one host.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Mapping, Sequence
from concurrent import futures
from dataclasses import dataclass
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from engram.channels import open_plain_channel, split_address_list
from engram.gateway.v1 import gateway_pb2
from engram.journal.v1 import journal_pb2
from engram.learning.v1 import learning_pb2
from engram.retrieval.v1 import retrieval_pb2

log = logging.getLogger("engram.cluster.router")

# Routed service -> its full gRPC name.
ROUTED_SERVICES: dict[str, str] = {
    "journal": journal_pb2.DESCRIPTOR.services_by_name["JournalService"].full_name,
    "learning": learning_pb2.DESCRIPTOR.services_by_name["LearningService"].full_name,
    "retrieval": retrieval_pb2.DESCRIPTOR.services_by_name["RetrievalService"].full_name,
    "gateway": gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"].full_name,
}
HEALTH_INTERVAL_SECONDS = 1.0
HEALTH_TIMEOUT_SECONDS = 1.0
# Metadata gRPC itself sets on a call (the deadline travels as the timeout).
_TRANSPORT_KEYS = ("user-agent", "te", "content-type")

Metadata = tuple[tuple[str, str | bytes], ...]


@dataclass(frozen=True)
class Route:
    service: str  # key of ROUTED_SERVICES
    server_streaming: bool


def _routes() -> dict[str, Route]:
    """Every routable method path (unary or server-streaming)."""
    files = (journal_pb2, learning_pb2, retrieval_pb2, gateway_pb2)
    full_names = {v: k for k, v in ROUTED_SERVICES.items()}
    routes: dict[str, Route] = {}
    for module in files:
        for service in module.DESCRIPTOR.services_by_name.values():
            if service.full_name not in full_names:
                continue
            for method in service.methods:
                if method.client_streaming:
                    continue
                routes[f"/{service.full_name}/{method.name}"] = Route(
                    full_names[service.full_name], method.server_streaming
                )
    return routes


def forwarded(metadata: Sequence[Any] | None) -> Metadata:
    """The caller's metadata as the backend should see it: all of it but what
    gRPC sets per hop (pseudo-headers, grpc-*, user-agent)."""
    return tuple(
        (str(key), value)
        for key, value in metadata or ()
        if not key.startswith((":", "grpc-")) and key not in _TRANSPORT_KEYS
    )


def _returned(metadata: Sequence[Any] | None) -> Metadata:
    """A backend's trailing metadata to hand back: the status details stay."""
    return tuple(
        (str(key), value)
        for key, value in metadata or ()
        if key == "grpc-status-details-bin" or not key.startswith((":", "grpc-"))
    )


@dataclass(frozen=True)
class _Status(grpc.Status):
    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, Any], ...]


def _relay(error: grpc.RpcError, context: grpc.ServicerContext) -> None:
    """End the call with the backend's status, details and trailers."""
    code = error.code() if callable(getattr(error, "code", None)) else None
    details = error.details() if callable(getattr(error, "details", None)) else ""
    trailers = (
        error.trailing_metadata() if callable(getattr(error, "trailing_metadata", None)) else ()
    )
    context.abort_with_status(
        _Status(
            code if isinstance(code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN,
            str(details or ""),
            _returned(trailers),
        )
    )


class Router(grpc.GenericRpcHandler):  # type: ignore[type-arg]
    """Forwards every routed method to one balanced channel per service."""

    def __init__(self, backends: Mapping[str, str]) -> None:
        unknown = sorted(set(backends) - set(ROUTED_SERVICES))
        if unknown:
            raise ValueError(f"unknown routed service {unknown[0]!r}")
        self.backends = dict(backends)
        self._channels = {
            name: open_plain_channel(address, f"{name}_addr") for name, address in backends.items()
        }
        self._routes = {k: r for k, r in _routes().items() if r.service in self._channels}

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> Any:
        method = str(handler_call_details.method)
        route = self._routes.get(method)
        if route is None:
            return None  # the next handler (health, reflection), else UNIMPLEMENTED
        channel = self._channels[route.service]
        if route.server_streaming:
            streaming = channel.unary_stream(
                method, request_serializer=None, response_deserializer=None
            )
            return grpc.unary_stream_rpc_method_handler(
                lambda request, context: self._stream(streaming, request, context)
            )
        unary = channel.unary_unary(method, request_serializer=None, response_deserializer=None)
        return grpc.unary_unary_rpc_method_handler(
            lambda request, context: self._unary(unary, request, context)
        )

    @staticmethod
    def _unary(multicallable: Any, request: bytes, context: grpc.ServicerContext) -> bytes:
        try:
            response, call = multicallable.with_call(
                request,
                timeout=context.time_remaining(),
                metadata=forwarded(context.invocation_metadata()),
            )
        except grpc.RpcError as error:
            _relay(error, context)
            raise  # abort_with_status raised already; for the type checker
        context.send_initial_metadata(forwarded(call.initial_metadata()))
        context.set_trailing_metadata(_returned(call.trailing_metadata()))
        return bytes(response)

    @staticmethod
    def _stream(
        multicallable: Any, request: bytes, context: grpc.ServicerContext
    ) -> Iterator[bytes]:
        call: Any = multicallable(
            request,
            timeout=context.time_remaining(),
            metadata=forwarded(context.invocation_metadata()),
        )
        context.add_callback(call.cancel)  # the caller went away: so does the backend call
        try:
            context.send_initial_metadata(forwarded(call.initial_metadata()))
            yield from call
        except grpc.RpcError as error:
            _relay(error, context)
            return
        context.set_trailing_metadata(_returned(call.trailing_metadata()))

    def close(self) -> None:
        for channel in self._channels.values():
            channel.close()


class BackendHealth:
    """Polls every backend of every routed service and reports, per service,
    SERVING while at least one backend serves it."""

    def __init__(self, servicer: Any, backends: Mapping[str, str]) -> None:
        self._servicer = servicer
        self._targets = {
            name: [open_plain_channel(one) for one in split_address_list(address, f"{name}_addr")]
            for name, address in backends.items()
        }
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="router-health", daemon=True)

    def check_once(self) -> dict[str, bool]:
        states: dict[str, bool] = {}
        for name, channels in self._targets.items():
            full_name = ROUTED_SERVICES[name]
            states[name] = any(_serving(channel, full_name) for channel in channels)
            self._servicer.set(
                full_name,
                health_pb2.HealthCheckResponse.SERVING
                if states[name]
                else health_pb2.HealthCheckResponse.NOT_SERVING,
            )
        return states

    def start(self) -> None:
        self.check_once()
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(HEALTH_INTERVAL_SECONDS):
            try:
                self.check_once()
            except Exception:  # keep polling; one failed round changes nothing
                log.exception("backend health check failed")

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(HEALTH_INTERVAL_SECONDS + HEALTH_TIMEOUT_SECONDS + 1)
        for channels in self._targets.values():
            for channel in channels:
                channel.close()


def _serving(channel: grpc.Channel, service: str) -> bool:
    try:
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=service), timeout=HEALTH_TIMEOUT_SECONDS
        )
    except grpc.RpcError:
        return False
    return bool(answer.status == health_pb2.HealthCheckResponse.SERVING)


@dataclass
class RunningRouter:
    server: grpc.Server
    port: int
    router: Router
    health: BackendHealth
    servicer: Any

    def stop(self, grace: float) -> None:
        self.servicer.enter_graceful_shutdown()
        self.health.stop()
        self.server.stop(grace).wait()
        self.router.close()


def start_router(listen: str, backends: Mapping[str, str], max_workers: int = 64) -> RunningRouter:
    """Serve the router on ``listen`` (port 0: any) in front of ``backends``
    (routed service -> one address or a comma-separated list)."""
    router = Router(backends)
    servicer = health.HealthServicer(experimental_non_blocking=True)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="route"),
        handlers=[router],
        options=[
            ("grpc.max_receive_message_length", 64 * 1024 * 1024),
            ("grpc.max_send_message_length", 64 * 1024 * 1024),
        ],
    )
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    names = [ROUTED_SERVICES[name] for name in backends]
    names += [health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME]
    reflection.enable_server_reflection(names, server)
    port = server.add_insecure_port(listen)
    if port == 0:
        router.close()
        from engram.server import check_bindable

        check_bindable("listen", listen)
        raise OSError(f"cannot bind {listen}")
    backend_health = BackendHealth(servicer, backends)
    server.start()
    backend_health.start()
    servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    return RunningRouter(server, port, router, backend_health, servicer)
