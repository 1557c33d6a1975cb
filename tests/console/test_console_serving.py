"""How the console is served: HTTPS with a certificate (cookies then Secure),
and beside the suite with `engram serve --console-listen`, in a real process."""

from __future__ import annotations

import http.client
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from engram.console.server import start_console
from engram.console.settings import ConsoleSettings
from tests.console.conftest import OPERATOR_TOKEN, Deployment

pytestmark = pytest.mark.browser


def self_signed(directory: Path) -> tuple[str, str]:
    cert, key = directory / "console.crt", directory / "console.key"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return str(cert), str(key)


def connect(url: str, cafile: str = "") -> http.client.HTTPConnection:
    parts = urlsplit(url)
    if parts.scheme == "https":
        context = ssl.create_default_context(cafile=cafile)
        return http.client.HTTPSConnection(
            parts.hostname or "", parts.port, context=context, timeout=10
        )
    return http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)


def sign_in(url: str, fields: dict[str, str], cafile: str = "") -> tuple[int, str]:
    """(status, Set-Cookie) of a sign-in through the login form."""
    conn = connect(url, cafile)
    conn.request("GET", "/login")
    page = conn.getresponse().read().decode()
    nonce = re.search(r'name="nonce" value="([^"]+)"', page)
    assert nonce is not None
    conn.request(
        "POST",
        "/login",
        body=urlencode({"nonce": nonce.group(1), "next": "/review", **fields}),
        headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": url},
    )
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status, response.getheader("set-cookie") or ""


def test_https_console_sets_secure_cookies(deployment: Deployment, tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    # Off loopback a certificate is what makes the console acceptable.
    ConsoleSettings(listen="0.0.0.0:8765", tls_cert=cert, tls_key=key).validate()
    console = start_console(
        ConsoleSettings(
            listen="127.0.0.1:0", address=deployment.suite.address, tls_cert=cert, tls_key=key
        )
    )
    try:
        assert console.url.startswith("https://")
        status, cookie = sign_in(console.url, {"token": OPERATOR_TOKEN}, cert)
        assert status == 303
        flags = {part.strip().lower() for part in cookie.split(";")}
        assert {"secure", "httponly", "samesite=strict"} <= flags
    finally:
        console.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_serve_with_console_listen(database_url: str, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "engram.cli.main", "serve", "--database-url", database_url]
    command += ["--embedder", "hashing", "--data-dir", str(tmp_path / "data")]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    # Refused before anything starts: a console off loopback without TLS.
    refused = subprocess.run(
        [*command, "--listen", f"127.0.0.1:{free_port()}", "--console-listen", "0.0.0.0:0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert refused.returncode == 2 and "without TLS" in refused.stderr

    console_port = free_port()
    process = subprocess.Popen(
        [
            *command,
            "--listen",
            f"127.0.0.1:{free_port()}",
            "--console-listen",
            f"127.0.0.1:{console_port}",
        ],
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    # Once started, keep reading so that the server never blocks on a full pipe.
    drain = threading.Thread(target=lines.extend, args=(process.stderr,), daemon=True)
    try:
        assert process.stderr is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            lines.append(line)
            started = any(" serving " in seen for seen in lines)
            if not line or (started and any("engram console on" in seen for seen in lines)):
                break
        assert any("engram console on http://127.0.0.1:" in line for line in lines), lines
        drain.start()
        url = f"http://127.0.0.1:{console_port}"
        # A suite without tokens, a loopback console: the one-click sign-in.
        status, cookie = sign_in(url, {"use_console_token": "1"})
        assert status == 303
        session = cookie.split(";")[0]
        conn = connect(url)
        conn.request("GET", "/review", headers={"Cookie": session})
        response = conn.getresponse()
        body = response.read().decode()
        conn.close()
        assert response.status == 200 and "awaiting review" in body
        assert "learning: serving" in body
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
        if drain.is_alive():
            drain.join(timeout=10)
        if process.stderr is not None:
            process.stderr.close()
    assert code == 0, lines


def test_behind_a_tls_proxy_the_public_origin_is_accepted(deployment: Deployment) -> None:
    console = start_console(
        ConsoleSettings(
            listen="127.0.0.1:0",
            address=deployment.suite.address,
            public_origin="https://console.example",
        )
    )
    try:
        proxied = {"Host": "console.example", "Origin": "https://console.example"}
        conn = connect(console.url)
        conn.request("GET", "/login", headers={"Host": "console.example"})
        page = conn.getresponse().read().decode()
        nonce = re.search(r'name="nonce" value="([^"]+)"', page)
        assert nonce is not None
        body = urlencode({"nonce": nonce.group(1), "token": OPERATOR_TOKEN})
        form = {"Content-Type": "application/x-www-form-urlencoded"}
        conn.request("POST", "/login", body=body, headers={**form, **proxied})
        response = conn.getresponse()
        response.read()
        assert response.status == 303
        assert "secure" in (response.getheader("set-cookie") or "").lower()
        # Another origin is still refused, and so is another host.
        conn.request(
            "POST",
            "/login",
            body=body,
            headers={**form, **proxied, "Origin": "https://evil.example"},
        )
        refused = conn.getresponse()
        refused.read()
        assert refused.status == 403
        conn.request("GET", "/login", headers={"Host": "evil.example"})
        other_host = conn.getresponse()
        other_host.read()
        assert other_host.status == 421
        conn.close()
    finally:
        console.stop()
