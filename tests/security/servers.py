"""The production web server for tests: a migrated site in a folder, and gunicorn with
deploy/gunicorn.conf.py serving it on a free loopback port."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.conftest import REPO


def production_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CACHE_", "REDIS_"))}
    env.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="arena.example,127.0.0.1",
        ARENA_DATA_DIR=str(tmp_path),
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        PYTHONPATH=f"{REPO}{os.pathsep}{REPO / 'platform'}",
    )
    env.update(extra)
    return env


def prepare_site(env: dict[str, str], *commands: list[str]) -> None:
    """``migrate`` and ``collectstatic`` (and any further manage.py commands) for ``env``."""
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"], *commands):
        subprocess.run(
            [sys.executable, "manage.py", *command, "-v0"],
            cwd=REPO,
            env=env,
            check=True,
            timeout=300,
        )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def gunicorn(env: dict[str, str], log: Path, workers: int = 2) -> Iterator[str]:
    """gunicorn with the deployment's configuration and ``workers`` worker processes; yields
    its base URL and stops it afterwards."""
    port = free_port()
    env = {**env, "GUNICORN_BIND": f"127.0.0.1:{port}", "GUNICORN_WORKERS": str(workers)}
    gunicorn_bin = str(Path(sys.executable).with_name("gunicorn"))
    with open(log, "wb") as err:
        proc = subprocess.Popen(
            [gunicorn_bin, "-c", "deploy/gunicorn.conf.py"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        try:
            for _ in range(120):
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    time.sleep(0.5)
            else:
                pytest.fail(f"gunicorn did not start: {log.read_text()[-2000:]}")
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def http(
    url: str, *, data: bytes | None = None, **headers: str
) -> tuple[int, dict[str, str], bytes]:
    """One request as a client behind TLS would make it (the proxy header says https)."""
    request = urllib.request.Request(
        url, data=data, headers={"Host": "127.0.0.1", "X-Forwarded-Proto": "https", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()
