"""The resident index with synthetic vectors: BM25, dense search kinds and
ranges, snapshot application (copy-on-write), filters, compaction, merges
and side builds."""

from __future__ import annotations

import uuid

import numpy as np
import pytest

from retrieval_service import dense as dense_mod
from retrieval_service import snapshot as snapshot_mod
from retrieval_service.index import ResidentIndex
from retrieval_service.lexical import build_lexical, idf
from retrieval_service.records import (
    EpisodeRecord,
    Interner,
    Op,
    Remove,
    RemoveScope,
    Upsert,
    make_record,
)
from retrieval_service.segment import SegmentBuilder, build_segment, merge
from retrieval_service.snapshot import SearchRequest, Snapshot
from retrieval_service.text import term_counts

DIM = 16
RNG = np.random.default_rng(1234)


def unit(vector: np.ndarray) -> np.ndarray:
    result: np.ndarray = (vector / np.linalg.norm(vector)).astype(np.float32)
    return result


def random_unit() -> np.ndarray:
    return unit(RNG.standard_normal(DIM))


def record(
    interner: Interner,
    text: str = "",
    *,
    subject: str = "alice",
    workspace: str = "default",
    session: str = "s1",
    sessions: list[str] | None = None,
    seen: int = 0,
    vector: np.ndarray | None = None,
    episode_id: str | None = None,
    no_vector: bool = False,
) -> EpisodeRecord:
    return make_record(
        interner,
        episode_id=episode_id or str(uuid.uuid4()),
        subject=subject,
        workspace=workspace,
        session_id=session,
        session_ids=sessions or [session],
        last_seen_us=seen,
        user_text=text or "filler words here",
        assistant_text="ok",
        vector=None if no_vector else (vector if vector is not None else random_unit()),
    )


def request(
    text: str = "",
    vector: np.ndarray | None = None,
    *,
    subject: str = "alice",
    workspace: str = "default",
    exclude: str = "",
    start: int | None = None,
    end: int | None = None,
    window: int = 40,
) -> SearchRequest:
    return SearchRequest(subject, workspace, exclude, start, end, vector, text, window, window)


def snapshot_of(records: list[EpisodeRecord], interner: Interner, cursor: int = 1) -> Snapshot:
    base = build_segment(records, DIM)
    return Snapshot.from_base(base, interner, DIM, "test-model", cursor, 1)


# ------------------------------------------------------------------ text


def test_episodes_are_indexed_by_the_suite_index_terms() -> None:
    # engram.terms.index_terms over both texts: stop words dropped, Snowball stems.
    counts = term_counts("The meetings were PLANNED in Zürich!", "Meeting notes")
    assert counts == {"meet": 2, "plan": 1, "zürich": 1, "note": 1}
    assert term_counts("", "") == {}


# ------------------------------------------------------------------ lexical


def test_bm25_prefers_the_rarer_term_and_shorter_documents() -> None:
    interner = Interner()
    rare = record(interner, "zeppelin flight over the harbour")
    common = [record(interner, f"harbour walk number {i}") for i in range(20)]
    long_doc = record(interner, "zeppelin " + " ".join(f"word{i}" for i in range(50)))
    snap = snapshot_of([rare, long_doc, *common], interner)
    ranked = snap.search(request("zeppelin harbour")).lexical
    assert ranked.ids[0] == rare.episode_id
    assert ranked.ids[1] == long_doc.episode_id
    assert ranked.scores == sorted(ranked.scores, reverse=True)
    assert idf(1, 100) > idf(50, 100) > 0


def test_lexical_build_drops_empty_input() -> None:
    lexical = build_lexical(
        3, [], np.empty(0, np.int32), np.empty(0, np.int32), np.empty(0, np.uint16)
    )
    assert lexical.df("x") == 0
    assert lexical.score_range([("x", 1.0)], 0, 3, 1.0)[0].size == 0


# ------------------------------------------------------------------ dense


@pytest.mark.parametrize("kind", [dense_mod.KIND_EXACT, dense_mod.KIND_FLAT, dense_mod.KIND_HNSW])
def test_dense_kinds_search_a_range_and_honour_the_mask(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dense_mod, "EXACT_RANGE", 10)  # force HNSW on the ranges below
    vectors = np.stack([random_unit() for _ in range(400)])
    index = dense_mod.build_dense(kind, vectors, DIM)
    query = vectors[150].reshape(1, -1)
    rows, scores = index.search(query, 100, 300, 5, None)
    assert rows[0] == 150 and scores[0] == pytest.approx(1.0, abs=1e-5)
    assert all(100 <= r < 300 for r in rows)
    rows, _ = index.search(query, 0, 100, 5, None)
    assert 150 not in rows and all(r < 100 for r in rows)

    def no_150(lo: int, hi: int) -> np.ndarray:
        mask = np.ones(hi - lo, dtype=bool)
        if lo <= 150 < hi:
            mask[150 - lo] = False
        return mask

    rows, _ = index.search(query, 100, 300, 5, no_150)
    assert 150 not in rows and len(rows) == 5

    def only_three(lo: int, hi: int) -> np.ndarray:
        mask = np.zeros(hi - lo, dtype=bool)
        mask[[200 - lo, 201 - lo, 202 - lo]] = True
        return mask

    rows, _ = index.search(query, 100, 300, 5, only_three)
    assert sorted(rows) == [200, 201, 202]


