"""The embedded default's background: a real Celery worker process (with the beat schedule)
started by ``manage.py demo --serve`` when no broker service is configured.

It is the same worker as in production (``celery -A meeple worker``), reading the same tasks
from the embedded broker (a folder under ARENA_DATA_DIR), so matches never run inside a web
request or a command, with or without services. With a real broker (Redis) nothing is started
here: the operator runs workers and beat (README, deploy/SCALING.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from meeple.env import REPO_ROOT


def embedded_workers_needed() -> bool:
    """True when tasks go to the embedded broker and nothing else would run them."""
    return bool(settings.EMBEDDED_BROKER and not settings.CELERY_TASK_ALWAYS_EAGER)


def worker_command(*, concurrency: int = 2, beat: bool = True) -> list[str]:
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "meeple",
        "worker",
        f"--concurrency={concurrency}",
        "--loglevel=WARNING",
        "-n",
        f"embedded-{os.getpid()}@%h",
    ]
    if beat:
        cmd += ["--beat", "--scheduler", settings.CELERY_BEAT_SCHEDULER]
    return cmd


@contextmanager
def background_workers(*, concurrency: int = 2, beat: bool = True) -> Iterator[Path | None]:
    """Run a worker (and beat) for the duration of the block when the embedded broker is in use;
    yields the worker's log file (None when nothing was started)."""
    if not embedded_workers_needed():
        yield None
        return
    log_path = Path(settings.DATA_DIR) / "worker.log"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), str(REPO_ROOT / "platform"), env.get("PYTHONPATH", "")]
    ).rstrip(os.pathsep)
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            worker_command(concurrency=concurrency, beat=beat),
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C in the terminal reaches us, and we stop it
        )
    # A SIGTERM (kill, systemd, docker stop) unwinds this block like Ctrl-C does, so the
    # worker, in a session of its own, is stopped too instead of left running.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _exit) if main else None
    try:
        yield log_path
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        _stop(proc)


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Warm shutdown (finish the match in hand) for a while, then the whole process group."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
