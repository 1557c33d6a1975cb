"""`engram console`, and the console beside `engram serve --console-listen`."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from engram.cli.serving import human_stderr
from engram.console.settings import DEFAULT_CONSOLE_LISTEN, ConsoleSettings

F = TypeVar("F", bound=Callable[..., Any])


def console_options(prefix: str = "") -> Callable[[F], F]:
    """--tls-cert, --tls-key and --public-origin (with `prefix` on `engram
    serve`, where they would otherwise read as the suite's own)."""

    def decorate(fn: F) -> F:
        for flag, env, name, help_text in reversed(
            (
                (
                    "tls-cert",
                    "ENGRAM_CONSOLE_TLS_CERT",
                    "tls_cert",
                    "PEM certificate: serve the console over HTTPS (needed off loopback)",
                ),
                (
                    "tls-key",
                    "ENGRAM_CONSOLE_TLS_KEY",
                    "tls_key",
                    "PEM private key of the certificate",
                ),
                (
                    "public-origin",
                    "ENGRAM_CONSOLE_PUBLIC_ORIGIN",
                    "public_origin",
                    "scheme://host[:port] browsers use when a TLS-terminating proxy forwards "
                    "to a loopback console",
                ),
            )
        ):
            fn = click.option(
                f"--{prefix}{flag}", name, envvar=env, default="", help=f"{help_text} [env {env}]"
            )(fn)
        return fn

    return decorate


@click.command("console")
@click.option(
    "--listen",
    envvar="ENGRAM_CONSOLE_LISTEN",
    default=DEFAULT_CONSOLE_LISTEN,
    show_default=True,
    help="host:port of the web console [env ENGRAM_CONSOLE_LISTEN]",
)
@click.option(
    "--address",
    envvar="ENGRAM_ADDRESS",
    default="127.0.0.1:50051",
    show_default=True,
    help="engram suite host:port [env ENGRAM_ADDRESS]",
)
@click.option(
    "--token",
    envvar="ENGRAM_TOKEN",
    default="",
    help="the console's own operator token, offered as one-click sign-in on a loopback "
    "console only [env ENGRAM_TOKEN]",
)
@console_options()
def console_command(
    listen: str, address: str, token: str, tls_cert: str, tls_key: str, public_origin: str
) -> None:
    """Serve the operator console: a web application over the suite's gRPC API.

    Loopback by default; a non-loopback --listen needs --tls-cert and --tls-key.
    Operators sign in with an operator or admin token (docs/console.md).
    """
    from engram.console.server import serve_console

    settings = ConsoleSettings(
        listen=listen,
        address=address,
        token=token,
        tls_cert=tls_cert,
        tls_key=tls_key,
        public_origin=public_origin,
    ).validate()
    serve_console(settings)


def console_for_serve(
    console_listen: str, suite_listen: str, tls_cert: str, tls_key: str, public_origin: str
) -> Any:
    """Start the console on a thread for `engram serve`; it talks to the suite's
    own listen address (a wildcard host is reached on loopback)."""
    from engram.config import split_address
    from engram.console.server import start_console

    host, port = split_address("listen", suite_listen)
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    settings = ConsoleSettings(
        listen=console_listen,
        address=address,
        token=os.environ.get("ENGRAM_TOKEN", ""),
        tls_cert=tls_cert,
        tls_key=tls_key,
        public_origin=public_origin,
    ).validate()
    running = start_console(settings)
    # The JSON log stream stays JSON; a person at a terminal also gets the address.
    logging.getLogger("engram.console").info(
        "engram console on %s", running.url, extra={"url": running.url}
    )
    if human_stderr():
        click.echo(f"engram console on {running.url}", err=True)
    return running
