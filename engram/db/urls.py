"""Connection-string helpers."""

from __future__ import annotations

from psycopg import conninfo


def with_database(url: str, dbname: str) -> str:
    """The same server and credentials as `url`, another database."""
    info = conninfo.conninfo_to_dict(url)
    info["dbname"] = dbname
    return conninfo.make_conninfo("", **info)
