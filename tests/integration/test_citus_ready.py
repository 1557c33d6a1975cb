"""The migrated schema keeps Citus's rules for the placements declared in
engram/db/distribution.py, migrates where Citus is absent, and the
distribution script is a reported no-op there.

Citus is not installed here, so its rules are checked on the catalogs of the
plain PostgreSQL the migrations built: a distributed table's distribution
column is a key column of every unique index (primary keys and unique
constraints included) and of every foreign key to another distributed table;
a reference table references only reference tables; a coordinator table
references no distributed table; every table is declared, and so is every
function that names a distributed table. The script's Citus branch runs
against stand-ins of Citus's functions and placement catalog.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
from psycopg import sql

from engram.db import distribution, migrations
from engram.db.distribution import Placement
from engram.db.introspect import describe_schema
from engram.db.urls import with_database
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "citus" / "distribute.sql"
COMPONENTS = [
    (c, ROOT / p / "migrations")
    for c, p in (("journal", "memory_service"), ("learning", "learning_service"))
]
CITUS_FUNCTIONS = (
    "create_distributed_table",
    "create_reference_table",
    "citus_add_local_table_to_metadata",
)


def _tables(conn: psycopg.Connection[Any]) -> set[str]:
    rows = conn.execute(
        "SELECT n.nspname || '.' || c.relname FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = ANY (%s) AND c.relkind IN ('r', 'p')",
        (list(distribution.SCHEMAS),),
    ).fetchall()
    return {r[0] for r in rows}


def citus_violations(conn: psycopg.Connection[Any]) -> list[str]:
    """Every way the schema breaks Citus's rules for the declared placements."""
    declared = distribution.by_name()
    present = _tables(conn)
    problems = [
        f"{t} is not declared in engram/db/distribution.py" for t in present - declared.keys()
    ]
    problems += [f"{t} is declared but does not exist" for t in declared.keys() - present]

    def placement(table: str) -> Placement | None:
        entry = declared.get(table)
        return entry.placement if entry else None

    columns = conn.execute(
        "SELECT n.nspname || '.' || c.relname, a.attname, format_type(a.atttypid, a.atttypmod),"
        "       a.attnotnull, a.attidentity"
        " FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = ANY (%s) AND c.relkind IN ('r', 'p') AND a.attnum > 0"
        "   AND NOT a.attisdropped",
        (list(distribution.SCHEMAS),),
    ).fetchall()
    types: dict[str, str] = {}
    for table, column, type_, not_null, identity in columns:
        entry = declared.get(table)
        if entry is None or entry.placement is not Placement.DISTRIBUTED:
            continue
        if column == entry.column:
            types[table] = type_
            if not not_null:
                problems.append(f"{table}.{column}, its distribution column, may be NULL")
        if identity and type_ != "bigint":
            problems.append(f"{table}.{column}: Citus shards identity columns of bigint only")
    for table, entry in declared.items():
        if entry.placement is Placement.DISTRIBUTED and table in present and table not in types:
            problems.append(f"{table} has no column {entry.column} to distribute by")
    if len(set(types.values())) > 1:
        problems.append(f"co-located distribution columns differ in type: {types}")

    # Unique indexes: every primary key, unique constraint and unique index.
    uniques = conn.execute(
        "SELECT n.nspname || '.' || t.relname, i.relname,"
        "       array(SELECT a.attname FROM unnest((x.indkey::int2[])[0:x.indnkeyatts - 1]) k"
        "             JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k)"
        " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid"
        " JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
        " WHERE n.nspname = ANY (%s) AND x.indisunique",
        (list(distribution.SCHEMAS),),
    ).fetchall()
    for table, index, keys in uniques:
        entry = declared.get(table)
        if entry and entry.placement is Placement.DISTRIBUTED and entry.column not in keys:
            problems.append(
                f"{table}: unique index {index} ({', '.join(keys) or 'expressions only'}) "
                f"lacks the distribution column {entry.column}"
            )

    foreign = conn.execute(
        "SELECT con.conname, src_n.nspname || '.' || src.relname,"
        "       dst_n.nspname || '.' || dst.relname,"
        "       array(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, o)"
        "             JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n"
        "             ORDER BY k.o),"
        "       array(SELECT a.attname FROM unnest(con.confkey) WITH ORDINALITY k(n, o)"
        "             JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n"
        "             ORDER BY k.o)"
        " FROM pg_constraint con"
        " JOIN pg_class src ON src.oid = con.conrelid"
        " JOIN pg_namespace src_n ON src_n.oid = src.relnamespace"
        " JOIN pg_class dst ON dst.oid = con.confrelid"
        " JOIN pg_namespace dst_n ON dst_n.oid = dst.relnamespace"
        " WHERE con.contype = 'f'"
        "   AND (src_n.nspname = ANY (%(s)s) OR dst_n.nspname = ANY (%(s)s))",
        {"s": list(distribution.SCHEMAS)},
    ).fetchall()
    for name, src, dst, src_cols, dst_cols in foreign:
        source, target = placement(src), placement(dst)
        if target is Placement.REFERENCE:
            if source is None:
                problems.append(f"{name}: undeclared {src} references {dst}")
            continue
        if source is Placement.DISTRIBUTED and target is Placement.DISTRIBUTED:
            column = declared[src].column
            if (column, declared[dst].column) not in zip(src_cols, dst_cols, strict=True):
                problems.append(
                    f"{name}: {src} -> {dst} must pair the distribution columns "
                    f"({src_cols} -> {dst_cols})"
                )
            continue
        if source is Placement.COORDINATOR and target is Placement.COORDINATOR:
            continue
        problems.append(
            f"{name}: a {source.value if source else 'undeclared'} table ({src}) may not "
            f"reference a {target.value if target else 'undeclared'} table ({dst})"
        )
    return problems


