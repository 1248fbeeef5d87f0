"""A Celery worker stopped by SIGTERM leaves none of its warm pool's containers behind
(sandbox/shutdown.py): a real worker (prefork, as in production) with ``ARENA_DOCKER_POOL``
plays one match through Docker, its pool refills, and SIGTERM comes the two ways it does: to the
worker (``kill``, ``docker stop``: a warm shutdown, its pool child leaves its loop) and to the
pool child itself (systemd and ``kill -- -PGID`` send it to every process of the worker)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sandbox.docker_spec import LABEL
from tests.conftest import REPO, celery_on, descendants

from .conftest import docker_or_fail

pytestmark = [pytest.mark.worker, pytest.mark.docker, pytest.mark.redis]

FIRST_LEGAL = """\
import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""


def _pool_containers(sb: Any, pids: set[int]) -> list[Any]:
    """The warm-pool containers whose worker label names one of ``pids`` on this host."""
    found = []
    # ignore_removed: a container removed between the list and its inspection is gone anyway
    listed = sb.client.containers.list(
        all=True, filters={"label": f"{LABEL}.pool=1"}, ignore_removed=True
    )
    for c in listed:
        _, pid, _ = [*c.labels.get(f"{LABEL}.worker", "").split(":"), "", ""][:3]
        if pid.isdigit() and int(pid) in pids:
            found.append(c)
    return found


def _wait(what: str, done: Callable[[], bool], timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s: {log.read_text()[-3000:]}")
        time.sleep(0.2)


@pytest.mark.parametrize("to", ["worker", "pool-child"])
def test_sigterm_leaves_no_pool_container(redis_url: str, tmp_path: Path, to: str) -> None:
    from arena.tasks import run_match

    sb = docker_or_fail()
    (tmp_path / "main.py").write_text(FIRST_LEGAL)
    log = tmp_path / "worker.log"
    env = dict(
        os.environ,
        PYTHONPATH=str(REPO),
        CELERY_BROKER_URL=redis_url,
        CELERY_RESULT_BACKEND=redis_url,
        ARENA_SANDBOX="docker",
        ARENA_DOCKER_POOL="2",
    )
    with open(log, "wb") as out:
        worker = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "arena.celery_app", "worker"),
                *("--pool=prefork", "--concurrency=1", "--loglevel=WARNING"),
                *("--without-heartbeat", "--without-gossip", "--without-mingle"),
                *("-n", f"pool-{uuid.uuid4().hex[:8]}@%h"),
            ],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, as under systemd
        )
    try:
        spec = {"game": "tri-area", "seats": [str(tmp_path), "builtin:random"], "seed": 3}
        with celery_on(redis_url):
            outcome = run_match.apply_async(args=(spec,)).get(timeout=120)
        assert outcome["status"] == "finished", outcome["error"]
        family = descendants(worker.pid) | {worker.pid}
        # the match took a container; the pool starts two idle ones for the next
        _wait("the pool did not refill", lambda: len(_pool_containers(sb, family)) >= 2, 60, log)
        pool_containers = _pool_containers(sb, family)
        left = {c.id for c in pool_containers}

        if to == "worker":
            worker.send_signal(signal.SIGTERM)
            assert worker.wait(timeout=60) is not None
        else:
            (owner,) = {int(c.labels[f"{LABEL}.worker"].split(":")[1]) for c in pool_containers}
            assert owner != worker.pid  # the pool lives in the pool child, where matches run
            os.kill(owner, signal.SIGTERM)
            _wait("the pool child did not end", lambda: not _alive(owner), 60, log)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)
    remaining = {c.id for c in _pool_containers(sb, family)}
    assert not remaining & left, f"left behind: {remaining & left}; {log.read_text()[-2000:]}"
    assert not remaining


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"
