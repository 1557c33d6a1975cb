"""engram.ranking and engram.dates, and the resident index's ranking inputs
(speaker names, neighbours, resolved dates in the lexical view)."""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from engram import dates, ranking
from retrieval_service.records import Interner, make_record
from retrieval_service.segment import build_segment
from retrieval_service.snapshot import SearchRequest, Snapshot

WHEN = datetime(2023, 5, 8, 13, 0, tzinfo=UTC)  # a Monday


def test_relative_dates_resolve_against_the_turn_time() -> None:
    def text(s: str) -> str:
        return dates.date_text(dates.resolve_codes(s, WHEN))

    assert text("I went hiking yesterday") == "7 may 2023"
    assert text("last Friday we met") == "5 may 2023"
    assert text("next monday") == "15 may 2023"
    assert text("two weeks ago") == "24 april 2023"
    assert text("last month and next year") == "april 2023; 2024"
    assert text("a few months ago") == "february 2023"
    assert text("nothing relative here") == ""
    assert dates.parse_date_text("7 may 2023; may 2023; 2024") == [20230507, 20230500, 20240000]


def test_question_dates_and_time_match() -> None:
    assert dates.question_dates("What did she do on 7 May 2023?") == [(2023, 5, 7)]
    assert dates.question_dates("on May 7, 2023") == [(2023, 5, 7)]
    assert dates.question_dates("in May 2023") == [(2023, 5, 0)]
    assert dates.question_dates("may I ask") == []
    asked = [(2023, 5, 7)]
    assert dates.time_match(asked, 20230507, []) == 1.0
    assert dates.time_match(asked, 20230508, [20230507]) == 1.0
    assert dates.time_match(asked, 20230508, [20230500]) == 0.5
    assert dates.time_match(asked, 20230508, []) == 0.0
    assert dates.time_match([(2023, 5, 0)], 20230508, []) == 0.5


def test_speaker_names_are_stripped_and_remembered() -> None:
    q = ranking.prepare_query(
        "What pets does Melanie's family have?", ["Melanie Smith", "Caroline"]
    )
    assert q.text == "What pets does family have?"
    assert q.named == frozenset({"melanie smith"})
    assert ranking.speaker_named(q, "Melanie Smith", "")
    assert not ranking.speaker_named(q, "Caroline", "")


def _snapshot(n: int = 30) -> tuple[Snapshot, list[str]]:
    rng = np.random.default_rng(0)
    interner = Interner()
    ids, records = [], []
    for i in range(n):
        eid = str(uuid.UUID(int=rng.integers(1 << 62) << 64 | i))
        ids.append(eid)
        us = int((WHEN + timedelta(seconds=i)).timestamp() * 1_000_000)
        vector = rng.normal(size=8).astype(np.float32)
        text = f"turn {i} about topic{i % 4}" + (" yesterday" if i == 7 else "")
        records.append(
            make_record(
                interner,
                episode_id=eid,
                subject="alice",
                workspace="default",
                session_id=f"s{i // 10}",
                session_ids=[f"s{i // 10}"],
                last_seen_us=us,
                user_text=text,
                assistant_text="ok",
                vector=vector / np.linalg.norm(vector),
                first_seen_us=us,
                user_name="Melanie" if i % 2 else "Caroline",
            )
        )
    # Two segments, so neighbours are found across them.
    base = build_segment(records[::2], 8)
    snapshot = Snapshot.from_base(base, interner, 8, "m", 0, 1)
    from retrieval_service.records import Upsert

    snapshot = snapshot.apply([Upsert(j + 1, r) for j, r in enumerate(records[1::2])], n, 2)
    return snapshot, ids


def _request(snapshot: Snapshot, text: str) -> tuple[SearchRequest, ranking.Query]:
    q = ranking.prepare_query(text, snapshot.speaker_names("alice", "default"))
    vector = np.ones(8, dtype=np.float32) / np.sqrt(8)
    return SearchRequest("alice", "default", "", None, None, vector, q.text, 100, 100), q


