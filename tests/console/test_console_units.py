"""The console's rules that need no browser: settings refusals, session and
sign-in nonce lifetimes, redirects that stay on the console, and how server
error fields map onto policy form fields."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engram.console.policies import form_field
from engram.console.sessions import SessionStore
from engram.console.settings import ConsoleSettings, is_loopback_host
from engram.console.web import local_path
from engram.errors import InvalidArgument


@pytest.mark.parametrize(
    ("settings", "field"),
    [
        (ConsoleSettings(listen="0.0.0.0:8765"), "console_listen"),
        (ConsoleSettings(listen="192.0.2.7:8765"), "console_listen"),
        (ConsoleSettings(listen="[::]:8765"), "console_listen"),
        (ConsoleSettings(listen="console.example:8765"), "console_listen"),
        (ConsoleSettings(listen="127.0.0.1"), "console_listen"),
        (ConsoleSettings(address="nowhere"), "address"),
        (ConsoleSettings(tls_cert="/nonexistent.pem"), "tls_cert"),
        (ConsoleSettings(tls_cert="/nonexistent.pem", tls_key="/nonexistent.key"), "tls_cert"),
        (ConsoleSettings(session_idle_seconds=0), "session_idle_seconds"),
        (ConsoleSettings(public_origin="console.example"), "public_origin"),
        (ConsoleSettings(public_origin="https://console.example/app"), "public_origin"),
        (ConsoleSettings(public_origin="ftp://console.example"), "public_origin"),
    ],
)
def test_settings_refused_name_the_setting(settings: ConsoleSettings, field: str) -> None:
    with pytest.raises(InvalidArgument) as err:
        settings.validate()
    assert err.value.field == field


def test_loopback_names(tmp_path: Path) -> None:
    assert all(map(is_loopback_host, ["127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost"]))
    assert not any(map(is_loopback_host, ["0.0.0.0", "::", "10.1.2.3", "localhost.evil", ""]))
    cert, key = tmp_path / "c.pem", tmp_path / "k.pem"
    cert.write_text("x")
    key.write_text("x")
    tls = ConsoleSettings(listen="0.0.0.0:8765", tls_cert=str(cert), tls_key=str(key))
    assert tls.validate().tls and not tls.loopback
    assert ConsoleSettings(listen="[::1]:0").validate().loopback


def test_sessions_expire_when_idle_and_nonces_are_one_time() -> None:
    store = SessionStore(idle_seconds=0.2)
    session = store.create("token-value", "token")
    assert store.get(session.session_id) is session
    assert store.get("made-up") is None and store.get(None) is None
    assert session.check_csrf(session.csrf) and not session.check_csrf("x" + session.csrf)
    time.sleep(0.3)
    assert store.get(session.session_id) is None
    nonce = store.issue_login_nonce()
    assert store.use_login_nonce(nonce)
    assert not store.use_login_nonce(nonce), "a sign-in form is good for one sign-in"
    assert not store.use_login_nonce("never-issued")


def test_flashes_are_shown_once() -> None:
    session = SessionStore(60).create("t" * 16, "token")
    session.flash(level="ok", text="done")
    assert session.take_flashes() == [{"level": "ok", "text": "done"}]
    assert session.take_flashes() == []


@pytest.mark.parametrize(
    ("target", "kept"),
    [
        ("/review?status=open", True),
        ("/learnings/abc", True),
        ("//evil.example/", False),
        ("/\\evil.example", False),
        ("https://evil.example/", False),
        ("javascript:alert(1)", False),
        ("", False),
    ],
)
def test_redirects_stay_on_the_console(target: str, kept: bool) -> None:
    assert local_path(target, "/fallback") == (target if kept else "/fallback")


@pytest.mark.parametrize(
    ("server", "form"),
    [
        ("judge.address", "judge.address"),
        ("policy.max_prompt_entries", "max_prompt_entries"),
        ("publication.rules[2].action", "publication.rules"),
        ("publication.rules", "publication.rules"),
        ("capture.max_candidates_per_run", "capture.max_candidates_per_run"),
    ],
)
def test_server_error_fields_map_to_form_fields(server: str, form: str) -> None:
    assert form_field(server) == form
