"""Celery: the embedded default runs tasks in-process; with Redis a real worker process
answers (in CI this always runs: no broker means failure, not a skip)."""

from __future__ import annotations

import os
import subprocess

import pytest

pytestmark = pytest.mark.redis


def test_embedded_default_runs_in_process() -> None:
    from arena.tasks import ping

    result = ping.apply(args=("hello",)).get()
    assert result["payload"] == "hello"
    assert result["worker_pid"] == os.getpid()


def test_round_trip_through_redis_and_a_worker(
    redis_url: str, celery_worker_process: subprocess.Popen[bytes]
) -> None:
    from arena.celery_app import app

    conf = app.conf
    saved = (conf.broker_url, conf.result_backend, conf.task_always_eager)
    conf.update(broker_url=redis_url, result_backend=redis_url, task_always_eager=False)
    try:
        from arena.tasks import ping

        async_result = ping.delay("through redis")
        try:
            answer = async_result.get(timeout=60)
        except Exception:
            celery_worker_process.terminate()
            _, err = celery_worker_process.communicate(timeout=15)
            raise AssertionError(f"worker did not answer: {err.decode()[-2000:]}") from None
    finally:
        conf.update(broker_url=saved[0], result_backend=saved[1], task_always_eager=saved[2])
    assert answer["payload"] == "through redis"
    assert answer["worker_pid"] == celery_worker_process.pid
    assert answer["worker_pid"] != os.getpid()
