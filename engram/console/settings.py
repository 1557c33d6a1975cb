"""What the console listens on, whom it talks to, and the refusals that keep
an operator token off an unencrypted network."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from engram.config import split_address
from engram.errors import InvalidArgument

DEFAULT_CONSOLE_LISTEN = "127.0.0.1:8765"
DEFAULT_SESSION_IDLE_SECONDS = 3600.0


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class ConsoleSettings:
    # host:port the console serves HTTP(S) on.
    listen: str = DEFAULT_CONSOLE_LISTEN
    # host:port of the suite (every service the console calls).
    address: str = "127.0.0.1:50051"
    # The console's own token, offered as a one-click sign-in on loopback only.
    token: str = ""
    tls_cert: str = ""
    tls_key: str = ""
    # The origin browsers use when a TLS-terminating proxy forwards to a
    # loopback console, e.g. "https://console.example": POSTs from it and its
    # Host header are accepted, and cookies are Secure when it is https.
    public_origin: str = ""
    session_idle_seconds: float = DEFAULT_SESSION_IDLE_SECONDS
    rpc_timeout_seconds: float = 10.0

    @property
    def tls(self) -> bool:
        return bool(self.tls_cert)

    @property
    def secure_cookies(self) -> bool:
        return self.tls or self.public_origin.startswith("https://")

    @property
    def public_host(self) -> str:
        """host[:port] of public_origin ("" when none)."""
        return urlsplit(self.public_origin).netloc if self.public_origin else ""

    @property
    def loopback(self) -> bool:
        return is_loopback_host(split_address("console_listen", self.listen)[0])

    def validate(self) -> ConsoleSettings:
        """Refuse settings that cannot work or would expose a token; raises
        InvalidArgument naming the setting. Returns self."""
        split_address("console_listen", self.listen)
        split_address("address", self.address)
        if bool(self.tls_cert) != bool(self.tls_key):
            raise InvalidArgument("tls_cert", "TLS needs both a certificate and its key")
        for name in ("tls_cert", "tls_key"):
            path = getattr(self, name)
            if path and not Path(path).is_file():
                raise InvalidArgument(name, f"{path} is not a readable file")
        if not self.loopback and not self.tls:
            raise InvalidArgument(
                "console_listen",
                f"refusing to serve the console on non-loopback {self.listen} without TLS "
                "(operators sign in with bearer tokens); give --tls-cert and --tls-key, "
                "or listen on loopback behind a TLS-terminating proxy",
            )
        if self.public_origin:
            parts = urlsplit(self.public_origin)
            if parts.scheme not in ("https", "http") or not parts.hostname or parts.path:
                raise InvalidArgument(
                    "public_origin", "must be scheme://host[:port], e.g. https://console.example"
                )
        if self.session_idle_seconds <= 0:
            raise InvalidArgument("session_idle_seconds", "must be positive")
        return self
