"""A synthetic episode corpus for retrieval benchmarks, loaded straight into
the journal's tables with COPY.

Embedding a million texts is infeasible here (MiniLM does ~90 sentences/s on
2 cores), so the corpus is clustered synthetic vectors: 1000 gaussian centres
on the unit sphere, each episode a centre plus isotropic noise of the same
norm, unit-normalised (uniform random vectors would make HNSW look
pathologically bad; real embeddings are clustered). Each episode gets a short
text of topic words of its cluster, so the lexical side has something to find.
Rows go into journal.events (one conversation.turn.completed per episode),
journal.episodes (with the vector, tagged with the embedder's model name, so
both read paths use it) and journal.changes (one episode_embedded change per
episode, so RetrievalService's rebuild replays them), bypassing CommitTurn.
Secondary indexes are dropped for the COPY and rebuilt afterwards (an HNSW
index costs ~6x per inserted row).

    .venv/bin/python bench/retrieval_corpus.py --episodes 100000 --out /var/tmp/engram-bench

loads into an embedded PostgreSQL under --out (reused by later runs with the
same --episodes) and prints the database URL.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import psycopg
from pgvector.psycopg import register_vector

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engram.db import migrations
from engram.db.embedded import EmbeddedPostgres, start_embedded
from engram.db.urls import with_database

DIM = 384
CENTRES = 1000
SUBJECT = "bench"
WORKSPACE = "default"
SEED = 7
CHUNK = 50_000
_VOCAB = [f"w{i:04d}" for i in range(5000)]
_T0 = datetime(2025, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Corpus:
    episodes: int
    seed: int = SEED

    def centres(self) -> np.ndarray:
        rng = np.random.default_rng(self.seed)
        centres = rng.standard_normal((CENTRES, DIM)).astype(np.float32)
        result: np.ndarray = centres / np.linalg.norm(centres, axis=1, keepdims=True)
        return result

    def chunks(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """(first row, cluster ids, unit vectors) in chunks, deterministic."""
        centres = self.centres()
        rng = np.random.default_rng(self.seed + 1)
        for start in range(0, self.episodes, CHUNK):
            n = min(CHUNK, self.episodes - start)
            clusters = rng.integers(0, CENTRES, n)
            noise = rng.standard_normal((n, DIM)).astype(np.float32) / np.sqrt(DIM)
            vectors = centres[clusters] + noise
            vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
            yield start, clusters, vectors.astype(np.float32)

    def queries(self, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Query vectors from the same distribution (not in the corpus) and their clusters."""
        centres = self.centres()
        rng = np.random.default_rng(self.seed + 2)
        clusters = rng.integers(0, CENTRES, count)
        vectors = centres[clusters] + rng.standard_normal((count, DIM)).astype(
            np.float32
        ) / np.sqrt(DIM)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors.astype(np.float32), clusters


def topic_words(cluster: int) -> list[str]:
    return [_VOCAB[(cluster * 5 + k) % len(_VOCAB)] for k in range(5)]


def episode_text(row: int, cluster: int) -> tuple[str, str]:
    words = topic_words(cluster)
    pick = [words[(row + k) % 5] for k in range(3)]
    return (
        f"note {row} about {' '.join(pick)} and item{row % 997}",
        f"recorded {pick[0]} for later",
    )


def query_text(cluster: int, k: int) -> str:
    words = topic_words(cluster)
    return f"what about {words[k % 5]} {words[(k + 2) % 5]}"


def episode_id(row: int) -> uuid.UUID:
    return uuid.UUID(bytes=hashlib.sha256(f"bench-episode-{row}".encode()).digest()[:16], version=4)


_SECONDARY_INDEXES = {
    "episodes_embedding_hnsw": "CREATE INDEX episodes_embedding_hnsw ON journal.episodes "
    "USING hnsw (embedding vector_cosine_ops) "
    "WITH (m = 16, ef_construction = 64)",
    "episodes_tsv_idx": "CREATE INDEX episodes_tsv_idx ON journal.episodes USING gin (search_tsv)",
    "episodes_scope_idx": "CREATE INDEX episodes_scope_idx ON journal.episodes "
    "(subject, workspace, last_seen_at)",
}


def load(url: str, corpus: Corpus, model: str, log: dict[str, float]) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        register_vector(conn)
        for name in _SECONDARY_INDEXES:
            conn.execute(f"DROP INDEX IF EXISTS journal.{name}")
        started = time.monotonic()
        for start, clusters, vectors in corpus.chunks():
            _copy_chunk(conn, start, clusters, vectors, model)
            print(f"  loaded {start + len(clusters)} / {corpus.episodes}", flush=True)
        # Cursors 1..n were copied in: keep the live feed's above them.
        conn.execute("SELECT journal.feed_align_base()")
        log["copy_seconds"] = round(time.monotonic() - started, 1)
        started = time.monotonic()
        conn.execute("SET maintenance_work_mem = '4GB'")
        conn.execute("SET max_parallel_maintenance_workers = 1")
        for name, ddl in _SECONDARY_INDEXES.items():
            t = time.monotonic()
            conn.execute(ddl)
            log[f"index_{name}_seconds"] = round(time.monotonic() - t, 1)
            print(f"  built {name} in {log[f'index_{name}_seconds']}s", flush=True)
        conn.execute("ANALYZE journal.episodes")
        log["index_seconds"] = round(time.monotonic() - started, 1)


