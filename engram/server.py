"""Server bootstrap: create_server(), health and reflection per service,
graceful shutdown, and the composition of one or all services in a process."""

from __future__ import annotations

import errno
import importlib
import logging
import secrets
import signal
import socket
import threading
from collections.abc import Callable, Sequence
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from engram import __version__, pagination
from engram.auth import Role, TokenAuthenticator, TokenEntry, load_token_file, parse_token_spec
from engram.config import SERVICES, Settings, split_address
from engram.db import migrations
from engram.db.embedded import EmbeddedPostgres, start_embedded
from engram.errors import FailedPrecondition, InvalidArgument
from engram.interceptors import EngramServerInterceptor
from engram.metrics import serve_metrics
from engram.roles import ROLE_TABLE

log = logging.getLogger("engram.server")


@dataclass
class ServiceBinding:
    """What a service package hands the bootstrap."""

    name: str
    service_full_name: str
    servicer: object
    add_to_server: Callable[[object, grpc.Server], None]
    start: Callable[[], None] = lambda: None
    # Called when shutdown begins, before in-flight calls drain: end
    # background workers and long-lived streams, which would otherwise hold
    # the drain open for the whole grace period. Keep what serving needs.
    drain: Callable[[], None] = lambda: None
    stop: Callable[[], None] = lambda: None


@dataclass(frozen=True)
class BuildContext:
    """Everything a service package needs to build itself."""

    settings: Settings
    database_url: str
    journal_addr: str
    learning_addr: str
    retrieval_addr: str


# Composition root: service name -> module exposing build(BuildContext) and,
# when it owns a schema, MIGRATIONS (a directory).
COMPONENT_MODULES: dict[str, str] = {
    "journal": "memory_service.component",
    "learning": "learning_service.component",
    "retrieval": "retrieval_service.component",
    "gateway": "gateway.component",
}


def check_bindable(name: str, address: str) -> None:
    """Refuse an address this host cannot listen on, as gRPC would, but with
    the reason: FailedPrecondition when it is in use, InvalidArgument else."""
    host, port = split_address(name, address)
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as exc:
        raise InvalidArgument(name, f"cannot resolve {host!r}: {exc.strerror}") from None
    errors: list[OSError] = []
    for family, kind, proto, _, sockaddr in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                # gRPC listens with SO_REUSEADDR: a port in TIME_WAIT is free to it.
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(sockaddr)
                sock.listen(1)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise FailedPrecondition(
                    f"{name}: {address} is already in use by another process",
                    reason="ADDRESS_IN_USE",
                    metadata={"field": name},
                ) from None
            errors.append(exc)
    if errors and len(errors) == len(infos):  # not one address could be bound
        raise InvalidArgument(name, f"cannot listen on {address}: {errors[0].strerror}") from None


def build_authenticator(settings: Settings) -> TokenAuthenticator:
    entries = []
    if settings.tokens_file:
        entries += load_token_file(Path(settings.tokens_file))
    if settings.tokens:
        entries += parse_token_spec(settings.tokens)
    authenticator = TokenAuthenticator(entries)
    if not authenticator.enabled and not settings.listen_is_loopback():
        raise InvalidArgument(
            "tokens",
            f"refusing to listen on non-loopback {settings.listen} without tokens; "
            "set ENGRAM_TOKENS or ENGRAM_TOKENS_FILE",
        )
    return authenticator


class EngramServer:
    """A grpc server with the engram interceptor, health per service and reflection.

    Bind first, then add bindings (an all-in-one process points its services
    at its own bound port), then start. Who may call which RPC comes from the
    one role table, engram.roles; page tokens are signed with the deployment's
    secret (engram.pagination.load_secret).
    """

    def __init__(self, settings: Settings, authenticator: TokenAuthenticator) -> None:
        secret = pagination.load_secret(settings.page_token_secret, settings.data_path)
        self.server = grpc.server(
            futures.ThreadPoolExecutor(max_workers=settings.max_workers, thread_name_prefix="rpc"),
            interceptors=[EngramServerInterceptor(authenticator, ROLE_TABLE, secret)],
            options=[
                ("grpc.max_receive_message_length", 64 * 1024 * 1024),
                ("grpc.max_send_message_length", 64 * 1024 * 1024),
                # Several serving processes (--processes) share one port;
                # otherwise a second server on a port in use is refused.
                ("grpc.so_reuseport", 1 if settings.processes > 1 else 0),
            ],
        )
        self.health = health.HealthServicer(experimental_non_blocking=True)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.server)
        self.bindings: list[ServiceBinding] = []
        self.port = 0

    def bind(self, listen: str) -> int:
        try:
            self.port = self.server.add_insecure_port(listen)
        except RuntimeError:  # grpc says only "Failed to bind": find out why
            self.port = 0
        if self.port == 0:
            check_bindable("listen", listen)  # raises when in use or not bindable
            raise InvalidArgument("listen", f"cannot bind {listen}")
        return self.port

    def add(self, binding: ServiceBinding) -> None:
        binding.add_to_server(binding.servicer, self.server)
        self.health.set(binding.service_full_name, health_pb2.HealthCheckResponse.NOT_SERVING)
        self.bindings.append(binding)

    def start(self) -> None:
        names = [b.service_full_name for b in self.bindings]
        names += [
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ]
        reflection.enable_server_reflection(names, self.server)
        self.server.start()
        for binding in self.bindings:
            binding.start()
            self.health.set(binding.service_full_name, health_pb2.HealthCheckResponse.SERVING)
        self.health.set("", health_pb2.HealthCheckResponse.SERVING)

    def stop(self, grace: float) -> None:
        # Health flips to NOT_SERVING first so balancers stop routing, then
        # in-flight calls drain for `grace` seconds before the server stops.
        self.health.enter_graceful_shutdown()
        for binding in self.bindings:
            try:
                binding.drain()
            except Exception:  # keep shutting down
                log.exception("draining %s failed", binding.name)
        self.server.stop(grace).wait()
        for binding in reversed(self.bindings):
            try:
                binding.stop()
            except Exception:
                log.exception("stopping %s failed", binding.name)


