"""Reusing a warm container for later matches of the same bot version (sandbox/pool.py,
pool_box.py, pool_supervisor.py) against a real engine: what a match leaves behind (files,
folders it locked, FIFOs, a daemonised sleeper holding one, System V shared memory, its
environment) is invisible to the next match in the same container; the bot cannot reach the
supervisor that resets it; a container never goes to another version, other limits or another
owner; a reset that fails removes the container; kept containers are bounded and age out.
Marked ``docker``; the hostile suite also runs on this path (test_sandbox_hostile.py)."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import SandboxError
from sandbox.base import BotCode, BotGone, Limits
from sandbox.docker import DockerSandbox, pool_reuse_setting
from sandbox.pool_bot import PooledBot

from .conftest import BOTS, docker_or_fail

pytestmark = pytest.mark.docker
LIMITS = Limits(memory_mb=200, pids=32, cpus=0.5, tmpfs_mb=16, file_size_mb=4, open_files=99)

CLEAN = {"procs": {}, "tmp": [], "shm": [], "mqueue": [], "sysv": [0, 0, 0], "env": None}


def _bot(tmp_path: Path, name: str, src: str) -> BotCode:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "main.py").write_text(src)
    return BotCode(root=folder)


@pytest.fixture
def reusing() -> Iterator[DockerSandbox]:
    docker_or_fail()
    sb = DockerSandbox(pool_size=2, reuse=4)
    assert sb.pool is not None and sb.pool.wait_full(LIMITS, 120)
    yield sb
    sb.pool.shutdown()


def _play_leaver(sb: DockerSandbox, code: BotCode) -> tuple[PooledBot, dict]:
    bot = sb.start(code, labels={"test": "1"}, limits=LIMITS)
    assert isinstance(bot, PooledBot)
    seen = json.loads(bot.read_line(30) or "null")
    after = json.loads(bot.read_line(30) or "null")
    assert after["left"] and after["sleeper"] >= 4, after  # tini, supervisor, bot, sleeper
    bot.close(grace_s=0)
    assert bot.wait_removed(60)
    return bot, seen


def test_the_next_match_of_a_version_sees_nothing_of_the_last(reusing, prepared) -> None:
    code = prepared(BOTS / "leaver.py")
    first, seen1 = _play_leaver(reusing, code)
    second, seen2 = _play_leaver(reusing, code)
    assert second.box is first.box  # the same container, reset
    assert reusing.pool is not None and reusing.pool.reuses == 1
    for seen in (seen1, seen2):
        assert {k: seen[k] for k in CLEAN} == CLEAN, seen
        # the supervisor is out of the bot's reach, though it runs as the same uid
        reach = seen["reach"]
        assert reach["ctl"] == reach["ack"] == "Permission denied", reach
        assert reach["environ"] == reach["fds"] == reach["mem"] == "Permission denied", reach
    # and the host agrees: only tini, the supervisor and the next loader, /tmp empty
    top = second.container.top()
    assert len(top["Processes"]) == 3, top
    assert second.box.host_check() == ""


def test_the_hosts_own_check_does_not_trust_the_supervisor(reusing, tmp_path) -> None:
    """What the host checks after the supervisor's ``clean``: a file or a process in the
    container, put there behind the supervisor's back, fails the check."""
    code = _bot(tmp_path, "quiet", "import sys\nsys.stdin.read()\n")
    bot = reusing.start(code, labels={"test": "1"}, limits=LIMITS)
    assert isinstance(bot, PooledBot)
    bot.close(grace_s=0)
    assert bot.wait_removed(60)
    box = bot.box
    if not box.host_visible:
        pytest.skip("this worker cannot see the engine's host")
    assert box.host_check() == ""
    box.container.reload()
    planted = Path(f"/proc/{box.container.attrs['State']['Pid']}/root/tmp/planted")
    planted.write_text("x")
    assert box.host_check() == "/tmp holds 1 entries after the reset"
    planted.unlink()
    box.container.exec_run(["python3", "-c", "import time; time.sleep(600)"], detach=True)
    # Until the planted process runs (on a busy machine the engine takes its time to start
    # it, and while it starts the count passes through other values), then the check says so.
    planted_seen = "4 processes in the container after the reset"
    deadline = time.monotonic() + 180
    while box.host_check() != planted_seen and time.monotonic() < deadline:
        time.sleep(0.1)
    assert box.host_check() == planted_seen


