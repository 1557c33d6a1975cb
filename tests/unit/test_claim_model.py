"""The clause classifier's embedding cache and its decision on unfamiliar text."""

from __future__ import annotations

import numpy as np
import pytest

from gateway import claim_model


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
