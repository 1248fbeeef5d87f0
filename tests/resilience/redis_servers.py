"""A redis-server of each test's own, which the test may crash and restart without touching
the other tests."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import free_port, missing_service
from tests.resilience.waits import wait_for


@dataclass
class RedisServer:
    """A redis-server of one test's own, on a free port, restartable on the same port and
    folder (with ``appendonly`` its queue survives a crash; without, a restart empties it)."""

    folder: Path
    appendonly: bool
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        cmd = [
            "redis-server",
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.folder),
            "--save",
            "",
            "--daemonize",
            "no",
            "--appendonly",
            "yes" if self.appendonly else "no",
        ]
        if self.appendonly:
            cmd += ["--appendfsync", "always"]  # every write on disk before the reply
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(f"redis-server on port {self.port}", self.answers, timeout=30, every=0.1)

    def answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(port=self.port, socket_connect_timeout=1).ping())
        except Exception:
            return False

    def crash(self) -> None:
        """SIGKILL: what a machine failure does (no shutdown save)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None

    def queued_messages(self) -> int:
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=2)
        return int(client.llen("celery")) + int(client.hlen("unacked"))


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    if not _which("redis-server"):
        missing_service("redis-server is not installed")
    started: list[RedisServer] = []

    def start(appendonly: bool = False) -> RedisServer:
        folder = tmp_path / f"redis-{len(started)}"
        folder.mkdir()
        server = RedisServer(folder=folder, appendonly=appendonly)
        server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.crash()


def _which(name: str) -> bool:
    from shutil import which

    return which(name) is not None
