"""PostgreSQL access: pool, embedded server, migrations, named queries, error translation."""

from engram.db.pool import Database

__all__ = ["Database"]
