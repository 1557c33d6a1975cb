"""The journal's read-only RPCs on a streaming standby (--read-database-url):
a primary on TCP and a standby cloned from it with pg_basebackup
(engram.db.instance), a journal server on port 0 reading both. Coverage
follows the standby's replay: complete only when it had replayed everything
the primary had committed when the request started, PARTIAL otherwise
(replay paused; ReadSessionJournal and ListReceipts then read the primary),
and a standby stopped while requests are in flight is replaced by the
primary without one failed call."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import grpc
import psycopg
import pytest

from engram.channels import open_channel
from engram.cluster.processes import free_port
from engram.common.v1 import common_pb2 as cpb
from engram.config import Settings
from engram.coverage import derive_absence, validate
from engram.db.instance import Instance, clone_standby, init_primary
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.metrics import PLANE_EVENTS, REGISTRY
from engram.server import Suite, migrate, start_suite
from memory_service import read_replica
from tests.helpers import commit_turn, server_scratch_dir

STANDBY = read_replica.STANDBY_SOURCE + ":"
AUTHORITATIVE = cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
IN_SCOPE = cpb.ABSENCE_STATE_ABSENT_IN_SCOPE


@dataclass
class Cluster:
    primary: Instance
    standby: Instance
    url: str

    @property
    def standby_url(self) -> str:
        return self.standby.url("engram")

    def replay_lag_bytes(self) -> int:
        with (
            psycopg.connect(self.url, autocommit=True) as primary,
            psycopg.connect(self.standby_url, autocommit=True) as standby,
        ):
            flushed = primary.execute("SELECT pg_current_wal_flush_lsn()::text").fetchone()
            assert flushed is not None
            row = standby.execute(
                "SELECT pg_wal_lsn_diff(%s::pg_lsn, pg_last_wal_replay_lsn())::bigint",
                (flushed[0],),
            ).fetchone()
        assert row is not None
        return int(row[0])

    def wait_caught_up(self, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while self.replay_lag_bytes() > 0:
            assert time.monotonic() < deadline, "the standby did not catch up"
            time.sleep(0.05)

    def on_standby(self, statement: str) -> None:
        with psycopg.connect(self.standby_url, autocommit=True) as conn:
            conn.execute(statement)


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with server_scratch_dir("engram-replica-") as base:
        primary = init_primary(base / "primary", free_port()).start()
        standby: Instance | None = None
        try:
            url = primary.create_database("engram")
            migrate(url, ["journal"])  # the services' own migration code, on the primary
            standby = clone_standby(primary, base / "standby", free_port()).start()
            cluster = Cluster(primary, standby, url)
            cluster.wait_caught_up()
            yield cluster
        finally:
            if standby is not None:
                standby.stop(mode="immediate")
            primary.stop(mode="immediate")


@pytest.fixture(scope="module")
def suite(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Suite]:
    settings = Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": cluster.url,
            "read_database_url": cluster.standby_url,
            "data_dir": str(tmp_path_factory.mktemp("data")),
            "embedder": "hashing",
            "workers_enabled": False,
            "grace_seconds": 1.0,
            "pool_max_size": 8,
            "metrics_port": -1,
        },
        env={},
    )
    running = start_suite(settings, ["journal"])
    try:
        yield running
    finally:
        running.stop(grace=0.2)


@pytest.fixture(scope="module")
def stub(suite: Suite) -> Iterator[pb_grpc.JournalServiceStub]:
    channel = open_channel(suite.address, "")
    try:
        yield pb_grpc.JournalServiceStub(channel)
    finally:
        channel.close()


@pytest.fixture
def replica_running(cluster: Cluster) -> Iterator[Cluster]:
    """The standby streaming and caught up before and after the test."""
    cluster.wait_caught_up()
    yield cluster
    if not cluster.standby.running():
        cluster.standby.start()
    cluster.on_standby("SELECT pg_wal_replay_resume()")
    cluster.wait_caught_up()


def standby_source(coverage: cpb.Coverage) -> str:
    """The standby's source-system entry, "" when the primary served."""
    validate(coverage)
    found = [s for s in coverage.source_systems if s.startswith(STANDBY)]
    assert len(found) <= 1
    return found[0] if found else ""


