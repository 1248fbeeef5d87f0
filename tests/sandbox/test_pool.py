"""sandbox/pool.py itself (``WarmPool``), against a real engine: a pool of its own over a Docker
backend, which it knows only as a ``PoolHost`` (sandbox/pool_host.py); what it serves runs the
language's one run command, as a cold container does; a bad entry name is refused before any
container is claimed; its shutdown removes what it holds. The backend's use of its pool is
test_sandbox_pool.py's; reuse is test_pool_reuse.py's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sandbox import SandboxError
from sandbox.base import BotCode, Limits
from sandbox.docker import DockerSandbox
from sandbox.docker_bot import DockerBot
from sandbox.languages import DEFAULT, get_language
from sandbox.pool import WarmPool
from sandbox.pool_bot import PooledBot

from .conftest import docker_or_fail

pytestmark = pytest.mark.docker
LIMITS = Limits(memory_mb=200, pids=32, cpus=0.5, tmpfs_mb=16, file_size_mb=4, open_files=99)
LABELS = {"test": "1", "match": "pool-module"}

# Says how it was started (the interpreter's flags and argv), then exits.
FLAGS = """\
import json, sys
print(json.dumps({"argv": sys.argv, "E": sys.flags.ignore_environment,
                  "s": sys.flags.no_user_site}), flush=True)
"""


@pytest.fixture
def host() -> DockerSandbox:
    docker_or_fail()
    return DockerSandbox(pool_size=0)  # no pool of its own: the test makes one


@pytest.fixture
def pool(host: DockerSandbox) -> Iterator[WarmPool]:
    made = WarmPool(host, 1, reuse=0)
    made.warm(LIMITS)
    assert made.wait_full(LIMITS, 120)
    yield made
    made.shutdown()


def _said(bot: Any) -> dict[str, Any]:
    try:
        line = bot.read_line(timeout_s=30)
        assert line is not None, bot.stderr_text()
        return json.loads(line)
    finally:
        bot.close()


def test_a_pooled_bot_runs_the_languages_one_command(
    pool: WarmPool, host: DockerSandbox, prepared: Any, tmp_path: Path
) -> None:
    (tmp_path / "main.py").write_text(FLAGS)
    code: BotCode = prepared(tmp_path / "main.py")
    warm = pool.acquire(code, LABELS, LIMITS)
    assert isinstance(warm, PooledBot)
    pooled = _said(warm)
    cold_bot = host.start(code, labels=LABELS, limits=LIMITS)  # no pool: the cold way
    assert isinstance(cold_bot, DockerBot)
    cold = _said(cold_bot)
    assert pooled == cold
    run = get_language(DEFAULT).run_command(code.entry)
    assert "-E" in run and "-s" in run
    assert pooled["E"] == 1 and pooled["s"] == 1 and pooled["argv"] == [code.entry]


@pytest.mark.parametrize("entry", ["", "dir/main.py", "main.py\nrm"])
def test_a_bad_entry_name_is_refused_before_a_container_is_claimed(
    pool: WarmPool, prepared: Any, tmp_path: Path, entry: str
) -> None:
    (tmp_path / "main.py").write_text(FLAGS)
    code: BotCode = prepared(tmp_path / "main.py")
    idle = len(pool.idle_bots(LIMITS))
    odd = BotCode(root=code.root, entry=entry, language=code.language)
    with pytest.raises(SandboxError, match="bad entry file name"):
        pool.acquire(odd, LABELS, LIMITS)
    assert len(pool.idle_bots(LIMITS)) == idle


def test_shutdown_removes_the_pools_containers(host: DockerSandbox) -> None:
    made = WarmPool(host, 1, reuse=0)
    made.warm(LIMITS)
    assert made.wait_full(LIMITS, 120)
    boxes = made.idle_bots(LIMITS)
    made.shutdown()
    left = {c.id for c in host.containers(None)}
    assert boxes and not any(b.container.id in left for b in boxes)
