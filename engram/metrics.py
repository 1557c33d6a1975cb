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


BUILD_INFO = Gauge(
    "engram_build_info",
    "Always 1; the running engram version as a label.",
    ["version"],
    registry=REGISTRY,
)

# The plane events dashboards alert on, exported at zero from process start so
# that rate() and absence alerts work before the first occurrence. Services
# may count other events freely; these are the ones the operator guide names.
KNOWN_PLANE_EVENTS: tuple[tuple[str, str], ...] = (
    # redactions and omissions in recovered run memory
    ("run_memory", "redacted"),
    ("run_memory", "prompt_limit_omitted"),
    ("run_memory", "injected"),
    ("learning", "prompt_limit_omitted"),
    ("run_memory", "pruned"),
    ("run_memory", "maintenance_failed"),
    # the embedding backlog behind the resident index
    ("journal", "episodes_embedded"),
    ("journal", "embedding_batch_failed"),
    ("journal", "find_exact_disagreement"),
    # resident index fallbacks
    ("retrieval", "fallback"),
    ("retrieval", "fallback_coverage_invalid"),
    # learned-context omissions and review outcomes
    ("learning", "context_omitted_zero_score"),
    ("learning", "context_omitted_by_limit"),
    ("learning", "capture_secret_dropped"),
    # injections and withheld blocks at the model boundary, gate verdicts
    ("gateway", "section_included"),
    ("gateway", "section_omitted_budget"),
    ("gateway", "section_source_unavailable"),
    ("gateway", "section_withheld_receipt_failed"),
    ("gateway", "section_withheld_invalid_coverage"),
    ("gateway", "receipt_failed"),
    ("gateway", "verdict_release"),
    ("gateway", "verdict_regenerate"),
    ("gateway", "verdict_fallback"),
    ("gateway", "verdict_not_journaled"),
)


def _export_known_series() -> None:
    from engram import __version__

    BUILD_INFO.labels(version=__version__).set(1)
    for plane, event in KNOWN_PLANE_EVENTS:
        PLANE_EVENTS.labels(plane=plane, event=event)


_export_known_series()


def count_plane_event(plane: str, event: str, amount: float = 1.0) -> None:
    if amount:
        PLANE_EVENTS.labels(plane=plane, event=event).inc(amount)


def serve_metrics(port: int, host: str = "127.0.0.1") -> int:
    """Expose /metrics over HTTP; returns the bound port (0 picks one)."""
    server, _thread = start_http_server(port, addr=host, registry=REGISTRY)
    return int(server.server_port)
