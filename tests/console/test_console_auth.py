"""Signing in, refusals and the console's own protections, in a real browser
(and over plain HTTP where a browser would never send the request)."""

from __future__ import annotations

import http.client
import re
import subprocess
import sys
import uuid
from typing import Any
from urllib.parse import urlsplit

import pytest

from engram.console.settings import ConsoleSettings
from engram.errors import InvalidArgument
from tests.console.conftest import RUNTIME_TOKEN, Deployment, Page

pytestmark = pytest.mark.browser


def test_pages_need_a_session_and_a_missing_token_is_refused(
    browser: Any, deployment: Deployment
) -> None:
    page = Page(browser, deployment.url)
    browser.delete_all_cookies()
    page.open("/learnings?status=all")
    assert urlsplit(browser.current_url).path == "/login"
    # No token typed: refused by the console.
    page.submit("#sign-in")
    assert "a bearer token is required" in page.text("#login-error")
    # The one-click sign-in with no configured token: the suite has tokens on.
    page.submit("#sign-in-console")
    assert "the suite does not know this token" in page.text("#login-error")
    page.fill("#token", "not-a-token-the-suite-knows")
    page.submit("#sign-in")
    assert "the suite does not know this token" in page.text("#login-error")
    # A runtime token is known but cannot govern.
    page.fill("#token", RUNTIME_TOKEN)
    page.submit("#sign-in")
    assert "operator or admin needed" in page.text("#login-error")
    assert not [c for c in browser.get_cookies() if c["name"] == "engram_console_session"]


def test_operator_signs_in_and_sees_the_header(page: Page) -> None:
    page.open("/review")
    assert page.text("#posture") == "automation shadow · capture on · judge off"
    cards = {c.get_attribute("data-card") for c in page.all(".card")}
    assert cards == {
        "awaiting review",
        "active learnings",
        "facts",
        "preferences",
        "decisions",
    }
    assert page.text("#freshness").startswith("index ")
    health = page.text("#health")
    for service in ("journal", "learning", "retrieval", "gateway"):
        assert f"{service}: serving" in health
    cookie = next(c for c in page.driver.get_cookies() if c["name"] == "engram_console_session")
    assert cookie["httpOnly"] is True
    assert cookie["sameSite"] == "Strict"
    # The token is nowhere in what the browser holds.
    assert "console-operator-token" not in page.driver.page_source
    assert "console-operator-token" not in cookie["value"]
    page.submit("form.signout button")
    assert urlsplit(page.driver.current_url).path == "/login"
    page.open("/review")
    assert urlsplit(page.driver.current_url).path == "/login"


def _post(url: str, path: str, body: str, headers: dict[str, str]) -> int:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    try:
        conn.request(
            "POST",
            path,
            body=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", **headers},
        )
        return conn.getresponse().status
    finally:
        conn.close()


def test_posts_need_the_session_csrf_token_and_this_origin(page: Page) -> None:
    page.open("/review")
    cookie = next(c for c in page.driver.get_cookies() if c["name"] == "engram_console_session")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.driver.page_source)
    assert csrf is not None
    session = {"Cookie": f"engram_console_session={cookie['value']}", "Origin": page.base}
    target = "/quarantine/add"
    form = "record_kind=event&record_id=1&reason=x"
    assert _post(page.base, target, form, {"Origin": page.base}) == 401
    assert _post(page.base, target, form, session) == 403
    assert _post(page.base, target, f"{form}&csrf=wrong", session) == 403
    foreign = {**session, "Origin": "http://evil.example"}
    assert _post(page.base, target, f"{form}&csrf={csrf.group(1)}", foreign) == 403
    # Every response forbids inline script and framing.
    parts = urlsplit(page.base)
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    conn.request("GET", "/login")
    response = conn.getresponse()
    policy = response.getheader("content-security-policy") or ""
    conn.close()
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    # A Host header that is not loopback is refused (DNS rebinding).
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
    conn.request("GET", "/login", headers={"Host": "attacker.example"})
    assert conn.getresponse().status == 421
    conn.close()


def test_non_loopback_listen_without_tls_is_refused() -> None:
    with pytest.raises(InvalidArgument) as err:
        ConsoleSettings(listen="0.0.0.0:8765").validate()
    assert err.value.field == "console_listen"
    result = subprocess.run(
        [sys.executable, "-m", "engram.cli.main", "console", "--listen", "0.0.0.0:0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "without TLS" in result.stderr


def test_an_unknown_record_shows_the_suites_refusal(page: Page) -> None:
    page.open(f"/learnings/{uuid.uuid4()}")
    assert page.css(".failure").get_attribute("data-code") == "NOT_FOUND"
    page.open("/learnings/not-a-learning-id")
    failure = page.css(".failure")
    assert failure.get_attribute("data-code") == "INVALID_ARGUMENT"
    assert failure.get_attribute("data-reason") == "INVALID_ARGUMENT"
    assert "posture" in page.css("#posture").get_attribute("id"), "the header still renders"
