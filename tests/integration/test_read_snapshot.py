"""memory_service.store.read_snapshot: one repeatable-read, read-only
transaction begun by one statement, and a pooled connection that gets its
defaults back."""

from __future__ import annotations

import psycopg
import pytest

from engram.db import Database
from memory_service.store import read_snapshot


def test_snapshot_is_repeatable_read_only_and_the_connection_is_restored(
    database_url: str,
) -> None:
    db = Database(database_url, max_size=1, name="snapshot-test").open()
    try:
        with read_snapshot(db) as conn:
            row = conn.execute(
                "SELECT current_setting('transaction_isolation') AS iso,"
                " current_setting('transaction_read_only') AS ro"
            ).fetchone()
            assert row == {"iso": "repeatable read", "ro": "on"}
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                conn.execute("CREATE TEMP TABLE refused (x int)")
        # The one pooled connection again: read-write, default isolation.
        with db.transaction() as conn:
            row = conn.execute(
                "SELECT current_setting('transaction_isolation') AS iso,"
                " current_setting('transaction_read_only') AS ro"
            ).fetchone()
            assert row == {"iso": "read committed", "ro": "off"}
            conn.execute("CREATE TEMP TABLE allowed (x int)")
    finally:
        db.close()
