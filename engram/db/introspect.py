"""A deterministic text description of a schema, from the catalogs.

Used to check that the migrations reproduce the committed schema snapshot
(schema/<component>.txt) on any PostgreSQL 15+ server: it reads catalogs
rather than pg_dump output, which varies between server versions.
"""

from __future__ import annotations

from typing import Any

import psycopg

_SECTIONS: tuple[tuple[str, str], ...] = (
    (
        "columns",
        """SELECT table_name || '.' || column_name || ' ' || data_type
                  || CASE WHEN is_nullable = 'NO' THEN ' not null' ELSE '' END
                  || CASE WHEN is_generated = 'ALWAYS' THEN ' generated' ELSE '' END
                  || coalesce(' default ' || column_default, '')
           FROM information_schema.columns WHERE table_schema = %(schema)s""",
    ),
    (
        "constraints",
        """SELECT rel.relname || ' ' || con.conname || ' ' || pg_get_constraintdef(con.oid)
           FROM pg_constraint con
           JOIN pg_class rel ON rel.oid = con.conrelid
           JOIN pg_namespace ns ON ns.oid = rel.relnamespace
           WHERE ns.nspname = %(schema)s""",
    ),
    ("indexes", "SELECT indexdef FROM pg_indexes WHERE schemaname = %(schema)s"),
    (
        "triggers",
        """SELECT event_object_table || ' ' || trigger_name || ' ' || action_timing || ' '
                  || event_manipulation || ' ' || action_statement
           FROM information_schema.triggers WHERE trigger_schema = %(schema)s""",
    ),
    (
        "functions",
        """SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') '
                  || md5(p.prosrc)
           FROM pg_proc p JOIN pg_namespace ns ON ns.oid = p.pronamespace
           WHERE ns.nspname = %(schema)s""",
    ),
)


def describe_schema(conn: psycopg.Connection[Any], schema: str) -> str:
    lines = [f"# schema {schema}"]
    for title, query in _SECTIONS:
        rows = sorted(str(r[0]) for r in conn.execute(query, {"schema": schema}).fetchall())
        lines.append(f"## {title}")
        lines.extend(rows)
    return "\n".join(lines) + "\n"
