"""Prometheus metrics shared by every service in a process: RPC counters and
durations (unary latency and stream durations apart), plane events, the
process and garbage-collector collectors, and gauges read at scrape time from
the parts that own the numbers (pool use, embedding backlog, index size, feed
lag)."""

from __future__ import annotations

import itertools
import logging
import math
import threading
from collections.abc import Callable, Iterator, Sequence

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger("engram.metrics")

REGISTRY = CollectorRegistry(auto_describe=True)

# process_* (CPU, memory, open files), python_gc_*, python_info: the default
# registry's collectors, on this registry.
ProcessCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)

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
RPC_STREAM_DURATION = Histogram(
    "engram_rpc_stream_duration_seconds",
    "Server-streaming RPC duration, open to close, by method (apart from unary latency: "
    "a followed stream lives for minutes).",
    ["method"],
    buckets=(0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600, 4 * 3600),
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


class SampledGauge(Collector):
    """A gauge whose value is read when /metrics is scraped, from functions the
    owning parts register. Several functions on one label set add up (several
    pools or indexes of a kind in one process); one that raises is left out of
    that scrape."""

    def __init__(self, name: str, documentation: str, labelnames: Sequence[str] = ()) -> None:
        self.name = name
        self.documentation = documentation
        self.labelnames = tuple(labelnames)
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self._sources: dict[int, tuple[tuple[str, ...], Callable[[], float]]] = {}
        REGISTRY.register(self)

    def track(self, read: Callable[[], float], **labels: str) -> Callable[[], None]:
        """Sample `read()` under `labels` from now on; returns the function that stops it."""
        key = tuple(labels[name] for name in self.labelnames)
        with self._lock:
            source = next(self._ids)
            self._sources[source] = (key, read)

        def untrack() -> None:
            with self._lock:
                self._sources.pop(source, None)

        return untrack

    def describe(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(self.name, self.documentation, labels=self.labelnames)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        with self._lock:
            sources = list(self._sources.values())
        totals: dict[tuple[str, ...], float] = {}
        for key, read in sources:
            try:
                value = float(read())
            except Exception as exc:  # a scrape never fails for one source
                log.debug("metric %s not sampled: %s", self.name, exc)
                continue
            if math.isfinite(value):
                totals[key] = totals.get(key, 0.0) + value
        family = GaugeMetricFamily(self.name, self.documentation, labels=self.labelnames)
        for key, value in sorted(totals.items()):
            family.add_metric(list(key), value)
        yield family


DB_POOL_CONNECTIONS = SampledGauge(
    "engram_db_pool_connections",
    "Database connections per pool: in_use, idle (open, free) and max.",
    ["pool", "state"],
)
DB_POOL_WAITING = SampledGauge(
    "engram_db_pool_requests_waiting", "Callers waiting for a pooled connection.", ["pool"]
)
EMBEDDING_BACKLOG = SampledGauge(
    "engram_embedding_backlog_episodes",
    "Episodes committed and not yet embedded (quarantined ones excluded).",
)
INDEX_EPISODES = SampledGauge(
    "engram_index_episodes", "Episodes in the resident index's current snapshot."
)
FEED_LAG = SampledGauge(
    "engram_feed_lag_changes",
    "Change-feed cursors between the journal's watermark and what a consumer applied "
    "(retrieval_index, learning_capture).",
    ["consumer"],
)

READ_REPLICA_LAG_SECONDS = SampledGauge(
    "engram_read_replica_lag_seconds",
    "How far the journal's read replica (a streaming standby) is behind: 0 when it has "
    "replayed all the primary has flushed, else the seconds since the commit of the last "
    "transaction it replayed. Absent while either server is unreachable.",
)
READ_REPLICA_LAG_BYTES = SampledGauge(
    "engram_read_replica_lag_bytes",
    "WAL bytes the primary has flushed and the journal's read replica has not replayed.",
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
    # read-only RPCs on the read replica: served by the primary instead, or
    # served by a standby that had not replayed everything (coverage PARTIAL)
    ("journal", "read_replica_fallback"),
    ("journal", "read_replica_behind"),
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