def test_hnsw_recall_against_exact_on_clustered_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dense_mod, "EXACT_RANGE", 10)
    rng = np.random.default_rng(5)
    centres = rng.standard_normal((20, DIM))
    points = centres[rng.integers(0, 20, 3000)] + rng.standard_normal((3000, DIM)) * 0.3
    points = (points / np.linalg.norm(points, axis=1, keepdims=True)).astype(np.float32)
    hnsw = dense_mod.build_dense(dense_mod.KIND_HNSW, points, DIM)
    recalls = []
    for point in points[:50] + 0.01:
        q = unit(point).reshape(1, -1)
        exact = set(np.argsort(-(points @ q[0]))[:10])
        rows, _ = hnsw.search(q, 0, 3000, 10, None)
        recalls.append(len(exact & set(rows.tolist())) / 10)
    assert np.mean(recalls) >= 0.95


# ------------------------------------------------------------------ snapshot


def test_scope_filters_subject_and_workspace() -> None:
    interner = Interner()
    vector = random_unit()
    mine = record(interner, "shared words", vector=vector)
    other_subject = record(interner, "shared words", vector=vector, subject="bob")
    other_ws = record(interner, "shared words", vector=vector, workspace="lab")
    snap = snapshot_of([mine, other_subject, other_ws], interner)
    result = snap.search(request("shared words", vector))
    assert result.dense.ids == [mine.episode_id] and result.lexical.ids == [mine.episode_id]
    assert snap.search(request("shared", vector, subject="carol")).dense.ids == []
    assert snap.search(request("shared", vector, workspace="lab")).dense.ids == [
        other_ws.episode_id
    ]


def test_exclude_session_hides_only_episodes_said_only_there() -> None:
    interner = Interner()
    vector = random_unit()
    only_active = record(interner, "topic", session="active", vector=vector)
    also_elsewhere = record(
        interner, "topic", session="active", sessions=["old", "active"], vector=vector
    )
    elsewhere = record(interner, "topic", session="old", vector=vector)
    snap = snapshot_of([only_active, also_elsewhere, elsewhere], interner)
    result = snap.search(request("topic", vector, exclude="active"))
    expected = {also_elsewhere.episode_id, elsewhere.episode_id}
    assert set(result.dense.ids) == expected and set(result.lexical.ids) == expected


def test_time_window_is_half_open_on_last_seen() -> None:
    interner = Interner()
    vector = random_unit()
    early, middle, late = (
        record(interner, "event", seen=t, vector=vector) for t in (100, 200, 300)
    )
    snap = snapshot_of([early, middle, late], interner)
    result = snap.search(request("event", vector, start=200, end=300))
    assert result.dense.ids == [middle.episode_id] and result.lexical.ids == [middle.episode_id]


def test_apply_is_copy_on_write() -> None:
    interner = Interner()
    kept, removed = record(interner, "apple"), record(interner, "apple")
    old = snapshot_of([kept, removed], interner)
    new = old.apply([Remove(2, removed.key_hi, removed.key_lo)], 2, 2)
    assert new.applied_cursor == 2 and old.applied_cursor == 1
    assert set(old.search(request("apple")).lexical.ids) == {kept.episode_id, removed.episode_id}
    assert new.search(request("apple")).lexical.ids == [kept.episode_id]
    assert not old.alive[0].flags.writeable and not new.alive[0].flags.writeable
    assert old.alive[0].all() and new.tombstones == 1


def test_upsert_replaces_and_ops_at_or_below_the_cursor_are_skipped() -> None:
    interner = Interner()
    first = record(interner, "old words", no_vector=True)
    snap = snapshot_of([first], interner, cursor=5)
    vector = random_unit()
    again = record(interner, "old words", vector=vector, episode_id=first.episode_id)
    assert snap.search(request("old", vector)).dense.ids == []  # lexical only so far
    updated = snap.apply([Upsert(6, again)], 6, 2)
    assert updated.live == 1 and updated.tombstones == 1
    assert updated.search(request("old", vector)).dense.ids == [first.episode_id]
    stale = updated.apply([Remove(6, first.key_hi, first.key_lo)], 6, 3)
    assert stale is updated


def test_remove_scope_purges_one_workspace_or_all() -> None:
    interner = Interner()
    records = [
        record(interner, "x", workspace=ws, subject=s)
        for s in ("alice", "bob")
        for ws in ("default", "lab")
    ]
    snap = snapshot_of(records, interner)
    alice = interner.lookup("alice")
    one = snap.apply([RemoveScope(2, alice, interner.lookup("lab"))], 2, 2)
    assert one.live == 3
    every = snap.apply([RemoveScope(2, alice, -1)], 2, 2)
    assert every.live == 2
    assert every.search(request("x")).lexical.ids == []
    assert every.search(request("x", subject="bob")).lexical.ids