@pytest.fixture
def conn(database_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(database_url, autocommit=True) as connection:
        yield connection


def test_the_migrated_schema_keeps_citus_rules(conn):
    assert citus_violations(conn) == []


def test_every_declared_distribution_column_is_the_subject(conn):
    distributed = [t for t in distribution.TABLES if t.placement is Placement.DISTRIBUTED]
    assert {t.column for t in distributed} == {distribution.DISTRIBUTION_COLUMN}
    assert distribution.COLOCATION_ANCHOR in {t.qualified for t in distributed}
    assert all(t.why for t in distribution.TABLES)
    assert len(distribution.by_name()) == len(distribution.TABLES)


def test_the_check_catches_each_kind_of_break(conn):
    assert citus_violations(conn) == []
    conn.execute("CREATE TABLE journal.undeclared_notes (note text PRIMARY KEY)")
    conn.execute("CREATE UNIQUE INDEX episodes_sha_only ON journal.episodes (content_sha256)")
    conn.execute("CREATE UNIQUE INDEX run_records_by_event ON journal.run_records ((event_id + 0))")
    conn.execute(
        "ALTER TABLE journal.counters ADD COLUMN run_id text, ADD COLUMN run_subject text,"
        " ADD FOREIGN KEY (run_id, run_subject) REFERENCES journal.run_records (run_id, subject)"
    )
    conn.execute(
        "ALTER TABLE journal.receipts ADD COLUMN run_id text,"
        " ADD CONSTRAINT receipts_run_fkey FOREIGN KEY (subject, run_id)"
        " REFERENCES journal.run_records (run_id, subject)"
    )
    conn.execute(
        "ALTER TABLE journal.episodes ADD COLUMN serial_no integer GENERATED ALWAYS AS IDENTITY"
    )
    problems = "\n".join(citus_violations(conn))
    assert "journal.undeclared_notes is not declared" in problems
    assert "unique index episodes_sha_only (content_sha256) lacks" in problems
    assert "unique index run_records_by_event (expressions only) lacks" in problems
    assert "coordinator table (journal.counters) may not reference a distributed" in problems
    assert "receipts_run_fkey: journal.receipts -> journal.run_records must pair" in problems
    assert "journal.episodes.serial_no: Citus shards identity columns of bigint only" in problems


def _functions_naming_distributed_tables(conn: psycopg.Connection[Any]) -> set[str]:
    distributed = [t for t in distribution.TABLES if t.placement is Placement.DISTRIBUTED]
    pattern = r"\m(" + "|".join(re.escape(t.qualified) for t in distributed) + r")\M"
    rows = conn.execute(
        "SELECT DISTINCT n.nspname || '.' || p.proname FROM pg_proc p"
        " JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = ANY (%s) AND p.prosrc ~ %s",
        (list(distribution.SCHEMAS), pattern),
    ).fetchall()
    return {r[0] for r in rows}


def test_every_function_of_distributed_tables_is_placed(conn):
    found = _functions_naming_distributed_tables(conn)
    declared = set(distribution.COORDINATOR_STATEMENTS) | set(distribution.SHARD_REWRITES)
    assert found == declared
    conn.execute(
        "CREATE FUNCTION journal.count_receipts() RETURNS bigint LANGUAGE sql"
        " AS 'SELECT count(*) FROM journal.receipts'"
    )
    assert _functions_naming_distributed_tables(conn) - declared == {"journal.count_receipts"}


def _turn(subject: str, request_id: str) -> pb.CommitTurnRequest:
    return pb.CommitTurnRequest(
        subject=subject,
        session_id="s-1",
        user_text=f"{subject} moved to Lisbon.",
        assistant_text="Noted.",
        request_id=request_id,
        learning_eligible=True,
    )


def test_a_request_id_reused_under_another_subject_is_still_refused(
    start_services, channel_to, conn
):
    # The idempotency key now includes the subject (migration 0013); the lock
    # and the lookup by request id alone still refuse the reuse, racing or not.
    journal = pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))
    request_id = str(uuid.uuid4())
    journal.CommitTurn(_turn("alice", request_id))
    with pytest.raises(grpc.RpcError) as err:
        journal.CommitTurn(_turn("bob", request_id))
    assert err.value.code() == grpc.StatusCode.ALREADY_EXISTS

    racing = str(uuid.uuid4())
    barrier = threading.Barrier(8)
    outcomes: list[str] = []

    def commit(subject: str) -> None:
        barrier.wait()
        try:
            receipt = journal.CommitTurn(_turn(subject, racing)).receipt
            outcomes.append("replayed" if receipt.replayed else f"committed:{subject}")
        except grpc.RpcError as exc:
            outcomes.append(exc.code().name)

    threads = [
        threading.Thread(target=commit, args=("alice" if i % 2 else "bob",)) for i in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    committed = [o for o in outcomes if o.startswith("committed:")]
    assert len(committed) == 1 and len(outcomes) == 8
    winner = committed[0].split(":")[1]
    # Callers of the winning subject replay it; the other subject's are refused.
    assert outcomes.count("replayed") == 3 and outcomes.count("ALREADY_EXISTS") == 4, (
        winner,
        outcomes,
    )
    row = conn.execute(
        "SELECT count(*), min(subject) FROM journal.events WHERE request_id = %s", (racing,)
    ).fetchone()
    assert row == (1, winner)


@pytest.fixture
def bare_database(pg_server_url: str) -> Iterator[str]:
    """An empty database: no migrations, no extensions."""
    name = f"engram_bare_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server_url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield with_database(pg_server_url, name)
    finally:
        with psycopg.connect(pg_server_url, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def _citus_present(conn: psycopg.Connection[Any]) -> bool:
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')"
        "    OR EXISTS (SELECT 1 FROM pg_proc WHERE proname = ANY (%s))",
        (list(CITUS_FUNCTIONS),),
    ).fetchone()
    return bool(row and row[0])


def test_migrations_apply_where_citus_is_absent(bare_database):
    with psycopg.connect(bare_database, autocommit=True) as conn:
        if _citus_present(conn):
            pytest.skip("this server has Citus; the check needs one without it")
    for component, directory in COMPONENTS:
        assert migrations.apply(bare_database, component, directory)
        for migration in migrations.discover(component, directory):
            assert not any(f in migration.sql for f in CITUS_FUNCTIONS), migration.name
    with psycopg.connect(bare_database, autocommit=True) as conn:
        assert not _citus_present(conn)
        assert citus_violations(conn) == []


def test_the_distribution_script_is_the_declared_one():
    assert SCRIPT.read_text() == distribution.distribute_sql(), (
        "deploy/citus/distribute.sql is out of date: "
        "run `python -m engram.db.distribution > deploy/citus/distribute.sql`"
    )


def test_the_distribution_script_is_a_reported_no_op_without_citus(conn):
    if _citus_present(conn):
        pytest.skip("this server has Citus")
    notices: list[str] = []
    conn.add_notice_handler(lambda diag: notices.append(diag.message_primary or ""))
    before = {c: describe_schema(conn, c) for c in distribution.SCHEMAS}
    conn.execute(SCRIPT.read_text().encode())
    conn.execute(SCRIPT.read_text().encode())
    assert (
        notices
        == ["engram: the citus extension is not installed; skipped, nothing distributed"] * 2
    )
    assert {c: describe_schema(conn, c) for c in distribution.SCHEMAS} == before


CITUS_STUBS = """
CREATE TABLE public.pg_dist_partition (logicalrelid regclass PRIMARY KEY);
CREATE TABLE public.placed (n serial, rel regclass, how text, colocate text);
CREATE FUNCTION public.create_reference_table(rel regclass) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO public.placed (rel, how, colocate) VALUES (rel, 'reference', '');
    INSERT INTO public.pg_dist_partition VALUES (rel);
$$;
CREATE FUNCTION public.create_distributed_table(rel regclass, col text, colocate_with text)
RETURNS void LANGUAGE sql AS $$
    INSERT INTO public.placed (rel, how, colocate) VALUES (rel, col, colocate_with);
    INSERT INTO public.pg_dist_partition VALUES (rel);
$$;
"""


def test_the_distribution_scripts_citus_path_with_stand_ins(conn):
    # Citus cannot be installed here: stand-ins of its two functions and its
    # placement catalog, and the extension check pointed at an extension that
    # exists, run the script's other branch as written.
    conn.execute(CITUS_STUBS)
    script = SCRIPT.read_text()
    check = "WHERE extname = 'citus'"
    assert script.count(check) == 1
    script = script.replace(check, "WHERE extname = 'plpgsql'")
    notices: list[str] = []
    conn.add_notice_handler(lambda diag: notices.append(diag.message_primary or ""))
    conn.execute(script.encode())
    placed = conn.execute(
        "SELECT rel::text, how, colocate FROM public.placed ORDER BY n"
    ).fetchall()
    expected_reference = [
        (t.qualified, "reference", "")
        for t in distribution.TABLES
        if t.placement is Placement.REFERENCE
    ]
    distributed = [t for t in distribution.TABLES if t.placement is Placement.DISTRIBUTED]
    assert placed[: len(expected_reference)] == expected_reference
    rest = placed[len(expected_reference) :]
    assert rest[0] == (distribution.COLOCATION_ANCHOR, "subject", "none")
    assert sorted(rest[1:]) == sorted(
        (t.qualified, "subject", distribution.COLOCATION_ANCHOR)
        for t in distributed
        if t.qualified != distribution.COLOCATION_ANCHOR
    )
    assert notices[-1].startswith("engram: these functions would run on shards")
    assert all(name in notices[-1] for name in distribution.SHARD_REWRITES)
    # Again: every table is already placed, nothing is placed twice.
    notices.clear()
    conn.execute(script.encode())
    assert conn.execute("SELECT count(*) FROM public.placed").fetchone() == (len(placed),)
    assert sum("is already placed" in n for n in notices) == len(placed)
