"""The Celery worker processes of a fault-injection test: each its own session (so its
whole group can be killed), data folder, media folder and code cache, logging to a file."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO, platform_env
from tests.resilience.database import database_url
from tests.resilience.waits import wait_for


@dataclass
class Worker:
    """One ``celery -A meeple worker`` process (its own session, so its whole group can be
    killed), logging to a file."""

    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def pid(self) -> int:
        return self.proc.pid

    def logs(self) -> str:
        try:
            return f"--- {self.name} ---\n" + self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def pool_children(self) -> list[int]:
        """The prefork pool's processes (direct children of the main process)."""
        out = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                fields = stat[stat.rindex(")") + 2 :].split()
                if int(fields[1]) == self.pid and fields[0] != "Z":
                    out.append(int(entry.name))
        return out

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Kill the main process only (its pool child, if any, is left to its fate)."""
        if self.proc.poll() is None:
            os.kill(self.pid, sig)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=20)
        # Everything it started (pool children, bots), also after a SIGKILL.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait(timeout=10)


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[Callable[..., Worker]]:
    """``start(broker_url, name=..., pool="solo"|"prefork", host=..., **env)``: a worker with a
    data folder, media folder and code cache of its own (nothing shared but the database, the
    broker and the storage), waited for until it is ready."""
    from django.conf import settings

    started: list[Worker] = []

    def start(
        broker_url: str, *, name: str = "", pool: str = "solo", host: str = "%h", **env: str
    ) -> Worker:
        name = name or f"w{len(started) + 1}"
        home = tmp_path / f"worker-{name}-{uuid.uuid4().hex[:6]}"
        (home / "cache").mkdir(parents=True)
        worker_env = platform_env(
            DATABASE_URL=database_url(),
            CELERY_BROKER_URL=broker_url,
            CELERY_RESULT_BACKEND="",
            ARENA_DATA_DIR=str(home),
            ARENA_CODE_CACHE=str(home / "cache"),
            ARENA_SANDBOX="process",
            # The web's uploads, as a folder every worker mounts; tests of code that travels
            # replace it with object storage (ARENA_S3_*).
            ARENA_MEDIA_ROOT=str(settings.MEDIA_ROOT),
            PYTHONUNBUFFERED="1",
        )
        worker_env.update(env)
        pool_args = ["--pool=solo"] if pool == "solo" else ["--pool=prefork", "-c", "1"]
        log = home / "worker.log"
        with open(log, "wb") as fh:
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "meeple",
                    "worker",
                    *pool_args,
                    "--loglevel=INFO",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"{name}@{host}",
                ],
                cwd=REPO,
                env=worker_env,
                stdout=fh,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        worker = Worker(name=name, proc=proc, log=log)
        started.append(worker)

        def ready() -> bool:
            if proc.poll() is not None:
                raise AssertionError(f"worker {name} exited: {worker.logs()}")
            return " ready." in log.read_text(errors="replace")

        wait_for(f"worker {name} to be ready", ready, timeout=90, logs=worker.logs)
        return worker

    yield start
    for worker in started:
        worker.stop()
