"""The warm pool of Docker containers (sandbox/pool.py) against a real engine: pooled containers
are locked down like cold ones, a bot sees exactly what it sees in a cold container, without
reuse a container serves one bot only, clean-up (close, reap by match, shutdown) and the
fallbacks. Marked ``docker``; reuse between matches of one version is test_pool_reuse.py's, and
the hostile suite runs against the pool with and without reuse (test_sandbox_hostile.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox import SandboxError
from sandbox.base import BotGone, Limits
from sandbox.docker import DockerSandbox, pool_size_setting
from sandbox.docker_spec import LABEL
from sandbox.pool_bot import PooledBot
from sandbox.workers import worker_id

from .conftest import BOTS, docker_or_fail

pytestmark = pytest.mark.docker
LIMITS = Limits(memory_mb=200, pids=32, cpus=0.5, tmpfs_mb=16, file_size_mb=4, open_files=99)

# Says what it sees of its own world, answers each line with {"got": line}, then exits 0.
INTROSPECT = """\
import json, os, sys
info = {
    "argv": sys.argv, "cwd": os.getcwd(), "uid": os.getuid(), "gid": os.getgid(),
    "files": sorted(os.listdir(".")),
    "stdin_fifo": __import__("stat").S_ISFIFO(os.fstat(0).st_mode),
    "env": sorted(k for k in os.environ if not k.startswith("PYTHON")),
}
try:
    open("main.py", "a").close()
    info["code_writable"] = True
except OSError:
    info["code_writable"] = False
print(json.dumps(info), flush=True)
for line in sys.stdin:
    print(json.dumps({"got": line.rstrip("\\n")}), flush=True)
