"""The process backend: each bot a child process with rlimits, for development.

NOT a security boundary. What it does hold (see docs/sandbox.md for the full account):

- its own session and process group, killed as a whole on close;
- rlimits: CPU seconds, address space (memory), file size, open files, no core dumps;
- as root, each bot runs as its own pool uid (``sandbox.uids``): RLIMIT_NPROC then caps its
  processes (a fork bomb stops at ``Limits.pids``), it cannot write the host's root-owned files
  or read private ones, and kill(-1) as that uid ends even daemonised children;
- under bubblewrap (``/usr/bin/bwrap``, used when installed): no network, its own pid/ipc/uts
  namespaces (everything dies with it), a read-only view of /usr and of the bot's code, a
  size-capped tmpfs /tmp, and a clean environment.

Without root and without bwrap it is only a child process: anything the user can do, it can do.
"""

from __future__ import annotations

import contextlib
import math
import os
import resource
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

from sandbox import uids
from sandbox.base import BotCode, BotGone, BotProcess, Limits, Sandbox, SandboxError
from sandbox.lines import CappedText, LineBuffer, PipeReading

BWRAP = "/usr/bin/bwrap"
_MB = 1024 * 1024

# Every live bot of this worker, so that reap() can end them when the referee is interrupted.
_LIVE: weakref.WeakSet[ProcessBot] = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


def bot_python() -> str:
    """The interpreter bots run under: ``ARENA_BOT_PYTHON``, else the system's python3
    (outside any virtualenv, so bots see the standard library, not our packages)."""
    env = os.environ.get("ARENA_BOT_PYTHON")
    if env:
        return env
    for cand in ("/usr/bin/python3.11", "/usr/bin/python3"):
        if os.access(cand, os.X_OK):
            return cand
    return getattr(sys, "_base_executable", None) or sys.executable


def _bot_env() -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
    }


