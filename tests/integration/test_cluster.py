"""The one-host cluster: the front router (engram.cluster.router) in front of
real servers, and `engram cluster up` itself as a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent import futures
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from engram.channels import open_channel
from engram.cluster.launcher import spawn_up, wait_ready
from engram.cluster.processes import pid_alive, serving
from engram.cluster.router import ROUTED_SERVICES, RunningRouter, start_router
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as jpb
from engram.journal.v1 import journal_pb2_grpc as jpb_grpc
from engram.server import Suite

ROOT = Path(__file__).resolve().parents[2]
OPERATOR = "cluster-test-operator-0123456789"
METADATA = (("authorization", f"Bearer {OPERATOR}"),)


@pytest.fixture
def routers() -> Iterator[Callable[[dict[str, str]], RunningRouter]]:
    started: list[RunningRouter] = []

    def start(backends: dict[str, str]) -> RunningRouter:
        router = start_router("127.0.0.1:0", backends)
        started.append(router)
        return router

    yield start
    for router in started:
        router.stop(0)


def _wait_serving(address: str, service: str) -> None:
    deadline = time.monotonic() + 10
    while not serving(address, service):
        assert time.monotonic() < deadline, f"{service} not SERVING at {address}"
        time.sleep(0.1)


def test_router_forwards_calls_streams_errors_and_metadata(
    start_services: Callable[..., Suite],
    routers: Callable[[dict[str, str]], RunningRouter],
) -> None:
    suite = start_services(["journal"], tokens=f"ops:operator:{OPERATOR}")
    router = routers({"journal": suite.address})
    address = f"127.0.0.1:{router.port}"
    _wait_serving(address, ROUTED_SERVICES["journal"])
    with grpc.insecure_channel(address) as channel:
        journal = jpb_grpc.JournalServiceStub(channel)
        call_id = f"router-{uuid.uuid4()}"
        request = jpb.CommitTurnRequest(
            subject="router",
            session_id="s-1",
            user_text="Отправь отчёт в пятницу 📎",
            assistant_text="ok",
            request_id=str(uuid.uuid4()),
        )
        response, call = journal.CommitTurn.with_call(
            request, timeout=10, metadata=(*METADATA, ("x-request-id", call_id))
        )
        assert response.receipt.event_id > 0
        assert ("x-request-id", call_id) in tuple(call.trailing_metadata() or ())

        # No token: the backend refuses (the router authenticates nothing itself).
        with pytest.raises(grpc.RpcError) as refused:
            journal.ReadSessionJournal(
                jpb.ReadSessionJournalRequest(subject="router", session_id="s-1"), timeout=10
            )
        assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED

        # The backend's status details (ErrorInfo naming the field) come back unchanged.
        with pytest.raises(grpc.RpcError) as invalid:
            journal.CommitTurn(
                jpb.CommitTurnRequest(session_id="s-1", user_text="x", request_id="r"),
                timeout=10,
                metadata=(*METADATA, ("x-request-id", call_id)),
            )
        assert invalid.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        status = rpc_status.from_call(invalid.value)  # type: ignore[arg-type]
        assert status is not None
        info = error_details_pb2.ErrorInfo()
        assert status.details[0].Unpack(info)
        assert info.metadata["request_id"] == call_id
        assert info.metadata["field"]

        # Server streaming: the change feed up to the watermark, then the end.
        batches = list(
            journal.StreamChanges(
                jpb.StreamChangesRequest(after_cursor=0, follow=False),
                timeout=10,
                metadata=METADATA,
            )
        )
        assert any(change.cursor for batch in batches for change in batch.changes)

        health = health_pb2_grpc.HealthStub(channel)
        answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=5)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING


def _fake_journal(name: str) -> tuple[grpc.Server, int]:
    """A server answering JournalService.GetStatus with its own name as the
    version (raw bytes), to see which backend a routed call reached."""
    method = f"/{ROUTED_SERVICES['journal']}/GetStatus"
    answer = jpb.GetStatusResponse(version=name).SerializeToString()

    class Handler(grpc.GenericRpcHandler):  # type: ignore[type-arg]
        def service(self, details: grpc.HandlerCallDetails) -> Any:
            if details.method != method:
                return None
            return grpc.unary_unary_rpc_method_handler(lambda _request, _context: answer)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), handlers=[Handler()])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def test_address_lists_balance_and_fail_over(
    routers: Callable[[dict[str, str]], RunningRouter],
) -> None:
    (a, port_a), (b, port_b) = _fake_journal("a"), _fake_journal("b")
    try:
        backends = f"127.0.0.1:{port_a},127.0.0.1:{port_b}"
        router = routers({"journal": backends})
        for target in (backends, f"127.0.0.1:{router.port}"):  # a client list; the router
            channel = open_channel(target)
            journal = jpb_grpc.JournalServiceStub(channel)
            seen = {journal.GetStatus(jpb.GetStatusRequest(), timeout=5).version for _ in range(8)}
            assert seen == {"a", "b"}, target
            channel.close()
        a.stop(0).wait()
        channel = open_channel(f"127.0.0.1:{router.port}")
        journal = jpb_grpc.JournalServiceStub(channel)
        seen = {journal.GetStatus(jpb.GetStatusRequest(), timeout=5).version for _ in range(8)}
        assert seen == {"b"}
        channel.close()
    finally:
        a.stop(0)
        b.stop(0)


def start_cluster(tmp: Path, config: str) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    """`engram cluster up` with ``config`` in ``tmp``; its cluster.json once ready."""
    path = tmp / "cluster.yaml"
    path.write_text(config, "utf-8")
    process = spawn_up(path, tmp / "up.log")
    try:
        return process, wait_ready(tmp / "data" / "cluster.json", process, 240)
    except Unavailable:
        process.kill()
        process.wait()
        raise AssertionError((tmp / "up.log").read_text()[-4000:]) from None


def test_cluster_up_serves_reports_and_stops_everything(server_tmp_path: Path) -> None:
    config = (
        f"data_dir: {server_tmp_path / 'data'}\n"
        "embedder: hashing\ngrace_seconds: 1\nstandby: true\n"
        "replicas: {retrieval: 1, gateway: 1}\n"
    )
    process, state = start_cluster(server_tmp_path, config)
    pids = [p["pid"] for p in state["processes"]]
    try:
        assert {p["service"] for p in state["processes"]} == {
            "journal", "learning", "retrieval", "gateway", "router",
        }  # fmt: skip
        router = str(state["router"])
        for service in ROUTED_SERVICES.values():
            assert serving(router, service), service
        status = subprocess.run(
            [sys.executable, "-m", "engram.cli.main", "cluster", "status", "--config",
             str(server_tmp_path / "cluster.yaml")],
            cwd=ROOT, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert status.returncode == 0, status.stdout + status.stderr
        assert status.stdout.count("SERVING") == 5 and "postgres-standby" in status.stdout

        token = (server_tmp_path / "data" / "operator-token").read_text().strip()
        channel = open_channel(router, token)
        journal = jpb_grpc.JournalServiceStub(channel)
        receipt = journal.CommitTurn(
            jpb.CommitTurnRequest(
                subject="launcher",
                session_id="s",
                user_text="hello",
                assistant_text="hi",
                request_id=str(uuid.uuid4()),
            ),
            timeout=10,
        ).receipt
        assert receipt.event_id > 0
        channel.close()

        # A service killed outright is reported and started again.
        gateway_pid = next(p["pid"] for p in state["processes"] if p["name"] == "gateway-1")
        os.kill(gateway_pid, signal.SIGKILL)
        deadline = time.monotonic() + 120
        while True:
            now = json.loads((server_tmp_path / "data" / "cluster.json").read_text())
            gateway = next(p for p in now["processes"] if p["name"] == "gateway-1")
            if gateway["pid"] != gateway_pid and serving(
                gateway["address"], ROUTED_SERVICES["gateway"]
            ):
                break
            assert time.monotonic() < deadline, (server_tmp_path / "up.log").read_text()[-3000:]
            time.sleep(0.2)
        pids.append(gateway["pid"])
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=120)
    assert code == 0, (server_tmp_path / "up.log").read_text()[-3000:]
    assert not [pid for pid in pids if pid_alive(pid)]
    final = json.loads((server_tmp_path / "data" / "cluster.json").read_text())
    assert final["state"] == "stopped"
    for pg in final["postgres"].values():
        assert not (Path(pg["pgdata"]) / "postmaster.pid").exists()
