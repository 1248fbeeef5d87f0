"""``manage.py serve``: the site and, with no broker service, the worker that plays its
matches; Ctrl-C or a SIGTERM stops both."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.conftest import REPO, descendants, free_port, platform_env

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "kill"])
def test_serve_starts_the_site_and_its_worker(tmp_path: Path, stop: signal.Signals) -> None:
    port = free_port()
    env = platform_env(ARENA_DATA_DIR=str(tmp_path))
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(key, None)
    out = tmp_path / "serve.log"
    with open(out, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}"],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if requests.get(f"http://127.0.0.1:{port}/games/", timeout=5).ok:
                    break
            except requests.RequestException:
                time.sleep(0.5)
        else:
            raise AssertionError(out.read_text()[-3000:])
        assert "A background worker plays the matches" in out.read_text()
        # the worker is a Celery process of this server's
        family = descendants(proc.pid)
        commands = [Path(f"/proc/{pid}/cmdline").read_bytes() for pid in family]
        assert any(b"celery" in c and b"worker" in c for c in commands), commands
    finally:
        proc.send_signal(stop)
        # The workers' warm shutdown may take its 20 s and the group kill 10 s more
        # (foundation.workers._stop); the rest is margin for a loaded machine: what is checked
        # is that everything stops, not how fast.
        proc.wait(timeout=90)
    left = family
    deadline = time.monotonic() + 30
    while left and time.monotonic() < deadline:
        left = {pid for pid in left if _alive(pid)}
        time.sleep(0.5)
    assert not left, "the worker outlived the server"


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"