Response = TypeVar(
    "Response", pb.FindExactResponse, pb.ReadSessionJournalResponse, pb.SearchEpisodesResponse
)


def caught_up(call: Callable[[], Response]) -> Response:
    """Repeat a read until the standby serves it caught up: WAL that no
    commit needs (hint-bit page images, a record the WAL writer completes a
    moment later) can hold that back briefly, on a loaded machine longer than
    the router waits. Every answer on the way must say it is behind, with
    temporal coverage PARTIAL, or come from the primary."""
    deadline = time.monotonic() + 20
    while True:
        response = call()
        source = standby_source(response.coverage)
        if source.startswith(STANDBY + "caught_up "):
            return response
        if source:
            assert source.startswith(STANDBY + "behind reason=")
            assert response.coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL
        assert time.monotonic() < deadline, source or "the standby did not serve"
        time.sleep(0.05)


def find(stub: pb_grpc.JournalServiceStub, subject: str, term: str) -> pb.FindExactResponse:
    response: pb.FindExactResponse = stub.FindExact(
        pb.FindExactRequest(subject=subject, terms=[term]), timeout=20
    )
    return response


def read_session(
    stub: pb_grpc.JournalServiceStub, subject: str, session: str
) -> pb.ReadSessionJournalResponse:
    response: pb.ReadSessionJournalResponse = stub.ReadSessionJournal(
        pb.ReadSessionJournalRequest(subject=subject, session_id=session, page_size=1000),
        timeout=20,
    )
    return response


def search(stub: pb_grpc.JournalServiceStub, subject: str, text: str) -> pb.SearchEpisodesResponse:
    response: pb.SearchEpisodesResponse = stub.SearchEpisodes(
        pb.SearchEpisodesRequest(subject=subject, query_text=text, limit=5), timeout=20
    )
    return response


def audit(stub: pb_grpc.JournalServiceStub, subject: str, context_id: str, record: str) -> None:
    stub.RecordRetrievalAudit(
        pb.RecordRetrievalAuditRequest(
            context_id=context_id,
            subject=subject,
            session_id="s1",
            entries=[
                pb.RetrievalAuditEntry(
                    section="episodic_recall",
                    record_kind="episode",
                    record_id=record,
                    decision=pb.AUDIT_DECISION_EVALUATED,
                )
            ],
            request_id=str(uuid.uuid4()),
        ),
        timeout=20,
    )


def receipts(stub: pb_grpc.JournalServiceStub, context_id: str) -> list[str]:
    response = stub.ListReceipts(pb.ListReceiptsRequest(context_id=context_id), timeout=20)
    return [r for receipt in response.receipts for r in receipt.record_ids]


def plane_events(event: str) -> float:
    return PLANE_EVENTS.labels(plane="journal", event=event)._value.get()


