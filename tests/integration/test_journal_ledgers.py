"""Append-only tables, quarantine, purge and the session journal read."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import derive_absence, validate
from engram.db import Database
from engram.embedding import HashingEmbedder
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from memory_service.embed_worker import EmbeddingWorker
from memory_service.feed import FeedNotifier
from memory_service.search_queries import SQ
from tests.helpers import wait_for_embeddings

APPEND_ONLY = ["events", "changes", "quarantine_ledger", "purge_ledger", "receipts", "idempotency"]


@pytest.fixture
def journal(start_services, channel_to) -> pb_grpc.JournalServiceStub:
    return pb_grpc.JournalServiceStub(channel_to(start_services(["journal"])))


def commit(
    journal: pb_grpc.JournalServiceStub, text: str, session: str = "s-1", subject: str = "carol"
) -> pb.TurnReceipt:
    return journal.CommitTurn(
        pb.CommitTurnRequest(
            subject=subject,
            session_id=session,
            user_text=text,
            assistant_text=f"ack {text}",
            request_id=str(uuid.uuid4()),
            learning_eligible=True,
        )
    ).receipt


def changes(journal: pb_grpc.JournalServiceStub, after: int = 0) -> list[pb.Change]:
    out: list[pb.Change] = []
    for batch in journal.StreamChanges(pb.StreamChangesRequest(after_cursor=after)):
        out.extend(batch.changes)
    return out


def seed_every_ledger(journal: pb_grpc.JournalServiceStub) -> None:
    receipt = commit(journal, "seed row")
    commit(journal, "to purge", subject="purged")
    journal.Purge(pb.PurgeRequest(subject="purged", reason="seed"))
    journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="seed"
        )
    )
    journal.RecordContextInjection(
        pb.RecordContextInjectionRequest(
            context_id="ctx",
            subject="carol",
            section="episodic_recall",
            record_ids=[receipt.episode_id],
            block_sha256="0" * 64,
        )
    )


@pytest.mark.parametrize("table", APPEND_ONLY)
@pytest.mark.parametrize(
    "statement",
    ["UPDATE journal.{t} SET {c} = {c}", "DELETE FROM journal.{t}", "TRUNCATE journal.{t}"],
)
def test_append_only_tables_reject_mutation(journal, database_url, table, statement):
    seed_every_ledger(journal)
    column = {
        "events": "subject",
        "changes": "kind",
        "quarantine_ledger": "reason",
        "purge_ledger": "reason",
        "receipts": "section",
        "idempotency": "subject",
    }[table]
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(f"SELECT count(*) FROM journal.{table}").fetchone()
        assert rows is not None and rows[0] > 0, "the statement must have rows to hit"
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute(statement.format(t=table, c=column))
        conn.rollback()
        after = conn.execute(f"SELECT count(*) FROM journal.{table}").fetchone()
    assert after == rows


def test_quarantined_episode_vanishes_and_feed_reports_it(journal):
    receipt = commit(journal, "my locker code is in the blue notebook")
    # The background worker announces the episode's vector (episode_embedded)
    # whenever it gets to it; let it settle first, so the only change after
    # `before` is the quarantine's own.
    wait_for_embeddings(journal)
    before = changes(journal)
    assert any(
        c.kind == pb.CHANGE_KIND_EPISODE_UPSERTED and c.episode.episode_id == receipt.episode_id
        for c in before
    )
    response = journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="user asked"
        )
    )
    after = changes(journal, before[-1].cursor)
    assert [(c.kind, c.record_id) for c in after] == [
        (pb.CHANGE_KIND_RECORD_QUARANTINED, receipt.episode_id)
    ]
    assert after[0].cursor == response.change_cursor
    # Replaying the feed from the start no longer yields the episode body.
    assert all(
        not c.HasField("episode") for c in changes(journal) if c.record_id == receipt.episode_id
    )
    with pytest.raises(grpc.RpcError) as err:
        journal.Quarantine(
            pb.QuarantineRequest(
                record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="again"
            )
        )
    assert err.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    restored = journal.Restore(
        pb.RestoreRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="mistake"
        )
    )
    last = changes(journal, restored.change_cursor - 1)
    assert [c.kind for c in last] == [pb.CHANGE_KIND_RECORD_RESTORED]
    assert last[0].episode.episode_id == receipt.episode_id
    ledger = journal.ListQuarantine(pb.ListQuarantineRequest()).entries
    assert [e.action for e in ledger] == ["restore", "quarantine"]
    assert journal.ListQuarantine(pb.ListQuarantineRequest(active_only=True)).entries == []


def test_worker_does_not_embed_a_quarantined_episode(start_services, channel_to, database_url):
    """Nothing embeds (or announces) a quarantined episode; once restored it is
    pending again and embedded after its record_restored change."""
    idle = pb_grpc.JournalServiceStub(
        channel_to(start_services(["journal"], workers_enabled=False))
    )
    hidden = commit(idle, "quarantined before its embedding")
    idle.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EPISODE, record_id=hidden.episode_id, reason="at once"
        )
    )
    visible = commit(idle, "an ordinary turn")
    assert idle.GetStatus(pb.GetStatusRequest()).episodes_pending_embedding == 1
    db = Database(database_url, max_size=2).open()
    try:
        worker = EmbeddingWorker(db, FeedNotifier(database_url), "hashing", batch_size=10)
        assert worker.run_once() == 1
        assert worker.run_once() == 0
        embedded = [c.record_id for c in changes(idle) if c.kind == pb.CHANGE_KIND_EPISODE_EMBEDDED]
        assert embedded == [visible.episode_id]
        assert idle.GetStatus(pb.GetStatusRequest()).episodes_pending_embedding == 0

        restored = idle.Restore(
            pb.RestoreRequest(
                record_kind=pb.RECORD_KIND_EPISODE, record_id=hidden.episode_id, reason="fine"
            )
        )
        assert idle.GetStatus(pb.GetStatusRequest()).episodes_pending_embedding == 1
        assert worker.run_once() == 1
    finally:
        db.close()
    tail = changes(idle, restored.change_cursor - 1)
    assert [(c.kind, c.record_id) for c in tail] == [
        (pb.CHANGE_KIND_RECORD_RESTORED, hidden.episode_id),
        (pb.CHANGE_KIND_EPISODE_EMBEDDED, hidden.episode_id),
    ]
    assert len(tail[1].episode.user_text) > 0


class QuarantiningEmbedder:
    """Quarantines the episode while the model runs: after the claim, before the UPDATE."""

    def __init__(self, quarantine: Callable[[], object]) -> None:
        self._inner = HashingEmbedder()
        self._quarantine = quarantine
        self.name = self._inner.name

    def embed(self, texts: list[str]) -> Any:
        self._quarantine()
        return self._inner.embed(texts)


def test_a_quarantine_during_the_batch_is_not_embedded(start_services, channel_to, database_url):
    idle = pb_grpc.JournalServiceStub(
        channel_to(start_services(["journal"], workers_enabled=False))
    )
    receipt = commit(idle, "quarantined while the model runs")

    def quarantine() -> object:
        return idle.Quarantine(
            pb.QuarantineRequest(
                record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="now"
            )
        )

    class Worker(EmbeddingWorker):
        @property
        def embedder(self) -> Any:
            return QuarantiningEmbedder(quarantine)

    db = Database(database_url, max_size=2).open()
    try:
        assert Worker(db, FeedNotifier(database_url), "hashing", batch_size=10).run_once() == 0
    finally:
        db.close()
    kinds = [c.kind for c in changes(idle) if c.record_id == receipt.episode_id]
    assert kinds == [pb.CHANGE_KIND_EPISODE_UPSERTED, pb.CHANGE_KIND_RECORD_QUARANTINED]


def test_the_worker_holds_the_lock_quarantine_takes(journal, database_url):
    """The worker's per-episode lock is Journal.set_quarantine's: a quarantine
    arriving after the worker took it waits for the batch to commit, so its
    change is ordered after the batch's episode_embedded."""
    receipt = commit(journal, "locked by a batch")
    with psycopg.connect(database_url) as batch, ThreadPoolExecutor(1) as pool:
        batch.execute(SQ["embed_hold_quarantine"], {"episode_id": receipt.episode_id})
        pending = pool.submit(
            journal.Quarantine,
            pb.QuarantineRequest(
                record_kind=pb.RECORD_KIND_EPISODE, record_id=receipt.episode_id, reason="wait"
            ),
        )
        time.sleep(0.3)
        assert not pending.done(), "the quarantine must wait for the batch's commit"
        batch.rollback()
        assert pending.result(timeout=10).change_cursor > 0