def test_purge_then_upsert_in_one_batch_keeps_the_new_episode() -> None:
    interner = Interner()
    old = record(interner, "x")
    snap = snapshot_of([old], interner)
    new = record(interner, "x")
    alice = interner.lookup("alice")
    batch: list[Op] = [Upsert(2, record(interner, "x")), RemoveScope(3, alice, -1), Upsert(4, new)]
    after = snap.apply(batch, 4, 2)
    assert after.search(request("x")).lexical.ids == [new.episode_id]


def test_small_segments_compact_and_merge_keeps_results() -> None:
    interner = Interner()
    snap = snapshot_of([record(interner, "base doc") for _ in range(50)], interner)
    added = []
    for cursor in range(2, 40):
        item = record(interner, f"kiwi {cursor}")
        added.append(item)
        snap = snap.apply([Upsert(cursor, item)], cursor, cursor)
    assert len(snap.segments) - 1 <= snapshot_mod.MAX_SMALL_SEGMENTS
    assert snap.live == 50 + len(added)
    snap = snap.apply([Remove(99, added[0].key_hi, added[0].key_lo)], 99, 99)
    before = snap.search(request("kiwi", added[5].vector))
    merged = snap.merged(100)
    assert len(merged.segments) == 1 and merged.tombstones == 0 and merged.live == snap.live
    after = merged.search(request("kiwi", added[5].vector))
    assert after.dense.ids[0] == before.dense.ids[0] == added[5].episode_id
    assert set(after.lexical.ids) == set(before.lexical.ids)
    assert added[0].episode_id not in after.lexical.ids


def test_builder_deduplicates_and_drops_removed_rows() -> None:
    interner = Interner()
    builder = SegmentBuilder(DIM)
    a = record(interner, "one")
    builder.add(a)
    builder.add(record(interner, "two", episode_id=a.episode_id))
    b = record(interner, "three", subject="bob")
    builder.add(b)
    builder.remove_scope(interner.lookup("bob"), -1)
    segment = builder.build()
    assert segment.rows == 1 and segment.lexical.df("two") == 1 and segment.lexical.df("one") == 0
    assert segment.find(a.key_hi, a.key_lo) == 0 and segment.find(b.key_hi, b.key_lo) == -1
    both = merge(
        [segment, build_segment([b], DIM)], [np.ones(1, bool), np.ones(1, bool)], None, DIM
    )
    assert both.rows == 2 and both.find(b.key_hi, b.key_lo) >= 0


def test_side_build_replays_ops_logged_while_it_ran() -> None:
    interner = Interner()
    index = ResidentIndex(DIM, "test-model")
    index.interner = interner
    index.auto_merge = False
    first = record(interner, "first")
    index.install(snapshot_of([first], interner, cursor=1), interner)
    with index.side_build(wait=True) as acquired:
        assert acquired
        built = index.snapshot.merged(index.next_generation())  # type: ignore[union-attr]
        late = record(interner, "late")
        index.apply([Upsert(2, late), Remove(3, first.key_hi, first.key_lo)], 3)
        published = index.publish_side_build(built)
    assert published.applied_cursor == 3
    assert published.search(request("late first")).lexical.ids == [late.episode_id]
    assert index.snapshot is published


def test_background_merge_triggers_and_preserves_the_corpus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import retrieval_service.index as index_mod

    monkeypatch.setattr(index_mod, "MERGE_MIN_ROWS", 5)
    interner = Interner()
    index = ResidentIndex(DIM, "test-model")
    index.install(snapshot_of([record(interner, "base")], interner), interner)
    for cursor in range(2, 12):
        index.apply([Upsert(cursor, record(interner, "more"))], cursor)
    index.join_merge(timeout=30)
    snap = index.snapshot
    assert snap is not None and snap.live == 11
    assert len(snap.segments) <= 3


def test_hnsw_base_skips_tombstones_by_overfetching_or_bitmap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dense_mod, "EXACT_RANGE", 10)
    interner = Interner()
    records = [record(interner, "word") for _ in range(300)]
    base = build_segment(records, DIM, dense_mod.KIND_HNSW)
    snap = Snapshot.from_base(base, interner, DIM, "test-model", 1, 1)
    query = records[7].vector
    assert snap.search(request("", query)).dense.ids[0] == records[7].episode_id
    few = snap.apply([Remove(2, records[7].key_hi, records[7].key_lo)], 2, 2)
    result = few.search(request("", query, window=10))
    assert records[7].episode_id not in result.dense.ids and len(result.dense.ids) == 10
    monkeypatch.setattr(dense_mod, "OVERFETCH_MAX", 0)  # forces the bitmap selector
    result = few.search(request("", query, window=10))
    assert records[7].episode_id not in result.dense.ids and len(result.dense.ids) == 10