def standby_receipt_scans(cluster: Cluster) -> int:
    with psycopg.connect(cluster.standby_url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(coalesce(idx_scan, 0) + coalesce(seq_scan, 0)), 0) "
            "FROM pg_stat_user_tables WHERE schemaname = 'journal' AND relname = 'receipts'"
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_caught_up_standby_serves_the_read_paths_with_complete_coverage(
    stub: pb_grpc.JournalServiceStub, replica_running: Cluster
) -> None:
    subject = f"caught-{uuid.uuid4().hex[:8]}"
    commit_turn(stub, "The heron nests by the mill pond", subject=subject)
    audit(stub, subject, f"ctx-{subject}", "r1")
    replica_running.wait_caught_up()

    found = caught_up(lambda: find(stub, subject, "heron"))
    assert [m.user_text for m in found.matches] == ["The heron nests by the mill pond"]
    absent = caught_up(lambda: find(stub, subject, "kingfisher"))
    assert not absent.matches
    assert absent.coverage.dimensions.temporal == cpb.DIMENSION_STATE_COMPLETE
    assert absent.coverage.verifier.ran and absent.coverage.verifier.agrees
    assert derive_absence(absent.coverage, 0) == AUTHORITATIVE

    session = caught_up(lambda: read_session(stub, subject, "s1"))
    assert len(session.events) == 1
    assert session.coverage.dimensions.temporal == cpb.DIMENSION_STATE_COMPLETE

    hits = caught_up(lambda: search(stub, subject, "heron pond"))
    assert [h.episode.user_text for h in hits.hits] == ["The heron nests by the mill pond"]

    # ListReceipts has no coverage: the standby's own statistics show it read
    # there (they reach the view within a second or so).
    before = standby_receipt_scans(replica_running)
    deadline = time.monotonic() + 20
    while True:
        assert receipts(stub, f"ctx-{subject}") == ["r1"]
        if standby_receipt_scans(replica_running) > before:
            break
        assert time.monotonic() < deadline, "ListReceipts did not read the standby"
        time.sleep(0.2)


def test_paused_replay_keeps_coverage_partial_until_replay_resumes(
    stub: pb_grpc.JournalServiceStub, replica_running: Cluster
) -> None:
    subject = f"paused-{uuid.uuid4().hex[:8]}"
    commit_turn(stub, "The otter sleeps under the bridge", subject=subject)
    replica_running.wait_caught_up()
    replica_running.on_standby("SELECT pg_wal_replay_pause()")
    behind_before = plane_events("read_replica_behind")

    # Written on the primary while the standby replays nothing.
    commit_turn(stub, "A badger crossed the lane at dusk", subject=subject)
    audit(stub, subject, f"ctx-{subject}", "r-paused")
    assert replica_running.replay_lag_bytes() > 0

    missed = find(stub, subject, "badger")
    assert not missed.matches  # the standby has not replayed it ...
    source = standby_source(missed.coverage)
    assert source.startswith(STANDBY + "behind reason=replay_behind ")
    assert "complete_through=" in source and "complete_through=unknown" not in source
    # ... so its coverage says so: never an authoritative absence.
    assert missed.coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL
    assert derive_absence(missed.coverage, 0) == IN_SCOPE
    assert derive_absence(find(stub, subject, "kingfisher").coverage, 0) == IN_SCOPE

    hits = search(stub, subject, "badger otter")
    assert hits.coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL
    assert "behind" in standby_source(hits.coverage)

    # Read-your-writes: a session page and the receipts come from the primary.
    session = read_session(stub, subject, "s1")
    assert [e.payload["user_text"] for e in session.events] == [
        "The otter sleeps under the bridge",
        "A badger crossed the lane at dusk",
    ]
    assert standby_source(session.coverage) == ""
    assert session.coverage.dimensions.temporal == cpb.DIMENSION_STATE_COMPLETE
    assert receipts(stub, f"ctx-{subject}") == ["r-paused"]
    assert plane_events("read_replica_behind") >= behind_before + 5

    time.sleep(read_replica.LAG_CACHE_SECONDS + 0.1)
    assert (REGISTRY.get_sample_value("engram_read_replica_lag_bytes") or 0) > 0
    assert (REGISTRY.get_sample_value("engram_read_replica_lag_seconds") or 0) > 0

    replica_running.on_standby("SELECT pg_wal_replay_resume()")
    replica_running.wait_caught_up()
    found = caught_up(lambda: find(stub, subject, "badger"))
    assert [m.user_text for m in found.matches] == ["A badger crossed the lane at dusk"]
    absent = caught_up(lambda: find(stub, subject, "kingfisher"))
    assert derive_absence(absent.coverage, 0) == AUTHORITATIVE
    deadline = time.monotonic() + 20
    while (
        REGISTRY.get_sample_value("engram_read_replica_lag_bytes"),
        REGISTRY.get_sample_value("engram_read_replica_lag_seconds"),
    ) != (0, 0):
        assert time.monotonic() < deadline, "the lag gauges did not return to 0"
        time.sleep(0.2)


