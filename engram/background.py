"""A background loop thread with wake-up, stop and error back-off."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from engram.logs import log_retry

log = logging.getLogger("engram.background")

MAX_BACKOFF_SECONDS = 5.0


class BackgroundLoop:
    """Calls `step` until stopped. `step` returns True when it did work (loop
    again at once) and False when idle (sleep until woken or `idle_seconds`).
    An exception is logged and retried with a growing back-off; it never
    kills the thread."""

    def __init__(
        self,
        name: str,
        step: Callable[[], bool],
        *,
        idle_seconds: float = 0.5,
        on_stop: Callable[[], None] = lambda: None,
    ) -> None:
        self.name = name
        self._step = step
        self._idle = idle_seconds
        self._on_stop = on_stop
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    @property
    def stopping(self) -> bool:
        return self._stop.is_set()

    def start(self) -> None:
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._wake.set()
        self._on_stop()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            try:
                busy = self._step()
                failures = 0
            except Exception as exc:
                failures += 1
                if not self._stop.is_set():
                    log_retry(log, "%s step failed; retrying", exc, failures, self.name)
                self._stop.wait(min(MAX_BACKOFF_SECONDS, 0.2 * 2 ** min(failures, 5)))
                continue
            if not busy:
                self._wake.wait(self._idle)
                self._wake.clear()