def _set_limits(limits: Limits, nproc: int | None) -> None:
    """Runs in the child between fork and exec: only setrlimit calls, nothing that locks."""
    cpu = max(1, int(limits.cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU, then SIGKILL
    mem = limits.memory_mb * _MB
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    fsize = limits.file_size_mb * _MB
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if nproc is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _bwrap_args(code: BotCode, python: str, limits: Limits) -> list[str]:
    args = [
        BWRAP,
        "--unshare-all",  # network, pid, ipc, uts, cgroup
        "--unshare-user",  # needed by --disable-userns; maps the bot to its own uid
        "--die-with-parent",
        "--new-session",
        "--disable-userns",
        "--ro-bind", "/usr", "/usr",
    ]  # fmt: skip
    for top in ("/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    prefix = os.path.realpath(python)
    if not prefix.startswith("/usr/"):
        # e.g. a pyenv interpreter: make its installation visible, read-only
        base = str(Path(prefix).parent.parent)
        args += ["--ro-bind", base, base]
    args += [
        "--proc", "/proc",
        "--dev", "/dev",
        "--size", str(limits.tmpfs_mb * _MB), "--tmpfs", "/tmp",
        "--ro-bind", str(code.root), "/bot",
        "--remount-ro", "/",  # bwrap's root is a tmpfs: no writes outside /tmp
        "--chdir", "/bot",
        "--clearenv",
    ]  # fmt: skip
    for k, v in _bot_env().items():
        args += ["--setenv", k, v]
    return [*args, "--", python, "-u", code.entry]


class ProcessSandbox(Sandbox):
    name = "process"
    is_security_boundary = False

    def __init__(self, *, use_bwrap: bool | None = None, isolate_user: bool = True) -> None:
        """``use_bwrap`` None: use bubblewrap when installed. ``isolate_user``: as root, run each
        bot as its own pool uid (what makes the process limit and clean-up hold)."""
        self.use_bwrap = os.access(BWRAP, os.X_OK) if use_bwrap is None else use_bwrap
        self.isolate_user = isolate_user and uids.available()
        self.python = bot_python()

    def describe(self) -> str:
        parts = ["process backend (not a security boundary)"]
        parts.append("bubblewrap" if self.use_bwrap else "no bubblewrap")
        parts.append("own uid per bot" if self.isolate_user else "same user")
        return ", ".join(parts)

    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        if not (code.root / code.entry).is_file():
            raise SandboxError(f"bot code has no {code.entry} in {code.root}")
        lease = None
        if self.isolate_user:
            lease = uids.acquire()
            if lease is None:
                raise SandboxError(
                    f"no free sandbox uid (all {uids.UID_COUNT} from {uids.UID_BASE} in use); "
                    "raise ARENA_SANDBOX_UID_COUNT"
                )
        if lease is not None:
            nproc: int | None = limits.pids
        elif os.geteuid() != 0:
            # Same user as us: RLIMIT_NPROC counts all our tasks (threads included). Weak, but
            # it bounds a bomb.
            nproc = uids.task_count(os.getuid()) + limits.pids
        else:
            nproc = None  # root ignores RLIMIT_NPROC; nothing to gain
        if self.use_bwrap:
            argv, cwd = _bwrap_args(code, self.python, limits), "/"
        else:
            argv, cwd = [self.python, "-u", "-E", "-s", code.entry], str(code.root)
        uid = lease.uid if lease is not None else None
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=cwd,
                env=_bot_env(),
                start_new_session=True,
                close_fds=True,
                preexec_fn=lambda: _set_limits(limits, nproc),
                user=uid,
                group=uid,
                extra_groups=[] if uid is not None else None,
            )
        except OSError as e:
            if lease is not None:
                lease.release()
            raise SandboxError(f"cannot start the bot process: {e}") from e
        bot = ProcessBot(proc, limits, dict(labels), lease, bwrap=self.use_bwrap)
        with _LIVE_LOCK:
            _LIVE.add(bot)
        return bot

    def reap(self, labels: dict[str, str] | None = None) -> int:
        """Close this worker's live bots matching ``labels`` (all if None); with ``labels``
        None, also kill whatever dead workers left running under free pool uids."""
        with _LIVE_LOCK:
            live = list(_LIVE)
        n = 0
        for bot in live:
            if labels is None or all(bot.labels.get(k) == v for k, v in labels.items()):
                if not bot.closed:
                    n += 1
                bot.close(grace_s=0)
        if labels is None and self.isolate_user:
            n += uids.reap_free()
        return n


class ProcessBot(PipeReading, BotProcess):
    def __init__(
        self,
        proc: subprocess.Popen[bytes],
        limits: Limits,
        labels: dict[str, str],
        lease: uids.UidLease | None,
        *,
        bwrap: bool,
    ) -> None:
        assert proc.stdin and proc.stdout and proc.stderr
        self.proc = proc
        self.labels = labels
        self.limits = limits
        self._lease = lease
        self._bwrap = bwrap
        self._in = proc.stdin.fileno()
        self._out = proc.stdout.fileno()
        self._err = proc.stderr.fileno()
        for fd in (self._in, self._out, self._err):
            os.set_blocking(fd, False)
        # one poll object for the whole match: cheaper per decision than select()
        self._poll = select.poll()
        self._poll.register(self._out, select.POLLIN)
        self._poll.register(self._err, select.POLLIN)
        self._lines = LineBuffer(limits.max_line_bytes)
        self._stderr = CappedText(limits.stderr_cap_bytes)
        self._out_eof = False
        self._err_eof = False
        self._close_lock = threading.Lock()
        self.closed = False
        self._killed_by_us = False
        #: after close: True when nothing the bot started was left running
        self.clean: bool | None = None

    # -- talking -------------------------------------------------------------------------
    def send_line(self, line: str | bytes, timeout_s: float = 5.0) -> None:
        """Write one line. A bot that stops reading its input for ``timeout_s`` once the pipe
        is full is treated as gone (it would otherwise block the referee)."""
        if self.closed:
            raise BotGone("closed")
        data = memoryview((line if isinstance(line, bytes) else line.encode("utf-8")) + b"\n")
        deadline = time.monotonic() + timeout_s
        while data:
            try:
                n = os.write(self._in, data)
                data = data[n:]
                continue
            except BlockingIOError:
                pass
            except (BrokenPipeError, OSError):
                raise BotGone(self._gone_reason("closed its input")) from None
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotGone("does not read its input")
            select.select([], [self._in], [], left)

    def read_line(self, timeout_s: float) -> str | None:
        line = self._lines.pop()
        if line is not None:
            return line
        deadline = time.monotonic() + max(0.0, timeout_s)
        poll = self._poll.poll
        while True:
            if self._out_eof:
                raise BotGone(self._gone_reason("closed its output"))
            left = deadline - time.monotonic()
            # poll() takes milliseconds: round up, never wait less than asked
            ready = poll(max(0, math.ceil(left * 1000)))
            if not ready and left <= 0:
                return None
            self._read_ready(ready)
            line = self._lines.pop()
            if line is not None:
                return line

    def _drain_err(self) -> None:
        # Bounded per call so that a stderr flood cannot starve stdout.
        for _ in range(16):
            try:
                data = os.read(self._err, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._err_eof = True
                with contextlib.suppress(KeyError, ValueError):
                    self._poll.unregister(self._err)
                return
            self._stderr.feed(data)

    def stderr_text(self) -> str:
        if not self._err_eof and not self.closed:
            self._drain_err()
        return self._stderr.text()

    # -- ending --------------------------------------------------------------------------
    def _gone_reason(self, alive_reason: str) -> str:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=0.2)  # it usually exits right after closing stdout
        return self.exit_reason() or alive_reason

    def exit_reason(self) -> str | None:
        rc = self.proc.poll()
        if rc is None:
            return None
        sig = -rc if rc < 0 else (rc - 128 if self._bwrap and rc > 128 else 0)
        if sig:
            if self._killed_by_us:
                return "killed: ended by the referee"
            if sig == signal.SIGXCPU:
                return "killed: cpu time"
            try:
                name = signal.Signals(sig).name
            except ValueError:
                name = str(sig)
            if sig == signal.SIGKILL:
                return "killed: SIGKILL (cpu time or killed)"
            return f"killed: {name}"
        if rc != 0 and b"MemoryError" in self._stderr._buf:
            return f"exited {rc} (out of memory)"
        return f"exited {rc}"

    def close(self, grace_s: float = 0.5) -> None:
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
        try:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()  # type: ignore[union-attr]  # EOF: a polite bot exits
            if grace_s > 0:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=grace_s)
            if self.proc.poll() is None:
                self._killed_by_us = True
            self._drain_err()
            # Close our ends first: a bot blocked writing gets EPIPE instead of hanging the kill.
            for f in (self.proc.stdout, self.proc.stderr):
                with contextlib.suppress(OSError):
                    f.close()  # type: ignore[union-attr]
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            clean = True
            if self._lease is not None:
                clean = uids.kill_all(self._lease.uid)  # daemonised children left the group
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
            self.clean = clean and self.proc.poll() is not None
        except Exception:  # close never raises: log-worthy but not the referee's problem
            pass
        finally:
            if self._lease is not None:
                self._lease.release()
            with _LIVE_LOCK:
                _LIVE.discard(self)

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close(grace_s=0)
