"""Settings from command-line flags and ENGRAM_* environment variables.

Precedence: explicit flag > environment variable > default. Every field's
environment name is ENGRAM_ plus the field name in upper case.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from engram.errors import InvalidArgument

SERVICES = ("journal", "learning", "retrieval", "gateway")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


@dataclass(frozen=True)
class Settings:
    listen: str = field(default="127.0.0.1:50051", metadata={"help": "host:port to serve on"})
    database_url: str = field(
        default="", metadata={"help": "PostgreSQL URL; empty starts the embedded server"}
    )
    read_database_url: str = field(
        default="",
        metadata={
            "help": "a streaming standby of database_url serving the journal's read-only "
            "RPCs (docs/deploy.md#read-replica); empty reads the primary"
        },
    )
    data_dir: str = field(
        default="./.engram", metadata={"help": "embedded PostgreSQL and index snapshots"}
    )
    journal_addr: str = field(default="", metadata={"help": "JournalService host:port"})
    learning_addr: str = field(default="", metadata={"help": "LearningService host:port"})
    retrieval_addr: str = field(default="", metadata={"help": "RetrievalService host:port"})
    tokens_file: str = field(default="", metadata={"help": "JSON/YAML list of {name, role, token}"})
    tokens: str = field(default="", metadata={"help": "tokens as name:role:token,..."})
    service_token: str = field(
        default="", metadata={"help": "token this process presents to other services"}
    )
    page_token_secret: str = field(
        default="",
        metadata={"help": "key signing page tokens; empty keeps one in the data dir"},
    )
    embedder: str = field(default="minilm", metadata={"help": "minilm | hashing"})
    metrics_port: int = field(default=-1, metadata={"help": "Prometheus port; -1 disables"})
    metrics_host: str = field(default="127.0.0.1", metadata={"help": "Prometheus bind address"})
    log_level: str = field(default="INFO", metadata={"help": "DEBUG, INFO, WARNING, ERROR"})
    log_json: bool = field(default=True, metadata={"help": "JSON log lines"})
    grace_seconds: float = field(default=10.0, metadata={"help": "drain time on shutdown"})
    max_workers: int = field(default=32, metadata={"help": "gRPC handler threads"})
    processes: int = field(
        default=1,
        metadata={
            "help": "serving processes sharing the listen port (SO_REUSEPORT), each with "
            "its own pools, workers and resident index"
        },
    )
    pool_max_size: int = field(default=16, metadata={"help": "database connections per service"})
    index_staleness_seconds: float = field(
        default=5.0, metadata={"help": "resident index lag before Recall falls back"}
    )
    index_shadow_mode: bool = field(
        default=False, metadata={"help": "serve the fallback, compare the resident index"}
    )
    index_persist: bool = field(default=True, metadata={"help": "persist index snapshots"})
    index_floor_wait_seconds: float = field(
        default=0.5,
        metadata={"help": "Recall's wait for min_snapshot_version before the journal fallback"},
    )
    serve_workspaces: str = field(
        default="",
        metadata={"help": "retrieval: index and serve only these workspaces (a,b); empty: all"},
    )
    retrieval_route: str = field(
        default="",
        metadata={"help": "gateway: WORKSPACE=host:port,... retrieval replica per workspace"},
    )
    embed_batch_size: int = field(default=32, metadata={"help": "episodes per embedding batch"})
    recall_ranker: str = field(
        default="default",
        metadata={
            "help": "second ranking stage of Recall and SearchEpisodes: none (first stage "
            "only) | default (shipped weights) | path to weights from "
            "tools/train_recall_ranker.py"
        },
    )
    extractor_addr: str = field(default="", metadata={"help": "ExtractorService host:port"})
    downstream_timeout_ms: int = field(
        default=2000,
        metadata={
            "help": "deadline of each call to another service (gateway fan-out, learning "
            "and retrieval to the journal)"
        },
    )
    workers_enabled: bool = field(
        default=True, metadata={"help": "run background workers (embedding, capture, review)"}
    )
    learning_quarantine_state: str = field(
        default="auto",
        metadata={
            "help": "learning: where GetLearnedContext reads the journal's quarantine state: "
            "auto (the journal's tables when the learning database holds them, else the "
            "change feed) | feed (always the change feed: a learning database apart from "
            "the journal's that still holds a journal schema)"
        },
    )

    @classmethod
    def load(
        cls, overrides: Mapping[str, Any] | None = None, env: Mapping[str, str] | None = None
    ) -> Settings:
        env = os.environ if env is None else env
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw: Any = None
            if overrides and overrides.get(f.name) is not None:
                raw = overrides[f.name]
            elif f"ENGRAM_{f.name.upper()}" in env:
                raw = env[f"ENGRAM_{f.name.upper()}"]
            if raw is not None:
                values[f.name] = _coerce(f.name, f.type, raw)
        return cls(**values)

    def with_(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser().resolve()

    def validate(self) -> Settings:
        """Refuse values that cannot work, before anything is started; raises
        InvalidArgument naming the setting. Returns self."""
        if self.log_level.strip().upper() not in LOG_LEVELS:
            raise InvalidArgument(
                "log_level", f"unknown level {self.log_level!r}; choose {', '.join(LOG_LEVELS)}"
            )
        from engram.embedding import EMBEDDER_CHOICES

        if self.embedder.strip().lower() not in EMBEDDER_CHOICES:
            raise InvalidArgument(
                "embedder",
                f"unknown embedder {self.embedder!r}; choose {', '.join(EMBEDDER_CHOICES)}",
            )
        split_address("listen", self.listen)
        if not -1 <= self.metrics_port <= 65535:
            raise InvalidArgument("metrics_port", f"{self.metrics_port} is not -1 or a port")
        for name in ("max_workers", "pool_max_size", "embed_batch_size", "processes"):
            if getattr(self, name) < 1:
                raise InvalidArgument(name, f"must be at least 1, not {getattr(self, name)}")
        if self.grace_seconds < 0:
            raise InvalidArgument("grace_seconds", "must not be negative")
        if self.index_floor_wait_seconds < 0:
            raise InvalidArgument("index_floor_wait_seconds", "must not be negative")
        if self.learning_quarantine_state not in ("auto", "feed"):
            raise InvalidArgument("learning_quarantine_state", "must be auto or feed")
        self.served_workspaces()
        self.retrieval_routes()
        if (
            self.recall_ranker.strip().lower() not in ("", "none", "default")
            and not Path(self.recall_ranker.strip()).is_file()
        ):
            raise InvalidArgument("recall_ranker", "is not none, default or a weights file")
        for name in ("database_url", "read_database_url"):
            _check_database_url(name, getattr(self, name))
        if self.read_database_url and not self.database_url:
            raise InvalidArgument(
                "read_database_url", "needs database_url: the embedded server has no standby"
            )
        return self

    def served_workspaces(self) -> frozenset[str]:
        """The workspaces a retrieval replica indexes and serves (empty: every one)."""
        from engram.validation import require_id

        return frozenset(
            require_id("serve_workspaces", w.strip())
            for w in self.serve_workspaces.split(",")
            if w.strip()
        )

    def retrieval_routes(self) -> dict[str, str]:
        """workspace -> retrieval replica address, from retrieval_route."""
        from engram.validation import require_id

        routes: dict[str, str] = {}
        for entry in self.retrieval_route.split(","):
            if not entry.strip():
                continue
            workspace, sep, address = entry.partition("=")
            if not sep:
                raise InvalidArgument("retrieval_route", f"{entry!r} is not WORKSPACE=host:port")
            split_address("retrieval_route", address)
            routes[require_id("retrieval_route", workspace.strip())] = address.strip()
        return routes

    def listen_is_loopback(self) -> bool:
        host = self.listen.rsplit(":", 1)[0].strip("[]")
        if host in ("localhost", ""):
            return host == "localhost"
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False


def _check_database_url(name: str, url: str) -> None:
    if not url:
        return
    from psycopg import ProgrammingError, conninfo

    try:
        conninfo.conninfo_to_dict(url)
    except ProgrammingError:
        # The message may quote the URL, password included: name no part of it.
        raise InvalidArgument(
            name, "is not a PostgreSQL URL or key=value connection string"
        ) from None


def split_address(name: str, address: str) -> tuple[str, int]:
    """(host, port) of a host:port setting ([v6]:port too); InvalidArgument otherwise."""
    host, sep, port_text = address.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not port_text.isdigit() or int(port_text) > 65535:
        raise InvalidArgument(name, f"{address!r} is not host:port")
    return host, int(port_text)


def _coerce(name: str, type_name: Any, raw: Any) -> Any:
    type_str = str(type_name)
    try:
        if type_str == "bool":
            if isinstance(raw, bool):
                return raw
            lowered = str(raw).strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if type_str == "int":
            return int(raw)
        if type_str == "float":
            return float(raw)
    except ValueError:
        raise InvalidArgument(name, f"cannot parse {raw!r} as {type_str}") from None
    return str(raw)
