"""One embedder instance per (process, name): the journal's embedding worker
and the retrieval service share the loaded model in an all-in-one process."""

from __future__ import annotations

import functools

from engram.embedding import Embedder, load_embedder


@functools.cache
def shared_embedder(name: str) -> Embedder:
    return load_embedder(name)
