"""The cluster file of ``engram cluster`` (deploy/cluster.example.yaml): what
to run on this host and where. Every key is optional but ``data_dir``; a bad
value is InvalidArgument naming the key."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from engram.errors import InvalidArgument

ON_EXIT_CHOICES = ("restart", "stop")
EMBEDDERS = ("hashing", "minilm")
MAX_REPLICAS = 16


@dataclass(frozen=True)
class ClusterConfig:
    data_dir: Path
    host: str = "127.0.0.1"
    # 0: free ports chosen at the first start (then kept); N: router N, then
    # journal, learning, retrieval replicas, gateway replicas, PostgreSQL
    # primary and standby on the ports after it.
    base_port: int = 0
    standby: bool = True
    retrieval_replicas: int = 2
    gateway_replicas: int = 2
    embedder: str = "minilm"
    log_level: str = "INFO"
    grace_seconds: float = 5.0
    on_exit: str = "restart"
    max_restarts: int = 5
    restart_window_seconds: float = 60.0
    start_timeout_seconds: float = 120.0
    # More {name, role, token} entries for the tokens file (agents' runtime tokens).
    tokens: tuple[dict[str, str], ...] = ()
    # More ENGRAM_* settings for every service process.
    env: dict[str, str] = field(default_factory=dict)

    @property
    def state_file(self) -> Path:
        return self.data_dir / "cluster.json"


_KEYS = {
    "data_dir",
    "host",
    "base_port",
    "standby",
    "replicas",
    "embedder",
    "log_level",
    "grace_seconds",
    "on_exit",
    "max_restarts",
    "restart_window_seconds",
    "start_timeout_seconds",
    "tokens",
    "env",
}


def _int(data: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidArgument(key, f"must be an integer from {low} to {high}, not {value!r}")
    return value


def _float(data: dict[str, Any], key: str, default: float) -> float:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise InvalidArgument(key, f"must be a non-negative number, not {value!r}")
    return float(value)


def parse(data: Any, base: Path) -> ClusterConfig:
    """A ClusterConfig from the parsed file; relative paths are against ``base``."""
    if not isinstance(data, dict):
        raise InvalidArgument("config", "must be a mapping of keys to values")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise InvalidArgument(unknown[0], f"unknown key; choose from {', '.join(sorted(_KEYS))}")
    if not isinstance(data.get("data_dir"), str) or not data["data_dir"].strip():
        raise InvalidArgument(
            "data_dir", "is required: the directory the cluster keeps its state in"
        )
    host = data.get("host", "127.0.0.1")
    try:
        loopback = ipaddress.ip_address(str(host)).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise InvalidArgument("host", f"{host!r} is not a loopback IP address (one host only)")
    replicas = data.get("replicas", {}) or {}
    if not isinstance(replicas, dict) or set(replicas) - {"retrieval", "gateway"}:
        raise InvalidArgument("replicas", "takes retrieval and gateway counts")
    standby = data.get("standby", True)
    if not isinstance(standby, bool):
        raise InvalidArgument("standby", f"must be true or false, not {standby!r}")
    embedder = str(data.get("embedder", "minilm")).strip().lower()
    if embedder not in EMBEDDERS:
        raise InvalidArgument("embedder", f"choose {', '.join(EMBEDDERS)}, not {embedder!r}")
    on_exit = str(data.get("on_exit", "restart")).strip().lower()
    if on_exit not in ON_EXIT_CHOICES:
        raise InvalidArgument("on_exit", f"choose {', '.join(ON_EXIT_CHOICES)}, not {on_exit!r}")
    tokens = data.get("tokens", []) or []
    if not isinstance(tokens, list) or not all(
        isinstance(t, dict) and {"name", "role", "token"} <= set(t) for t in tokens
    ):
        raise InvalidArgument("tokens", "must be a list of {name, role, token}")
    env = data.get("env", {}) or {}
    if not isinstance(env, dict) or not all(str(k).startswith("ENGRAM_") for k in env):
        raise InvalidArgument("env", "must map ENGRAM_* names to values")
    data_dir = Path(data["data_dir"]).expanduser()
    return ClusterConfig(
        data_dir=(data_dir if data_dir.is_absolute() else base / data_dir).resolve(),
        host=str(host),
        base_port=_int(data, "base_port", 0, 0, 65535 - 40),
        standby=standby,
        retrieval_replicas=_int(replicas, "retrieval", 2, 1, MAX_REPLICAS),
        gateway_replicas=_int(replicas, "gateway", 2, 1, MAX_REPLICAS),
        embedder=embedder,
        log_level=str(data.get("log_level", "INFO")),
        grace_seconds=_float(data, "grace_seconds", 5.0),
        on_exit=on_exit,
        max_restarts=_int(data, "max_restarts", 5, 0, 1000),
        restart_window_seconds=_float(data, "restart_window_seconds", 60.0),
        start_timeout_seconds=_float(data, "start_timeout_seconds", 120.0),
        tokens=tuple({k: str(v) for k, v in t.items()} for t in tokens),
        env={str(k): str(v) for k, v in env.items()},
    )


def load(path: Path) -> ClusterConfig:
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise InvalidArgument("config", f"cannot read {path}: {exc.strerror}") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "syntax error"
        raise InvalidArgument("config", f"cannot parse {path}: {first}") from None
    return parse(data, path.resolve().parent)
