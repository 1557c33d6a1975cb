"""The segment's thread index (retrieval_service.segment.ThreadIndex): integer
keys and stored group positions find the same neighbour positions as a
binary search over (thread, time) pairs, ties and missing threads included."""

from __future__ import annotations

import numpy as np

from retrieval_service.segment import ThreadIndex


def _reference(
    thread: np.ndarray, seen: np.ndarray, qt: np.ndarray, qs: np.ndarray, side: str
) -> np.ndarray:
    """Positions by a plain search over complex (thread, time) keys."""
    keys = thread.astype(np.float64) + 1j * seen.astype(np.float64)
    order = np.argsort(keys, kind="stable")
    found: np.ndarray = np.searchsorted(
        keys[order], qt + 1j * qs.astype(np.float64), side="left" if side == "left" else "right"
    )
    return found


def test_positions_match_a_search_over_thread_and_time_pairs() -> None:
    rng = np.random.default_rng(5)
    n = 5000
    thread = rng.integers(0, 300, n).astype(np.int64)
    seen = rng.integers(1_600_000_000_000_000, 1_600_000_000_000_000 + 400, n).astype(np.int64)
    index = ThreadIndex.build(thread, seen)
    reference = np.lexsort((seen, thread))
    assert index.rows.tolist() == reference.tolist()  # the same (stable) order
    # Queries for rows of this segment (the stored group positions) ...
    for side, stored in (("left", index.group_start), ("right", index.group_end)):
        expected = _reference(thread, seen, thread, seen, side)
        assert stored.tolist() == expected.tolist()
    # ... and for (thread, time) pairs from elsewhere, some threads absent.
    qt = rng.integers(-5, 320, 2000).astype(np.int64).clip(0)
    qs = rng.integers(1_600_000_000_000_000 - 10, 1_600_000_000_000_000 + 410, 2000).astype(
        np.int64
    )
    for side in ("left", "right"):
        found = np.searchsorted(index.keys, index.key(qt, qs, side), "left")
        assert found.tolist() == _reference(thread, seen, qt, qs, side).tolist()
    positions = np.arange(n)
    assert index.time_at(positions).tolist() == seen[index.rows].tolist()
    assert (index.keys >> 32).tolist() == thread[index.rows].tolist()


def test_an_empty_segment_has_an_empty_index() -> None:
    empty = np.empty(0, dtype=np.int64)
    index = ThreadIndex.build(empty, empty)
    assert index.keys.size == 0 and index.group_start.size == 0
