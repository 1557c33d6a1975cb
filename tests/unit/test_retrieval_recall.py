"""Recall path choice, coverage handling, rebuilds, the change-feed mapping
and persistence, with an in-memory stand-in for the journal's gRPC client."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engram import coverage as cov
from engram.common.v1 import common_pb2 as cpb
from engram.embedding import HashingEmbedder
from engram.errors import FailedPrecondition, Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from retrieval_service import persist
from retrieval_service.changes import ops_from_change
from retrieval_service.follower import Freshness
from retrieval_service.index import ResidentIndex
from retrieval_service.journal_client import JournalFailed
from retrieval_service.rebuild import Rebuilder
from retrieval_service.recall import Recaller, RecallQuery, ShadowStats
from retrieval_service.records import Interner, Remove, RemoveScope, Upsert

EMBEDDER = HashingEmbedder(384)
MODEL = EMBEDDER.name


def episode(
    text: str, *, subject: str = "alice", session: str = "s1", embedded: bool = True
) -> jpb.Episode:
    message = jpb.Episode(
        episode_id=str(uuid.uuid4()),
        subject=subject,
        workspace="default",
        session_id=session,
        session_ids=[session],
        user_text=text,
        assistant_text="ok",
    )
    message.last_seen_at.FromSeconds(1_700_000_000)
    if embedded:
        message.embedding.extend(EMBEDDER.embed_one(f"User: {text}\nAssistant: ok").tolist())
        message.embedding_model = MODEL
    return message


class FakeJournal:
    """Answers like JournalService: a visible-episode table and a change log."""

    def __init__(self) -> None:
        self.episodes: dict[str, jpb.Episode] = {}
        self.changes: list[jpb.Change] = []
        self.down = False
        self.search_coverage: cpb.Coverage | None = None
        self.block_stream = threading.Event()
        self.calls: list[str] = []

    def commit(self, ep: jpb.Episode) -> None:
        self.episodes[ep.episode_id] = ep
        self._change(jpb.CHANGE_KIND_EPISODE_EMBEDDED, ep)

    def quarantine(self, episode_id: str) -> None:
        del self.episodes[episode_id]
        self.changes.append(
            jpb.Change(
                cursor=len(self.changes) + 1,
                kind=jpb.CHANGE_KIND_RECORD_QUARANTINED,
                record_kind=jpb.RECORD_KIND_EPISODE,
                record_id=episode_id,
            )
        )

    def _change(self, kind: jpb.ChangeKind.ValueType, ep: jpb.Episode) -> None:
        self.changes.append(
            jpb.Change(
                cursor=len(self.changes) + 1,
                kind=kind,
                subject=ep.subject,
                workspace=ep.workspace,
                record_kind=jpb.RECORD_KIND_EPISODE,
                record_id=ep.episode_id,
                episode=ep,
            )
        )

    def _check(self, what: str) -> None:
        self.calls.append(what)
        if self.down:
            raise Unavailable(f"journal {what}: UNAVAILABLE")

    def batch_get(self, ids: list[str], context_turns: int = 0) -> list[jpb.Episode]:
        self._check("BatchGetEpisodes")
        return [self.episodes[i] for i in ids if i in self.episodes]

    def search_episodes(self, request: jpb.SearchEpisodesRequest) -> jpb.SearchEpisodesResponse:
        self._check("SearchEpisodes")
        words = set(request.query_text.lower().split())
        hits = [
            jpb.EpisodeHit(episode=e, score=1.0, lexical_rank=i + 1)
            for i, e in enumerate(
                e
                for e in self.episodes.values()
                if e.subject == request.subject and words & set(e.user_text.lower().split())
            )
        ]
        hits = hits[: request.limit]
        coverage = self.search_coverage or cov.build_coverage(
            read_path="journal.search_episodes.v1",
            source_systems=["postgresql"],
            query=request.query_text,
            returned=len(hits),
            limit=request.limit,
            matched_before_limit=None,
            exactness=cpb.EXACTNESS_UNKNOWN,
            semantic=cpb.DIMENSION_STATE_UNKNOWN,
            field=cpb.DIMENSION_STATE_COMPLETE,
            temporal=cpb.DIMENSION_STATE_COMPLETE,
            visibility=cpb.DIMENSION_STATE_COMPLETE,
            normalization=cpb.DIMENSION_STATE_PARTIAL,
        )
        return jpb.SearchEpisodesResponse(hits=hits, coverage=coverage)

    def stream_changes(self, after_cursor: int, *, follow: bool) -> Any:
        self._check("StreamChanges")
        journal = self

        class Stream:
            def __iter__(self) -> Iterator[jpb.StreamChangesResponse]:
                if journal.block_stream.is_set():
                    while journal.block_stream.is_set():
                        time.sleep(0.01)
                pending = [c for c in journal.changes if c.cursor > after_cursor]
                mark = len(journal.changes)
                for start in range(0, len(pending), 2):
                    yield jpb.StreamChangesResponse(
                        changes=pending[start : start + 2], watermark=mark
                    )
                yield jpb.StreamChangesResponse(watermark=mark)

            def cancel(self) -> None:
                journal.block_stream.clear()

        return Stream()


def query(text: str, limit: int = 5, **fields: Any) -> RecallQuery:
    base: dict[str, Any] = {
        "query_text": text,
        "subject": "alice",
        "workspace": "default",
        "exclude_session_id": "",
        "limit": limit,
        "start": None,
        "end": None,
        "vector": None,
    }
    base.update(fields)
    return RecallQuery(**base)


@pytest.fixture
def journal() -> FakeJournal:
    fake = FakeJournal()
    for text in ("the cat is named Pixel", "Maya lives in Lisbon", "budget review in March"):
        fake.commit(episode(text))
    fake.commit(episode("bob has a cat too", subject="bob"))
    return fake


def built_index(journal: FakeJournal) -> tuple[ResidentIndex, Rebuilder]:
    index = ResidentIndex(EMBEDDER.dimension, MODEL)
    rebuilder = Rebuilder(index, journal)  # type: ignore[arg-type]
    job = rebuilder.start("r1")
    assert job.wait(10)
    assert job.progress.published, job.progress.last_error
    return index, rebuilder


def recaller(
    index: ResidentIndex, journal: FakeJournal, *, fresh: bool = True, **options: Any
) -> Recaller:
    freshness = Freshness()
    if fresh:
        freshness.observe(1, 1)
    settings: dict[str, Any] = {
        "staleness_limit": 60.0,
        "shadow_mode": False,
        "serving_enabled": True,
    }
    settings.update(options)
    return Recaller(index, freshness, journal, EMBEDDER, **settings)  # type: ignore[arg-type]


def test_rebuild_replays_the_feed_and_publishes(journal: FakeJournal) -> None:
    index, rebuilder = built_index(journal)
    snapshot = index.snapshot
    assert snapshot is not None and snapshot.live == 4
    assert snapshot.applied_cursor == len(journal.changes)
    progress = rebuilder.progress
    assert progress.done == progress.total == 4 and not progress.running
    assert rebuilder.start("r1").progress.generation == progress.generation  # replayed


def test_a_second_rebuild_while_one_runs_is_refused(journal: FakeJournal) -> None:
    index = ResidentIndex(EMBEDDER.dimension, MODEL)
    rebuilder = Rebuilder(index, journal)  # type: ignore[arg-type]
    journal.block_stream.set()
    job = rebuilder.start()
    with pytest.raises(FailedPrecondition) as raised:
        rebuilder.start()
    assert raised.value.reason == "REBUILD_IN_PROGRESS"
    journal.block_stream.clear()
    assert job.wait(10) and job.progress.published


def test_resident_recall_serves_confirmed_hits(journal: FakeJournal) -> None:
    index, _ = built_index(journal)
    result = recaller(index, journal).recall(query("cat named Pixel"))
    assert result.served_by == "resident" and result.fallback_reason == "none"
    assert result.hits[0].episode.user_text == "the cat is named Pixel"
    assert all(h.episode.subject == "alice" for h in result.hits)
    cov.validate(result.coverage)
    assert result.coverage.read_path == "retrieval.resident.v1"
    assert result.coverage.snapshot_version == str(len(journal.changes))
    assert result.embed_micros > 0 and result.search_micros > 0


def test_quarantined_hits_are_withheld_before_the_follower_sees_them(journal: FakeJournal) -> None:
    index, _ = built_index(journal)
    target = next(e for e in journal.episodes.values() if "Pixel" in e.user_text)
    journal.quarantine(target.episode_id)  # the index has not applied it
    result = recaller(index, journal).recall(query("cat named Pixel", limit=10))
    assert result.served_by == "resident"
    assert target.episode_id not in [h.episode.episode_id for h in result.hits]


def test_unreachable_journal_during_confirmation_is_unavailable(journal: FakeJournal) -> None:
    index, _ = built_index(journal)
    journal.down = True
    result = recaller(index, journal).recall(query("cat"))
    assert result.served_by == "none" and not result.hits
    assert result.coverage.outcome == cpb.SEARCH_OUTCOME_UNAVAILABLE
    assert cov.derive_absence(result.coverage, 0) == cpb.ABSENCE_STATE_UNAVAILABLE


@pytest.mark.parametrize(
    ("options", "fresh", "reason"),
    [
        ({"serving_enabled": False}, True, "disabled"),
        ({"shadow_mode": True}, True, "shadow"),
        ({}, False, "stale"),
    ],
)
def test_fallback_reasons(
    journal: FakeJournal, options: dict[str, Any], fresh: bool, reason: str
) -> None:
    index, _ = built_index(journal)
    r = recaller(index, journal, fresh=fresh, **options)
    result = r.recall(query("cat"))
    assert result.served_by == "fallback" and result.fallback_reason == reason
    assert result.coverage.read_path == "journal.search_episodes.v1"
    assert r.fallbacks_total == 1


def test_not_ready_falls_back(journal: FakeJournal) -> None:
    index = ResidentIndex(EMBEDDER.dimension, MODEL)
    result = recaller(index, journal).recall(query("cat"))
    assert result.fallback_reason == "not_ready" and result.served_by == "fallback"


def test_index_error_falls_back(journal: FakeJournal) -> None:
    index, _ = built_index(journal)

    def broken() -> None:
        raise RuntimeError("simulated index fault")

    r = Recaller(
        index,
        Freshness(),
        journal,
        EMBEDDER,  # type: ignore[arg-type]
        staleness_limit=float("inf"),
        shadow_mode=False,
        serving_enabled=True,
        resident_guard=broken,
    )
    result = r.recall(query("cat"))
    assert result.served_by == "fallback" and result.fallback_reason == "index_error"


def test_tampered_fallback_coverage_becomes_failed(journal: FakeJournal) -> None:
    index = ResidentIndex(EMBEDDER.dimension, MODEL)
    honest = journal.search_episodes(
        jpb.SearchEpisodesRequest(query_text="cat", subject="alice", limit=5)
    )
    tampered = cpb.Coverage()
    tampered.CopyFrom(honest.coverage)
    tampered.cardinality.limit = 99  # changes the sealed content
    journal.search_coverage = tampered
    result = recaller(index, journal).recall(query("cat"))
    assert result.served_by == "none" and not result.hits
    assert result.coverage.outcome == cpb.SEARCH_OUTCOME_FAILED
    assert cov.derive_absence(result.coverage, 0) == cpb.ABSENCE_STATE_FAILED


def test_unreachable_journal_on_fallback_is_unavailable(journal: FakeJournal) -> None:
    journal.down = True
    index = ResidentIndex(EMBEDDER.dimension, MODEL)
    result = recaller(index, journal).recall(query("cat"))
    assert result.served_by == "none"
    assert result.coverage.outcome == cpb.SEARCH_OUTCOME_UNAVAILABLE


def test_shadow_stats() -> None:
    stats = ShadowStats()
    stats.record(["a", "b"], ["a", "c"])
    stats.record([], [])
    stats.record(["x"], ["y"])
    comparisons, overlap, top1 = stats.view()
    assert comparisons == 3
    assert overlap == pytest.approx((0.5 + 1.0 + 0.0) / 3)
    assert top1 == pytest.approx(2 / 3)


def test_change_mapping() -> None:
    interner = Interner()
    ep = episode("hello there")
    upsert = ops_from_change(
        jpb.Change(
            cursor=1,
            kind=jpb.CHANGE_KIND_EPISODE_UPSERTED,
            record_kind=jpb.RECORD_KIND_EPISODE,
            record_id=ep.episode_id,
            episode=ep,
        ),
        interner,
        384,
        MODEL,
    )
    assert isinstance(upsert[0], Upsert) and upsert[0].record.vector is not None
    other_model = ops_from_change(
        jpb.Change(
            cursor=2,
            kind=jpb.CHANGE_KIND_EPISODE_EMBEDDED,
            record_kind=jpb.RECORD_KIND_EPISODE,
            record_id=ep.episode_id,
            episode=ep,
        ),
        interner,
        384,
        "another-model",
    )
    assert isinstance(other_model[0], Upsert) and other_model[0].record.vector is None
    bodiless = ops_from_change(
        jpb.Change(
            cursor=3,
            kind=jpb.CHANGE_KIND_EPISODE_EMBEDDED,
            record_kind=jpb.RECORD_KIND_EPISODE,
            record_id=ep.episode_id,
        ),
        interner,
        384,
        MODEL,
    )
    assert isinstance(bodiless[0], Remove)
    purge = ops_from_change(
        jpb.Change(cursor=4, kind=jpb.CHANGE_KIND_SUBJECT_PURGED, subject="alice"),
        interner,
        384,
        MODEL,
    )
    assert purge == [RemoveScope(4, interner.lookup("alice"), -1)]
    assert (
        ops_from_change(
            jpb.Change(cursor=5, kind=jpb.CHANGE_KIND_SUBJECT_PURGED, subject="stranger"),
            interner,
            384,
            MODEL,
        )
        == []
    )
    assert (
        ops_from_change(
            jpb.Change(
                cursor=6,
                kind=jpb.CHANGE_KIND_EVENT_APPENDED,
                record_kind=jpb.RECORD_KIND_EVENT,
                record_id="7",
            ),
            interner,
            384,
            MODEL,
        )
        == []
    )


def test_persist_round_trip_and_model_check(journal: FakeJournal, tmp_path: Path) -> None:
    index, _ = built_index(journal)
    snapshot = index.snapshot
    assert snapshot is not None
    target = next(iter(journal.episodes.values()))
    from retrieval_service.records import split_key

    hi, lo = split_key(target.episode_id)
    snapshot = snapshot.apply([Remove(99, hi, lo)], 99, 99)
    persist.save(snapshot, tmp_path)
    loaded = persist.load(tmp_path, EMBEDDER.dimension, MODEL)
    assert loaded is not None
    restored, interner = loaded
    assert restored.applied_cursor == 99 and restored.live == snapshot.live
    assert interner.values() == snapshot.interner.values()
    vector = EMBEDDER.embed_one("Maya lives in Lisbon")
    from retrieval_service.snapshot import SearchRequest

    request = SearchRequest("alice", "default", "", None, None, vector, "Maya Lisbon", 40, 40)
    assert restored.search(request) == snapshot.search(request)
    assert persist.load(tmp_path, EMBEDDER.dimension, "other-model") is None
    assert not list(tmp_path.glob("*.tmp"))


def test_persist_ignores_a_missing_or_corrupt_manifest(tmp_path: Path) -> None:
    assert persist.load(tmp_path, 384, MODEL) is None
    (tmp_path / "manifest.json").write_text("{not json")
    assert persist.load(tmp_path, 384, MODEL) is None


def test_query_vector_round_trip_is_unit_norm() -> None:
    vector = EMBEDDER.embed_one("x")
    assert float(np.linalg.norm(vector)) == pytest.approx(1.0, abs=1e-5)


def test_journal_failed_is_not_unavailable() -> None:
    assert not issubclass(JournalFailed, Unavailable)
