"""Failover in the one-host cluster (`engram cluster up`): under a CommitTurn
load through the router and Recall/AssembleContext readers (through the
router, and straight to the replicas over balanced address lists), one
retrieval replica and one gateway are killed with SIGKILL.

What must hold: every acknowledged CommitTurn is in the journal exactly once
(ReadSessionJournal), and the surviving replicas keep serving. What is
reported, not asserted (docs/deploy.md, "One-host cluster"): reads and
errors per second before and after the kill, per reader, and how long the
launcher took to have the killed processes serving again."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from engram.channels import open_channel
from engram.cluster.processes import serving
from engram.cluster.router import ROUTED_SERVICES
from engram.gateway.v1 import gateway_pb2 as gpb
from engram.gateway.v1 import gateway_pb2_grpc as gpb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc
from tests.faults.harness import RUNTIME_TOKEN, SUBJECT, Load, judge, read_journal
from tests.integration.test_cluster import start_cluster

pytestmark = [pytest.mark.slow, pytest.mark.integration]

WRITERS = 4
BEFORE_SECONDS = 4.0
AFTER_SECONDS = 8.0
READ_TIMEOUT = 10.0
# A liveness bound, not a timing claim: a restart takes a few seconds.
RESTART_WITHIN = 120.0
CONFIG = """\
data_dir: {data_dir}
embedder: hashing
grace_seconds: 1
standby: false
on_exit: restart
replicas: {{retrieval: 2, gateway: 2}}
tokens:
  - {{name: faults-rt, role: runtime, token: {token}}}