def test_quarantined_event_leaves_session_journal(journal):
    first = commit(journal, "first")
    commit(journal, "second")
    journal.Quarantine(
        pb.QuarantineRequest(
            record_kind=pb.RECORD_KIND_EVENT, record_id=str(first.event_id), reason="wrong"
        )
    )
    page = journal.ReadSessionJournal(
        pb.ReadSessionJournalRequest(subject="carol", session_id="s-1")
    )
    assert [e.payload["user_text"] for e in page.events] == ["second"]
    assert page.coverage.cardinality.matched_before_limit == 1


def test_quarantine_unknown_record_is_not_found(journal):
    with pytest.raises(grpc.RpcError) as err:
        journal.Quarantine(
            pb.QuarantineRequest(
                record_kind=pb.RECORD_KIND_EPISODE, record_id=str(uuid.uuid4()), reason="x"
            )
        )
    assert err.value.code() == grpc.StatusCode.NOT_FOUND


def test_session_journal_pages_with_counted_coverage(journal):
    for i in range(5):
        commit(journal, f"turn {i}")
    commit(journal, "other session", session="s-2")
    seen: list[str] = []
    token = ""
    matched: list[int] = []
    while True:
        page = journal.ReadSessionJournal(
            pb.ReadSessionJournalRequest(
                subject="carol", session_id="s-1", page_size=2, page_token=token
            )
        )
        validate(page.coverage)
        matched.append(page.coverage.cardinality.matched_before_limit)
        assert page.coverage.cardinality.truncated == bool(page.next_page_token)
        seen += [e.payload["user_text"] for e in page.events]
        token = page.next_page_token
        if not token:
            break
    assert seen == [f"turn {i}" for i in range(5)]
    assert matched == [5, 3, 1]


