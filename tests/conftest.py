"""Shared fixtures.

Service fixtures (Redis, Docker, PostgreSQL) skip when the service is missing on a developer's
machine, but under ``CI=true`` they fail: CI starts every service, so a missing one is a bug.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def missing_service(what: str) -> None:
    """Skip locally, fail in CI."""
    if IN_CI:
        pytest.fail(f"CI=true but {what}: .ci/run should have started it", pytrace=False)
    pytest.skip(f"{what} (CI starts it; run .ci/services.sh to start it here)")


@pytest.fixture(scope="session")
def redis_url() -> str:
    """A Redis URL for tests (database 15, so a developer's data in 0 is untouched)."""
    import redis

    base = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/0"
    url = base.rsplit("/", 1)[0] + "/15" if base.startswith("redis://") else base
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
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


def platform_env(**extra: str) -> dict[str, str]:
    """The environment for a subprocess that imports the Django project."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), str(REPO / "platform")])
    env.update(extra)
    return env


@pytest.fixture
def celery_worker_process(redis_url: str) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker process (the production wiring, ``-A meeple``) on Redis."""
    env = platform_env(CELERY_BROKER_URL=redis_url, CELERY_RESULT_BACKEND=redis_url)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "meeple", "worker", "--pool=solo",
         "--concurrency=1", "--loglevel=WARNING", "--without-heartbeat", "--without-gossip",
         "--without-mingle", "-n", f"test-{os.getpid()}@%h"],
        cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
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
    lines = [f"database: {url.split('@')[-1] if '@' in url else url}",
             f"celery broker: {os.environ.get('CELERY_BROKER_URL') or 'none (eager)'}",
             f"CI: {IN_CI}"]
    try:
        import docker

        version = docker.from_env(timeout=5).version().get("Version", "?")
        lines.append(f"docker engine: answered, version {version}")
    except Exception as exc:
        lines.append(f"docker engine: not answering ({type(exc).__name__})")
    return lines
