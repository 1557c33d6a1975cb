"""The read replica's coverage rule (memory_service.read_replica.Served and
engram.coverage.replica_coverage) on hand-built positions: complete only when
the standby had replayed everything and its watermark is not below the
primary's; otherwise temporal PARTIAL, so never ABSENT_AUTHORITATIVE."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from engram.common.v1 import common_pb2 as cpb
from engram.coverage import CoverageContractError, build_coverage, derive_absence, replica_coverage
from engram.errors import InvalidArgument, Unavailable
from memory_service.read_replica import (
    PRIMARY,
    PrimaryPosition,
    Replay,
    Served,
    _server_failed,
    format_lsn,
)
from tests.unit.test_serve_preflight import assert_refused, serve

COMPLETE = cpb.DIMENSION_STATE_COMPLETE
PARTIAL = cpb.DIMENSION_STATE_PARTIAL
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def exact_absence(watermark: int = 100, temporal: int = COMPLETE) -> cpb.Coverage:
    """A FindExact-shaped coverage of an authoritative absence."""
    return build_coverage(
        read_path="journal.find_exact.v1",
        source_systems=["postgresql:journal.events"],
        query={"terms": ["heron"]},
        returned=0,
        limit=20,
        matched_before_limit=0,
        exactness=cpb.EXACTNESS_EXACT,
        semantic=COMPLETE,
        field=COMPLETE,
        temporal=temporal,  # type: ignore[arg-type]
        visibility=COMPLETE,
        normalization=COMPLETE,
        verifier=cpb.Verifier(ran=True, read_path="v", source_system="s", count=0, agrees=True),
        snapshot_version=str(watermark),
    )


def served(primary_lsn: int | None, replay_lsn: int, primary_watermark: int = 100) -> Served:
    primary = (
        None
        if primary_lsn is None
        else PrimaryPosition(primary_lsn, primary_watermark, NOW + timedelta(seconds=5))
    )
    return Served(standby=True, primary=primary, replay=Replay(replay_lsn, NOW, NOW))


def test_the_primary_leaves_coverage_as_it_is() -> None:
    coverage = exact_absence()
    assert PRIMARY.coverage(coverage) is coverage


def test_a_caught_up_standby_keeps_complete_coverage_and_names_itself() -> None:
    coverage = served(primary_lsn=0x3000100, replay_lsn=0x3000100).coverage(exact_absence())
    assert coverage.dimensions.temporal == COMPLETE
    assert derive_absence(coverage, 0) == cpb.ABSENCE_STATE_ABSENT_AUTHORITATIVE
    assert coverage.source_systems[-1] == (
        "postgresql-standby:caught_up replay_lsn=0/3000100 primary_lsn=0/3000100 "
        "watermark=100 primary_watermark=100 complete_through=2026-12-01T12:00:05+00:00"
    )


@pytest.mark.parametrize(
    ("primary_lsn", "replay_lsn", "primary_watermark", "reason"),
    [
        (0x3000200, 0x3000100, 100, "replay_behind"),
        # Replayed as far, yet its snapshot's watermark is below the primary's.
        (0x3000100, 0x3000100, 101, "watermark_behind"),
        (None, 0x3000100, 100, "primary_unreachable"),
    ],
)
def test_a_standby_behind_is_partial_through_its_replay_time(
    primary_lsn: int | None, replay_lsn: int, primary_watermark: int, reason: str
) -> None:
    coverage = served(primary_lsn, replay_lsn, primary_watermark).coverage(exact_absence())
    assert coverage.dimensions.temporal == PARTIAL
    assert derive_absence(coverage, 0) == cpb.ABSENCE_STATE_ABSENT_IN_SCOPE
    source = coverage.source_systems[-1]
    assert source.startswith(f"postgresql-standby:behind reason={reason} ")
    assert source.endswith(" complete_through=2026-12-01T12:00:00+00:00")


def test_replica_coverage_only_weakens_and_refuses_a_broken_seal() -> None:
    partial = exact_absence(temporal=PARTIAL)
    assert replica_coverage(partial, standby_source="x", caught_up=True).dimensions.temporal == (
        PARTIAL
    )
    tampered = exact_absence()
    tampered.cardinality.matched_before_limit = 3
    with pytest.raises(CoverageContractError):
        replica_coverage(tampered, standby_source="x", caught_up=True)


def test_only_server_failures_send_a_read_to_the_primary() -> None:
    assert _server_failed(psycopg.OperationalError("server closed the connection"))
    assert _server_failed(Unavailable("database unavailable", reason="DATABASE_UNAVAILABLE"))
    assert not _server_failed(Unavailable("the query embedder is unavailable"))
    assert not _server_failed(InvalidArgument("terms", "normalises to nothing"))
    assert not _server_failed(psycopg.errors.ReadOnlySqlTransaction("a write on the standby"))


def test_lsn_text_form() -> None:
    assert format_lsn(0x3001F28) == "0/3001F28"
    assert format_lsn((0x1A << 32) + 0xFF) == "1A/FF"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["--database-url", "postgresql://h/x", "--read-database-url", "x=1"],
            "read_database_url: is not a PostgreSQL URL",
        ),
        (["--read-database-url", "postgresql://h/x"], "read_database_url: needs database_url"),
    ],
)
def test_serve_refuses_a_bad_read_database_url(
    tmp_path: Path, args: list[str], needle: str
) -> None:
    assert_refused(serve(tmp_path, *args), 2, needle)
    assert not (tmp_path / "data").exists(), "nothing may be started or created"
