"""The embedding worker: vectors for episodes after their turn committed.

CommitTurn never waits for the model. It writes the episode with embedding
NULL and announces it; this worker, woken by the change feed's NOTIFY (with a
poll fallback for a lost notification), embeds pending episodes oldest first
in batches and, in one transaction per batch, stores each vector with
embedding_model and embedded_at and appends one `episode_embedded` change per
episode, so followers such as RetrievalService receive the vector. The
transaction gets its id (which orders its changes in the feed, see
memory_service/feed.py) at its first write, after the model ran: a batch
holds the feed back only for its writes, never for the model.

Text embedded: the canonical turn content, "User: <user_text>\\nAssistant:
<assistant_text>" (memory_service.journal.canonical_content), the same form
the content hash covers. MiniLM reads its first 256 tokens.

Several journal replicas share the work. A replica claims an episode with a
transaction-scoped advisory lock (pg_try_advisory_xact_lock) and skips the
ones another replica holds, which is SKIP LOCKED without the row lock: a row
lock held while the model runs would make a concurrent CommitTurn of the same
content (an occurrence bump) wait for the model. The UPDATE re-checks
`embedding IS NULL`, so a lost race only wastes one computation.

A quarantined episode is not embedded (nor announced) until it is restored:
the candidate scan and the UPDATE both exclude it, and before the UPDATE the
worker takes the episode's quarantine lock (the one Journal.set_quarantine
holds), so a quarantine racing a batch either lands first and the UPDATE
skips the episode, or waits for the batch and its record_quarantined change
follows the episode_embedded one. Either way no episode_embedded change ever
follows a record_quarantined one for an episode still quarantined.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from typing import Any

import numpy as np

from engram.db import Database
from engram.embedder_cache import shared_embedder
from engram.embedding import Embedder
from engram.logs import log_retry
from engram.metrics import count_plane_event
from memory_service.feed import FeedNotifier
from memory_service.journal import canonical_content
from memory_service.search_queries import SQ
from memory_service.store import ChangeRow, Conn, add_counter, append_changes

log = logging.getLogger("engram.journal.embed_worker")

EMBEDDED_COUNTER = "embedding.embedded_total"
# Candidates scanned per claimed batch, so replicas can skip each other's claims.
SCAN_FACTOR = 4


@dataclass(frozen=True)
class Backoff:
    """Wait after consecutive failures: initial * 2**(n-1), capped."""

    initial: float = 0.5
    maximum: float = 30.0

    def delay(self, failures: int) -> float:
        return min(self.maximum, self.initial * 2.0 ** max(0, failures - 1))


class EmbeddingWorker:
    def __init__(
        self,
        db: Database,
        notifier: FeedNotifier,
        embedder_name: str,
        batch_size: int,
        *,
        poll_seconds: float = 5.0,
        backoff: Backoff | None = None,
    ) -> None:
        if batch_size < 1:
            raise ValueError("batch_size must be >= 1")
        self._db = db
        self._notifier = notifier
        self._embedder_name = embedder_name
        self._batch_size = batch_size
        self._poll_seconds = poll_seconds
        self._backoff = backoff or Backoff()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="embedding-worker", daemon=True)

    @property
    def embedder(self) -> Embedder:
        return shared_embedder(self._embedder_name)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._notifier.wake()
        if self._thread.is_alive():
            self._thread.join(timeout=10)

    # -- one batch ------------------------------------------------------------

    def run_once(self) -> int:
        """Embed at most one batch; returns how many episodes were stored."""
        with self._db.transaction() as conn:
            rows = self._claim(conn)
            if not rows:
                return 0
            embedder = self.embedder
            texts = [canonical_content(r["user_text"], r["assistant_text"]) for r in rows]
            vectors = embedder.embed(texts)
            changes: list[ChangeRow] = []
            for row, vector in zip(rows, vectors, strict=True):
                conn.execute(SQ["embed_hold_quarantine"], {"episode_id": str(row["episode_id"])})
                stored = conn.execute(
                    SQ["embed_store"],
                    {
                        "embedding": np.asarray(vector, dtype=np.float32),
                        "model": embedder.name,
                        "episode_id": row["episode_id"],
                    },
                ).fetchone()
                if stored is not None:  # else purged, quarantined or embedded elsewhere
                    changes.append(
                        ChangeRow(
                            "episode_embedded",
                            str(stored["subject"]),
                            str(stored["workspace"]),
                            str(stored["session_id"]),
                            "episode",
                            str(stored["episode_id"]),
                        )
                    )
            add_counter(conn, EMBEDDED_COUNTER, len(changes))
            append_changes(conn, changes)
        if changes:
            self._notifier.announce()
        count_plane_event("journal", "episodes_embedded", len(changes))
        return len(changes)

    def _claim(self, conn: Conn) -> list[dict[str, Any]]:
        candidates = conn.execute(
            SQ["embed_candidates"], {"scan": self._batch_size * SCAN_FACTOR}
        ).fetchall()
        claimed: list[str] = []
        for candidate in candidates:
            episode_id = str(candidate["episode_id"])
            row = conn.execute(SQ["embed_try_claim"], {"episode_id": episode_id}).fetchone()
            if row is not None and row["claimed"]:
                claimed.append(episode_id)
                if len(claimed) == self._batch_size:
                    break
        if not claimed:
            return []
        return conn.execute(SQ["embed_claimed_rows"], {"ids": claimed}).fetchall()

    # -- the loop ---------------------------------------------------------------

    def _run(self) -> None:
        failures = 0
        while not self._stop.is_set():
            generation = self._notifier.generation
            try:
                stored = self.run_once()
            except Exception as exc:  # a database or model failure: back off and retry
                failures += 1
                delay = self._backoff.delay(failures)
                log_retry(
                    log, "embedding batch failed; retrying", exc, failures, retry_in_seconds=delay
                )
                count_plane_event("journal", "embedding_batch_failed")
                self._stop.wait(delay)
                continue
            failures = 0
            if stored >= self._batch_size:
                continue  # likely more pending: no wait
            self._wait(generation)

    def _wait(self, generation: int) -> None:
        """Until the feed announces a change, the poll interval passes, or stop."""
        if self._notifier.stopped:
            self._stop.wait(self._poll_seconds)
        else:
            self._notifier.wait(generation, timeout=self._poll_seconds)
