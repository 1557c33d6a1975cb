"""Change cursors without a serialising point (migration 0008): a follower
never skips a lower cursor that commits after a higher one.

Transactions are held open on real connections running the production
statements (Q["commit_turn"], journal.append_changes); a reader's position
is observed through what it returned, never through sleeps."""

from __future__ import annotations

import queue
import random
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
from psycopg.rows import dict_row

from engram.db import Database, migrations
from engram.db.urls import with_database
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from memory_service import feed
from memory_service.feed import FeedNotifier
from memory_service.journal import TurnCommand, turn_statement_params
from memory_service.store import Q

Conn = psycopg.Connection[dict[str, Any]]
ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = ROOT / "memory_service" / "migrations"


@pytest.fixture
def stub(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    # No embedding worker: the only changes are the ones each test writes.
    suite = start_services(["journal"], workers_enabled=False)
    return pb_grpc.JournalServiceStub(channel_to(suite))


@pytest.fixture
def connect(database_url: str) -> Iterator[Any]:
    """Open connections, each in an explicit transaction until commit/rollback."""
    opened: list[Conn] = []

    def open_() -> Conn:
        conn: Conn = psycopg.connect(database_url, row_factory=dict_row)
        opened.append(conn)
        return conn

    yield open_
    for conn in opened:
        conn.close()


def write_turn(conn: Conn, text: str) -> list[int]:
    """CommitTurn's statement in `conn`'s open transaction; the cursors it took."""
    command = TurnCommand(
        subject="order",
        workspace="default",
        session_id="s",
        user_text=text,
        assistant_text="ok",
        request_id=uuid.uuid4(),
        expected_content_sha256="",
        learning_eligible=True,
        run_id="",
        occurred_at=None,
    )
    row = conn.execute(Q["commit_turn"], turn_statement_params(command)).fetchone()
    assert row is not None and not row["replayed"]
    cursors = conn.execute(
        "SELECT array_agg(cursor ORDER BY cursor) AS cursors FROM journal.changes"
        " WHERE event_id = %s",
        (row["receipt"]["event_id"],),
    ).fetchone()
    assert cursors is not None
    return [int(c) for c in cursors["cursors"]]


def take_cursors(conn: Conn, n: int) -> list[int]:
    """n feed entries through journal.append_changes in `conn`'s open transaction."""
    row = conn.execute(
        Q["append_changes"],
        {
            "kinds": ["event_appended"] * n,
            "subjects": ["order"] * n,
            "workspaces": [""] * n,
            "session_ids": [""] * n,
            "record_kinds": ["event"] * n,
            "record_ids": [""] * n,
            "event_types": ["test.order"] * n,
            "event_ids": [0] * n,
        },
    ).fetchone()
    assert row is not None
    return [int(c) for c in row["cursors"]]


def delivered(db: Database) -> tuple[list[int], feed.Position]:
    rows, position = feed.read_changes(db, 0, [])
    return [int(r["cursor"]) for r in rows], position


class ProbeNotifier(FeedNotifier):
    """A notifier (never started) that reports each time a follower has read
    and found nothing it may deliver: the follower's waits are observable."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.waits: queue.Queue[int] = queue.Queue()

    def wait(self, seen_generation: int, timeout: float = feed.POLL_SECONDS) -> int:
        self.waits.put(seen_generation)
        return super().wait(seen_generation, timeout)


def test_a_lower_cursor_committed_later_is_never_skipped(stub, connect, db):
    a, b = connect(), connect()
    cursors_a = write_turn(a, "A, the older transaction")  # A gets its id first
    cursors_b = write_turn(b, "B, the younger transaction")
    assert max(cursors_a) < min(cursors_b)
    b.commit()

    # B is committed, A is not: a reader delivers neither and stays below A.
    cursors, position = delivered(db)
    assert cursors == []
    assert position.watermark < min(cursors_a)
    assert position.head == position.waiting == max(cursors_b)
    # A following stream's first read happens now too: its first batch is a
    # heartbeat whose watermark is still below A's cursor.
    stream = stub.StreamChanges(pb.StreamChangesRequest(after_cursor=0, follow=True))
    first = next(stream)
    assert list(first.changes) == []
    assert first.watermark < min(cursors_a)

    a.commit()
    # Now both, A's first, from the stream that read in between and from a new read.
    seen: list[int] = []
    watermark = 0
    for response in stream:
        seen.extend(c.cursor for c in response.changes)
        watermark = response.watermark
        if len(seen) >= len(cursors_a) + len(cursors_b):
            break
    stream.cancel()
    assert seen == cursors_a + cursors_b
    assert watermark == max(cursors_b)
    cursors, position = delivered(db)
    assert cursors == cursors_a + cursors_b
    assert position.watermark == position.head == max(cursors_b) and position.waiting == 0


def test_a_rolled_back_lower_cursor_leaves_a_gap(connect, db):
    a, b = connect(), connect()
    cursors_a = write_turn(a, "A, rolled back")
    cursors_b = write_turn(b, "B, committed")
    b.commit()
    assert delivered(db)[0] == []
    a.rollback()
    cursors, position = delivered(db)
    assert cursors == cursors_b
    assert position.watermark == max(cursors_b) and min(cursors_a) < position.watermark


def test_the_feed_follower_waits_at_the_lower_cursor(connect, db, database_url):
    """feed.follow itself (what StreamChanges runs), step by step: between B's
    commit and A's it only waits, then it yields A's changes before B's."""
    a, b = connect(), connect()
    cursors_a = take_cursors(a, 3)
    cursors_b = take_cursors(b, 2)
    b.commit()
    notifier = ProbeNotifier(database_url)
    batches: queue.Queue[tuple[list[int], int]] = queue.Queue()
    active = threading.Event()
    active.set()

    def run() -> None:
        for rows, mark in feed.follow(
            db, notifier, 0, [], keep_following=True, is_active=active.is_set
        ):
            batches.put(([int(r["cursor"]) for r in rows], mark))

    thread = threading.Thread(target=run)
    thread.start()
    try:
        # Its first read: nothing final, a heartbeat below A, then it waits.
        assert batches.get(timeout=10) == ([], delivered(db)[1].watermark)
        notifier.waits.get(timeout=10)
        # However often it is woken and reads again, it delivers nothing (at
        # most a heartbeat, still below A).
        for _ in range(5):
            notifier.wake()
            notifier.waits.get(timeout=10)
        while not batches.empty():
            rows, mark = batches.get()
            assert rows == [] and mark < min(cursors_a)
        a.commit()
        notifier.wake()
        got: list[int] = []
        while len(got) < 5:
            rows, mark = batches.get(timeout=10)
            got.extend(rows)
            assert mark >= max(got, default=0)
        assert got == cursors_a + cursors_b
    finally:
        active.clear()
        notifier.stop()
        thread.join(10)


def test_stream_without_follow_returns_what_committed_before_it(connect, db, database_url):
    """A catch-up read started while an older transaction is open returns once
    it ended, with everything that committed before the call, in order."""
    a, b = connect(), connect()
    cursors_a = take_cursors(a, 1)
    cursors_b = take_cursors(b, 1)
    b.commit()
    notifier = ProbeNotifier(database_url)
    result: queue.Queue[list[int]] = queue.Queue()

    def run() -> None:
        cursors: list[int] = []
        for rows, _mark in feed.follow(
            db, notifier, 0, [], keep_following=False, is_active=lambda: True
        ):
            cursors.extend(int(r["cursor"]) for r in rows)
        result.put(cursors)

    thread = threading.Thread(target=run)
    thread.start()
    notifier.waits.get(timeout=10)  # it has read B's change as committed and not final
    assert result.empty()
    a.commit()
    notifier.wake()
    assert result.get(timeout=10) == cursors_a + cursors_b
    thread.join(10)


def test_a_catch_up_read_waits_only_for_the_kinds_it_reads(connect, db, database_url):
    a, b = connect(), connect()
    take_cursors(a, 1)
    take_cursors(b, 1)  # event_appended, committed, waiting for A
    b.commit()
    notifier = ProbeNotifier(database_url)
    # Nothing of these kinds waits: it returns at once, without A's end.
    batches = list(
        feed.follow(
            db, notifier, 0, ["record_quarantined"], keep_following=False, is_active=lambda: True
        )
    )
    assert batches == [([], delivered(db)[1].watermark)]
    a.rollback()


def test_a_catch_up_read_held_back_fails_closed(connect, db, database_url, monkeypatch):
    """A change committed before the call that cannot become final (an older
    transaction stays open) is UNAVAILABLE, never silently left out."""
    a, b = connect(), connect()
    take_cursors(a, 1)
    take_cursors(b, 1)
    b.commit()
    monkeypatch.setattr(feed, "CATCH_UP_SECONDS", 0.2)
    with pytest.raises(Unavailable):
        list(
            feed.follow(
                db, ProbeNotifier(database_url), 0, [], keep_following=False, is_active=lambda: True
            )
        )
    a.rollback()


def test_changes_of_one_transaction_are_consecutive_across_calls(connect, db):
    conn = connect()
    first = take_cursors(conn, 2)
    second = take_cursors(conn, 3)
    conn.commit()
    assert first + second == list(range(first[0], first[0] + 5))
    assert delivered(db)[0] == first + second


def test_a_transaction_appends_at_most_65536_changes(connect):
    conn = connect()
    take_cursors(conn, 65_000)
    with pytest.raises(psycopg.errors.ProgramLimitExceeded):
        take_cursors(conn, 537)


def test_writers_holding_transactions_open_lose_and_repeat_nothing(connect, db, database_url):
    """Writers that hold their transactions open for random stretches, some
    rolling back, against a follower that reconnects from its last cursor."""
    writers, rounds = 6, 25
    committed: list[int] = []
    lock = threading.Lock()
    done = threading.Event()

    def writer(seed: int) -> None:
        rng = random.Random(seed)
        conn = connect()
        for _ in range(rounds):
            cursors = take_cursors(conn, rng.randint(1, 3))
            # A random stretch with the transaction open (load, not synchronisation).
            done.wait(rng.random() * 0.004)
            if rng.random() < 0.2:
                conn.rollback()
                continue
            conn.commit()
            with lock:
                committed.extend(cursors)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    for t in threads:
        t.start()
    seen: list[int] = []
    cursor = 0
    reads = 0
    while True:
        writers_done = not any(t.is_alive() for t in threads)
        # Resume from the last position, as a reconnecting follower does.
        rows, position = feed.read_changes(db, cursor, [], limit=7)
        seen.extend(int(r["cursor"]) for r in rows)
        cursor = int(rows[-1]["cursor"]) if rows else max(cursor, position.watermark)
        reads += 1
        if writers_done and not rows and not position.waiting:
            break
    done.set()
    for t in threads:
        t.join()
    assert seen == sorted(seen), "delivered in cursor order"
    assert len(seen) == len(set(seen)), "nothing delivered twice"
    assert sorted(committed) == seen, "every committed change delivered, no rolled-back one"
    assert reads > 1


def test_cursors_stay_above_stored_ones_after_a_restore(connect, db):
    """A database restored into another cluster starts from lower transaction
    ids; the journal's start (feed.align_cursor_base) keeps new cursors above
    every stored one, and those become final."""
    with db.connection() as conn:
        row = conn.execute(
            "SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS next_xid,"
            " (SELECT base FROM journal.feed_cursor_base) AS base"
        ).fetchone()
        assert row is not None
        # A change from "the old cluster", far above this one's transaction ids.
        restored = int(row["base"]) + ((int(row["next_xid"]) + 10_000) << 16)
        conn.execute(
            "INSERT INTO journal.changes (cursor, kind, subject)"
            " VALUES (%s, 'subject_purged', 'x')",
            (restored,),
        )
    assert feed.head(db) == restored and feed.watermark(db) < restored
    base = feed.align_cursor_base(db)
    assert base > int(row["base"])
    assert feed.align_cursor_base(db) == base  # nothing more to do
    conn = connect()
    (after,) = take_cursors(conn, 1)
    conn.commit()
    assert after > restored
    assert delivered(db)[0] == [restored, after]


def test_upgrade_keeps_cursors_of_the_feed_clock(database_url, tmp_path):
    """Migration 0008 on a journal whose clock handed out cursors: new cursors
    continue above them."""
    name = f"engram_upgrade_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(database_url, name)
    try:
        older = tmp_path / "older"
        older.mkdir()
        for path in sorted(MIGRATIONS.glob("*.sql")):
            if int(path.name[:4]) < 8:
                (older / path.name).write_text(path.read_text())
        migrations.apply(url, "journal", older)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(
                "INSERT INTO journal.changes (cursor, kind, subject)"
                " SELECT g, 'subject_purged', 'x' FROM generate_series(1, 5) g"
            )
            conn.execute("UPDATE journal.feed_clock SET last_cursor = 5")
        applied = migrations.apply(url, "journal", MIGRATIONS)
        assert applied[0].version == 8  # and the later ones
        database = Database(url, max_size=2).open()
        try:
            assert delivered(database)[0] == [1, 2, 3, 4, 5]
            with database.connection() as conn:
                # The clock's name still reads, as the watermark; it no longer writes.
                clock = conn.execute("SELECT last_cursor FROM journal.feed_clock").fetchone()
                assert clock is not None and clock["last_cursor"] == 5
                with pytest.raises(psycopg.errors.DatabaseError):
                    conn.execute("UPDATE journal.feed_clock SET last_cursor = last_cursor + 1")
            with database.transaction() as conn:
                (cursor,) = take_cursors(conn, 1)
            assert cursor > 5
            assert delivered(database)[0] == [1, 2, 3, 4, 5, cursor]
        finally:
            database.close()
    finally:
        with psycopg.connect(database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_announcements_reach_other_processes(database_url):
    """announce() wakes this process at once and another process's notifier
    through one coalesced NOTIFY."""
    here, there = FeedNotifier(database_url), FeedNotifier(database_url)
    here.start()
    there.start()
    try:
        # `there` listens once its LISTEN ran; announce until it has been woken.
        seen_here, seen_there = here.generation, there.generation
        for _ in range(200):
            here.announce()
            if there.wait(seen_there, timeout=0.05) != seen_there:
                break
        assert there.generation > seen_there
        assert here.generation > seen_here
    finally:
        here.stop()
        there.stop()


def test_stream_beyond_the_head_is_out_of_range(stub, connect):
    conn = connect()
    (cursor,) = take_cursors(conn, 1)
    conn.commit()
    # A committed cursor is accepted even before it is final; one beyond is not.
    assert list(stub.StreamChanges(pb.StreamChangesRequest(after_cursor=cursor)))
    with pytest.raises(grpc.RpcError) as err:
        list(stub.StreamChanges(pb.StreamChangesRequest(after_cursor=cursor + 1)))
    assert err.value.code() == grpc.StatusCode.OUT_OF_RANGE