@dataclass
class Observed:
    rpc: str
    started_after_acks: int
    standby: str
    events: int
    temporal: int


def reader(
    stub: pb_grpc.JournalServiceStub,
    subject: str,
    acked: Callable[[], int],
    stop: threading.Event,
    out: list[Observed],
    errors: list[BaseException],
) -> None:
    """Read the writer's session and search it until stopped; record what each
    call saw and how its coverage described it."""
    rpcs = ("read_session", "find", "search", "receipts")
    i = 0
    while not stop.is_set():
        rpc = rpcs[i % len(rpcs)]
        i += 1
        before = acked()
        try:
            if rpc == "read_session":
                response = read_session(stub, subject, "w")
                coverage, events = response.coverage, len(response.events)
            elif rpc == "find":
                found = find(stub, subject, "wren")
                coverage, events = found.coverage, found.coverage.cardinality.matched_before_limit
            elif rpc == "search":
                hits = search(stub, subject, "wren")
                coverage, events = hits.coverage, len(hits.hits)
            else:
                receipts(stub, f"ctx-{subject}")
                continue
        except BaseException as exc:  # every failure is a finding
            errors.append(exc)
            return
        out.append(
            Observed(
                rpc,
                before,
                standby_source(coverage),
                int(events),
                coverage.dimensions.temporal,
            )
        )


@pytest.fixture
def no_catch_up_wait(suite: Suite) -> Iterator[read_replica.ReadRouter]:
    """Reads do not wait for the standby to catch up: under writes some are
    then served behind, and their coverage must say so."""
    router = suite.bindings[0].servicer.plane.reads  # type: ignore[attr-defined]
    assert isinstance(router, read_replica.ReadRouter)
    router.catch_up_seconds = 0.0
    try:
        yield router
    finally:
        router.catch_up_seconds = read_replica.CATCH_UP_SECONDS