def test_empty_session_is_absent_in_scope_only(journal):
    page = journal.ReadSessionJournal(
        pb.ReadSessionJournalRequest(subject="nobody", session_id="none")
    )
    assert derive_absence(page.coverage, 0) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


def test_purge_removes_subject_through_audited_path(journal, database_url):
    commit(journal, "keep me", subject="dave")
    commit(journal, "forget me", subject="erin")
    result = journal.Purge(pb.PurgeRequest(subject="erin", reason="GDPR erasure request"))
    assert (result.events_removed, result.episodes_removed) == (1, 1)
    with psycopg.connect(database_url) as conn:
        assert conn.execute(
            "SELECT count(*) FROM journal.events WHERE subject='erin'"
        ).fetchone() == (0,)
        assert conn.execute(
            "SELECT count(*) FROM journal.events WHERE subject='dave'"
        ).fetchone() == (1,)
        ledger = conn.execute("SELECT subject, reason, counts FROM journal.purge_ledger").fetchall()
    assert ledger == [
        (
            "erin",
            "GDPR erasure request",
            {"events": 1, "episodes": 1, "receipts": 0, "run_records": 0},
        )
    ]
    feed = changes(journal, result.change_cursor - 1)
    assert feed[0].kind == pb.CHANGE_KIND_SUBJECT_PURGED and feed[0].subject == "erin"


def test_status_counts(journal):
    commit(journal, "one")
    status = journal.GetStatus(pb.GetStatusRequest())
    assert (status.events, status.episodes) == (1, 1)
    assert status.feed_watermark >= 2


def test_status_reports_the_schema_version(journal):
    migrations_dir = Path(__file__).resolve().parents[2] / "memory_service" / "migrations"
    assert journal.GetStatus(pb.GetStatusRequest()).schema_version == len(
        list(migrations_dir.glob("*.sql"))
    )
