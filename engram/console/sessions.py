"""Server-side browser sessions: the browser holds only a random session id
(an HttpOnly, SameSite=Strict cookie); the operator's bearer token, the CSRF
token and pending messages stay in this process."""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

COOKIE_NAME = "engram_console_session"
# Sign-in forms are issued before there is a session: one-time nonces.
MAX_LOGIN_NONCES = 1024
LOGIN_NONCE_SECONDS = 600.0


@dataclass
class BrowserSession:
    session_id: str
    token: str
    # How the operator signed in, for the header ("token", "console token").
    label: str
    csrf: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    last_seen: float = field(default_factory=time.monotonic)
    # Messages shown once on the next page (after a POST-redirect-GET).
    flashes: list[dict[str, Any]] = field(default_factory=list)

    def check_csrf(self, submitted: str) -> bool:
        return hmac.compare_digest(self.csrf.encode(), submitted.encode())

    def flash(self, **message: Any) -> None:
        self.flashes.append(message)

    def take_flashes(self) -> list[dict[str, Any]]:
        taken, self.flashes = self.flashes, []
        return taken


class SessionStore:
    def __init__(self, idle_seconds: float) -> None:
        self._idle = idle_seconds
        self._sessions: dict[str, BrowserSession] = {}
        self._nonces: dict[str, float] = {}
        self._lock = threading.Lock()

    def create(self, token: str, label: str) -> BrowserSession:
        session = BrowserSession(secrets.token_urlsafe(32), token, label)
        with self._lock:
            self._expire()
            self._sessions[session.session_id] = session
        return session

    def get(self, session_id: str | None) -> BrowserSession | None:
        if not session_id:
            return None
        with self._lock:
            self._expire()
            session = self._sessions.get(session_id)
            if session is not None:
                session.last_seen = time.monotonic()
            return session

    def drop(self, session_id: str) -> None:
        with self._lock:
            self._sessions.pop(session_id, None)

    def issue_login_nonce(self) -> str:
        nonce = secrets.token_urlsafe(24)
        with self._lock:
            now = time.monotonic()
            self._nonces = {n: t for n, t in self._nonces.items() if now - t < LOGIN_NONCE_SECONDS}
            while len(self._nonces) >= MAX_LOGIN_NONCES:
                self._nonces.pop(next(iter(self._nonces)))
            self._nonces[nonce] = now
        return nonce

    def use_login_nonce(self, nonce: str) -> bool:
        with self._lock:
            issued = self._nonces.pop(nonce, None)
        return issued is not None and time.monotonic() - issued < LOGIN_NONCE_SECONDS

    def _expire(self) -> None:
        now = time.monotonic()
        stale = [k for k, s in self._sessions.items() if now - s.last_seen > self._idle]
        for key in stale:
            del self._sessions[key]
