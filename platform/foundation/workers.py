"""The embedded default's background: a real Celery worker process (with the beat schedule)
started by ``manage.py demo --serve`` when no broker service is configured.

It is the same worker as in production (``celery -A meeple worker``), reading the same tasks
from the embedded broker (a folder under ARENA_DATA_DIR), so matches never run inside a web
request or a command, with or without services. As in production, people's matches have a
worker of their own (``-Q people``): a person thinking for minutes never holds the worker that
plays the bots' matches; and uploads' checks and builds have one (``-Q builds``): a flood of
uploads never delays a match. With a real broker (Redis) nothing is started here: the operator runs
workers and beat (README, deploy/SCALING.md).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

#: The repository (the settings' BASE_DIR): workers start there, with platform/ on their path.
REPO_ROOT = Path(settings.BASE_DIR)


def embedded_workers_needed() -> bool:
    """True when tasks go to the embedded broker and nothing else would run them."""
    return bool(settings.EMBEDDED_BROKER and not settings.CELERY_TASK_ALWAYS_EAGER)


def worker_command(
    *, concurrency: int = 2, beat: bool = True, queue: str | None = None
) -> list[str]:
    """The embedded worker's command line: the default queue (bots' matches, the ladder, the
    sweepers) with beat, or only ``queue`` (``settings.PEOPLE_QUEUE``, ``settings.BUILDS_QUEUE``)
    and no beat."""
    name = "embedded" if queue is None else f"embedded-{queue}"
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
        f"{name}-{os.getpid()}@%h",
    ]
    if queue is not None:
        cmd += ["-Q", queue]
    if beat:
        cmd += ["--beat", "--scheduler", settings.CELERY_BEAT_SCHEDULER]
    return cmd


def worker_commands(
    *, concurrency: int = 2, beat: bool = True, people: bool = True
) -> list[list[str]]:
    """The embedded workers: one for the default queue, with ``people`` one for people's
    matches (as many processes as one person may have games open: ARENA_HUMAN_OPEN_LIMIT), and
    one process for uploads' checks and builds (last)."""
    cmds = [worker_command(concurrency=concurrency, beat=beat)]
    if people:
        open_games = max(1, int(getattr(settings, "ARENA_HUMAN_OPEN_LIMIT", 2)))
        cmds.append(worker_command(concurrency=open_games, beat=False, queue=settings.PEOPLE_QUEUE))
    cmds.append(worker_command(concurrency=1, beat=False, queue=settings.BUILDS_QUEUE))
    return cmds


@contextmanager
def background_workers(
    *, concurrency: int = 2, beat: bool = True, people: bool = True
) -> Iterator[Path | None]:
    """Run the workers (and beat) for the duration of the block when the embedded broker is in
    use: the default queue's, the builds queue's and, with ``people``, the people's queue's
    (commands that play no person's match pass False). Yields their log file (None when
    nothing was started)."""
    if not embedded_workers_needed():
        yield None
        return
    log_path = Path(settings.DATA_DIR) / "worker.log"
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), str(REPO_ROOT / "platform"), env.get("PYTHONPATH", "")]
    ).rstrip(os.pathsep)
    procs: list[subprocess.Popen[bytes]] = []
    try:
        with open(log_path, "ab") as log:
            for cmd in worker_commands(concurrency=concurrency, beat=beat, people=people):
                procs.append(
                    subprocess.Popen(
                        cmd,
                        cwd=REPO_ROOT,
                        env=env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,  # Ctrl-C in the terminal reaches us, we stop it
                    )
                )
        # A SIGTERM (kill, systemd, docker stop) unwinds this block like Ctrl-C does, so the
        # workers, in sessions of their own, are stopped too instead of left running.
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGTERM, _exit) if main else None
        try:
            yield log_path
        finally:
            if main:
                signal.signal(signal.SIGTERM, previous)
    finally:
        _stop(procs)


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _stop(procs: list[subprocess.Popen[bytes]]) -> None:
    """Warm shutdown (finish the match in hand) for a while, then the whole process group;
    every worker at once, so that one's shutdown does not wait for another's."""
    running = [p for p in procs if p.poll() is None]
    for proc in running:
        proc.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 20
    for proc in running:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
