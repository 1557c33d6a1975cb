"""Is the database there? A one-shot reachability check for startup and the
health monitor a Database uses to fail fast while PostgreSQL is down and to
notice at once when it is back.

psycopg-pool on its own retries a lost server with an exponential back-off
(up to minutes between attempts) and lets every caller wait out the pool
timeout meanwhile. The monitor replaces both behaviours: on the first sign of
trouble (a broken pooled connection, a failed reconnect, a caller waiting too
long) it probes with a fresh connection; while the probe fails the pool is
marked down and callers get UNAVAILABLE at once; it probes every
PROBE_INTERVAL_SECONDS until the server answers, then replaces the pool's
broken connections and lets callers through again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

import psycopg

from engram.errors import Unavailable
from engram.logs import describe, one_line

log = logging.getLogger("engram.db.health")

# While down, how often to try the server again.
PROBE_INTERVAL_SECONDS = 0.2
# While up, the least time between two probes (suspicions coalesce).
PROBE_GAP_UP_SECONDS = 0.5
# libpq's connect_timeout for probes (libpq treats values below 2 as 2).
PROBE_CONNECT_TIMEOUT_SECONDS = 2
# While down, repeat the "still unreachable" line this often.
STILL_DOWN_LOG_SECONDS = 10.0


def probe(url: str, timeout: int = PROBE_CONNECT_TIMEOUT_SECONDS) -> Exception | None:
    """None when a fresh connection to `url` answers a query, else the error."""
    try:
        with psycopg.connect(url, autocommit=True, connect_timeout=max(2, timeout)) as conn:
            conn.execute("SELECT 1")
    except Exception as exc:  # any failure to connect or answer is "not reachable"
        return exc
    return None


def check_reachable(url: str, timeout: int = 5) -> None:
    """Raise Unavailable (one line, no credentials) unless `url` answers."""
    error = probe(url, timeout)
    if error is not None:
        raise Unavailable(
            f"database unreachable: {one_line(str(error)) or describe(error)}",
            reason="DATABASE_UNREACHABLE",
        )


class HealthMonitor:
    """Tracks whether a pool's server is reachable; see the module docstring.

    `suspect()` asks for a probe (cheap to call often); `down` says whether
    callers should fail fast; `alive()` records that a pooled connection just
    passed its check, which ends an outage without waiting for the probe.
    `on_recovered` runs (in the monitor thread) before callers are let
    through again: the pool uses it to drop connections broken by the outage.
    """

    def __init__(
        self,
        url: str,
        name: str,
        *,
        on_recovered: Callable[[], None] = lambda: None,
        probe_fn: Callable[[str], Exception | None] = probe,
    ) -> None:
        self._url = url
        self._name = name
        self._on_recovered = on_recovered
        self._probe = probe_fn
        self._down = threading.Event()
        self._kick = threading.Event()
        self._closed = threading.Event()
        self._lock = threading.Lock()
        self._down_since = 0.0
        self._attempts = 0
        self._last_error = ""
        self._last_logged = 0.0
        self._flush = False
        self._thread: threading.Thread | None = None

    @property
    def down(self) -> bool:
        return self._down.is_set()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(
                target=self._run, name=f"db-health-{self._name}", daemon=True
            )
            self._thread.start()

    def close(self) -> None:
        self._closed.set()
        self._kick.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=PROBE_CONNECT_TIMEOUT_SECONDS + 1.0)

    def suspect(self, *, broken: bool = False) -> None:
        """Something looked wrong; `broken` when a pooled connection was lost
        (the pool's other idle connections are then likely broken too)."""
        if broken:
            self._flush = True
        self._kick.set()

    def alive(self) -> None:
        """A pooled connection just worked: the server is reachable."""
        if self._down.is_set():
            self._mark_up("a pooled connection answered")

    def _mark_down(self, error: Exception) -> None:
        with self._lock:
            self._attempts += 1
            self._last_error = describe(error)
            if self._down.is_set():
                return
            self._down_since = self._last_logged = time.monotonic()
            self._down.set()
        log.warning(
            "database unreachable; calls fail fast with UNAVAILABLE until it is back",
            extra={"pool": self._name, "error": self._last_error},
        )

    def _mark_up(self, how: str) -> None:
        with self._lock:
            if not self._down.is_set():
                return
            self._down.clear()
            down_seconds = time.monotonic() - self._down_since
            attempts, self._attempts = self._attempts, 0
        log.warning(
            "database reachable again",
            extra={
                "pool": self._name,
                "down_seconds": round(down_seconds, 3),
                "attempts": attempts,
                "how": how,
            },
        )

    def _still_down(self) -> None:
        now = time.monotonic()
        if now - self._last_logged < STILL_DOWN_LOG_SECONDS:
            return
        self._last_logged = now
        log.warning(
            "database still unreachable",
            extra={
                "pool": self._name,
                "attempts": self._attempts,
                "down_seconds": round(now - self._down_since, 1),
                "error": self._last_error,
            },
        )

    def _run(self) -> None:
        while not self._closed.is_set():
            if self._down.is_set():
                self._closed.wait(PROBE_INTERVAL_SECONDS)
            else:
                self._kick.wait()
            self._kick.clear()
            if self._closed.is_set():
                return
            error = self._probe(self._url)
            if error is None:
                if self._down.is_set() or self._flush:
                    self._flush = False
                    try:
                        self._on_recovered()
                    except Exception as exc:  # never kill the monitor
                        log.warning(
                            "refreshing pool connections failed",
                            extra={"pool": self._name, "error": describe(exc)},
                        )
                self._mark_up("probe connected")
                self._closed.wait(PROBE_GAP_UP_SECONDS)
            else:
                was_down = self._down.is_set()
                self._mark_down(error)
                if was_down:
                    self._still_down()
