"""Client channels between services (and from the CLI), carrying the bearer token."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import grpc

DEFAULT_CHANNEL_OPTIONS = (
    ("grpc.max_receive_message_length", 64 * 1024 * 1024),
    ("grpc.max_send_message_length", 64 * 1024 * 1024),
    ("grpc.keepalive_time_ms", 30_000),
)


class _AuthInterceptor(
    grpc.UnaryUnaryClientInterceptor,  # type: ignore[type-arg]
    grpc.UnaryStreamClientInterceptor,  # type: ignore[type-arg]
):
    def __init__(self, token: str) -> None:
        self._header = ("authorization", f"Bearer {token}")

    def _with_token(self, details: Any) -> Any:
        metadata = list(details.metadata or ())
        metadata.append(self._header)
        return (
            details._replace(metadata=metadata)
            if hasattr(details, "_replace")
            else _Details(
                details.method,
                details.timeout,
                metadata,
                details.credentials,
                getattr(details, "wait_for_ready", None),
                getattr(details, "compression", None),
            )
        )

    def intercept_unary_unary(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._with_token(client_call_details), request)

    def intercept_unary_stream(
        self, continuation: Callable[[Any, Any], Any], client_call_details: Any, request: Any
    ) -> Any:
        return continuation(self._with_token(client_call_details), request)


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


def open_channel(address: str, token: str = "") -> grpc.Channel:
    """An insecure channel (TLS terminates at the mesh/proxy) with the token attached."""
    channel = grpc.insecure_channel(address, options=DEFAULT_CHANNEL_OPTIONS)
    if token:
        channel = grpc.intercept_channel(channel, _AuthInterceptor(token))
    return channel
