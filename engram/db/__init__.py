"""PostgreSQL access: pool, embedded server, migrations, named queries, error translation."""

from engram.db.pool import Database
from engram.db.snapshot import read_snapshot, snapshot

__all__ = ["Database", "read_snapshot", "snapshot"]
