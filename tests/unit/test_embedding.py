"""Tests for engram.embedding.

The MiniLM forward pass is pinned three ways, so a regression cannot hide behind a
self-consistent bug:

1. published sentence-transformers values for "hello world" (first 5 dims, as used by
   qdrant/fastembed's canonical-vector test, produced by an ONNX export of the torch model);
2. an independent, deliberately naive per-token float64 implementation in this file
   (raw torch-layout weights, math.erf GELU, explicit loops), compared on all 384 dims;
3. hard-coded first-5 values for a second sentence, computed once with (2) and agreeing
   with the vectorised implementation to < 1e-6.
"""

from __future__ import annotations

import io
import math
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from safetensors.numpy import load_file

from engram import embedding
from engram.embedding import (
    EMBEDDER_CHOICES,
    Embedder,
    HashingEmbedder,
    MiniLMEmbedder,
    load_embedder,
)

HELLO_WORLD_ST = np.array([-0.034478, 0.03102, 0.00673, 0.02611, -0.039362])

FOX = "The quick brown fox jumps over the lazy dog."
FOX_IDS = [101, 1996, 4248, 2829, 4419, 14523, 2058, 1996, 13971, 3899, 1012, 102]
FOX_FIRST5 = np.array([0.04393354, 0.05893442, 0.04817837, 0.07754809, 0.02674441])

VARIED = [
    "",
    "hi",
    "The quick brown fox jumps over the lazy dog.",
    "Memory governance: who wrote this fact, when, and may the agent still rely on it?",
    "a " * 40,
    "Ünïcödé text, emoji 🙂 and CJK 漢字 all go through the same WordPiece path.",
    "short one",
    "PostgreSQL stores the canonical copy; FAISS keeps a resident index for recall.",
]


def _no_network(*_args: Any, **_kwargs: Any) -> Any:
    raise AssertionError("embedder tried to open a network connection")


@pytest.fixture(scope="module")
def minilm() -> Iterator[MiniLMEmbedder]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("HF_HUB_OFFLINE", "1")
        mp.setenv("TRANSFORMERS_OFFLINE", "1")
        mp.setattr(socket.socket, "connect", _no_network)
        emb = MiniLMEmbedder()
        emb.load()
    yield emb


# --------------------------------------------------------------------------- reference


def _reference_embed(model_dir: Path, ids: list[int]) -> npt.NDArray[np.float64]:
    """Naive BERT + mean pooling: float64, torch (out, in) weight layout, per-token loops."""
    w = {
        k: v.astype(np.float64) for k, v in load_file(str(model_dir / "model.safetensors")).items()
    }

    def ln(x: npt.NDArray[np.float64], prefix: str) -> npt.NDArray[np.float64]:
        mu = sum(x) / len(x)
        var = sum((xi - mu) ** 2 for xi in x) / len(x)
        out: npt.NDArray[np.float64] = (x - mu) / math.sqrt(var + 1e-12) * w[
            prefix + ".weight"
        ] + w[prefix + ".bias"]
        return out

    def linear(x: npt.NDArray[np.float64], prefix: str) -> npt.NDArray[np.float64]:
        out: npt.NDArray[np.float64] = w[prefix + ".weight"].dot(x) + w[prefix + ".bias"]
        return out

    n = len(ids)
    h = [
        ln(
            w["embeddings.word_embeddings.weight"][tok]
            + w["embeddings.position_embeddings.weight"][pos]
            + w["embeddings.token_type_embeddings.weight"][0],
            "embeddings.LayerNorm",
        )
        for pos, tok in enumerate(ids)
    ]
    for layer in range(6):
        p = f"encoder.layer.{layer}"
        q = [linear(x, p + ".attention.self.query") for x in h]
        k = [linear(x, p + ".attention.self.key") for x in h]
        v = [linear(x, p + ".attention.self.value") for x in h]
        new_h = []
        for t in range(n):
            ctx = np.zeros(384)
            for head in range(12):
                sl = slice(head * 32, (head + 1) * 32)
                scores = [float(q[t][sl].dot(k[s][sl])) / math.sqrt(32) for s in range(n)]
                top = max(scores)
                exps = [math.exp(sc - top) for sc in scores]
                total = sum(exps)
                for s in range(n):
                    ctx[sl] += exps[s] / total * v[s][sl]
            a = ln(
                linear(ctx, p + ".attention.output.dense") + h[t], p + ".attention.output.LayerNorm"
            )
            inter = linear(a, p + ".intermediate.dense")
            gelu = np.array([0.5 * z * (1.0 + math.erf(z / math.sqrt(2.0))) for z in inter])
            new_h.append(ln(linear(gelu, p + ".output.dense") + a, p + ".output.LayerNorm"))
        h = new_h
    pooled: npt.NDArray[np.float64] = np.stack(h).sum(axis=0) / n
    out: npt.NDArray[np.float64] = pooled / math.sqrt(float(pooled.dot(pooled)))
    return out


