"""Install a built wheel as a user would and prove it serves (`make wheel-check`).

A fresh virtualenv under /tmp, outside the checkout: the runtime lock (hashes required), the
wheel without dependencies, then `pip check`, so every package the wheel needs must be a
declared dependency. `engram serve` then runs on its defaults (embedded PostgreSQL, the MiniLM
embedder) from a scratch directory; once the installed `engram health` says SERVING,
tools/wheel_roundtrip.py, copied next to it and run by the new interpreter, commits turns and
recalls one through the installed stubs. SIGTERM must then end the server with exit 0.

    python tools/wheel_check.py dist/engram-0.1.0-py3-none-any.whl --lock requirements.txt
    python tools/wheel_check.py dist/engram-*.whl --unlocked  # let pip resolve, as `pip install`
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SERVE_STOP_SECONDS = 60
START_SECONDS = 240


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _clean_env() -> dict[str, str]:
    """The caller's environment without anything that points back into the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ENGRAM_", "PYTHON"))}
    env.pop("VIRTUAL_ENV", None)
    env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> None:
    print("+", " ".join(command), flush=True)
    subprocess.run(command, check=True, cwd=cwd, env=env)


def _install(scratch: Path, wheel: Path, lock: Path | None, env: dict[str, str]) -> Path:
    venv = scratch / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], scratch, env)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    if lock is None:
        _run([*pip, str(wheel)], scratch, env)
    else:
        _run([*pip, "--require-hashes", "--no-deps", "-r", str(lock)], scratch, env)
        _run([*pip, "--no-deps", str(wheel)], scratch, env)
    _run([str(venv / "bin" / "python"), "-m", "pip", "check"], scratch, env)
    return venv


def _wait_serving(venv: Path, address: str, server: subprocess.Popen[bytes], cwd: Path) -> None:
    """Poll the installed `engram health` (exit 0 only when SERVING) until the server is up."""
    deadline = time.monotonic() + START_SECONDS
    health = [str(venv / "bin" / "engram"), "health", "--address", address]
    while True:
        probe = subprocess.run(health, cwd=cwd, env=_clean_env(), capture_output=True, check=False)
        if probe.returncode == 0:
            print(f"+ {' '.join(health)}: SERVING", flush=True)
            return
        if server.poll() is not None:
            raise SystemExit(f"engram serve exited {server.returncode} before SERVING")
        if time.monotonic() > deadline:
            raise SystemExit(f"engram serve not SERVING after {START_SECONDS}s")
        time.sleep(1)


def _serve_and_roundtrip(scratch: Path, venv: Path, env: dict[str, str]) -> None:
    address = f"127.0.0.1:{_free_port()}"
    shutil.copy(HERE / "wheel_roundtrip.py", scratch / "roundtrip.py")
    log_path = scratch / "serve.log"
    # Only the address and data directory are given: everything else is the default.
    serve = [str(venv / "bin" / "engram"), "serve", "--listen", address]
    serve += ["--data-dir", str(scratch / "data")]
    print("+", " ".join(serve), flush=True)
    with log_path.open("wb") as log:
        server = subprocess.Popen(serve, cwd=scratch, env=env, stdout=log, stderr=log)
    try:
        _wait_serving(venv, address, server, scratch)
        _run(
            [str(venv / "bin" / "python"), "roundtrip.py", address, "--venv", str(venv)],
            scratch,
            env,
        )
    except BaseException:
        print(f"--- {log_path} (last 60 lines)", file=sys.stderr)
        lines = log_path.read_text(errors="replace").splitlines()
        print("\n".join(lines[-60:]), file=sys.stderr)
        raise
    finally:
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
        try:
            code = server.wait(SERVE_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            server.kill()
            code = server.wait()
    if code != 0:
        raise SystemExit(f"engram serve exited {code} after SIGTERM (log: {log_path})")
    print("engram serve drained and exited 0")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("wheel", type=Path)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--lock", type=Path, help="runtime lock to install from")
    group.add_argument("--unlocked", action="store_true", help="let pip resolve the wheel")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    args = parser.parse_args()
    wheel = args.wheel.resolve()
    lock = None if args.unlocked else args.lock.resolve()
    scratch = Path(tempfile.mkdtemp(prefix="engram-wheel-check-", dir="/tmp"))
    if scratch.is_relative_to(ROOT):
        raise SystemExit(f"{scratch} is inside the checkout")
    env = _clean_env()
    ok = False
    try:
        venv = _install(scratch, wheel, lock, env)
        _serve_and_roundtrip(scratch, venv, env)
        ok = True
    finally:
        if ok and not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            print(f"scratch directory kept: {scratch}", file=sys.stderr)
    print(f"wheel check passed: {wheel.name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