def test_a_kept_container_goes_to_its_version_only(reusing, tmp_path) -> None:
    pool = reusing.pool
    assert pool is not None
    echo = "import sys\nfor line in sys.stdin:\n    print(line.strip(), flush=True)\n"
    a = _bot(tmp_path, "a", echo)
    b = _bot(tmp_path, "b", echo + "# another version\n")

    def play(code: BotCode, limits: Limits = LIMITS, owner: str = "") -> PooledBot:
        labels = {"test": "1", **({"owner": owner} if owner else {})}
        bot = reusing.start(code, labels=labels, limits=limits)
        assert isinstance(bot, PooledBot)
        bot.send_line("hi")
        assert bot.read_line(30) == "hi"
        bot.close(grace_s=1)
        assert bot.wait_removed(60)
        return bot

    kept = play(a).box
    assert pool.kept() == [kept]
    assert play(b).box is not kept  # another version
    other_limits = Limits(**{**LIMITS.__dict__, "memory_mb": 190})
    assert pool.wait_full(other_limits, 120)
    assert play(a, other_limits).box is not kept  # other limits
    assert play(a, owner="someone-else").box is not kept  # same bytes, another owner
    assert play(a).box is kept  # still there for its own version


def test_exit_reasons_come_from_the_supervisor(reusing, tmp_path) -> None:
    for src, reason in (
        ("import sys\nsys.exit(3)\n", "exited 3"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", "killed: SIGSEGV"),
    ):
        code = _bot(tmp_path, reason.replace(" ", "-").replace(":", ""), src)
        for _ in range(2):  # a fresh container, then the same one reset
            bot = reusing.start(code, labels={"test": "1"}, limits=LIMITS)
            with pytest.raises(BotGone):
                bot.read_line(30)
            assert bot.exit_reason() == reason
            bot.close()
            assert bot.wait_removed(60)


@pytest.mark.parametrize("attack", ["SIGSTOP", "SIGKILL"])
def test_a_container_whose_reset_fails_is_removed(reusing, tmp_path, attack) -> None:
    """A bot that freezes or kills its supervisor: the reset times out or finds it gone, and
    the container is removed instead of kept."""
    pool = reusing.pool
    assert pool is not None
    pool.reset_timeout_s = 2.0
    src = (
        "import os, signal, sys\n"
        f"os.kill(os.getppid(), signal.{attack})\n"
        "print('done', flush=True)\n"
        "sys.stdin.read()\n"
    )
    code = _bot(tmp_path, attack, src)
    bot = reusing.start(code, labels={"test": "1"}, limits=LIMITS)
    assert isinstance(bot, PooledBot)
    with contextlib.suppress(BotGone):  # killed with its supervisor's container
        bot.read_line(30)
    bot.close(grace_s=0)
    assert bot.wait_removed(60)
    assert bot.box.removed.is_set() and not bot.box.folder.exists()
    assert pool.kept() == []
    again = reusing.start(code, labels={"test": "1"}, limits=LIMITS)
    assert isinstance(again, PooledBot) and again.box is not bot.box
    again.close(grace_s=0)


def test_kept_containers_are_bounded_and_age_out(tmp_path) -> None:
    docker_or_fail()
    sb = DockerSandbox(pool_size=1, reuse=1)
    pool = sb.pool
    assert pool is not None and pool.wait_full(LIMITS, 120)
    try:
        boxes = []
        for name in ("one", "two"):
            code = _bot(tmp_path, name, f"print({name!r}, flush=True)\n")
            bot = sb.start(code, labels={"test": "1"}, limits=LIMITS)
            assert isinstance(bot, PooledBot) and bot.read_line(30) == name
            bot.close(grace_s=1)
            assert bot.wait_removed(60)
            boxes.append(bot.box)
        assert pool.kept() == [boxes[1]]  # one kept at most: the older removed
        assert boxes[0].wait_removed(60)
        pool.max_idle_s = 0.5
        time.sleep(1.0)
        again = sb.start(
            _bot(tmp_path, "two-again", "print('two', flush=True)\n"),
            labels={"test": "1"},
            limits=LIMITS,
        )
        again.close()
        assert boxes[1].wait_removed(60)  # too long idle: removed, not reused
    finally:
        pool.shutdown()


@pytest.mark.parametrize("raw", ["x", "-1", "65"])
def test_reuse_setting_errors(monkeypatch, raw) -> None:
    monkeypatch.setenv("ARENA_DOCKER_REUSE", raw)
    with pytest.raises(SandboxError, match="ARENA_DOCKER_REUSE"):
        pool_reuse_setting(4)


def test_reuse_setting(monkeypatch) -> None:
    monkeypatch.delenv("ARENA_DOCKER_REUSE", raising=False)
    assert pool_reuse_setting(4) == 4  # on with the pool, as many as its size
    monkeypatch.setenv("ARENA_DOCKER_REUSE", "0")
    assert DockerSandbox(pool_size=4).reuse == 0