# --------------------------------------------------------------------------- MiniLM


def test_loads_offline_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    monkeypatch.setattr(socket.socket, "connect", _no_network)
    monkeypatch.setattr(embedding, "_LOADED", {})  # force a real load from disk
    emb = MiniLMEmbedder()
    assert emb.name == "all-MiniLM-L6-v2@gt-0.1.0"  # names the weights; stored vectors keep it
    assert emb.dimension == 384
    assert isinstance(emb, Embedder)
    vec = emb.embed_one("hello world")
    assert vec.shape == (384,)


def test_matches_published_sentence_transformers_values(minilm: MiniLMEmbedder) -> None:
    vec = minilm.embed(["hello world", "flag embedding"])[0]
    np.testing.assert_allclose(vec[:5], HELLO_WORLD_ST, atol=2e-5)


def test_matches_independent_reference_implementation(minilm: MiniLMEmbedder) -> None:
    loaded = embedding._LOADED[minilm.model_dir.resolve()]
    assert loaded.tokenizer.encode(FOX).ids == FOX_IDS
    ref = _reference_embed(minilm.model_dir, FOX_IDS)
    np.testing.assert_allclose(ref[:5], FOX_FIRST5, atol=1e-6)
    np.testing.assert_allclose(minilm.embed_one(FOX), ref, atol=1e-5)


def test_shape_dtype_and_unit_norm(minilm: MiniLMEmbedder) -> None:
    out = minilm.embed(VARIED)
    assert out.shape == (len(VARIED), 384)
    assert out.dtype == np.float32
    assert np.isfinite(out).all()
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)
    empty = minilm.embed([])
    assert empty.shape == (0, 384)
    assert empty.dtype == np.float32


def test_deterministic(minilm: MiniLMEmbedder) -> None:
    np.testing.assert_array_equal(minilm.embed(VARIED), minilm.embed(VARIED))


def test_batch_equals_one_by_one(minilm: MiniLMEmbedder) -> None:
    singles = np.stack([minilm.embed_one(t) for t in VARIED])
    # Small batches (sorting + scattering back across batches) and one big heavily padded
    # batch (masking) must both reproduce the unpadded one-by-one vectors.
    for emb in (
        minilm,
        MiniLMEmbedder(batch_size=3),
        MiniLMEmbedder(batch_size=64, max_batch_tokens=100_000),
    ):
        np.testing.assert_allclose(emb.embed(VARIED), singles, atol=1e-5)


def test_semantic_sanity(minilm: MiniLMEmbedder) -> None:
    a, b, c = minilm.embed(
        ["the cat sits on the mat", "a cat is sitting on a mat", "stock markets fell sharply today"]
    )
    assert float(a @ b) > float(a @ c) + 0.3


def test_empty_string(minilm: MiniLMEmbedder) -> None:
    vec = minilm.embed_one("")
    assert vec.shape == (384,)
    assert np.isfinite(vec).all()
    assert abs(float(np.linalg.norm(vec)) - 1.0) < 1e-5


def test_long_text_truncated(minilm: MiniLMEmbedder) -> None:
    long_text = "memory " * 3000
    loaded = embedding._LOADED[minilm.model_dir.resolve()]
    assert len(loaded.tokenizer.encode(long_text).ids) == 256
    vec = minilm.embed_one(long_text)
    assert np.isfinite(vec).all()
    # Everything past 256 tokens is ignored, as in sentence-transformers.
    np.testing.assert_allclose(vec, minilm.embed_one("memory " * 300), atol=1e-5)


def test_rejects_bare_string(minilm: MiniLMEmbedder) -> None:
    with pytest.raises(TypeError):
        minilm.embed("not a list")