"""


def recall(channel: grpc.Channel) -> None:
    rpb_grpc.RetrievalServiceStub(channel).Recall(
        rpb.RecallRequest(subject=SUBJECT, query_text="which room is the meeting in"),
        timeout=READ_TIMEOUT,
    )


def assemble(channel: grpc.Channel) -> None:
    gpb_grpc.GatewayServiceStub(channel).AssembleContext(
        gpb.AssembleContextRequest(
            subject=SUBJECT,
            session_id="reader",
            input_text="Which room is the meeting in?",
            request_id=str(uuid.uuid4()),
        ),
        timeout=READ_TIMEOUT,
    )


READS = {"Recall": recall, "AssembleContext": assemble}


@dataclass(frozen=True)
class Read:
    reader: str
    started: float
    ended: float
    code: str


@dataclass
class Readers:
    """One thread per (name, address, rpc): calls in a loop on a channel of
    engram.channels (round-robin over a list, retries UNAVAILABLE)."""

    targets: list[tuple[str, str, str]]
    reads: list[Read] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Readers:
        for target in self.targets:
            thread = threading.Thread(target=self._run, args=target, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def _run(self, name: str, address: str, rpc: str) -> None:
        channel = open_channel(address, RUNTIME_TOKEN)
        call = READS[rpc]
        try:
            while not self._stop.is_set():
                started = time.monotonic()
                try:
                    call(channel)
                    code = "OK"
                except grpc.RpcError as exc:
                    code = exc.code().name if exc.code() is not None else "UNKNOWN"
                    time.sleep(0.05)
                with self._lock:
                    self.reads.append(Read(name, started, time.monotonic(), code))
        finally:
            channel.close()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(READ_TIMEOUT + 5)

    def rates(self, name: str, start: float, end: float) -> tuple[float, float]:
        """(calls answered OK per second, errors per second) of calls started in [start, end)."""
        window = [r for r in self.reads if r.reader == name and start <= r.started < end]
        seconds = max(1e-9, end - start)
        ok = sum(1 for r in window if r.code == "OK")
        return ok / seconds, (len(window) - ok) / seconds

    def answered_between(self, name: str, start: float, end: float) -> int:
        """Calls answered OK that started at or after ``start`` and ended by ``end``."""
        return sum(
            1
            for r in self.reads
            if r.reader == name and r.code == "OK" and r.started >= start and r.ended <= end
        )

    def errors(self, name: str, start: float) -> dict[str, int]:
        found: dict[str, int] = {}
        for r in self.reads:
            if r.reader == name and r.started >= start and r.code != "OK":
                found[r.code] = found.get(r.code, 0) + 1
        return found


@pytest.fixture
def cluster(server_tmp_path: Path) -> Iterator[tuple[Any, dict[str, Any], Path]]:
    config = CONFIG.format(data_dir=server_tmp_path / "data", token=RUNTIME_TOKEN)
    process, state = start_cluster(server_tmp_path, config)
    try:
        yield process, state, server_tmp_path
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)


def _process(state: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in state["processes"] if p["name"] == name)


def _wait_restarted(state_file: Path, name: str, old_pid: int, killed_at: float) -> float:
    """Seconds from the kill until ``name`` serves again under a new pid."""
    while time.monotonic() - killed_at < RESTART_WITHIN:
        now = _process(json.loads(state_file.read_text("utf-8")), name)
        if now["pid"] != old_pid and serving(now["address"], ROUTED_SERVICES[now["service"]]):
            return time.monotonic() - killed_at
        time.sleep(0.1)
    raise AssertionError(f"{name} not serving again within {RESTART_WITHIN}s")


def test_killing_a_retrieval_replica_and_a_gateway_loses_nothing(
    cluster: tuple[Any, dict[str, Any], Path], record_property: Callable[[str, object], None]
) -> None:
    _process_handle, state, tmp = cluster
    services = state["services"]
    router = state["router"]
    readers = Readers(
        [
            ("router Recall", router, "Recall"),
            ("router AssembleContext", router, "AssembleContext"),
            ("retrieval list Recall", ",".join(services["retrieval"]), "Recall"),
            ("gateway list AssembleContext", ",".join(services["gateway"]), "AssembleContext"),
        ]
    )
    load = Load(router, clients=WRITERS).start()
    readers.start()
    try:
        time.sleep(BEFORE_SECONDS)
        victims = {name: _process(state, name)["pid"] for name in ("retrieval-1", "gateway-1")}
        killed_at = time.monotonic()
        for pid in victims.values():
            os.kill(pid, signal.SIGKILL)
        # The survivors answer at once, directly.
        for name, read in (("retrieval-2", recall), ("gateway-2", assemble)):
            survivor = open_channel(_process(state, name)["address"], RUNTIME_TOKEN)
            try:
                read(survivor)
            finally:
                survivor.close()
        restarts = {
            name: _wait_restarted(tmp / "data" / "cluster.json", name, pid, killed_at)
            for name, pid in victims.items()
        }
        time.sleep(max(0.0, killed_at + AFTER_SECONDS - time.monotonic()))
    finally:
        readers.stop()
        load.stop()
    ended = time.monotonic()
    verdict = judge(load, read_journal(router, clients=WRITERS))

    lines = [
        f"\nSIGKILL of retrieval-1 and gateway-1 under {WRITERS} writers and "
        f"{len(readers.targets)} readers: {verdict.summary()}; back serving after "
        + ", ".join(f"{name} {seconds:.2f}s" for name, seconds in restarts.items())
    ]
    away = killed_at + min(restarts.values())  # until the first of them was back
    served_while_away = {}
    for name, _address, _rpc in readers.targets:
        ok_before, err_before = readers.rates(name, killed_at - BEFORE_SECONDS + 1, killed_at)
        ok_after, err_after = readers.rates(name, killed_at, ended)
        served_while_away[name] = readers.answered_between(name, killed_at, away)
        key = name.replace(" ", "_")
        record_property(f"{key}_ok_per_s_before", round(ok_before, 1))
        record_property(f"{key}_ok_per_s_after", round(ok_after, 1))
        record_property(f"{key}_errors_per_s_after", round(err_after, 2))
        record_property(f"{key}_ok_while_away", served_while_away[name])
        lines.append(
            f"  {name}: {ok_before:.1f} ok/s, {err_before:.2f} errors/s before; "
            f"{ok_after:.1f} ok/s, {err_after:.2f} errors/s after "
            f"({served_while_away[name]} answered while they were down) "
            f"{readers.errors(name, killed_at) or ''}"
        )
    for name, seconds in restarts.items():
        record_property(f"{name}_restart_seconds", round(seconds, 2))
    print("\n".join(lines))

    # While the killed processes were away, the survivors served every reader.
    assert all(served_while_away.values()), served_while_away
    assert not load.unresolved, f"{len(load.unresolved)} commits never acknowledged"
    assert verdict.acknowledged > 0
    assert not verdict.lost, f"acknowledged turns lost: {verdict.lost[:10]}"
    assert not verdict.duplicated, f"duplicated request ids: {list(verdict.duplicated)[:10]}"
    assert not verdict.mismatched, f"receipt event ids differ: {verdict.mismatched[:10]}"
    assert not verdict.unknown, f"turns nobody sent: {verdict.unknown[:10]}"
