"""Serving the console with uvicorn, in the foreground (`engram console`) or
on a thread beside the suite (`engram serve --console-listen`)."""

from __future__ import annotations

import logging
import socket
import threading
from dataclasses import dataclass

import uvicorn

from engram.config import split_address
from engram.console.app import create_app
from engram.console.settings import ConsoleSettings
from engram.errors import FailedPrecondition, InvalidArgument

log = logging.getLogger("engram.console")
START_TIMEOUT_SECONDS = 10.0


def bind(listen: str) -> socket.socket:
    """The listening socket (port 0 picks a free port); refusals name the setting."""
    host, port = split_address("console_listen", listen)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == 98:  # EADDRINUSE
            raise FailedPrecondition(
                f"console_listen: {listen} is already in use by another process",
                reason="ADDRESS_IN_USE",
                metadata={"field": "console_listen"},
            ) from None
        raise InvalidArgument(
            "console_listen", f"cannot listen on {listen}: {exc.strerror}"
        ) from None
    sock.listen(128)
    return sock


@dataclass
class RunningConsole:
    server: uvicorn.Server
    thread: threading.Thread
    sock: socket.socket
    scheme: str

    @property
    def url(self) -> str:
        host, port = self.sock.getsockname()[:2]
        host = f"[{host}]" if ":" in host else host
        return f"{self.scheme}://{host}:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def _server(settings: ConsoleSettings) -> uvicorn.Server:
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        access_log=False,
        ssl_certfile=settings.tls_cert or None,
        ssl_keyfile=settings.tls_key or None,
        server_header=False,
    )
    return uvicorn.Server(config)


def start_console(settings: ConsoleSettings) -> RunningConsole:
    """Serve the console on a background thread; returns once it listens."""
    settings.validate()
    sock = bind(settings.listen)
    try:
        server = _server(settings)
    except BaseException:
        sock.close()
        raise
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, name="engram-console", daemon=True
    )
    thread.start()
    running = RunningConsole(server, thread, sock, "https" if settings.tls else "http")
    deadline = threading.Event()
    for _ in range(int(START_TIMEOUT_SECONDS / 0.05)):
        if server.started or not thread.is_alive():
            break
        deadline.wait(0.05)
    if not server.started:
        running.stop()
        raise InvalidArgument("console_listen", f"the console did not start on {settings.listen}")
    return running


def serve_console(settings: ConsoleSettings) -> None:
    """Serve the console in the foreground until SIGINT/SIGTERM."""
    settings.validate()
    sock = bind(settings.listen)
    scheme = "https" if settings.tls else "http"
    host, port = sock.getsockname()[:2]
    log.info("console on %s://%s:%s talking to %s", scheme, host, port, settings.address)
    print(f"engram console on {scheme}://{host}:{port} (suite at {settings.address})", flush=True)
    try:
        server = _server(settings)
        server.run(sockets=[sock])
    finally:
        sock.close()