print("bye", file=sys.stderr, flush=True)
"""


@pytest.fixture
def pooled() -> Iterator[DockerSandbox]:
    docker_or_fail()
    sb = DockerSandbox(pool_size=2, reuse=0)
    assert sb.pool is not None
    assert sb.pool.wait_full(LIMITS, 120)
    yield sb
    sb.pool.shutdown()


def _bot_dir(tmp_path: Path, src: str) -> Path:
    (tmp_path / "main.py").write_text(src)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "weights.txt").write_text("42")
    return tmp_path


def test_pooled_container_is_locked_down_like_a_cold_one(pooled, prepared) -> None:
    cold = DockerSandbox(pool_size=0)
    code = prepared(BOTS / "echo.py")
    warm = pooled.start(code, labels={"test": "1", "match": "pool-cfg"}, limits=LIMITS)
    ref = cold.start(code, labels={"test": "1", "match": "pool-cfg"}, limits=LIMITS)
    try:
        assert isinstance(warm, PooledBot)
        warm.container.reload()
        ref.container.reload()  # type: ignore[attr-defined]
        a, b = warm.container.attrs, ref.container.attrs  # type: ignore[attr-defined]
        same = [
            "NetworkMode",
            "ReadonlyRootfs",
            "CapDrop",
            "SecurityOpt",
            "Memory",
            "MemorySwap",
            "NanoCpus",
            "LogConfig",
            "Tmpfs",
            "Ulimits",
            "Init",
            "IpcMode",
            "ShmSize",
            "Runtime",
        ]
        for key in same:
            assert a["HostConfig"][key] == b["HostConfig"][key], key
        # one more process for the supervisor: the bot keeps the budget it has cold
        assert a["HostConfig"]["PidsLimit"] == b["HostConfig"]["PidsLimit"] + 1 == LIMITS.pids + 1
        assert a["HostConfig"]["NetworkMode"] == "none" and a["HostConfig"]["ReadonlyRootfs"]
        assert a["Config"]["User"] == "65534:65534"
        assert a["Config"]["Env"] == b["Config"]["Env"]
        labels = a["Config"]["Labels"]
        assert labels[f"{LABEL}.sandbox"] == "1" and labels[f"{LABEL}.pool"] == "1"
        assert labels[f"{LABEL}.worker"] == worker_id()  # what the orphan reaper goes by
        mounts = {m["Destination"]: m for m in a["Mounts"]}
        assert set(mounts) == {"/bot", "/run/arena"}
        assert not mounts["/bot"]["RW"] and not mounts["/run/arena"]["RW"]
    finally:
        warm.close()
        ref.close()
    assert pooled.settle(60)


def test_a_pooled_bot_sees_what_a_cold_one_sees(pooled, prepared, tmp_path) -> None:
    code = prepared(_bot_dir(tmp_path, INTROSPECT))
    seen = []
    for sb in (pooled, DockerSandbox(pool_size=0)):
        bot = sb.start(code, labels={"test": "1"}, limits=LIMITS)
        info = json.loads(bot.read_line(30) or "null")
        # the first line on its stdin is exactly what we send: the loader kept nothing
        start = '{"type":"start","protocol":1}'
        bot.send_line(start)
        assert json.loads(bot.read_line(30) or "null") == {"got": start}
        bot.close(grace_s=5)  # stdin EOF: its loop ends, it says bye, exits 0
        assert bot.exit_reason() == "exited 0"
        assert "bye" in bot.stderr_text()
        seen.append(info)
    warm, cold = seen
    assert warm["argv"] == cold["argv"] == ["main.py"]
    assert warm["cwd"] == cold["cwd"] == "/bot"
    assert warm["uid"] == warm["gid"] == 65534
    assert warm["files"] == cold["files"] == ["data", "main.py"]
    assert warm["code_writable"] is cold["code_writable"] is False
    assert warm["env"] == cold["env"]
    assert warm["stdin_fifo"] and cold["stdin_fifo"]


def test_without_reuse_a_container_serves_one_bot_only(pooled, prepared) -> None:
    code = prepared(BOTS / "echo.py")
    pool = pooled.pool
    assert pool is not None
    ids = set()
    for i in range(4):
        assert pool.wait_full(LIMITS, 120)
        bot = pooled.start(code, labels={"test": "1", "match": f"once-{i}"}, limits=LIMITS)
        assert isinstance(bot, PooledBot)
        bot.send_line("{}")
        assert bot.read_line(30) == '{"echo": {}}'
        ids.add(bot.container.id)
        folder = bot.folder
        bot.close(grace_s=2)
        assert bot.wait_removed(60)
        assert not folder.exists()
        assert pooled.containers({"pool": "1"})  # the pool refilled...
        assert bot.container.id not in {c.id for c in pooled.containers({"pool": "1"})}  # ...afresh
    assert len(ids) == 4
    assert pool.hits >= 4


def test_reap_by_match_finds_pooled_containers(pooled, prepared) -> None:
    code = prepared(BOTS / "echo.py")
    a = pooled.start(code, labels={"test": "1", "match": "pool-reap-a"}, limits=LIMITS)
    b = pooled.start(code, labels={"test": "1", "match": "pool-reap-b"}, limits=LIMITS)
    assert isinstance(a, PooledBot) and isinstance(b, PooledBot)
    # labels are fixed at creation, before the match was known: found through the worker
    assert pooled.reap({"match": "pool-reap-a"}) == 1
    with pytest.raises(BotGone):
        a.read_line(1)
    assert a.wait_removed(60) and not a.folder.exists()
    b.send_line("{}")
    assert b.read_line(10) == '{"echo": {}}'
    b.close()


def test_a_pool_that_cannot_fill_falls_back_to_cold_starts(prepared, monkeypatch) -> None:
    docker_or_fail()
    sb = DockerSandbox(pool_size=1)
    assert sb.pool is not None

    def refuse(sandbox, limits, hello_timeout_s):  # e.g. the slot folder's disk is full
        raise SandboxError("no room for a slot folder")

    monkeypatch.setattr("sandbox.pool_fill.start_box", refuse)
    try:
        bot = sb.start(
            prepared(BOTS / "echo.py"), labels={"test": "1", "match": "pool-miss"}, limits=LIMITS
        )
        assert not bot.pooled  # type: ignore[attr-defined]
        assert sb.containers({"match": "pool-miss"})  # a cold container carries the match label
        bot.send_line("{}")
        assert bot.read_line(30) == '{"echo": {}}'
        bot.close()
        assert sb.pool.misses == 1
    finally:
        sb.pool.shutdown()


def test_a_seat_waits_for_a_container_on_its_way(prepared) -> None:
    docker_or_fail()
    sb = DockerSandbox(pool_size=1)
    assert sb.pool is not None
    try:
        # the first match of a worker: nothing idle, the pool starts one and the seat takes it
        bot = sb.start(prepared(BOTS / "echo.py"), labels={"test": "1"}, limits=LIMITS)
        assert isinstance(bot, PooledBot)
        bot.send_line("{}")
        assert bot.read_line(30) == '{"echo": {}}'
        bot.close()
        assert (sb.pool.hits, sb.pool.misses) == (1, 0)
    finally:
        sb.pool.shutdown()


def test_a_dead_idle_container_is_skipped(pooled, prepared) -> None:
    pool = pooled.pool
    assert pool is not None
    victim = pool.idle_bots(LIMITS)[0]
    victim.container.kill()  # e.g. the engine restarted, or an admin cleaned up
    bot = pooled.start(prepared(BOTS / "echo.py"), labels={"test": "1"}, limits=LIMITS)
    assert isinstance(bot, PooledBot) and bot.box is not victim
    bot.send_line("{}")
    assert bot.read_line(30) == '{"echo": {}}'
    bot.close()
    assert pooled.settle(60)
    assert victim.wait_removed(60)


def test_shutdown_removes_idle_containers(prepared) -> None:
    docker_or_fail()
    sb = DockerSandbox(pool_size=2)
    assert sb.pool is not None and sb.pool.wait_full(LIMITS, 120)
    slots = sb.pool.idle_bots(LIMITS)
    sb.pool.shutdown()
    ids = {c.id for c in sb.containers(None)}
    assert not any(b.container.id in ids for b in slots)
    assert not any(b.folder.exists() for b in slots)


@pytest.mark.parametrize("raw", ["x", "-1", "65", "2.5"])
def test_pool_size_setting_errors(monkeypatch, raw) -> None:
    monkeypatch.setenv("ARENA_DOCKER_POOL", raw)
    with pytest.raises(SandboxError, match="ARENA_DOCKER_POOL"):
        pool_size_setting()


def test_pool_size_setting(monkeypatch) -> None:
    monkeypatch.delenv("ARENA_DOCKER_POOL", raising=False)
    assert pool_size_setting() == 0
    assert DockerSandbox().pool is None  # off by default: no container started in advance
    monkeypatch.setenv("ARENA_DOCKER_POOL", "3")
    assert DockerSandbox().pool_size == 3


def _fill_and_die(limits: Limits, out) -> None:  # in a child process
    import os
    import signal

    sb = DockerSandbox(pool_size=1)
    assert sb.pool is not None and sb.pool.wait_full(limits, 120)
    bot = sb.pool.idle_bots(limits)[0]
    bot.container.reload()
    out.send((bot.container.id, str(bot.folder), bot.container.labels))  # sent at once
    os.kill(os.getpid(), signal.SIGKILL)  # a worker killed: no clean-up of its own


def test_the_reaper_finds_a_dead_workers_pool(pooled, prepared) -> None:
    import multiprocessing as mp

    import docker

    ctx = mp.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_fill_and_die, args=(LIMITS, send))
    child.start()
    assert receive.poll(180), "the child did not fill its pool"
    container_id, folder, labels = receive.recv()
    child.join(60)
    assert child.exitcode == -9
    assert labels[f"{LABEL}.worker"].startswith(f"{worker_id().split(':')[0]}:{child.pid}:")
    assert labels[f"{LABEL}.pool"] == "1"
    pooled.reap_orphans()  # (another test process's reaper may have been first: fine too)
    with pytest.raises(docker.errors.NotFound):
        pooled.client.containers.get(container_id)
    assert not Path(folder).exists()  # its code and FIFO folder went with it
    # this worker's own idle containers are alive and well
    assert pooled.pool.idle(LIMITS) == 2
    bot = pooled.start(prepared(BOTS / "echo.py"), labels={"test": "1"}, limits=LIMITS)
    assert isinstance(bot, PooledBot)
    bot.send_line("{}")
    assert bot.read_line(30) == '{"echo": {}}'
    bot.close()


def test_a_forked_child_leaves_the_parents_pool_alone(pooled, prepared) -> None:
    import os

    from sandbox import pool as pool_module
    from sandbox.live import CONTAINERS

    pid = os.fork()  # as Celery's prefork pool does after the parent made a sandbox
    if pid == 0:
        ok = not pool_module.pools() and not any(isinstance(b, PooledBot) for b in CONTAINERS.all())
        ok = ok and pooled.pool is not None and pooled.pool.idle(LIMITS) == 0  # its own, empty
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert pooled.pool is not None and pooled.pool.idle(LIMITS) == 2  # the parent's, untouched
    bot = pooled.start(prepared(BOTS / "echo.py"), labels={"test": "1"}, limits=LIMITS)
    assert isinstance(bot, PooledBot)
    bot.send_line("{}")
    assert bot.read_line(30) == '{"echo": {}}'
    bot.close()


def test_process_bots_start_while_pooled_containers_are_in_use(pooled, prepared) -> None:
    # Python runs fork hooks in a child started with preexec_fn (the process backend): the
    # pool's must not close descriptors there that now belong to the child's own pipes.
    from sandbox.process import ProcessSandbox

    code = prepared(BOTS / "echo.py")
    warm = pooled.start(code, labels={"test": "1"}, limits=LIMITS)
    warm.close(grace_s=0)  # closed, its removal pending: its old fd numbers get reused
    process = ProcessSandbox()
    for _ in range(3):
        with process.start(code, labels={"test": "1"}, limits=LIMITS) as bot:
            bot.send_line("{}")
            assert bot.read_line(30) == '{"echo": {}}'
    assert pooled.settle(60)


def test_a_new_pool_removes_what_a_killed_worker_left() -> None:
    import multiprocessing as mp

    import docker

    docker_or_fail()
    ctx = mp.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_fill_and_die, args=(LIMITS, send))
    child.start()
    assert receive.poll(180), "the child did not fill its pool"
    container_id, folder, _ = receive.recv()
    child.join(60)
    assert child.exitcode == -9  # killed: its container and folder are still there
    sb = DockerSandbox(pool_size=1)
    assert sb.pool is not None  # a worker's pool starting on the same host: it reaps first
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                sb.client.containers.get(container_id)
            except docker.errors.NotFound:
                break
            time.sleep(0.2)
        else:
            raise AssertionError("the dead worker's container is still there")
        assert not Path(folder).exists()
    finally:
        sb.pool.shutdown()
