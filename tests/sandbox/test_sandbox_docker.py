"""The Docker backend against a real engine: the container's configuration, the pipe, clean-up
(close, reap by labels, orphans of dead workers) and clear errors. Marked ``docker``."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from sandbox import BotGone, Limits, LineTooLong, SandboxError, get_sandbox
from sandbox.docker import RUNTIME_IMAGE, DockerSandbox
from sandbox.docker_spec import LABEL

from .conftest import BOTS

pytestmark = pytest.mark.docker
LABELS = {"test": "1", "match": "docker-unit"}
ROOT = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, src: str) -> Path:
    p = tmp_path / "bot.py"
    p.write_text(src)
    return p


def test_container_configuration(docker_sandbox, prepared) -> None:
    limits = Limits(memory_mb=200, pids=32, cpus=0.5, tmpfs_mb=16, file_size_mb=4, open_files=99)
    bot = docker_sandbox.start(prepared(BOTS / "echo.py"), labels=LABELS, limits=limits)
    try:
        bot.container.reload()
        a = bot.container.attrs
        hc, cfg = a["HostConfig"], a["Config"]
        assert cfg["Image"] == RUNTIME_IMAGE
        assert cfg["User"] == "65534:65534"
        assert cfg["Labels"][f"{LABEL}.match"] == "docker-unit"
        assert cfg["Labels"][f"{LABEL}.sandbox"] == "1"
        assert hc["NetworkMode"] == "none"
        assert hc["ReadonlyRootfs"] is True
        assert hc["CapDrop"] == ["ALL"]
        assert "no-new-privileges" in hc["SecurityOpt"]
        assert hc["Memory"] == 200 * 1024 * 1024 and hc["MemorySwap"] == hc["Memory"]
        assert hc["PidsLimit"] == 32
        assert hc["NanoCpus"] == 500_000_000
        assert hc["LogConfig"]["Type"] == "none"  # a bot's output never lands on the host disk
        assert "size=16m" in hc["Tmpfs"]["/tmp"]
        ulimits = {u["Name"]: u["Hard"] for u in hc["Ulimits"]}
        assert ulimits["fsize"] == 4 * 1024 * 1024 and ulimits["nofile"] == 99
        mounts = {m["Destination"]: m for m in a["Mounts"]}
        assert mounts["/bot"]["RW"] is False
    finally:
        bot.close()


def test_round_trip_stderr_and_polite_exit(docker_sandbox, prepared) -> None:
    bot = docker_sandbox.start(prepared(BOTS / "echo.py"), labels=LABELS, limits=Limits())
    for i in range(3):
        bot.send_line(json.dumps({"type": "act", "turn": i}))
        assert json.loads(bot.read_line(10)) == {"echo": {"type": "act", "turn": i}}
    assert "got act" in bot.stderr_text()
    bot.close(grace_s=2)  # stdin EOF: the echo bot's loop ends
    assert bot.exit_reason() == "exited 0"
    assert docker_sandbox.containers({"match": "docker-unit"}) == []


def test_exit_and_memory_reasons(docker_sandbox, prepared, tmp_path) -> None:
    code = prepared(_write(tmp_path, "x = []\nwhile True:\n    x.append(b'1' * (16 << 20))\n"))
    bot = docker_sandbox.start(code, labels=LABELS, limits=Limits(memory_mb=96))
    with pytest.raises(BotGone, match="memory"):
        bot.read_line(20)
    bot.close()


def test_huge_line(docker_sandbox, prepared, tmp_path) -> None:
    code = prepared(
        _write(
            tmp_path,
            "import sys, time\nsys.stdout.write('y' * 300000)\n"
            "sys.stdout.flush()\ntime.sleep(60)\n",
        )
    )
    bot = docker_sandbox.start(code, labels=LABELS, limits=Limits(max_line_bytes=100_000))
    with pytest.raises(LineTooLong):
        bot.read_line(20)
    bot.close(grace_s=0)


def test_close_does_not_hang_on_unread_output(docker_sandbox, prepared, tmp_path) -> None:
    # A bot flooding stdout and stderr that nobody reads: the kill must still be quick.
    src = (
        "import sys\n"
        "while True:\n"
        "    sys.stdout.write('o' * 65536)\n"
        "    sys.stderr.write('e' * 65536)\n"
    )
    bot = docker_sandbox.start(prepared(_write(tmp_path, src)), labels=LABELS, limits=Limits())
    time.sleep(1.0)
    t = time.monotonic()
    bot.close(grace_s=0.2)
    # Not held by the unread output (that would be for ever); the engine may be slow to kill.
    assert time.monotonic() - t < 60
    assert docker_sandbox.containers({"match": "docker-unit"}) == []
    assert bot.exit_reason() == "killed: ended by the referee"


def test_reap_by_match_label(docker_sandbox, prepared) -> None:
    code = prepared(BOTS / "echo.py")
    a = docker_sandbox.start(code, labels={"test": "1", "match": "reap-a"}, limits=Limits())
    b = docker_sandbox.start(code, labels={"test": "1", "match": "reap-b"}, limits=Limits())
    assert docker_sandbox.reap({"match": "reap-a"}) == 1  # e.g. the referee was interrupted
    assert docker_sandbox.containers({"match": "reap-a"}) == []
    with pytest.raises(BotGone):
        a.read_line(1)
    b.send_line("{}")
    assert b.read_line(10) == '{"echo": {}}'
    b.close()


def test_reap_orphans_of_dead_worker(docker_sandbox, prepared) -> None:
    import os
    import socket

    # a live pid with another start time: a worker that died and whose pid was reused
    reused = f"{socket.gethostname()}:{os.getpid()}:12345"
    c = docker_sandbox.client.containers.create(
        RUNTIME_IMAGE,
        command=["python3", "-c", "import time; time.sleep(600)"],
        labels={
            f"{LABEL}.sandbox": "1",
            f"{LABEL}.test": "1",
            f"{LABEL}.match": "orphan",
            f"{LABEL}.worker": reused,
        },
        network_mode="none",
    )
    c.start()
    mine = docker_sandbox.start(prepared(BOTS / "echo.py"), labels=LABELS, limits=Limits())
    # Any worker's pool on this host may reap it first (a new pool reaps dead workers'
    # containers): what counts is that it is gone, not who took it.
    docker_sandbox.reap_orphans()
    assert docker_sandbox.containers({"match": "orphan"}) == []
    mine.send_line("{}")  # this worker's own container is alive and well
    assert mine.read_line(10) == '{"echo": {}}'
    mine.close()


def test_missing_image_error_says_what_to_run(docker_sandbox) -> None:
    sb = DockerSandbox(image="meeple-arena/not-built:0")
    with pytest.raises(SandboxError, match=r"not built: run deploy/build-runtime-image\.sh"):
        sb.check()


def test_build_script_builds_the_image_the_backend_wants() -> None:
    script = (ROOT / "deploy" / "build-runtime-image.sh").read_text()
    assert re.search(rf'^IMAGE="{re.escape(RUNTIME_IMAGE)}"', script, re.M)


@pytest.mark.parametrize("backend", ["docker", "auto"])
def test_get_sandbox_picks_docker(docker_sandbox, backend) -> None:
    assert get_sandbox(backend).is_security_boundary


def test_missing_engine_error_says_what_to_run(monkeypatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxError, match=r"no Docker engine answers.*start it"):
        get_sandbox("docker")
