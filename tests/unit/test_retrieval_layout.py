"""A snapshot's answer depends on which episodes it holds, never on how they
are split into segments: one fresh base (a replica that built from the feed)
and a base with feed segments and tombstones (a replica that followed the
feed from a persisted snapshot) rank the same episodes identically, scores
bit for bit, including ties among identical vectors and texts."""

from __future__ import annotations

import threading
import uuid

import numpy as np
import pytest

from engram import ranking
from retrieval_service import dense as dense_mod
from retrieval_service.index import ResidentIndex
from retrieval_service.records import EpisodeRecord, Interner, Op, Remove, Upsert, make_record
from retrieval_service.segment import build_segment
from retrieval_service.snapshot import SearchRequest, Snapshot

DIM = 384  # wide enough for BLAS rounding to depend on a row's position
WORDS = ["harbour", "violin", "lisbon", "budget", "pixel", "marathon", "ok", "thanks"]


def _records(
    interner: Interner, rng: np.random.Generator, count: int, duplicates: int
) -> list[EpisodeRecord]:
    shared = rng.standard_normal(DIM)
    records = []
    for i in range(count):
        # The first `duplicates` episodes share one vector and one text: exact ties.
        raw = shared if i < duplicates else rng.standard_normal(DIM)
        vector = (raw / np.linalg.norm(raw)).astype(np.float32)
        words = "ok thanks" if i < duplicates else " ".join(rng.choice(WORDS, size=4))
        records.append(
            make_record(
                interner,
                episode_id=str(uuid.UUID(int=int(rng.integers(1 << 62)) << 64 | i)),
                subject="alice",
                workspace="default",
                session_id=f"s{i % 5}",
                session_ids=[f"s{i % 5}"],
                last_seen_us=1_000_000 * i,
                first_seen_us=1_000_000 * i,
                user_text=words,
                assistant_text="noted",
                vector=vector,
            )
        )
    return records


def _layouts(seed: int) -> tuple[Snapshot, Snapshot]:
    """(one base, base + feed segments + tombstones) over the same live episodes."""
    rng = np.random.default_rng(seed)
    interner = Interner()
    records = _records(interner, rng, 400, duplicates=60)
    removed = {int(i) for i in rng.choice(len(records), size=40, replace=False)}
    live = [r for i, r in enumerate(records) if i not in removed]
    fresh = Snapshot.from_base(build_segment(live, DIM), interner, DIM, "m", 100, 1)

    # The follower's view: a base of the first half, then the rest in
    # batches, with every episode of the first half upserted again (replaced
    # rows) and the removals arriving last.
    half = len(records) // 2
    followed = Snapshot.from_base(build_segment(records[:half], DIM), interner, DIM, "m", 1, 1)
    cursor = 2
    batches: list[list[Op]] = []
    for start in range(half, len(records), 37):
        batches.append([Upsert(cursor + j, r) for j, r in enumerate(records[start : start + 37])])
        cursor += 37
    batches.append([Upsert(cursor + j, r) for j, r in enumerate(records[:half])])
    cursor += half
    batches.append(
        [Remove(cursor + j, records[i].key_hi, records[i].key_lo) for j, i in enumerate(removed)]
    )
    cursor += len(removed)
    for generation, batch in enumerate(batches, start=2):
        followed = followed.apply(batch, max(op.cursor for op in batch), generation)
    assert followed.tombstones > 0 and len(followed.segments) > 1
    assert followed.live == fresh.live
    return fresh, followed


def _answer(snapshot: Snapshot, text: str, vector: np.ndarray | None, window: int) -> object:
    query = ranking.prepare_query(text, [])
    request = SearchRequest("alice", "default", "", None, None, vector, query.text, window, window)
    candidates = snapshot.candidates(request, query)
    ranked = ranking.rank(candidates, query, None)
    return (
        [candidates.ids[i] for i in ranked.order],
        ranked.scores,
        ranked.dense_rank,
        ranked.lexical_rank,
    )


@pytest.mark.parametrize("seed", range(6))
def test_one_base_and_a_followed_layout_rank_alike(seed: int) -> None:
    fresh, followed = _layouts(seed)
    rng = np.random.default_rng(1000 + seed)
    duplicate = followed.segments[0].dense.vectors[0]
    for text, vector in [
        ("ok thanks", duplicate),  # 60 exact ties on both lists
        ("violin lisbon", None),
        ("budget pixel marathon", (v := rng.standard_normal(DIM)) / np.linalg.norm(v)),
        ("", duplicate),
    ]:
        vec = None if vector is None else np.asarray(vector, dtype=np.float32)
        for window in (10, 40, 100):
            assert _answer(fresh, text, vec, window) == _answer(followed, text, vec, window)


def test_exact_scores_do_not_depend_on_the_rows_scored_with_it() -> None:
    rng = np.random.default_rng(5)
    vectors = rng.standard_normal((3000, DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    query = vectors[17]
    every = dense_mod.exact_scores(vectors, np.arange(3000), query)
    subsets = [np.arange(lo, lo + 1001) for lo in range(40)]
    for rows in [np.array([7]), np.arange(3, 2990, 7), np.arange(2999, -1, -1), *subsets]:
        assert dense_mod.exact_scores(vectors, rows, query).tolist() == every[rows].tolist()


def test_exact_search_keeps_rows_within_rounding_of_the_kth() -> None:
    vectors = np.tile(np.eye(DIM, dtype=np.float32)[:1], (30, 1))
    index = dense_mod.build_dense(dense_mod.KIND_EXACT, vectors, DIM)
    rows, _scores = index.search(vectors[:1], 0, 30, 5, None)
    assert sorted(rows.tolist()) == list(range(30))  # 30 ties: every one a candidate


def test_wait_for_cursor_returns_once_a_snapshot_reaches_it() -> None:
    index = ResidentIndex(DIM, "m")
    assert index.wait_for_cursor(1, 0.0) is None  # nothing published yet
    index.install(Snapshot.empty(index.interner, DIM, "m", cursor=5))
    assert index.wait_for_cursor(3, 0.0).applied_cursor == 5  # type: ignore[union-attr]
    # Not reached within the wait: the current (older) snapshot comes back.
    assert index.wait_for_cursor(9, 0.01).applied_cursor == 5  # type: ignore[union-attr]
    started = threading.Event()

    def follow() -> None:
        started.wait()
        for cursor in (7, 9, 12):
            index.apply([], cursor)

    thread = threading.Thread(target=follow)
    thread.start()
    started.set()
    reached = index.wait_for_cursor(9, 60.0)
    thread.join()
    assert reached is not None and reached.applied_cursor >= 9
