"""`engram serve --processes N`: N serving processes on one port (SO_REUSEPORT)
that share the database, the page-token secret and the internal service token."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import psutil
import pytest

from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from engram.retrieval.v1 import retrieval_pb2 as rpb
from engram.retrieval.v1 import retrieval_pb2_grpc as rpb_grpc

RUNTIME = "runtime-token-0123456789"
TOKENS = f"rt:runtime:{RUNTIME}"
METADATA = (("authorization", f"Bearer {RUNTIME}"),)


class Served:
    def __init__(self, process: subprocess.Popen[str], port: int) -> None:
        self.process = process
        self.port = port

    def channels(self, n: int) -> list[grpc.Channel]:
        # Separate connections (no shared subchannel): the kernel spreads them.
        return [
            grpc.insecure_channel(
                f"127.0.0.1:{self.port}", options=[("grpc.use_local_subchannel_pool", 1)]
            )
            for _ in range(n)
        ]


@pytest.fixture
def serve(database_url: str, tmp_path: Path) -> Iterator[object]:
    started: list[subprocess.Popen[str]] = []

    def start(*args: str, **env: str) -> Served:
        process = subprocess.Popen(
            [sys.executable, "-m", "engram.cli.main", "serve", *args],
            env={
                **os.environ,
                "ENGRAM_DATABASE_URL": database_url,
                "ENGRAM_EMBEDDER": "hashing",
                "ENGRAM_DATA_DIR": str(tmp_path / "data"),
                "ENGRAM_LISTEN": "127.0.0.1:0",
                "ENGRAM_INDEX_PERSIST": "false",
                **env,
            },
            stderr=subprocess.PIPE,
            text=True,
        )
        started.append(process)
        assert process.stderr is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = process.stderr.readline()
            match = re.search(r"serving .* on [0-9.]+:([0-9]+) \((\d+) processes\)", line)
            if match:
                return Served(process, int(match.group(1)))
            assert line or process.poll() is None, "engram serve exited"
        raise AssertionError("engram serve did not report its port")

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stderr is not None:
            process.stderr.close()


def turn(text: str) -> pb.CommitTurnRequest:
    return pb.CommitTurnRequest(
        subject="procs",
        session_id="s",
        user_text=text,
        assistant_text="ok",
        request_id=str(uuid.uuid4()),
        learning_eligible=True,
    )


def test_processes_share_one_port_and_stop_together(serve):
    served = serve("journal", "--processes", "2")
    children = psutil.Process(served.process.pid).children()
    servers = [c for c in children if "spawn_main" in " ".join(c.cmdline())]
    assert len(servers) == 2
    channels = served.channels(8)
    try:
        for i, channel in enumerate(channels):
            stub = pb_grpc.JournalServiceStub(channel)
            assert stub.CommitTurn(turn(f"turn {i}")).receipt.event_id > 0
        # The feed is one, whichever process wrote: every commit is in it.
        turns = [
            c
            for r in pb_grpc.JournalServiceStub(channels[0]).StreamChanges(
                pb.StreamChangesRequest(after_cursor=0, kinds=[pb.CHANGE_KIND_EVENT_APPENDED])
            )
            for c in r.changes
            if c.event_type == "conversation.turn.completed"
        ]
        assert len(turns) == 8
        # The serving processes hold the connections, not the parent.
        established = {
            conn.raddr.port
            for server in servers
            for conn in server.net_connections(kind="tcp")
            if conn.status == psutil.CONN_ESTABLISHED and conn.laddr.port == served.port
        }
        assert established
    finally:
        for channel in channels:
            channel.close()
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=60) == 0
    assert not any(s.is_running() and s.status() != psutil.STATUS_ZOMBIE for s in servers)


def test_services_call_each_other_across_processes_with_tokens(serve):
    """With tokens on, a service's call to another may land on another
    process: they share the internal service token the parent minted."""
    served = serve("--processes", "2", ENGRAM_TOKENS=TOKENS)
    channels = served.channels(8)
    try:
        for i, channel in enumerate(channels):
            pb_grpc.JournalServiceStub(channel).CommitTurn(turn(f"turn {i}"), metadata=METADATA)
            response = rpb_grpc.RetrievalServiceStub(channel).Recall(
                rpb.RecallRequest(query_text="turn", subject="procs"), metadata=METADATA
            )
            assert response.coverage.outcome == 1  # SEARCH_OUTCOME_SEARCHED
    finally:
        for channel in channels:
            channel.close()
    served.process.send_signal(signal.SIGTERM)
    assert served.process.wait(timeout=60) == 0
