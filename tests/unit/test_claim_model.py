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
