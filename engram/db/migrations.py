"""Versioned plain-SQL migrations, one directory per component.

Files are named NNNN_description.sql and applied in order, each in its own
transaction, under an advisory lock so concurrent starters do not race. The
ledger lives in public.engram_migrations with a checksum per file; an applied
file that changed on disk is an error, never silently re-run.
"""

from __future__ import annotations

import hashlib
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

log = logging.getLogger("engram.db.migrations")

_FILENAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_LOCK_KEY = 0x656E6772  # "engr"

LEDGER_DDL = """
CREATE TABLE IF NOT EXISTS public.engram_migrations (
    component  text        NOT NULL,
    version    integer     NOT NULL,
    name       text        NOT NULL,
    checksum   text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (component, version)
)
"""


@dataclass(frozen=True)
class Migration:
    component: str
    version: int
    name: str
    sql: str

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


class MigrationError(RuntimeError):
    pass


def discover(component: str, directory: Path) -> list[Migration]:
    migrations = []
    for path in sorted(directory.glob("*.sql")):
        match = _FILENAME.match(path.name)
        if not match:
            raise MigrationError(f"{path}: migration files are named NNNN_description.sql")
        migrations.append(
            Migration(component, int(match.group(1)), match.group(2), path.read_text())
        )
    versions = [m.version for m in migrations]
    if versions != list(range(1, len(versions) + 1)):
        raise MigrationError(f"{component}: migration versions must be 1..n without gaps")
    return migrations


def apply(url: str, component: str, directory: Path) -> list[Migration]:
    """Apply pending migrations; returns the ones applied."""
    pending = discover(component, directory)
    applied: list[Migration] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (_LOCK_KEY,))
        try:
            conn.execute(LEDGER_DDL)
            rows = conn.execute(
                "SELECT version, checksum FROM public.engram_migrations WHERE component = %s",
                (component,),
            ).fetchall()
            done = {int(v): str(c) for v, c in rows}
            for migration in pending:
                if migration.version in done:
                    if done[migration.version] != migration.checksum:
                        raise MigrationError(
                            f"{component} migration {migration.version:04d}_{migration.name} "
                            "changed after it was applied; add a new migration instead"
                        )
                    continue
                with conn.transaction():
                    conn.execute(migration.sql.encode())
                    conn.execute(
                        "INSERT INTO public.engram_migrations (component, version, name, checksum)"
                        " VALUES (%s, %s, %s, %s)",
                        (component, migration.version, migration.name, migration.checksum),
                    )
                log.info(
                    "applied migration",
                    extra={"component": component, "version": migration.version},
                )
                applied.append(migration)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (_LOCK_KEY,))
    return applied


def current_version(conn: psycopg.Connection[Any], component: str) -> int:
    row = conn.execute(
        "SELECT coalesce(max(version), 0) AS version FROM public.engram_migrations"
        " WHERE component = %s",
        (component,),
    ).fetchone()
    if row is None:
        return 0
    return int(row["version"] if isinstance(row, dict) else row[0])
