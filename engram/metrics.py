"""Prometheus metrics shared by every service in a process."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

REGISTRY = CollectorRegistry(auto_describe=True)

RPC_REQUESTS = Counter(
    "engram_rpc_requests_total",
    "RPCs handled, by method and status code.",
    ["method", "code"],
    registry=REGISTRY,
)
RPC_LATENCY = Histogram(
    "engram_rpc_latency_seconds",
    "RPC handling time, by method.",
    ["method"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    registry=REGISTRY,
)
PLANE_EVENTS = Counter(
    "engram_plane_events_total",
    "Memory-plane events: redactions, omissions, injections, fallbacks, gate verdicts.",
    ["plane", "event"],
    registry=REGISTRY,
)
INDEX_STALENESS = Gauge(
    "engram_index_staleness_seconds",
    "Seconds the resident index lags the journal watermark.",
    registry=REGISTRY,
)


def count_plane_event(plane: str, event: str, amount: float = 1.0) -> None:
    if amount:
        PLANE_EVENTS.labels(plane=plane, event=event).inc(amount)


def serve_metrics(port: int, host: str = "127.0.0.1") -> int:
    """Expose /metrics over HTTP; returns the bound port (0 picks one)."""
    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return int(server.server_port)
