"""Prometheus metrics and structured logs of a real suite: RPC counters by
method and code, the plane-event series, and request ids in JSON log lines."""

from __future__ import annotations

import io
import json
import logging
import re
import urllib.request
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.logs import JsonFormatter
from engram.metrics import KNOWN_PLANE_EVENTS, serve_metrics

COMMIT = "/engram.journal.v1.JournalService/CommitTurn"


@pytest.fixture(scope="module")
def metrics_port() -> int:
    # One exporter per process (the registry is process-wide); port 0 picks one.
    return serve_metrics(0)


def scrape(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
        body: bytes = response.read()
    return body.decode()


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one series in Prometheus text format, None when absent."""
    for line in text.splitlines():
        if not labels and line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
        if not line.startswith(name + "{"):
            continue
        found = dict(re.findall(r'(\w+)="([^"]*)"', line[len(name) : line.rindex("}")]))
        if found == labels:
            return float(line.rsplit(" ", 1)[1])
    return None


def commit_request(text: str = "I moved to Lisbon.") -> jpb.CommitTurnRequest:
    return jpb.CommitTurnRequest(
        subject="alice",
        session_id="s1",
        user_text=text,
        assistant_text="Noted.",
        request_id=str(uuid.uuid4()),
        learning_eligible=True,
    )


def test_rpc_and_plane_metrics_are_exported(
    metrics_port: int, start_services: Any, channel_to: Any
) -> None:
    suite = start_services(["journal"])
    stub = jpb_grpc.JournalServiceStub(channel_to(suite))
    before = scrape(metrics_port)
    ok_before = sample(before, "engram_rpc_requests_total", code="OK", method=COMMIT) or 0.0

    stub.CommitTurn(commit_request())
    with pytest.raises(grpc.RpcError):
        stub.CommitTurn(commit_request(text=""))
    stub.CompleteRun(
        jpb.CompleteRunRequest(
            run_id="run-m1",
            session_id="s1",
            subject="alice",
            status=jpb.RUN_STATUS_COMPLETED,
            request_text="Email the summary to alice@example.com",
            outcome_text="Sent to alice@example.com with token sk-live-0123456789abcdef0123",
            request_id=str(uuid.uuid4()),
        )
    )

    after = scrape(metrics_port)
    assert sample(after, "engram_rpc_requests_total", code="OK", method=COMMIT) == ok_before + 1
    invalid = sample(after, "engram_rpc_requests_total", code="INVALID_ARGUMENT", method=COMMIT)
    assert invalid is not None and invalid >= 1
    assert f'engram_rpc_latency_seconds_count{{method="{COMMIT}"}}' in after
    assert "engram_index_staleness_seconds" in after
    assert 'engram_build_info{version="' in after
    for plane, event in KNOWN_PLANE_EVENTS:
        assert sample(after, "engram_plane_events_total", event=event, plane=plane) is not None
    redacted_before = sample(
        before, "engram_plane_events_total", event="redacted", plane="run_memory"
    )
    redacted_after = sample(
        after, "engram_plane_events_total", event="redacted", plane="run_memory"
    )
    assert redacted_before is not None and redacted_after is not None
    assert redacted_after > redacted_before


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("engram.rpc")
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield stream
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def test_log_lines_carry_the_callers_request_id(
    json_log: io.StringIO, start_services: Any, channel_to: Any
) -> None:
    suite = start_services(["journal"])
    stub = jpb_grpc.JournalServiceStub(channel_to(suite))
    ok_id, bad_id = f"req-{uuid.uuid4()}", f"req-{uuid.uuid4()}"

    _, call = stub.CommitTurn.with_call(commit_request(), metadata=(("x-request-id", ok_id),))
    assert ("x-request-id", ok_id) in tuple(call.trailing_metadata() or ())
    with pytest.raises(grpc.RpcError) as raised:
        stub.CommitTurn(commit_request(text=""), metadata=(("x-request-id", bad_id),))
    assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT

    lines = [json.loads(line) for line in json_log.getvalue().splitlines() if line.strip()]
    done = [e for e in lines if e.get("request_id") == ok_id]
    assert done, lines
    assert all(e["method"] == COMMIT for e in done)
    failed = [e for e in lines if e.get("request_id") == bad_id]
    assert any(e["msg"] == "rpc error" and e["code"] == "INVALID_ARGUMENT" for e in failed), lines


STREAM = "/engram.journal.v1.JournalService/StreamChanges"


def eventually_sampled(port: int, name: str, want: float, **labels: str) -> str:
    """The scrape once `name{labels}` reads `want` (background work settles)."""
    import time

    deadline = time.monotonic() + 30
    while True:
        text = scrape(port)
        if sample(text, name, **labels) == want or time.monotonic() > deadline:
            return text
        time.sleep(0.1)


def test_process_pool_backlog_index_lag_and_stream_series(
    metrics_port: int, start_services: Any, channel_to: Any
) -> None:
    # The journal embeds nothing (workers off), so its backlog is what was committed;
    # the retrieval plane follows it and indexes the episode lexically, and the
    # learning plane's capture follows it too.
    journal_suite = start_services(["journal"], workers_enabled=False)
    journal = jpb_grpc.JournalServiceStub(channel_to(journal_suite))
    journal.CommitTurn(commit_request())
    start_services(["learning", "retrieval"], journal_addr=journal_suite.address)
    for batch in journal.StreamChanges(jpb.StreamChangesRequest(after_cursor=0, follow=False)):
        assert batch.watermark >= 1

    text = eventually_sampled(metrics_port, "engram_index_episodes", 1.0)
    assert sample(text, "engram_index_episodes") == 1.0
    text = eventually_sampled(
        metrics_port, "engram_feed_lag_changes", 0.0, consumer="retrieval_index"
    )
    assert sample(text, "engram_feed_lag_changes", consumer="retrieval_index") == 0.0
    text = eventually_sampled(
        metrics_port, "engram_feed_lag_changes", 0.0, consumer="learning_capture"
    )
    assert sample(text, "engram_feed_lag_changes", consumer="learning_capture") == 0.0
    assert sample(text, "engram_embedding_backlog_episodes") == 1.0
    for state in ("in_use", "idle", "max"):
        assert sample(text, "engram_db_pool_connections", pool="journal", state=state) is not None
    assert sample(text, "engram_db_pool_connections", pool="journal", state="max") == 8.0
    assert sample(text, "engram_db_pool_requests_waiting", pool="journal") is not None
    for name in ("process_resident_memory_bytes", "process_cpu_seconds_total"):
        assert re.search(rf"^{name} ", text, re.MULTILINE), name
    assert sample(text, "python_gc_collections_total", generation="0") is not None
    # Streams have their own histogram; unary latency is unary only.
    assert f'engram_rpc_stream_duration_seconds_count{{method="{STREAM}"}}' in text
    assert f'engram_rpc_latency_seconds_count{{method="{STREAM}"}}' not in text
    assert f'engram_rpc_latency_seconds_count{{method="{COMMIT}"}}' in text
