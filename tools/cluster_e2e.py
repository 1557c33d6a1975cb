"""`make test-cluster`: `engram cluster up` on a fresh directory under /tmp
with free ports (PostgreSQL primary and standby, journal, learning, two
retrieval and two gateway replicas, the router), the end-to-end tests that
take a live target run against its router, then a graceful stop. Exit code:
pytest's, or 1 when the cluster did not start or stop cleanly.

    .venv/bin/python tools/cluster_e2e.py [pytest args...]
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engram.cluster.launcher import spawn_up, wait_ready  # noqa: E402
from engram.errors import Unavailable  # noqa: E402

TESTS = ["tests/e2e/test_live_target.py", "tests/e2e/test_smoke.py"]
START_TIMEOUT_SECONDS = 300.0
CONFIG = """\
data_dir: {data_dir}
embedder: hashing
grace_seconds: 2
standby: true
on_exit: stop
replicas: {{retrieval: 2, gateway: 2}}
"""


def main(pytest_args: list[str]) -> int:
    # Outside /root: as root PostgreSQL runs as an unprivileged user.
    work = Path(tempfile.mkdtemp(prefix="engram-cluster-e2e-", dir="/tmp"))
    config = work / "cluster.yaml"
    config.write_text(CONFIG.format(data_dir=work / "data"), "utf-8")
    log = work / "cluster.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGRAM_")}
    started = time.monotonic()
    launcher = spawn_up(config, log)
    code = 1
    try:
        state = wait_ready(work / "data" / "cluster.json", launcher, START_TIMEOUT_SECONDS)
        print(
            f"cluster ready in {time.monotonic() - started:.1f}s "
            f"(launcher: {state['ready_seconds']:.1f}s), router {state['router']}",
            flush=True,
        )
        token = (work / "data" / "operator-token").read_text("utf-8").strip()
        code = subprocess.run(
            [sys.executable, "-m", "pytest", *TESTS, "-q", *pytest_args],
            cwd=ROOT,
            env=env
            | {
                "ENGRAM_E2E_TARGET": state["router"],
                "ENGRAM_E2E_TOKEN": token,
                "ENGRAM_E2E_CLUSTER": str(work / "data" / "cluster.json"),
            },
            check=False,
        ).returncode
    except Unavailable as exc:
        print(f"error: {exc.message}", file=sys.stderr)
    finally:
        if launcher.poll() is None:
            launcher.send_signal(signal.SIGTERM)
        try:
            stopped = launcher.wait(timeout=180)
        except subprocess.TimeoutExpired:
            launcher.kill()
            stopped = launcher.wait()
        if stopped != 0:
            print(f"engram cluster up exited {stopped}", file=sys.stderr)
            code = code or 1
        if code:
            print(log.read_text(errors="replace")[-6000:], file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
