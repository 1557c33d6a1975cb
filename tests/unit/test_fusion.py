"""Reciprocal rank fusion and the shared episode-recall rules."""

from __future__ import annotations

import pytest

from engram.fusion import candidate_window, rrf, session_excluded


def test_scores_are_sums_of_reciprocal_ranks():
    fused = rrf([["a", "b", "c"], ["b", "d"]], k=60)
    by_id = {f.id: f for f in fused}
    assert by_id["b"].score == pytest.approx(1 / 62 + 1 / 61)
    assert by_id["a"].score == pytest.approx(1 / 61)
    assert by_id["d"].score == pytest.approx(1 / 62)
    assert by_id["b"].ranks == (2, 1)
    assert by_id["a"].ranks == (1, 0)
    assert by_id["d"].ranks == (0, 2)
    assert [f.id for f in fused] == ["b", "a", "d", "c"]


def test_ties_break_by_best_rank_then_id():
    # x and y tie on score (rank 1 in one list each); z and w tie with equal best rank.
    fused = rrf([["y", "z"], ["x", "w"]])
    assert [f.id for f in fused] == ["x", "y", "w", "z"]


def test_an_id_repeated_in_one_list_keeps_its_first_rank():
    (only,) = rrf([["a", "a", "a"]])
    assert only.ranks == (1,)
    assert only.score == pytest.approx(1 / 61)


def test_empty_lists_fuse_to_nothing():
    assert rrf([[], []]) == []


def test_k_must_be_positive():
    with pytest.raises(ValueError):
        rrf([["a"]], k=0)


def test_candidate_window_is_four_times_the_limit_with_a_floor_of_forty():
    assert candidate_window(1) == 40
    assert candidate_window(10) == 40
    assert candidate_window(25) == 100
    assert candidate_window(100) == 400


def test_a_session_is_excluded_only_when_it_is_every_session_of_the_episode():
    assert session_excluded(["s1"], "s1")
    assert session_excluded(["s1", "s1"], "s1")
    assert not session_excluded(["s1", "s2"], "s1")
    assert not session_excluded(["s2"], "s1")
    assert not session_excluded(["s1"], "")
