"""Migrations reproduce the committed schema snapshot and never re-run silently."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from engram.db import migrations
from engram.db.introspect import describe_schema

ROOT = Path(__file__).resolve().parents[2]
COMPONENTS = [
    (c, ROOT / p / "migrations")
    for c, p in (("journal", "memory_service"), ("learning", "learning_service"))
    if (ROOT / p / "migrations").is_dir()
]


@pytest.mark.parametrize(("component", "directory"), COMPONENTS, ids=[c for c, _ in COMPONENTS])
def test_migrations_reproduce_committed_schema(database_url, component, directory):
    snapshot = ROOT / "schema" / f"{component}.txt"
    with psycopg.connect(database_url) as conn:
        actual = describe_schema(conn, component)
    assert actual == snapshot.read_text(), (
        f"schema/{component}.txt is out of date with the migrations: "
        "run `make schema` and review the diff"
    )


def test_applying_again_is_a_no_op(database_url):
    for component, directory in COMPONENTS:
        assert migrations.apply(database_url, component, directory) == []


def test_a_changed_applied_migration_is_refused(database_url, tmp_path):
    source = COMPONENTS[0][1]
    for path in source.glob("*.sql"):
        (tmp_path / path.name).write_text(path.read_text())
    first = sorted(tmp_path.glob("*.sql"))[0]
    first.write_text(first.read_text() + "\n-- edited after release\n")
    with pytest.raises(migrations.MigrationError, match="changed after it was applied"):
        migrations.apply(database_url, COMPONENTS[0][0], tmp_path)