def test_concurrent_embed_and_single_lazy_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedding, "_LOADED", {})
    calls = 0
    original = embedding._MiniLMWeights.from_safetensors

    def counting(path: Path) -> embedding._MiniLMWeights:
        nonlocal calls
        calls += 1
        return original(path)

    monkeypatch.setattr(embedding._MiniLMWeights, "from_safetensors", staticmethod(counting))
    emb = MiniLMEmbedder()
    barrier = threading.Barrier(4)

    def work(i: int) -> npt.NDArray[np.float32]:
        barrier.wait()
        return emb.embed(VARIED[i:] + VARIED[:i])

    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(work, range(4)))
    assert calls == 1
    expected = emb.embed(VARIED)
    for i, res in enumerate(results):
        np.testing.assert_allclose(np.roll(res, i, axis=0), expected, atol=1e-5)


def test_refuses_tampered_weights(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = embedding._model_dir()
    (tmp_path / "tokenizer.json").write_bytes((real / "tokenizer.json").read_bytes())
    (tmp_path / "model.safetensors").write_bytes(b"not the real weights")
    monkeypatch.setattr(embedding, "_model_dir", lambda: tmp_path)
    with pytest.raises(RuntimeError, match="refusing"):
        MiniLMEmbedder().load()


# --------------------------------------------------------------------------- hashing


def test_hashing_contract() -> None:
    emb = HashingEmbedder()
    assert emb.name == "hashing-v1-384"
    assert emb.dimension == 384
    assert isinstance(emb, Embedder)
    out = emb.embed(VARIED)
    assert out.shape == (len(VARIED), 384)
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-6)
    assert emb.embed([]).shape == (0, 384)
    assert HashingEmbedder(64).embed_one("x").shape == (64,)
    with pytest.raises(TypeError):
        emb.embed("not a list")


def test_hashing_deterministic_across_processes() -> None:
    emb = HashingEmbedder()
    here = emb.embed(VARIED)
    np.testing.assert_array_equal(here, emb.embed(VARIED))
    np.testing.assert_array_equal(here[2], emb.embed_one(VARIED[2]))
    # str hash() is salted per process; the embedder must not depend on it.
    code = (
        "import sys, numpy as np; from engram.embedding import HashingEmbedder;"
        f"np.save(sys.stdout.buffer, HashingEmbedder().embed({VARIED!r}))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        check=True,
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        timeout=60,
    )

    np.testing.assert_array_equal(np.load(io.BytesIO(proc.stdout)), here)


def test_hashing_similarity_and_case() -> None:
    emb = HashingEmbedder()
    a, b, c, d = emb.embed(
        [
            "The cat sat on the mat",
            "the cat sat on a mat",
            "stock markets fell",
            "THE CAT SAT ON THE MAT",
        ]
    )
    assert float(a @ b) > float(a @ c)
    np.testing.assert_array_equal(a, d)


# --------------------------------------------------------------------------- factory


def test_load_embedder() -> None:
    assert isinstance(load_embedder("hashing"), HashingEmbedder)
    assert isinstance(load_embedder("minilm"), MiniLMEmbedder)
    assert isinstance(load_embedder(), MiniLMEmbedder)
    with pytest.raises(ValueError) as info:
        load_embedder("bert-large")
    for choice in EMBEDDER_CHOICES:
        assert choice in str(info.value)


def test_the_hashing_embedder_reads_through_invisible_characters() -> None:
    from engram.embedding import HashingEmbedder

    emb = HashingEmbedder()
    plain, hidden = emb.embed(["Zürich office", "Zü\u200brich office"])
    assert float(plain @ hidden) > 0.999


def test_token_vectors_are_the_pooled_states_word_piece_by_word_piece(
    minilm: MiniLMEmbedder,
) -> None:
    loaded = embedding._LOADED[minilm.model_dir.resolve()]
    ids = np.asarray([FOX_IDS], dtype=np.int64)
    states = loaded.weights.hidden_states(ids, np.ones((1, len(FOX_IDS)), np.float32))
    # the sentence vector is the mean of these states, [CLS] and [SEP] included
    pooled = states.mean(axis=0)
    np.testing.assert_allclose(pooled / np.linalg.norm(pooled), minilm.embed_one(FOX), atol=1e-5)
    tokens = minilm.token_vectors(FOX)
    assert tokens.shape == (len(FOX_IDS) - 2, 384)
    np.testing.assert_allclose(np.linalg.norm(tokens, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(tokens[0], states[1] / np.linalg.norm(states[1]), atol=1e-6)
    assert minilm.token_vectors("").shape == (0, 384)