def test_index_finds_neighbours_names_and_resolved_dates() -> None:
    snapshot, ids = _snapshot()
    assert snapshot.speaker_names("alice", "default") == ["Caroline", "Melanie"]
    request, q = _request(snapshot, "What did Melanie say on 7 May 2023 about topic1?")
    c = snapshot.candidates(request, q)
    at = {eid: i for i, eid in enumerate(c.ids)}
    # turn 5 (topic1) has turns 4 and 6 of session s0 as neighbours
    i5 = at[ids[5]]
    assert c.lex[i5] > 0 and c.lex_prev[i5] == 0 and c.lex_next[i5] == 0
    assert c.cos_prev[i5] == c.cos[at[ids[4]]] and c.cos_next[i5] == c.cos[at[ids[6]]]
    # turn 10 opens session s1: no previous neighbour
    assert np.isnan(c.cos_prev[at[ids[10]]])
    assert c.speaker[i5] == 1.0 and c.speaker[at[ids[4]]] == 0.0
    assert c.time[at[ids[7]]] == 1.0 and c.has_date[at[ids[7]]] == 1.0  # "yesterday"
    # the resolved date is in the lexical view
    request, q = _request(snapshot, "7 may 2023")
    lexical = snapshot.candidates(request, q)
    assert lexical.lex[lexical.ids.index(ids[7])] > 0


def test_rank_is_prefix_stable_with_and_without_the_second_stage() -> None:
    snapshot, _ids = _snapshot(160)
    request, q = _request(snapshot, "What did Melanie say about topic2?")
    c = snapshot.candidates(request, q)
    weights = len(ranking.features(c, ranking.first_stage(c), [0], q)[0])
    rng = np.random.default_rng(1)
    ranker = ranking.LinearRanker(
        np.zeros(weights), np.ones(weights), rng.normal(size=weights), 0.0, depth=10
    )
    shipped = ranking.load_ranker("default")
    assert shipped is not None
    spread = ranking.features(c, ranking.first_stage(c), [0], q, True, True)[0]
    diverse = ranking.LinearRanker(
        np.zeros(len(spread)),
        np.ones(len(spread)),
        rng.normal(size=len(spread)),
        0.0,
        sessions=True,
        spread=True,
        diversity=0.5,
    )
    for chosen in (None, ranker, shipped, diverse):
        ranked = ranking.rank(c, q, chosen)
        assert sorted(ranked.order) == list(range(len(c)))
        assert ranked.scores == sorted(ranked.scores, reverse=True)
        again = ranking.rank(c, q, chosen)
        assert again.order == ranked.order


def test_the_shipped_model_loads_and_fits_the_features() -> None:
    shipped = ranking.load_ranker("default")
    assert isinstance(shipped, ranking.TreeRanker)
    snapshot, _ids = _snapshot()
    request, q = _request(snapshot, "What did Melanie say about topic2?")
    c = snapshot.candidates(request, q)
    fs = ranking.first_stage(c)
    x = ranking.features(c, fs, list(range(len(c))), q, shipped.sessions, shipped.spread)
    assert int(shipped.feature.max()) < x.shape[1]
    z = shipped.decision(x)
    assert z.shape == (len(c),) and np.isfinite(z).all()
    with np.load(ranking.DEFAULT_RANKER_PATH) as data:
        assert int(data["features"]) == x.shape[1]


def _first_stage_head(
    snapshot: Snapshot,
) -> tuple[ranking.Candidates, ranking.Query, ranking.FirstStage, list[int]]:
    """A question's candidates, first stage and its top 12."""
    request, q = _request(snapshot, "What did Melanie say about topic2?")
    c = snapshot.candidates(request, q)
    return c, q, ranking.first_stage(c), ranking.rank(c, q, None).order[:12]