def test_a_standby_stopped_mid_run_is_replaced_by_the_primary(
    stub: pb_grpc.JournalServiceStub,
    replica_running: Cluster,
    no_catch_up_wait: read_replica.ReadRouter,
) -> None:
    subject = f"stopped-{uuid.uuid4().hex[:8]}"
    acks = [0]
    lock = threading.Lock()

    def acked() -> int:
        with lock:
            return acks[0]

    stop = threading.Event()
    errors: list[BaseException] = []
    observed: list[Observed] = []

    def writer() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            try:
                commit_turn(stub, f"wren sighting number {n}", subject=subject, session_id="w")
            except BaseException as exc:
                errors.append(exc)
                return
            with lock:
                acks[0] = n
            time.sleep(0.01)

    fallbacks_before = plane_events("read_replica_fallback")
    threads = [threading.Thread(target=writer)] + [
        threading.Thread(target=reader, args=(stub, subject, acked, stop, observed, errors))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 120  # a liveness bound, generous under load
        while sum(1 for o in observed if o.standby) < 12:
            assert not errors and time.monotonic() < deadline, errors
            time.sleep(0.05)
        replica_running.standby.stop(mode="immediate")  # like a crash, calls in flight
        stopped_at = len(observed)
        while len(observed) < stopped_at + 30:
            assert not errors and time.monotonic() < deadline, errors
            time.sleep(0.05)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
    assert not errors, errors
    assert plane_events("read_replica_fallback") > fallbacks_before
    after = observed[stopped_at + 6 :]  # calls that started once it was gone
    assert after and all(not o.standby for o in after)

    print(
        "reads:",
        sum(1 for o in observed if "caught_up" in o.standby),
        "standby caught up,",
        sum(1 for o in observed if ":behind " in o.standby),
        "standby behind,",
        sum(1 for o in observed if not o.standby),
        "primary",
    )
    for o in observed:
        complete = o.temporal == cpb.DIMENSION_STATE_COMPLETE
        if o.standby and not complete:
            assert o.standby.startswith(STANDBY + "behind reason=")
        if complete and o.rpc in ("read_session", "find"):
            # Complete coverage: every turn acknowledged before the call is there.
            assert o.events >= o.started_after_acks, o

    # Back again: the standby rejoins, catches up and serves.
    replica_running.standby.start()
    replica_running.wait_caught_up()
    deadline = time.monotonic() + 20
    while not standby_source(read_session(stub, subject, "w").coverage):
        assert time.monotonic() < deadline, "the standby was not used again"
        time.sleep(0.1)
    response = caught_up(lambda: read_session(stub, subject, "w"))
    assert len(response.events) == acked()


def test_bad_read_database_url_is_refused_naming_the_setting() -> None:
    from engram.errors import InvalidArgument

    with pytest.raises(InvalidArgument) as err:
        Settings.load(
            {"database_url": "postgresql://h/x", "read_database_url": "x=1"}, env={}
        ).validate()
    assert err.value.field == "read_database_url"
    with pytest.raises(InvalidArgument) as err:
        Settings.load({}, env={"ENGRAM_READ_DATABASE_URL": "postgresql://h/x"}).validate()
    assert err.value.field == "read_database_url"
    assert "database_url" in err.value.message


def test_a_server_that_is_not_a_standby_is_not_read(
    cluster: Cluster, tmp_path: Path, stub: pb_grpc.JournalServiceStub
) -> None:
    """read_database_url naming the primary itself (or a promoted standby):
    the router sees it is not in recovery and reads the primary."""
    settings = Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": cluster.url,
            "read_database_url": cluster.url,
            "data_dir": str(tmp_path / "data"),
            "embedder": "hashing",
            "workers_enabled": False,
            "grace_seconds": 0.5,
            "metrics_port": -1,
        },
        env={},
    )
    other = start_suite(settings, ["journal"])
    try:
        channel = open_channel(other.address, "")
        try:
            journal = pb_grpc.JournalServiceStub(channel)
            subject = f"notstandby-{uuid.uuid4().hex[:8]}"
            before = plane_events("read_replica_fallback")
            absent = find(journal, subject, "kingfisher")
            assert standby_source(absent.coverage) == ""
            assert derive_absence(absent.coverage, 0) == AUTHORITATIVE
            assert plane_events("read_replica_fallback") == before + 1
        finally:
            channel.close()
    finally:
        other.stop(grace=0.2)


def test_with_the_primary_down_the_standby_serves_behind(
    stub: pb_grpc.JournalServiceStub, replica_running: Cluster
) -> None:
    """The standby cannot know what the primary has committed meanwhile:
    SearchEpisodes and FindExact on it are PARTIAL (reason
    primary_unreachable); ReadSessionJournal and ListReceipts, which read the
    standby only when caught up, are UNAVAILABLE with the primary, never
    INTERNAL."""
    subject = f"primarydown-{uuid.uuid4().hex[:8]}"
    commit_turn(stub, "The kestrel hovers over the verge", subject=subject)
    replica_running.wait_caught_up()
    replica_running.primary.stop(mode="immediate")
    try:
        found = find(stub, subject, "kestrel")
        assert [m.user_text for m in found.matches] == ["The kestrel hovers over the verge"]
        source = standby_source(found.coverage)
        assert source.startswith(STANDBY + "behind reason=primary_unreachable ")
        absent = find(stub, subject, "kingfisher")
        assert derive_absence(absent.coverage, 0) == IN_SCOPE
        hits = search(stub, subject, "kestrel")
        assert [h.episode.user_text for h in hits.hits] == ["The kestrel hovers over the verge"]
        assert hits.coverage.dimensions.temporal == cpb.DIMENSION_STATE_PARTIAL
        for call in (
            lambda: read_session(stub, subject, "s1"),
            lambda: receipts(stub, f"ctx-{subject}"),
        ):
            with pytest.raises(grpc.RpcError) as err:
                call()
            assert err.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        replica_running.primary.start()
    replica_running.wait_caught_up()
    caught_up(lambda: find(stub, subject, "kestrel"))
