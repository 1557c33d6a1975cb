"""What the fault tests share: `engram serve` as a real subprocess on a fixed
port, an 8-client CommitTurn load that retries every failed call with the
same request_id until it is acknowledged, and the journal read back through
ReadSessionJournal to count every request_id.

A call that returned OK is *acknowledged*: the turn must be in the journal
exactly once. A call that failed has an *unknown outcome* (it may have
committed before the fault cut the answer off): the client retries it with
the same request_id, and the journal must still hold it exactly once."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engram.config import SERVICES
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parents[2]
RUNTIME_TOKEN = "faults-runtime-token-0123456789"
TOKENS = f"faults-rt:runtime:{RUNTIME_TOKEN}"
METADATA = (("authorization", f"Bearer {RUNTIME_TOKEN}"),)
CLIENTS = 8
SUBJECT = "faults"
TURN_EVENT = "conversation.turn.completed"
# Per call; a commit waits at most 10 s for a free database connection.
CALL_TIMEOUT = 15.0
RETRY_PAUSE = 0.02
# Reconnect quickly after the server comes back: gRPC's default back-off
# (1 s growing to 120 s) would measure the client, not the server.
CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 50),
    ("grpc.min_reconnect_backoff_ms", 50),
    ("grpc.max_reconnect_backoff_ms", 250),
)
START_TIMEOUT = 90.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`engram serve <services>` on 127.0.0.1:<port> (stderr to a log file per
    start: a pipe nobody reads could fill up and block the server)."""

    def __init__(
        self,
        *,
        port: int,
        database_url: str,
        data_dir: Path,
        log_dir: Path,
        services: Sequence[str] = ("journal",),
    ) -> None:
        self.port = port
        self.address = f"127.0.0.1:{port}"
        self.database_url = database_url
        self.data_dir = data_dir
        self.log_dir = log_dir
        self.services = list(services)
        self.process: subprocess.Popen[bytes] | None = None
        self.log: Path | None = None
        self.starts = 0

    def start(self) -> float:
        """Start and wait until it says it serves; returns the seconds that took."""
        started = time.monotonic()
        self.starts += 1
        self.log = self.log_dir / f"serve-{self.starts}.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
        env |= {
            "ENGRAM_TOKENS": TOKENS,
            "ENGRAM_EMBEDDER": "hashing",
            "ENGRAM_INDEX_PERSIST": "false",
            "ENGRAM_GRACE_SECONDS": "1",
            "OPENBLAS_NUM_THREADS": "1",
        }
        command = [
            sys.executable, "-m", "engram.cli.main", "serve", *self.services,
            "--listen", self.address,
            "--database-url", self.database_url,
            "--data-dir", str(self.data_dir),
        ]  # fmt: skip
        with self.log.open("wb") as sink:
            self.process = subprocess.Popen(command, env=env, stderr=sink, cwd=ROOT)
        # The JSON log line that says so comes once start-up is complete.
        what = ",".join(self.services or SERVICES)
        ready = re.compile(rf'"msg": "engram \S+ serving {re.escape(what)} on \S+:{self.port}"')
        deadline = started + START_TIMEOUT
        while time.monotonic() < deadline and self.process.poll() is None:
            if ready.search(self.log.read_text(errors="replace")):
                return time.monotonic() - started
            time.sleep(0.02)
        code = self.process.poll()
        self.kill()
        raise AssertionError(f"serve did not start (exit {code}): {self.log_text()}")

    @property
    def name(self) -> str:
        """How it was started, for reports: `serve journal`, `serve` (all)."""
        return " ".join(["serve", *self.services])

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL and reap."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> int | None:
        """SIGTERM (graceful), SIGKILL after 30 s; returns the exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.returncode

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log else ""


def open_channel(address: str) -> grpc.Channel:
    return grpc.insecure_channel(address, options=CHANNEL_OPTIONS)


@dataclass(frozen=True)
class Call:
    client: int
    request_id: str
    started: float
    ended: float
    code: str = "OK"  # grpc.StatusCode name
    reason: str = ""  # google.rpc.ErrorInfo reason, when the server sent one
    detail: str = ""
    event_id: int = 0
    replayed: bool = False

    @property
    def ok(self) -> bool:
        return self.code == "OK"


def _reason(exc: grpc.RpcError) -> str:
    """The ErrorInfo reason of an engram error; empty for a transport error."""
    try:
        status = rpc_status.from_call(exc)  # type: ignore[arg-type]
    except ValueError:
        return ""
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return str(info.reason)
    return ""


def turn(client: int, seq: int) -> pb.CommitTurnRequest:
    return pb.CommitTurnRequest(
        subject=SUBJECT,
        session_id=f"client-{client}",
        user_text=f"client {client} turn {seq}: the meeting moved to room {seq % 97}.",
        assistant_text=f"Noted, client {client} turn {seq}.",
        request_id=str(uuid.uuid4()),
        learning_eligible=True,
    )


@dataclass
class Load:
    """CLIENTS threads, each committing turns in a loop on its own channel and
    session. A failed call is retried, the same request, until it is
    acknowledged; a client stops taking new turns once `stop()` is called and
    gives up on a pending one only at `give_up_at` (then it is `unresolved`)."""

    address: str
    clients: int = CLIENTS
    calls: list[list[Call]] = field(default_factory=list)
    unresolved: list[pb.CommitTurnRequest] = field(default_factory=list)
    give_up_at: float = float("inf")
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Load:
        self.calls = [[] for _ in range(self.clients)]
        for client in range(self.clients):
            thread = threading.Thread(target=self._run, args=(client,), daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def _run(self, client: int) -> None:
        log = self.calls[client]
        channel = open_channel(self.address)
        stub = pb_grpc.JournalServiceStub(channel)
        seq = 0
        pending: pb.CommitTurnRequest | None = None
        try:
            while True:
                if pending is None:
                    if self._stop.is_set():
                        return
                    seq += 1
                    pending = turn(client, seq)
                started = time.monotonic()
                try:
                    response = stub.CommitTurn(pending, timeout=CALL_TIMEOUT, metadata=METADATA)
                except grpc.RpcError as exc:
                    ended = time.monotonic()
                    code = exc.code()
                    log.append(
                        Call(
                            client,
                            pending.request_id,
                            started,
                            ended,
                            code=code.name if code is not None else "UNKNOWN",
                            reason=_reason(exc),
                            detail=str(exc.details() or ""),
                        )
                    )
                    if ended >= self.give_up_at:
                        with self._lock:
                            self.unresolved.append(pending)
                        return
                    time.sleep(RETRY_PAUSE)
                    continue
                receipt = response.receipt
                log.append(
                    Call(
                        client,
                        pending.request_id,
                        started,
                        time.monotonic(),
                        event_id=receipt.event_id,
                        replayed=receipt.replayed,
                    )
                )
                pending = None
        finally:
            channel.close()

    def stop(self, give_up_after: float = 60.0) -> None:
        """No new turns; wait for every pending retry to be acknowledged."""
        self.give_up_at = time.monotonic() + give_up_after
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=give_up_after + CALL_TIMEOUT + 5)
        assert not any(t.is_alive() for t in self._threads), "a client did not stop"

    # -- what happened ------------------------------------------------------

    def all_calls(self) -> Iterator[Call]:
        for log in self.calls:
            yield from list(log)

    def oks(self) -> int:
        return sum(1 for call in self.all_calls() if call.ok)

    def first_ok_started_after(self, moment: float) -> float | None:
        """When the first call started at or after `moment` was acknowledged."""
        ends = [c.ended for c in self.all_calls() if c.ok and c.started >= moment]
        return min(ends) if ends else None

    def every_client_ok_after(self, moment: float) -> float | None:
        """When the last client had its first acknowledgement started after `moment`."""
        firsts = []
        for log in self.calls:
            ends = [c.ended for c in list(log) if c.ok and c.started >= moment]
            if not ends:
                return None
            firsts.append(min(ends))
        return max(firsts)

    def failures_after(self, moment: float) -> Counter[str]:
        """Failed calls started at or after `moment`, by code and detail (for messages)."""
        return Counter(
            f"{c.code} {c.reason}: {c.detail[:120]}"
            for c in self.all_calls()
            if not c.ok and c.started >= moment
        )

    def wait_for_ok_after(self, moment: float, timeout: float) -> float | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            first = self.first_ok_started_after(moment)
            if first is not None:
                return first
            time.sleep(0.01)
        return None


@dataclass(frozen=True)
class Verdict:
    acknowledged: int
    retried: int  # request ids that failed at least once (unknown outcome)
    replayed: int  # retried ones the server had in fact committed before
    failures: Counter[str]  # failed calls by status code and reason
    lost: list[str]  # acknowledged, not in the journal
    duplicated: dict[str, int]  # request id -> times in the journal (> 1)
    mismatched: list[str]  # acknowledged with another event id than the journal's
    unknown: list[str]  # in the journal, never sent by this load
    fresh_replays: list[str]  # never failed, yet answered as a replay

    def codes(self) -> set[str]:
        return {key.split(" ", 1)[0] for key in self.failures}

    def summary(self) -> str:
        return (
            f"{self.acknowledged} acknowledged, {self.retried} retried with the same "
            f"request_id ({self.replayed} of them had committed before the fault), "
            f"failed calls {dict(self.failures)}; lost {len(self.lost)}, "
            f"duplicated {len(self.duplicated)}"
        )


def read_journal(address: str, clients: int = CLIENTS) -> list[pb.Event]:
    """Every turn event of every client session, all pages."""
    events: list[pb.Event] = []
    with open_channel(address) as channel:
        stub = pb_grpc.JournalServiceStub(channel)
        for client in range(clients):
            token = ""
            while True:
                page = stub.ReadSessionJournal(
                    pb.ReadSessionJournalRequest(
                        subject=SUBJECT,
                        session_id=f"client-{client}",
                        page_size=1000,
                        page_token=token,
                        event_types=[TURN_EVENT],
                    ),
                    timeout=30,
                    metadata=METADATA,
                )
                events.extend(page.events)
                token = page.next_page_token
                if not token:
                    break
    return events


def judge(load: Load, events: Sequence[pb.Event]) -> Verdict:
    acked: dict[str, Call] = {}
    sent: set[str] = set()
    retried: set[str] = set()
    failures: Counter[str] = Counter()
    for call in load.all_calls():
        sent.add(call.request_id)
        if call.ok:
            assert call.request_id not in acked, "a client acknowledged one request twice"
            acked[call.request_id] = call
        else:
            retried.add(call.request_id)
            failures[f"{call.code} {call.reason}".strip()] += 1
    counts = Counter(event.request_id for event in events)
    event_ids = {event.request_id: event.event_id for event in events}
    return Verdict(
        acknowledged=len(acked),
        retried=len(retried),
        replayed=sum(1 for r in retried if r in acked and acked[r].replayed),
        failures=failures,
        lost=sorted(r for r in acked if counts[r] == 0),
        duplicated={r: n for r, n in counts.items() if n > 1},
        mismatched=sorted(r for r, c in acked.items() if counts[r] and event_ids[r] != c.event_id),
        unknown=sorted(r for r in counts if r not in sent),
        fresh_replays=sorted(r for r, c in acked.items() if c.replayed and r not in retried),
    )


def assert_exactly_once(load: Load, verdict: Verdict) -> None:
    assert not load.unresolved, (
        f"{len(load.unresolved)} request ids never acknowledged after the fault"
    )
    assert verdict.retried > 0, "the fault did not hit a single call: nothing was tested"
    assert not verdict.lost, f"acknowledged turns lost: {verdict.lost[:10]}"
    assert not verdict.duplicated, f"duplicated request ids: {list(verdict.duplicated)[:10]}"
    assert not verdict.mismatched, f"receipt event ids differ: {verdict.mismatched[:10]}"
    assert not verdict.unknown, f"turns nobody sent: {verdict.unknown[:10]}"
    assert not verdict.fresh_replays, f"first attempts replayed: {verdict.fresh_replays[:10]}"
