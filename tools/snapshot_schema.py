"""Write schema/<component>.txt from a database migrated from scratch.

python tools/snapshot_schema.py   # uses a throwaway embedded PostgreSQL
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engram.db import migrations  # noqa: E402
from engram.db.embedded import start_embedded  # noqa: E402
from engram.db.introspect import describe_schema  # noqa: E402
from engram.db.urls import with_database  # noqa: E402

COMPONENTS = (("journal", "memory_service"), ("learning", "learning_service"))


def main() -> int:
    server = start_embedded(Path(tempfile.mkdtemp(prefix="engram-schema-", dir="/tmp")))
    try:
        with psycopg.connect(server.url, autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS engram_schema_snapshot")
            conn.execute("CREATE DATABASE engram_schema_snapshot")
        url = with_database(server.url, "engram_schema_snapshot")
        for component, package in COMPONENTS:
            directory = ROOT / package / "migrations"
            if not directory.is_dir():
                continue
            migrations.apply(url, component, directory)
            with psycopg.connect(url) as conn:
                (ROOT / "schema" / f"{component}.txt").write_text(describe_schema(conn, component))
            print(f"wrote schema/{component}.txt")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
