"""Per-section budgets and packing."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gateway import render
from gateway.packing import (
    DropOrder,
    Entry,
    entry_cost,
    estimate_tokens,
    framing_cost,
    pack,
    split_budget,
)


def entry(record_id: str, chars: int, rank: int, recency: float = 0.0) -> Entry:
    return Entry(record_id, "x" * (chars - 1), rank, recency)  # + newline = chars


def test_estimate_is_ceil_chars_over_four() -> None:
    assert [estimate_tokens("x" * n) for n in (0, 1, 4, 5, 8)] == [0, 1, 1, 2, 2]


def test_budget_split_is_40_30_30() -> None:
    assert split_budget(1000) == {
        "learned_context": 400,
        "recovered_memory": 300,
        "episodic_recall": 300,
    }
    assert split_budget(64) == {
        "learned_context": 25,
        "recovered_memory": 19,
        "episodic_recall": 19,
    }


def test_everything_fits() -> None:
    entries = [entry("a", 40, 0), entry("b", 40, 1)]
    result = pack(entries, 100, 10, DropOrder.LOWEST_RANK_FIRST)
    assert [e.record_id for e in result.kept] == ["a", "b"]
    assert result.dropped == ()


def test_lowest_ranked_dropped_first() -> None:
    entries = [entry("a", 40, 0), entry("b", 40, 1), entry("c", 40, 2)]
    result = pack(entries, 30, 5, DropOrder.LOWEST_RANK_FIRST)  # 25 available, 10 each
    assert [e.record_id for e in result.kept] == ["a", "b"]
    assert [e.record_id for e in result.dropped] == ["c"]


def test_oldest_dropped_first_even_when_ranked_higher() -> None:
    entries = [entry("best-but-old", 40, 0, recency=1.0), entry("new", 40, 1, recency=9.0)]
    result = pack(entries, 15, 5, DropOrder.OLDEST_FIRST)
    assert [e.record_id for e in result.kept] == ["new"]


def test_entry_too_large_alone_is_dropped_before_smaller_ones() -> None:
    entries = [entry("huge", 400, 0), entry("small", 20, 1)]
    result = pack(entries, 30, 5, DropOrder.LOWEST_RANK_FIRST)
    assert [e.record_id for e in result.kept] == ["small"]
    assert [e.record_id for e in result.dropped] == ["huge"]


def test_nothing_fits_when_framing_exceeds_budget() -> None:
    result = pack([entry("a", 4, 0)], 10, 12, DropOrder.LOWEST_RANK_FIRST)
    assert result.kept == ()
    assert len(result.dropped) == 1


@given(
    st.lists(st.tuples(st.integers(1, 400), st.floats(0, 1e9)), max_size=12),
    st.integers(0, 600),
    st.sampled_from(list(DropOrder)),
)
def test_packed_block_never_exceeds_its_budget(
    sizes: list[tuple[int, float]], budget: int, order: DropOrder
) -> None:
    entries = [Entry(f"r{i}", "y" * n, i, t) for i, (n, t) in enumerate(sizes)]
    framing = framing_cost(render.header("episodic_recall"), render.footer("episodic_recall"))
    result = pack(entries, budget, framing, order)
    assert len(result.kept) + len(result.dropped) == len(entries)
    assert [e.rank for e in result.kept] == sorted(e.rank for e in result.kept)
    if result.kept:
        assert sum(entry_cost(e) for e in result.kept) + framing <= budget
        block = render.render_block("episodic_recall", [e.line for e in result.kept])
        assert estimate_tokens(block) <= budget
