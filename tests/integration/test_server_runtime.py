"""Server runtime: reflection, health, auth and roles, graceful shutdown."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engram.config import Settings
from engram.errors import InvalidArgument
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.server import build_authenticator

TOKENS = (
    "rt:runtime:runtime-token-0123456789,op:operator:operator-token-0123456,"
    "ad:admin:admin-token-0123456789"
)


def list_services(channel: grpc.Channel) -> set[str]:
    stub = reflection_pb2_grpc.ServerReflectionStub(channel)
    responses = stub.ServerReflectionInfo(
        iter([reflection_pb2.ServerReflectionRequest(list_services="")])
    )
    return {s.name for r in responses for s in r.list_services_response.service}


def test_reflection_and_health_for_journal(start_services, channel_to):
    channel = channel_to(start_services(["journal"]))
    assert list_services(channel) == {
        "engram.journal.v1.JournalService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    }
    health = health_pb2_grpc.HealthStub(channel)
    for service in ("", "engram.journal.v1.JournalService"):
        assert (
            health.Check(health_pb2.HealthCheckRequest(service=service)).status
            == health_pb2.HealthCheckResponse.SERVING
        )


def _turn() -> pb.CommitTurnRequest:
    return pb.CommitTurnRequest(
        subject="a", session_id="s", user_text="u", assistant_text="a", request_id=str(uuid.uuid4())
    )


def test_tokens_and_roles(start_services, channel_to):
    suite = start_services(["journal"], tokens=TOKENS)
    anonymous = pb_grpc.JournalServiceStub(channel_to(suite))
    with pytest.raises(grpc.RpcError) as err:
        anonymous.CommitTurn(_turn())
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    wrong = pb_grpc.JournalServiceStub(channel_to(suite, "not-a-known-token-at-all"))
    with pytest.raises(grpc.RpcError) as err:
        wrong.CommitTurn(_turn())
    assert err.value.code() == grpc.StatusCode.UNAUTHENTICATED
    runtime = pb_grpc.JournalServiceStub(channel_to(suite, "runtime-token-0123456789"))
    assert runtime.CommitTurn(_turn()).receipt.event_id > 0
    purge = pb.PurgeRequest(subject="a", reason="test")
    for token in ("runtime-token-0123456789", "operator-token-0123456"):
        with pytest.raises(grpc.RpcError) as err:
            pb_grpc.JournalServiceStub(channel_to(suite, token)).Purge(purge)
        assert err.value.code() == grpc.StatusCode.PERMISSION_DENIED
    admin = pb_grpc.JournalServiceStub(channel_to(suite, "admin-token-0123456789"))
    assert admin.Purge(purge).events_removed == 1
    # Health and reflection stay reachable without a token.
    health = health_pb2_grpc.HealthStub(channel_to(suite))
    assert (
        health.Check(health_pb2.HealthCheckRequest()).status
        == health_pb2.HealthCheckResponse.SERVING
    )


def test_non_loopback_listen_requires_tokens():
    with pytest.raises(InvalidArgument, match="without tokens"):
        build_authenticator(Settings.load({"listen": "0.0.0.0:50051"}, env={}))
    assert build_authenticator(
        Settings.load({"listen": "0.0.0.0:50051", "tokens": TOKENS}, env={})
    ).enabled
    assert not build_authenticator(Settings.load({"listen": "127.0.0.1:0"}, env={})).enabled


def test_sigterm_drains_and_exits_cleanly(database_url, tmp_path: Path):
    env = {
        **os.environ,
        "ENGRAM_DATABASE_URL": database_url,
        "ENGRAM_EMBEDDER": "hashing",
        "ENGRAM_DATA_DIR": str(tmp_path),
        "ENGRAM_LISTEN": "127.0.0.1:0",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "engram.cli.main", "serve", "journal"],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        port = None
        lines: list[str] = []
        deadline = time.monotonic() + 60
        assert process.stderr is not None
        while time.monotonic() < deadline and port is None:
            line = process.stderr.readline()
            lines.append(line)
            match = re.search(r"serving journal on [0-9.]+:([0-9]+)", line)
            if match:
                port = int(match.group(1))
        assert port, "server did not report its port"
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = pb_grpc.JournalServiceStub(channel)
            assert stub.CommitTurn(_turn()).receipt.event_id > 0
            process.send_signal(signal.SIGTERM)
            assert process.wait(timeout=30) == 0
        lines += process.stderr.read().splitlines()
        # stderr is not a terminal: it is the JSON log stream and nothing else.
        records = [json.loads(line) for line in lines if line.strip()]
        ready = [r for r in records if r["msg"].startswith("engram ") and "serving" in r["msg"]]
        assert [r["port"] for r in ready] == [port]
        assert records[-1]["msg"] == "stopped"
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def test_all_in_one_with_tokens_mints_an_internal_service_token(start_services, channel_to):
    from engram.retrieval.v1 import retrieval_pb2 as rpb
    from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc

    suite = start_services(["journal", "retrieval"], tokens=TOKENS)
    channel = channel_to(suite, "runtime-token-0123456789")
    pb_grpc.JournalServiceStub(channel).CommitTurn(_turn())
    # Retrieval reaches the journal with the minted token: not UNAVAILABLE.
    response = rpb_grpc.RetrievalServiceStub(channel).Recall(
        rpb.RecallRequest(query_text="u", subject="a")
    )
    assert response.coverage.outcome == 1  # SEARCH_OUTCOME_SEARCHED


def test_split_process_with_tokens_requires_a_service_token():
    from engram.server import start_suite

    settings = Settings.load(
        {"listen": "127.0.0.1:0", "tokens": TOKENS, "journal_addr": "127.0.0.1:1"}, env={}
    )
    with pytest.raises(InvalidArgument, match="ENGRAM_SERVICE_TOKEN"):
        start_suite(settings, ["retrieval"])
