"""Plane counters counted on a read path without a commit there.

A read adds its amounts in memory; :meth:`PendingCounters.flush` writes the
sums in one transaction (the plane's own upsert statement), from a background
loop, when the service stops, and before the counters are read, so a status
read in this process always includes what this process counted. A failed
flush keeps the sums for the next one. What a process counted in its last
flush interval (FLUSH_SECONDS) is lost only if it dies without stopping:
these are metrics, not acknowledged writes.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping

from engram.db import Database

FLUSH_SECONDS = 1.0


class PendingCounters:
    """`add_statement` upserts one counter: parameters %(name)s and %(amount)s."""

    def __init__(self, db: Database, add_statement: str) -> None:
        self.db = db
        self._add_statement = add_statement
        self._lock = threading.Lock()
        self._pending: Counter[str] = Counter()
        # One flush at a time, so sums are never written twice or out of order.
        self._flushing = threading.Lock()

    def add(self, amounts: Mapping[str, int]) -> None:
        with self._lock:
            for name, amount in amounts.items():
                if amount:
                    self._pending[name] += amount

    def flush(self) -> None:
        with self._flushing:
            with self._lock:
                taken, self._pending = self._pending, Counter()
            if not taken:
                return
            try:
                with self.db.transaction() as conn:
                    for name, amount in sorted(taken.items()):
                        conn.execute(self._add_statement, {"name": name, "amount": amount})
            except BaseException:
                self.add(taken)
                raise

    def step(self) -> bool:
        """One background flush; never busy (the loop sleeps FLUSH_SECONDS)."""
        self.flush()
        return False