def create_server(
    settings: Settings, authenticator: TokenAuthenticator | None = None
) -> EngramServer:
    """The server factory; tokens come from settings unless given."""
    return EngramServer(settings, authenticator or build_authenticator(settings))


def _load_component(name: str) -> object:
    return importlib.import_module(COMPONENT_MODULES[name])


@dataclass
class Suite:
    """A running process: its server and the embedded database it started."""

    engram_server: EngramServer
    embedded: EmbeddedPostgres | None
    grace_seconds: float
    database_url: str
    _stopped: threading.Event = field(default_factory=threading.Event)

    @property
    def port(self) -> int:
        return self.engram_server.port

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def bindings(self) -> list[ServiceBinding]:
        return self.engram_server.bindings

    def stop(self, grace: float | None = None) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        log.info("shutting down: health NOT_SERVING, draining in-flight calls")
        self.engram_server.stop(self.grace_seconds if grace is None else grace)
        if self.embedded is not None:
            self.embedded.stop()
        log.info("stopped")


def migrate(database_url: str, services: Sequence[str]) -> dict[str, int]:
    """Apply every pending migration of the given services; returns counts."""
    applied: dict[str, int] = {}
    for name in services:
        module = _load_component(name)
        directory = getattr(module, "MIGRATIONS", None)
        if directory is not None:
            applied[name] = len(migrations.apply(database_url, name, Path(directory)))
    return applied


DATABASE_SERVICES = ("journal", "learning")
# Services that call other services over gRPC.
CALLERS = ("learning", "retrieval", "gateway")


def _with_service_token(
    settings: Settings, authenticator: TokenAuthenticator, services: Sequence[str]
) -> Settings:
    """Services in one process call each other through the same server, so
    with tokens on they need a token of their own. When every dependency is
    in this process, mint a random one that never leaves it; when some are
    elsewhere, the operator must supply ENGRAM_SERVICE_TOKEN."""
    if not authenticator.enabled or settings.service_token:
        return settings
    if not any(s in CALLERS for s in services):
        return settings
    remote = [
        a for a in (settings.journal_addr, settings.learning_addr, settings.retrieval_addr) if a
    ]
    if remote:
        raise InvalidArgument(
            "service_token",
            "tokens are enabled and this process calls services at "
            f"{', '.join(remote)}: set ENGRAM_SERVICE_TOKEN to a service token they accept",
        )
    token = secrets.token_urlsafe(32)
    authenticator.add(TokenEntry("internal", Role.SERVICE, token))
    return settings.with_(service_token=token)


def start_suite(settings: Settings, services: Sequence[str] = SERVICES) -> Suite:
    """Start the given services in this process and return once serving.

    Order: everything that can be refused without side effects first
    (settings, tokens, the listen address), then PostgreSQL (embedded or
    not), migrations and the services; a failure at any step undoes the
    earlier ones, the embedded PostgreSQL included."""
    unknown = sorted(set(services) - set(SERVICES))
    if unknown:
        raise InvalidArgument("service", f"unknown service {unknown[0]!r}; choose {SERVICES}")
    settings.validate()
    authenticator = build_authenticator(settings)
    settings = _with_service_token(settings, authenticator, services)
    engram_server = create_server(settings, authenticator)
    needs_db = any(s in DATABASE_SERVICES for s in services)
    suite = Suite(engram_server, None, settings.grace_seconds, settings.database_url)
    try:
        port = engram_server.bind(settings.listen)
        if needs_db and not suite.database_url:
            suite.embedded = start_embedded(settings.data_path)
            suite.database_url = suite.embedded.url
        database_url = suite.database_url
        if needs_db:
            migrate(database_url, [s for s in services if s in DATABASE_SERVICES])
        self_addr = f"127.0.0.1:{port}"
        context = BuildContext(
            settings=settings,
            database_url=database_url,
            journal_addr=settings.journal_addr or self_addr,
            learning_addr=settings.learning_addr or self_addr,
            retrieval_addr=settings.retrieval_addr or self_addr,
        )
        for name in services:
            module = _load_component(name)
            engram_server.add(module.build(context))  # type: ignore[attr-defined]
        engram_server.start()
        if settings.metrics_port >= 0:
            try:
                metrics_port = serve_metrics(settings.metrics_port, settings.metrics_host)
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise
                address = f"{settings.metrics_host}:{settings.metrics_port}"
                raise FailedPrecondition(
                    f"metrics_port: {address} is already in use by another process",
                    reason="ADDRESS_IN_USE",
                    metadata={"field": "metrics_port"},
                ) from None
            log.info("metrics on %s:%d/metrics", settings.metrics_host, metrics_port)
        host = settings.listen.rsplit(":", 1)[0]
        log.info(
            "engram %s serving %s on %s:%d",
            __version__,
            ",".join(services),
            host,
            port,
            extra={"port": port},
        )
    except BaseException:
        suite.stop(grace=0)
        raise
    return suite


def serve_forever(suite: Suite) -> None:
    """Block until SIGTERM/SIGINT, then shut down gracefully."""
    done = threading.Event()

    def _on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("received %s", signal.Signals(signum).name)
        done.set()

    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    done.wait()
    suite.stop()
