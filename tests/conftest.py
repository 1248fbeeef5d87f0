"""Shared fixtures.

Service fixtures (Redis, Docker, PostgreSQL) skip when the service is missing on a developer's
machine, but under ``CI=true`` they fail: CI starts every service, so a missing one is a bug.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing_service(what: str) -> None:
    """Skip locally, fail in CI."""
    if IN_CI:
        pytest.fail(f"CI=true but {what}: .ci/run should have started it", pytrace=False)
    pytest.skip(f"{what} (CI starts it; run .ci/services.sh to start it here)")


@pytest.fixture(scope="session")
def redis_url(worker_id: str) -> str:
    """A Redis database of this test process's own (15, 14, ... per xdist worker), emptied
    first, so that parallel test processes and a developer's data in database 0 never mix."""
    import redis

    base = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    if not base.startswith("redis://"):
        missing_service(f"CELERY_BROKER_URL is not a Redis URL: {base}")
    index = 0 if worker_id == "master" else int(worker_id.removeprefix("gw")) + 1
    url = f"{base.rsplit('/', 1)[0]}/{15 - index % 15}"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=2)
        client.ping()
        client.flushdb()
    except Exception as exc:
        missing_service(f"no Redis answers at {url} ({exc})")
    return url


@pytest.fixture(scope="session")
def docker_client():  # type: ignore[no-untyped-def]
    """A Docker SDK client for a live engine."""
    import docker

    try:
        client = docker.from_env(timeout=10)
        client.ping()
    except Exception as exc:
        missing_service(f"no Docker engine answers ({exc})")
    return client


def descendants(root: int | None = None, *, include_zombies: bool = True) -> set[int]:
    """Every process below ``root`` (default: this test process), read from /proc. Zombies
    count by default: one left behind means a child was never reaped."""
    root = os.getpid() if root is None else root
    parent: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid ...": comm may hold spaces, so split after its last ")"
        fields = stat[stat.rindex(")") + 2 :].split()
        if include_zombies or fields[0] != "Z":
            parent[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier} - found
        found |= frontier
    return found


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (for a server a test starts)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def mark_folder(items: list[pytest.Item], folder: Path, marker: str) -> None:
    """Give ``marker`` to every test collected under ``folder``: a folder whose tests all
    start the same heavy thing says so once, from its conftest's
    ``pytest_collection_modifyitems`` (tests/house/test_markers.py checks no test lacks it)."""
    for item in items:
        if item.path.is_relative_to(folder):
            item.add_marker(marker)


def platform_env(**extra: str) -> dict[str, str]:
    """The environment for a subprocess that imports the Django project."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "platform")])
    env.update(extra)
    return env


@pytest.fixture
def celery_inline(settings: Any) -> Iterator[None]:
    """Run Celery tasks in the calling process (eager), also when CI configures a broker; for
    tests of what a match does, not of how it travels (tests/workers covers Redis)."""
    import meeple.celery  # noqa: F401  configures the app from Django's settings

    from arena.celery_app import app

    # Reading a key makes Celery load its configuration now, so ours is not overwritten later.
    saved = app.conf.task_always_eager
    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = saved


@dataclass
class WorkerProcess:
    proc: subprocess.Popen[bytes]

    def stderr_tail(self) -> str:
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err.decode(errors="replace")[-3000:]


@contextmanager
def celery_on(url: str) -> Iterator[None]:
    """Point the arena's Celery app at ``url`` (not eager) for the block, dropping any
    connection pool or result backend it had cached for another broker."""
    from arena.celery_app import app

    conf = app.conf
    saved = (conf.broker_url, conf.result_backend, conf.task_always_eager)

    def reset() -> None:
        # Drop references only: kombu keeps producer pools per connection globally, so
        # closing them here would break the next user of the same broker.
        app._pool = None
        app.amqp._producer_pool = None
        app._local.__dict__.pop("backend", None)

    # Celery's settings prefer these environment variables to the configuration.
    saved_env = {k: os.environ.get(k) for k in ("CELERY_BROKER_URL", "CELERY_RESULT_BACKEND")}
    os.environ.update(CELERY_BROKER_URL=url, CELERY_RESULT_BACKEND=url)
    reset()
    conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    try:
        yield
    finally:
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        reset()
        conf.update(broker_url=saved[0], result_backend=saved[1], task_always_eager=saved[2])


@pytest.fixture
def celery_worker_process(
    redis_url: str, request: pytest.FixtureRequest
) -> Iterator[WorkerProcess]:
    """A real Celery worker process (the production wiring, ``-A meeple``) on Redis,
    on this test process's own Redis database. A test may add environment variables by
    setting ``request.node.worker_env`` (a dict), and arguments (e.g. ``["-Q", "people"]``) by
    setting ``request.node.worker_args``, before asking for this fixture. Without them it takes
    the default queue and the builds queue: one process plays the matches and checks the
    uploads of a test (production runs them apart: deploy/SCALING.md, "Builds")."""
    from django.conf import settings

    name = f"test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    queues = ["-Q", f"celery,{settings.BUILDS_QUEUE}"]
    env = platform_env(
        CELERY_BROKER_URL=redis_url,
        CELERY_RESULT_BACKEND=redis_url,
        **getattr(request.node, "worker_env", {}),
    )
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "meeple",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"{name}@%h",
            *getattr(request.node, "worker_args", queues),
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield WorkerProcess(proc)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@contextmanager
def beat_process(redis_url: str, env: dict[str, str]) -> Iterator[subprocess.Popen]:
    """``celery -A meeple beat`` with the database scheduler, looking at its periodic tasks
    every second (``--max-interval=1``); stopped (then killed) on the way out."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "meeple",
            "beat",
            "--loglevel=WARNING",
            "-S",
            "django_celery_beat.schedulers:DatabaseScheduler",
            "--max-interval=1",
        ],
        cwd=REPO,
        env=platform_env(CELERY_BROKER_URL=redis_url, **env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say which real services this run uses, so CI's log shows it."""
    url = os.environ.get("DATABASE_URL", "sqlite (default)")
    lines = [
        f"database: {url.split('@')[-1] if '@' in url else url}",
        f"celery broker: {os.environ.get('CELERY_BROKER_URL') or 'none (eager)'}",
        f"CI: {IN_CI}",
    ]
    try:
        import docker

        version = docker.from_env(timeout=5).version().get("Version", "?")
        lines.append(f"docker engine: answered, version {version}")
    except Exception as exc:
        lines.append(f"docker engine: not answering ({type(exc).__name__})")
    return lines