def _copy_chunk(
    conn: psycopg.Connection, start: int, clusters: np.ndarray, vectors: np.ndarray, model: str
) -> None:
    n = len(clusters)
    rows = range(start, start + n)
    texts = [episode_text(r, int(c)) for r, c in zip(rows, clusters, strict=True)]
    times = [_T0 + timedelta(seconds=r) for r in rows]
    shas = [hashlib.sha256(f"User: {u}\nAssistant: {a}".encode()).hexdigest() for u, a in texts]
    sessions = [f"bench-session-{r // 20}" for r in rows]
    with conn.transaction(), conn.cursor() as cur:
        with cur.copy(
            "COPY journal.events (event_type, subject, workspace, session_id, "
            "payload, provenance, content_sha256, occurred_at) FROM STDIN"
        ) as copy:
            for i in range(n):
                payload = {
                    "user_text": texts[i][0],
                    "assistant_text": texts[i][1],
                    "learning_eligible": True,
                }
                copy.write_row(
                    (
                        "conversation.turn.completed",
                        SUBJECT,
                        WORKSPACE,
                        sessions[i],
                        json.dumps(payload),
                        "generated_output_unverified",
                        shas[i],
                        times[i],
                    )
                )
        with cur.copy(
            "COPY journal.episodes (episode_id, subject, workspace, content_sha256, "
            "session_id, session_ids, user_text, assistant_text, first_seen_at, "
            "last_seen_at, first_event_id, last_event_id, embedding, "
            "embedding_model, embedded_at) FROM STDIN WITH (FORMAT BINARY)"
        ) as copy:
            copy.set_types(
                [
                    "uuid",
                    "text",
                    "text",
                    "text",
                    "text",
                    "text[]",
                    "text",
                    "text",
                    "timestamptz",
                    "timestamptz",
                    "int8",
                    "int8",
                    "vector",
                    "text",
                    "timestamptz",
                ]
            )
            for i, row in enumerate(rows):
                copy.write_row(
                    (
                        episode_id(row),
                        SUBJECT,
                        WORKSPACE,
                        shas[i],
                        sessions[i],
                        [sessions[i]],
                        texts[i][0],
                        texts[i][1],
                        times[i],
                        times[i],
                        row + 1,
                        row + 1,
                        vectors[i],
                        model,
                        times[i],
                    )
                )
        with cur.copy(
            "COPY journal.changes (cursor, kind, subject, workspace, session_id, "
            "record_kind, record_id, event_type, event_id) FROM STDIN"
        ) as copy:
            for i, row in enumerate(rows):
                copy.write_row(
                    (
                        row + 1,
                        "episode_embedded",
                        SUBJECT,
                        WORKSPACE,
                        sessions[i],
                        "episode",
                        str(episode_id(row)),
                        "",
                        0,
                    )
                )


def _adopt_unsuffixed(server_url: str, out: Path, episodes: int, model: str, name: str) -> None:
    """Rename a corpus built under the earlier name (one per size) when its model matches."""
    old = out / f"retrieval_{episodes}.json"
    if not old.exists() or json.loads(old.read_text()).get("model") != model:
        return
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "retrieval_{episodes}" RENAME TO "{name}"')
    old.rename(out / f"{name}.json")


def prepare(out: Path, episodes: int, model: str) -> tuple[EmbeddedPostgres, str, dict[str, float]]:
    """Start the embedded server under `out` and load the corpus once per size."""
    server = start_embedded(out)
    # One database per size and model tag (the vectors are the same; the tag
    # decides which embedder's queries the journal searches them with).
    name = f"retrieval_{episodes}_{re.sub(r'[^a-z0-9]+', '_', model.lower())}"
    url = with_database(server.url, name)
    marker = out / f"{name}.json"
    _adopt_unsuffixed(server.url, out, episodes, model, name)
    if marker.exists():
        saved = json.loads(marker.read_text())
        if saved.get("model") == model:
            return server, url, saved["log"]
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    root = Path(__file__).resolve().parent.parent
    migrations.apply(url, "journal", root / "memory_service" / "migrations")
    log: dict[str, float] = {}
    load(url, Corpus(episodes), model, log)
    marker.write_text(json.dumps({"model": model, "log": log}))
    return server, url, log


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--episodes", type=int, default=100_000)
    parser.add_argument("--out", type=Path, default=Path("/var/tmp/engram-bench"))
    parser.add_argument("--embedder", default="minilm")
    args = parser.parse_args()
    from engram.embedder_cache import shared_embedder

    server, url, log = prepare(args.out, args.episodes, shared_embedder(args.embedder).name)
    print(url)
    print(json.dumps(log))
    server.stop()


if __name__ == "__main__":
    main()
