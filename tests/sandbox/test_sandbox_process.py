"""The process backend: pipes, timeouts, limits and clean-up, against real child processes."""

from __future__ import annotations

import json
import os
import time
import warnings
from pathlib import Path

import pytest

from sandbox import (
    BotGone,
    Limits,
    LineTooLong,
    SandboxError,
    UnsafeSandboxWarning,
    get_sandbox,
    require_boundary,
)
from sandbox.process import ProcessSandbox

from .conftest import BOTS, pool_processes

LABELS = {"test": "1", "match": "proc"}
#: The longest a test waits for a bot to start and answer (or end): it returns as soon as the
#: bot does, so it can be generous for a busy machine.
WAIT_S = 60


def _write(tmp_path: Path, src: str) -> Path:
    p = tmp_path / "bot.py"
    p.write_text(src)
    return p


@pytest.mark.parametrize("bwrap", [True, False], ids=["bwrap", "plain"])
def test_round_trip_and_stderr(prepared, bwrap: bool) -> None:
    sb = ProcessSandbox(use_bwrap=bwrap)
    with sb.start(prepared(BOTS / "echo.py"), labels=LABELS, limits=Limits()) as bot:
        for i in range(3):
            bot.send_line(json.dumps({"type": "act", "turn": i}))
            assert json.loads(bot.read_line(WAIT_S)) == {"echo": {"type": "act", "turn": i}}
        assert "got act" in bot.stderr_text()
        assert bot.exit_reason() is None
    assert bot.exit_reason() is not None


def test_read_timeout_returns_none(prepared, tmp_path, process_sandbox) -> None:
    code = prepared(_write(tmp_path, "import time\ntime.sleep(60)\n"))
    bot = process_sandbox.start(code, labels=LABELS, limits=Limits())
    t = time.monotonic()
    assert bot.read_line(0.3) is None
    # It waited its timeout, and returned at it, not when the bot ends (60 s): a busy machine
    # may wake it late, never early.
    assert 0.25 < time.monotonic() - t < 30
    assert bot.read_line(0) is None
    bot.close(grace_s=0)
    assert "referee" in bot.exit_reason()


def test_exit_raises_bot_gone_with_reason(prepared, tmp_path, process_sandbox) -> None:
    code = prepared(_write(tmp_path, "import sys\nprint('bye', file=sys.stderr)\nsys.exit(3)\n"))
    bot = process_sandbox.start(code, labels=LABELS, limits=Limits())
    with pytest.raises(BotGone, match="exited 3"):
        bot.read_line(WAIT_S)
    assert "bye" in bot.stderr_text()
    bot.close()


def test_huge_line_is_line_too_long(prepared, tmp_path, process_sandbox) -> None:
    code = prepared(_write(tmp_path, "import sys\nsys.stdout.write('x' * 3_000_000)\n"))
    bot = process_sandbox.start(code, labels=LABELS, limits=Limits(max_line_bytes=1 << 20))
    with pytest.raises(LineTooLong):
        bot.read_line(WAIT_S)
    bot.close(grace_s=0)


def test_memory_limit(prepared, tmp_path, process_sandbox) -> None:
    code = prepared(_write(tmp_path, "x = bytearray(400 * 1024 * 1024)\nprint('alive')\n"))
    bot = process_sandbox.start(code, labels=LABELS, limits=Limits(memory_mb=128))
    with pytest.raises(BotGone, match="out of memory"):
        bot.read_line(WAIT_S)
    bot.close()


def test_cpu_time_limit(prepared, tmp_path, process_sandbox) -> None:
    code = prepared(_write(tmp_path, "while True:\n    pass\n"))
    bot = process_sandbox.start(code, labels=LABELS, limits=Limits(cpu_seconds=1))
    with pytest.raises(BotGone, match="cpu time"):
        bot.read_line(6)
    bot.close()


@pytest.mark.skipif(os.geteuid() != 0, reason="per-bot uids need root")
def test_close_kills_daemonised_child(prepared, tmp_path) -> None:
    src = (
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        print('ready', flush=True)  # the daemon says it exists\n"
        "        time.sleep(120)\n"
        "    os._exit(0)\n"
        "time.sleep(120)\n"
    )
    sb = ProcessSandbox(use_bwrap=False)  # no pid namespace: only the uid sweep can find it
    bot = sb.start(prepared(_write(tmp_path, src)), labels=LABELS, limits=Limits())
    assert bot.read_line(WAIT_S) == "ready"
    pids = set(pool_processes().get(bot._lease.uid, []))
    assert len(pids) >= 2  # the bot and its daemonised grandchild
    bot.close(grace_s=0)
    assert bot.clean
    assert pids & {p for ps in pool_processes().values() for p in ps} == set()


