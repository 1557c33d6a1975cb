"""Client channels between services (and from the CLI): the bearer token, the
call id (x-request-id) and the one retry policy ride on every call.

The retry policy is gRPC's own (a service config on the channel): a call the
server answered UNAVAILABLE, or that never reached it, is tried again up to
RETRY_ATTEMPTS times with exponential back-off inside the call's deadline.
That is safe for every engram RPC: reads are side-effect free, and every write
but the policy setters (which set a value, idempotent by nature) carries an
AIP-155 request id that makes a replay return the first answer.

An address is one ``host:port`` or a comma-separated list of IP literals
(``127.0.0.1:50054,127.0.0.1:50055``, or ``[::1]:50054,...``): a list becomes
one channel balancing round-robin over every address that answers, so calls
go to the replicas that are up and a retried call moves to another one.
"""

from __future__ import annotations

import ipaddress
import json
import uuid
from collections.abc import Callable
from typing import Any

import grpc

from engram.config import split_address
from engram.errors import InvalidArgument
from engram.logs import request_id_var

REQUEST_ID_HEADER = "x-request-id"
# Longest id accepted from a caller (longer ones are cut).
REQUEST_ID_MAX_CHARS = 128

RETRY_ATTEMPTS = 3
SERVICE_CONFIG: dict[str, Any] = {
    "methodConfig": [
        {
            # An empty name matches every method of every service on the channel.
            "name": [{}],
            "retryPolicy": {
                "maxAttempts": RETRY_ATTEMPTS,
                "initialBackoff": "0.1s",
                "maxBackoff": "1s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        }
    ],
    # Stop retrying when most calls fail (an outage), so retries do not pile on.
    "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1},
}
# A channel to an address list spreads calls over every replica that is up.
BALANCED_SERVICE_CONFIG: dict[str, Any] = {
    **SERVICE_CONFIG,
    "loadBalancingConfig": [{"round_robin": {}}],
}

BASE_CHANNEL_OPTIONS: tuple[tuple[str, Any], ...] = (
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    ("grpc.max_send_message_length", 64 * 1024 * 1024),
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.enable_retries", 1),
)
DEFAULT_CHANNEL_OPTIONS = (
    *BASE_CHANNEL_OPTIONS,
    ("grpc.service_config", json.dumps(SERVICE_CONFIG)),
)
BALANCED_CHANNEL_OPTIONS = (
    *BASE_CHANNEL_OPTIONS,
    ("grpc.service_config", json.dumps(BALANCED_SERVICE_CONFIG)),
    # A replica that went away is retried soon, not after gRPC's default
    # back-off (up to two minutes), so it takes its share again once back.
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.max_reconnect_backoff_ms", 2_000),
)


def split_address_list(address: str, setting: str = "address") -> list[str]:
    """The addresses of a comma-separated list (one element: the address as
    given). A list of more than one must be IP literals with a port, all of
    one family; InvalidArgument naming ``setting`` otherwise."""
    parts = [part.strip() for part in address.split(",")]
    if len(parts) == 1:
        return parts
    families = set()
    for part in parts:
        try:
            host, port = split_address(setting, part)
        except InvalidArgument:
            host, port = "", 0
        if not host or port == 0:
            raise InvalidArgument(setting, f"{part!r} in {address!r} is not host:port")
        bracketed = part.startswith("[")
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            raise InvalidArgument(
                setting,
                f"{part!r} in {address!r}: a list of addresses takes IP literals "
                "(a name that resolves to several addresses balances on its own)",
            ) from None
        if ip.version == 6 and not bracketed:
            raise InvalidArgument(setting, f"{part!r} in {address!r}: write IPv6 as [addr]:port")
        families.add(ip.version)
    if len(families) > 1:
        raise InvalidArgument(setting, f"{address!r} mixes IPv4 and IPv6 addresses")
    return parts


def channel_target(
    address: str, setting: str = "address"
) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """The gRPC target and channel options for ``address`` (one, or a list
    balanced round-robin: ``ipv4:a:p,b:q``)."""
    parts = split_address_list(address, setting)
    if len(parts) == 1:
        return parts[0], DEFAULT_CHANNEL_OPTIONS
    scheme = "ipv6" if parts[0].startswith("[") else "ipv4"
    return f"{scheme}:{','.join(parts)}", BALANCED_CHANNEL_OPTIONS


def new_request_id() -> str:
    return str(uuid.uuid4())


def current_request_id() -> str:
    """The id of the call being served (bound by the server interceptor or the
    CLI), or a new one for work no call started (background workers)."""
    return request_id_var.get() or new_request_id()


class _Details(grpc.ClientCallDetails):
    def __init__(
        self,
        method: str,
        timeout: float | None,
        metadata: Any,
        credentials: Any,
        wait_for_ready: bool | None,
        compression: Any,
    ) -> None:
        self.method = method
        self.timeout = timeout
        self.metadata = metadata
        self.credentials = credentials
        self.wait_for_ready = wait_for_ready
        self.compression = compression


class _MetadataInterceptor(
    grpc.UnaryUnaryClientInterceptor,  # type: ignore[type-arg]
    grpc.UnaryStreamClientInterceptor,  # type: ignore[type-arg]
):
    """Adds the token and, unless the caller set one, the call id."""

    def __init__(self, token: str) -> None:
        self._auth = ("authorization", f"Bearer {token}") if token else None

    def _with_metadata(self, details: Any) -> Any:
        metadata = list(details.metadata or ())
        if self._auth is not None:
            metadata.append(self._auth)
        if not any(key == REQUEST_ID_HEADER for key, _ in metadata):
            metadata.append((REQUEST_ID_HEADER, current_request_id()))
        return _Details(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._with_metadata(client_call_details), request)

    def intercept_unary_stream(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._with_metadata(client_call_details), request)


def open_plain_channel(address: str, setting: str = "address") -> grpc.Channel:
    """An insecure channel with the retry policy (and round-robin over an
    address list), nothing attached to its calls."""
    target, options = channel_target(address, setting)
    return grpc.insecure_channel(target, options=options)


def open_channel(address: str, token: str = "", setting: str = "address") -> grpc.Channel:
    """An insecure channel (TLS terminates at the mesh/proxy) with the retry
    policy, the token and the call id attached; ``address`` may be a list
    (see the module doc), refused naming ``setting`` when malformed."""
    channel = open_plain_channel(address, setting)
    return grpc.intercept_channel(channel, _MetadataInterceptor(token))
