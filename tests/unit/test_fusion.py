"""Rank fusion (weighted RRF, normalised-score fusion) and the shared episode-recall rules."""

from __future__ import annotations

import pytest

from engram.fusion import (
    DENSE_WEIGHT,
    LEXICAL_WEIGHT,
    candidate_window,
    fuse,
    rrf,
    score_fusion,
    session_excluded,
)


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


def test_weights_scale_each_lists_reciprocal_ranks():
    fused = rrf([["a", "b"], ["b", "c"]], k=10, weights=(0.5, 2.0))
    by_id = {f.id: f for f in fused}
    assert by_id["a"].score == pytest.approx(0.5 / 11)
    assert by_id["b"].score == pytest.approx(0.5 / 12 + 2.0 / 11)
    assert by_id["c"].score == pytest.approx(2.0 / 12)
    assert [f.id for f in fused] == ["b", "c", "a"]


def test_equal_weights_give_the_unweighted_scores_bit_for_bit():
    lists = [["a", "b", "c"], ["c", "d", "a"]]
    assert rrf(lists, weights=(1.0, 1.0)) == rrf(lists)


def test_a_zero_weight_list_adds_nothing_to_the_score():
    fused = rrf([["x", "y"], ["y", "x"]], weights=(0.0, 1.0))
    assert [f.id for f in fused] == ["y", "x"]
    assert fused[1].ranks == (1, 2)
    assert fused[1].score == pytest.approx(1 / 62)


@pytest.mark.parametrize("weights", [(1.0,), (1.0, 1.0, 1.0), (1.0, -0.5), (float("nan"), 1.0)])
def test_weights_must_be_one_non_negative_number_per_list(weights):
    with pytest.raises(ValueError):
        rrf([["a"], ["b"]], weights=weights)
    with pytest.raises(ValueError):
        score_fusion([(["a"], [1.0]), (["b"], [1.0])], weights=weights)


def test_score_fusion_sums_min_max_normalised_scores():
    dense = (["a", "b", "c"], [0.9, 0.7, 0.5])
    lexical = (["c", "d"], [12.0, 4.0])
    by_id = {f.id: f for f in score_fusion([dense, lexical])}
    assert by_id["a"].score == pytest.approx(1.0)
    assert by_id["b"].score == pytest.approx(0.5)
    # Last of the dense window (0) plus first of the lexical list (1).
    assert by_id["c"].score == pytest.approx(1.0)
    assert by_id["c"].ranks == (3, 1)
    assert by_id["d"].score == pytest.approx(0.0)
    assert by_id["d"].ranks == (0, 2)


def test_score_fusion_keeps_the_distance_between_candidates():
    # The dense list barely separates its candidates; the lexical one clearly
    # prefers "b". Rank fusion would tie a and b; normalised scores do not.
    dense = (["a", "b", "z"], [0.601, 0.600, 0.100])
    lexical = (["b", "a"], [9.0, 1.0])
    assert [f.id for f in score_fusion([dense, lexical])][:2] == ["b", "a"]
    assert rrf([dense[0], lexical[0]])[0].score == pytest.approx(
        rrf([dense[0], lexical[0]])[1].score
    )


def test_score_fusion_weights_and_equal_scores():
    # All-equal scores normalise to 1.0; ties break by best rank, then id.
    fused = score_fusion([(["q", "p"], [3.0, 3.0]), (["r"], [0.2])], weights=(0.5, 0.5))
    assert [(f.id, f.score) for f in fused] == [("q", 0.5), ("r", 0.5), ("p", 0.5)]


def test_score_fusion_keeps_the_first_occurrence_and_needs_a_score_per_id():
    (only,) = score_fusion([(["a", "a"], [2.0, 1.0])])
    assert only.ranks == (1,)
    assert only.score == pytest.approx(1.0)
    assert score_fusion([([], []), ([], [])]) == []
    with pytest.raises(ValueError):
        score_fusion([(["a", "b"], [1.0])])


def test_fuse_is_rrf_over_the_top_limit_of_each_list():
    dense = (["a", "b", "c", "d"], [0.8, 0.75, 0.2, 0.1])
    lexical = (["c", "b", "e"], [5.0, 1.0, 0.5])
    fused = fuse(dense, lexical, limit=2)
    expected = rrf([["a", "b"], ["c", "b"]], k=60, weights=(DENSE_WEIGHT, LEXICAL_WEIGHT))
    assert fused == expected
    assert [f.id for f in fused] == ["b", "a", "c"]
    assert {f.id for f in fused}.isdisjoint({"d", "e"}), "ranks beyond limit are cut"
    with pytest.raises(ValueError):
        fuse(dense, lexical, limit=0)


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