def test_reap_by_labels(prepared, process_sandbox) -> None:
    code = prepared(BOTS / "echo.py")
    a = process_sandbox.start(code, labels={"test": "1", "match": "A"}, limits=Limits())
    b = process_sandbox.start(code, labels={"test": "1", "match": "B"}, limits=Limits())
    assert process_sandbox.reap({"match": "A"}) == 1
    assert a.exit_reason() is not None and b.exit_reason() is None
    b.close()


def test_send_to_dead_bot_is_bot_gone(prepared, tmp_path, process_sandbox) -> None:
    bot = process_sandbox.start(prepared(_write(tmp_path, "")), labels=LABELS, limits=Limits())
    bot.proc.wait(5)
    with pytest.raises(BotGone):
        for _ in range(100):  # the first write may still fit in the pipe
            bot.send_line("{}")
    bot.close()


def test_bot_not_reading_input_does_not_block_sender(prepared, tmp_path, process_sandbox) -> None:
    code = prepared(_write(tmp_path, "import time\ntime.sleep(60)\n"))
    bot = process_sandbox.start(code, labels=LABELS, limits=Limits())
    big = "x" * 100_000
    t = time.monotonic()
    with pytest.raises(BotGone, match="does not read"):
        for _ in range(20):
            bot.send_line(big, timeout_s=0.3)
    assert time.monotonic() - t < 30  # at the send's timeout, not when the bot ends (60 s)
    bot.close(grace_s=0)


def test_get_sandbox_names(monkeypatch) -> None:
    assert get_sandbox("process").name == "process"
    monkeypatch.setenv("ARENA_SANDBOX", "process")
    assert get_sandbox(None).name == "process"
    with pytest.raises(SandboxError, match="unknown sandbox 'vm'"):
        get_sandbox("vm")


def test_auto_falls_back_with_warning(monkeypatch, tmp_path) -> None:
    # an engine address of its own: a reason this process has not warned about yet
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/docker.sock")
    with pytest.warns(UnsafeSandboxWarning, match="NOT a security boundary"):
        sb = get_sandbox("auto")
    assert sb.name == "process" and not sb.is_security_boundary
    # said once per process and reason, not once per match
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert get_sandbox("auto").name == "process"


def test_require_boundary() -> None:
    sb = ProcessSandbox()
    require_boundary(sb, untrusted=False)
    require_boundary(sb, untrusted=True, allow_unsafe=True)
    with pytest.raises(SandboxError, match="not a security boundary"):
        require_boundary(sb, untrusted=True)


def test_task_count_counts_threads() -> None:
    import threading

    from sandbox import uids

    assert uids.task_count(os.getuid()) >= uids.threads_of(os.getpid()) >= 1
    before = uids.threads_of(os.getpid())
    stop = threading.Event()
    threads = [threading.Thread(target=stop.wait) for _ in range(5)]
    for t in threads:
        t.start()
    try:
        assert uids.threads_of(os.getpid()) == before + 5
    finally:
        stop.set()
        for t in threads:
            t.join()


def test_bot_files_are_written_and_bots_forked_under_one_lock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child forked while another thread of the worker holds a bot's binary open for
    writing keeps it open until it execs, and exec'ing that binary then fails ("Text file
    busy": a compiled seat crashed at start). So the backend writes bot files (a build, a copy
    of a cached one) and forks bots only while holding one lock."""
    from sandbox import process
    from sandbox.code import prepare_bot, release_bot
    from sandbox.host_build import missing_tools
    from sandbox.languages import get_language
    from tests.conftest import missing_service

    if missing_tools(get_language("cpp")):
        missing_service("g++ is not installed: no C++ bot can be built here")
    seen: list[tuple[str, bool]] = []
    real_popen, real_build = process.subprocess.Popen, process.build_bot

    def popen(*args: object, **kwargs: object) -> object:
        seen.append(("fork", process._FILES_AND_FORKS.locked()))
        return real_popen(*args, **kwargs)  # type: ignore[call-overload]

    def build(code: object) -> None:
        seen.append(("build", process._FILES_AND_FORKS.locked()))
        real_build(code)  # type: ignore[arg-type]

    monkeypatch.setattr(process.subprocess, "Popen", popen)
    monkeypatch.setattr(process, "build_bot", build)
    (tmp_path / "main.cpp").write_text("int main() { return 0; }\n")
    code = prepare_bot(tmp_path / "main.cpp")
    try:
        bot = process.ProcessSandbox().start(code, labels=LABELS, limits=Limits())
        started, seen[:] = list(seen), []  # what its close forks (the uid's kill) is not a start
        bot.close(grace_s=0)
    finally:
        release_bot(code)
    assert ("build", True) in started and ("fork", True) in started, started
    assert all(locked for _, locked in started), started
