"""Shared benchmark plumbing: a throwaway database and latency statistics."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg

from engram.config import Settings
from engram.db.embedded import start_embedded
from engram.db.urls import with_database


@contextmanager
def scratch_database(server_url: str | None = None) -> Iterator[str]:
    """A new database on the given server, or on a throwaway embedded one."""
    embedded = None
    scratch: Path | None = None
    if not server_url:
        scratch = Path(tempfile.mkdtemp(prefix="engram-bench-", dir="/tmp"))
        embedded = start_embedded(scratch)
        server_url = embedded.url
    name = f"engram_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield with_database(server_url, name)
    finally:
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if embedded is not None:
            embedded.stop()
        if scratch is not None:
            # A throwaway server's files: hundreds of MB per run otherwise left in /tmp.
            shutil.rmtree(scratch, ignore_errors=True)


def in_process_settings(database_url: str) -> Settings:
    """Settings of a suite started inside a benchmark: port 0, no workers, no metrics,
    the word-hashing embedder, quiet logs; nothing read from the environment."""
    return Settings.load(
        {
            "listen": "127.0.0.1:0",
            "database_url": database_url,
            "embedder": "hashing",
            "workers_enabled": False,
            "metrics_port": -1,
            "log_level": "WARNING",
        },
        env={},
    )


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def summarize(latencies_s: list[float], wall_s: float) -> dict[str, float]:
    return {
        "n": len(latencies_s),
        "throughput": len(latencies_s) / wall_s if wall_s else float("nan"),
        "p50_ms": percentile(latencies_s, 50) * 1000,
        "p99_ms": percentile(latencies_s, 99) * 1000,
        "mean_ms": statistics.fmean(latencies_s) * 1000 if latencies_s else float("nan"),
    }
