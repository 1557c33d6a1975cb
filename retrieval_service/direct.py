"""Recall's visibility reads straight from the journal's database.

The resident snapshot may lag a quarantine or purge by a feed batch. Each
resident Recall first reads the visibility fence (one row: the cursor of the
latest quarantine, restore or purge change, migration 0014); a snapshot that
has applied the feed up to it serves its own bodies. Otherwise, and for
context turns, the hits are re-read from committed state: their bodies, their
context turns, and whether they are still visible. Over gRPC that re-read is a
BatchGetEpisodes round trip; here it is the same read
(memory_service.search_rpcs.visible_episodes: the journal's own query and
visibility rule, one place) on a connection of this process. Used whenever the
process knows the database URL.
"""

from __future__ import annotations

from collections.abc import Sequence

import psycopg

from engram.db import Database
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from memory_service.feed import visibility_fence
from memory_service.search import EpisodeSearch
from memory_service.search_rpcs import visible_episodes

# A Recall holds one connection for one statement pair; a few cover the
# server's threads without taking much from the database's connection budget.
POOL_MAX_SIZE = 4


class DirectEpisodes:
    def __init__(self, database_url: str, embedder_name: str) -> None:
        # Not waiting for the first connection: Recall answers UNAVAILABLE
        # while the database is down, and this process starts without it.
        self._db = Database(database_url, max_size=POOL_MAX_SIZE, name="retrieval").open(wait=False)
        self._search = EpisodeSearch(self._db, embedder_name)

    def batch_get(self, episode_ids: Sequence[str], context_turns: int = 0) -> list[jpb.Episode]:
        """Visible episodes in request order (BatchGetEpisodes' contract)."""
        try:
            return visible_episodes(self._search, list(dict.fromkeys(episode_ids)), context_turns)
        except psycopg.OperationalError as error:
            raise Unavailable(
                f"database unavailable: {error}", reason="DATABASE_UNAVAILABLE"
            ) from error

    def fence(self) -> int:
        """The visibility fence: the cursor a snapshot must have applied to
        serve without a re-read."""
        try:
            return visibility_fence(self._db)
        except psycopg.OperationalError as error:
            raise Unavailable(
                f"database unavailable: {error}", reason="DATABASE_UNAVAILABLE"
            ) from error

    def close(self) -> None:
        self._db.close()