def test_session_features_count_and_best_of_the_same_session() -> None:
    snapshot, ids = _snapshot()
    c, _q, fs, top = _first_stage_head(snapshot)
    got = ranking.session_features(c, fs, np.asarray(top))
    score = ranking.window_norm(fs.score)
    session = {eid: i // 10 for i, eid in enumerate(ids)}  # s0, s1, s2
    for row, i in enumerate(top):
        others = [j for j in top if j != i and session[c.ids[j]] == session[c.ids[i]]]
        assert got[row, 1] == len(others)
        assert got[row, 0] == (max(score[j] for j in others) if others else 0.0)
    # a path without sessions gives zeros, never an error
    c.session = np.zeros(0, np.int64)
    assert not ranking.session_features(c, fs, np.asarray(top)).any()


def test_numpy_trees_predict_as_scikit_learn() -> None:
    sklearn = pytest.importorskip("sklearn.ensemble")
    from tools.train_recall_ranker import export_trees

    rng = np.random.default_rng(3)
    x = rng.normal(size=(3000, 6))
    x[rng.random(x.shape) < 0.05] = np.nan  # missing values take the learned side
    y = (np.nan_to_num(x[:, 0]) + np.nan_to_num(x[:, 1]) * x[:, 2] > 0.3).astype(float)
    model = sklearn.HistGradientBoostingClassifier(
        max_iter=40, max_depth=3, min_samples_leaf=20, random_state=0
    ).fit(x, y)
    trees = export_trees(model, sessions=False)
    test = rng.normal(size=(500, 6))
    test[rng.random(test.shape) < 0.05] = np.nan
    assert np.abs(trees.decision(test) - model.decision_function(test)).max() < 1e-9
    assert trees.steps <= 3


def test_search_episodes_candidates_carry_first_sessions() -> None:
    from memory_service.search import candidates_from_rows

    def row(i: int, session: str | None) -> dict[str, object]:
        return {
            "episode_id": str(uuid.UUID(int=i + 1)),
            "user_text": f"turn {i}",
            "user_name": "",
            "assistant_name": "",
            "first_seen_at": WHEN,
            "resolved_dates": None,
            "first_session": session,
            "cos": 0.5,
            "prev_cos": None,
            "next_cos": None,
            "rank": 0.1 * i,
            "prev_rank": 0,
            "next_rank": 0,
        }

    q = ranking.prepare_query("turn", [])
    c = candidates_from_rows([row(0, "s1"), row(1, "s2"), row(2, "s1"), row(3, None)], q, [0.5])
    assert c.session[0] == c.session[2] and len(set(c.session.tolist())) == 3
    got = ranking.session_features(c, ranking.first_stage(c), np.arange(4))
    assert got[:, 1].tolist() == [1.0, 0.0, 1.0, 0.0]


def test_small_scopes_keep_the_first_stage_order() -> None:
    shipped = ranking.load_ranker("default")
    for n, reranked in ((30, False), (160, True)):
        snapshot, _ids = _snapshot(n)
        request, q = _request(snapshot, "What did Melanie say about topic2?")
        c = snapshot.candidates(request, q)
        assert (len(c) >= ranking.MIN_RERANK_CANDIDATES) == reranked
        first = ranking.rank(c, q, None).order
        assert (ranking.rank(c, q, shipped).order != first) == reranked


def test_diversify_lets_an_unseen_session_pass_a_seen_one() -> None:
    z = np.array([3.0, 2.9, 2.8, 1.0, 2.8])
    session = np.array([7, 7, 7, 9, 9], dtype=np.int64)
    assert ranking.diversify(z, session, 0.0) == [0, 1, 2, 4, 3]
    # one shown turn of session 7 costs 0.5: session 9's 2.8 passes 7's 2.9
    assert ranking.diversify(z, session, 0.5) == [0, 4, 1, 2, 3]
    # equal adjusted scores keep the lower position; no sessions: the plain order
    assert ranking.diversify(np.ones(3), np.array([1, 1, 2]), 1.0) == [0, 2, 1]
    assert ranking.diversify(z, np.zeros(0, np.int64), 1.0) == [0, 1, 2, 4, 3]


def test_spread_features_describe_each_turns_session() -> None:
    c, q, fs, top = _first_stage_head(_snapshot()[0])
    got = ranking.spread_features(c, fs, q, np.asarray(top))
    score = ranking.window_norm(fs.score)
    session = [int(c.session[i]) for i in top]
    for row, i in enumerate(top):
        above = session[:row]
        assert got[row, 0] == above.count(session[row])
        assert got[row, 1] == len(set(above))
        others = [j for j in range(len(c)) if j != i and c.session[j] == c.session[i]]
        assert got[row, 2] == len(others)
        assert got[row, 3] == (max(score[j] for j in others) if others else 0.0)
        head_best = max(score[j] for j in top if c.session[j] == c.session[i])
        assert got[row, 4] == pytest.approx(score[i] - head_best)
    assert (got[:, 5] == len(set(session))).all()
    assert (got[:, 6] == len(q.text.split())).all()
    c.session = np.zeros(0, np.int64)
    blind = ranking.spread_features(c, fs, q, np.asarray(top))
    assert not blind[:, :-1].any() and (blind[:, -1] == got[:, -1]).all()


def test_expansion_features_relate_each_turn_to_the_top_hits() -> None:
    c, _q, fs, top = _first_stage_head(_snapshot()[0])
    idx = np.asarray(top)
    # no vectors from the path: zeros, never an error
    assert not ranking.expansion_features(c, fs, idx).any()
    rng = np.random.default_rng(1)
    v = rng.normal(size=(len(c), 8))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    c.vectors = v.astype(np.float32)
    c.query_vector = v[int(np.nanargmax(c.cos))].astype(np.float32)
    got = ranking.expansion_features(c, fs, idx)
    cos = np.where(np.isnan(c.cos), -np.inf, c.cos)
    dense_top = np.argsort(-cos, kind="stable")[: ranking.PRF_DEPTH]
    q = c.query_vector + ranking.PRF_BETA * c.vectors[dense_top].mean(axis=0)
    q = q / np.linalg.norm(q)
    assert got[:, 0] == pytest.approx(c.vectors[idx] @ q, abs=1e-6)
    assert got[:, 2] == pytest.approx(got[:, 0] - np.nan_to_num(c.cos[idx]), abs=1e-6)
    near = top[: ranking.NEAR_TOP]
    for row, i in enumerate(top):
        others = [j for j in near if j != i]
        sims = [float(c.vectors[i] @ c.vectors[j]) for j in others]
        assert got[row, 3] == pytest.approx(max(sims), abs=1e-6)
        assert got[row, 4] == pytest.approx(np.mean(sims), abs=1e-6)
        far = [s for j, s in zip(others, sims, strict=True) if c.session[j] != c.session[i]]
        assert got[row, 5] == pytest.approx(max(far) if far else 0.0, abs=1e-6)
    # the rank by cosine to q' is among all candidates, not the head
    every = c.vectors @ q
    ranks = [1 + int((every > every[i]).sum()) for i in top]
    assert np.exp(got[:, 1]) == pytest.approx(ranks)


def test_trainer_kinds_and_saved_settings_round_trip(tmp_path: Path) -> None:
    from tools.train_recall_ranker import Kind, save

    assert Kind.parse("trees+sessions+spread@100") == Kind("trees", True, True, 100)
    assert Kind.parse("logistic") == Kind("logistic", False, False, ranking.RERANK_DEPTH)
    assert Kind.parse("trees+sessions+expansion").expansion
    with pytest.raises(SystemExit):
        Kind.parse("trees+colour")
    model = ranking.LinearRanker(
        np.zeros(3),
        np.ones(3),
        np.ones(3),
        0.5,
        depth=20,
        sessions=True,
        spread=True,
        diversity=0.25,
    )
    save(model, tmp_path / "m.npz", 3)
    loaded = ranking.load_ranker(str(tmp_path / "m.npz"))
    assert isinstance(loaded, ranking.LinearRanker)
    assert (loaded.depth, loaded.sessions, loaded.spread, loaded.diversity) == (
        20,
        True,
        True,
        0.25,
    )
    # no read path supplies the vectors expansion features need: refused, not zeros
    save(dataclasses.replace(model, expansion=True), tmp_path / "e.npz", 3)
    with pytest.raises(ValueError, match="expansion"):
        ranking.load_ranker(str(tmp_path / "e.npz"))
