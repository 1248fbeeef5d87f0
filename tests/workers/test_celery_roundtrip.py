"""Celery: the embedded default runs tasks in-process; with Redis a real worker process
answers (in CI this always runs: no broker means failure, not a skip)."""

from __future__ import annotations

import os

import pytest

from tests.conftest import WorkerProcess, celery_on

pytestmark = pytest.mark.redis


def test_embedded_default_runs_in_process() -> None:
    from arena.tasks import ping

    result = ping.apply(args=("hello",)).get()
    assert result["payload"] == "hello"
    assert result["worker_pid"] == os.getpid()


def test_round_trip_through_redis_and_a_worker(
    redis_url: str, celery_worker_process: WorkerProcess
) -> None:
    from arena.tasks import ping

    with celery_on(redis_url):
        async_result = ping.apply_async(args=("through redis",))
        try:
            answer = async_result.get(timeout=60)
        except Exception:
            tail = celery_worker_process.stderr_tail()
            raise AssertionError(f"worker did not answer: {tail}") from None
    assert answer["payload"] == "through redis"
    assert answer["worker_pid"] == celery_worker_process.proc.pid
    assert answer["worker_pid"] != os.getpid()
