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
import os
import resource
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

from sandbox import uids, untrusted
from sandbox.base import BotCode, BotProcess, Limits, Sandbox, SandboxError
from sandbox.built import is_built, make_runnable
from sandbox.host_build import build_bot, host_run_command, missing_tools, tool_paths
from sandbox.languages import LANGUAGES, get_language
from sandbox.live import LiveBots
from sandbox.pipes import PipeBot

BWRAP = "/usr/bin/bwrap"
_MB = 1024 * 1024
_DEFAULTS = Limits()

# Every live bot of this worker, so that reap() can end them when the referee is interrupted.
_live: LiveBots[ProcessBot] = LiveBots()
#: Held while this process writes a bot's files (a build, a copy of a cached build) and while
#: it forks a bot. A child forked while another thread holds a file open for writing keeps
#: that file open until it execs: exec'ing the file then fails with "Text file busy" (a seat
#: of a compiled bot crashed at start, exit 1 from bubblewrap's execvp, once in CI).
_FILES_AND_FORKS = threading.Lock()


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


def _bot_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONUNBUFFERED": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONIOENCODING": "utf-8",
        **(extra or {}),
    }


def _set_limits(limits: Limits, nproc: int | None, reserve_mb: int = 0) -> None:
    """Runs in the child between fork and exec: only setrlimit calls, nothing that locks."""
    cpu = max(1, int(limits.cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU, then SIGKILL
    mem = (limits.memory_mb + reserve_mb) * _MB
    resource.setrlimit(resource.RLIMIT_AS, (mem, mem))
    fsize = limits.file_size_mb * _MB
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if nproc is not None:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))


def _bwrap_args(
    code: BotCode, argv: list[str], limits: Limits, env: dict[str, str], binds: list[str]
) -> list[str]:
    """bubblewrap's arguments, then the bot's command ``argv`` run in /bot. ``binds``: host
    folders the runtime needs beyond /usr (an interpreter's prefix, a JVM's /etc files)."""
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
    for folder in binds:
        args += ["--ro-bind", folder, folder]
    args += [
        "--proc", "/proc",
        "--dev", "/dev",
        "--size", str(limits.tmpfs_mb * _MB), "--tmpfs", "/tmp",
        "--ro-bind", str(code.root), "/bot",
        "--remount-ro", "/",  # bwrap's root is a tmpfs: no writes outside /tmp
        "--chdir", "/bot",
        "--clearenv",
    ]  # fmt: skip
    for k, v in env.items():
        args += ["--setenv", k, v]
    return [*args, "--", *argv]


def _prefix_binds(program: str) -> list[str]:
    """The installation of ``program`` when it lives outside /usr (e.g. a pyenv interpreter),
    to be made visible read-only."""
    prefix = os.path.realpath(program)
    if prefix.startswith("/usr/"):
        return []
    return [str(Path(prefix).parent.parent)]


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
        missing = {key: missing_tools(lang) for key, lang in LANGUAGES.items()}
        cannot = [f"{key} ({', '.join(t)} not found)" for key, t in missing.items() if t]
        if cannot:
            parts.append(f"cannot run {', '.join(cannot)}")
        return ", ".join(parts)

    def command(self, code: BotCode, limits: Limits) -> tuple[list[str], str]:
        """The bot's command line and working folder (with the interpreter, what a language
        runtime sets): under bubblewrap, its arguments and then the bot's own command."""
        lang = get_language(code.language)
        env = _bot_env(lang.env)
        if lang.sandbox_runtime:  # its interpreter is this backend's (ARENA_BOT_PYTHON)
            argv = [self.python, *lang.run_command(code.entry)[1:]]
            binds = _prefix_binds(self.python)
        else:
            argv, binds = host_run_command(lang)
        if self.use_bwrap:
            return _bwrap_args(code, argv, limits, env, binds), "/"
        return argv, str(code.root)

    def prepare(self, code: BotCode) -> None:
        """Build a compiled bot (or check an interpreted one's syntax) with this machine's
        toolchain, once per bot folder; a language with neither (Python) needs nothing.
        Raises :class:`SandboxError` naming a missing tool, ``host_build.BuildFailed`` (the
        bot's fault) with the compiler's first lines."""
        lang = get_language(code.language)
        if not lang.prepared:
            return
        tool_paths(lang)  # "this machine cannot run C++ bots: g++ not found"
        if is_built(code):  # a stored build (the worker's check made it): run it as it is
            make_runnable(code)
            return
        if lang.build and untrusted.is_file(code.root, lang.run[0]):
            return  # built already (another seat of the same folder; a link is no program)
        build_bot(code)

    def start(self, code: BotCode, *, labels: dict[str, str], limits: Limits) -> BotProcess:
        # One seat at a time: its files written, its uid's leftovers killed, its process forked.
        with _FILES_AND_FORKS:
            return self._start(code, labels, limits)

    def _start(self, code: BotCode, labels: dict[str, str], limits: Limits) -> BotProcess:
        lang = get_language(code.language)
        # A language run as it is needs its entry now; a build or a check says what is missing.
        if not lang.prepared and not untrusted.is_file(code.root, code.entry):
            raise SandboxError(f"bot code has no {code.entry} in {code.root}")
        self.prepare(code)
        # A language that needs more than the defaults (a JVM: memory, threads) raises the
        # seat's limits to its own; below them, the caller's limits hold.
        if lang.memory_mb > _DEFAULTS.memory_mb:
            limits = replace(limits, memory_mb=max(limits.memory_mb, lang.memory_mb))
        if lang.pids > _DEFAULTS.pids:
            limits = replace(limits, pids=max(limits.pids, lang.pids))
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
        argv, cwd = self.command(code, limits)
        uid = lease.uid if lease is not None else None
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                bufsize=0,
                cwd=cwd,
                env=_bot_env(lang.env),
                start_new_session=True,
                close_fds=True,
                preexec_fn=lambda: _set_limits(limits, nproc, lang.reserve_mb),
                user=uid,
                group=uid,
                extra_groups=[] if uid is not None else None,
            )
        except OSError as e:
            if lease is not None:
                lease.release()
            raise SandboxError(f"cannot start the bot process: {e}") from e
        bot = ProcessBot(proc, limits, dict(labels), lease, bwrap=self.use_bwrap)
        _live.add(bot)
        return bot

    def reap(self, labels: dict[str, str] | None = None) -> int:
        """Close this worker's live bots matching ``labels`` (all if None); with ``labels``
        None, also kill whatever dead workers left running under free pool uids."""
        n = 0
        for bot in _live.matching(labels):
            if not bot.closed:
                n += 1
            bot.close(grace_s=0)
        if labels is None and self.isolate_user:
            n += uids.reap_free()
        return n


class ProcessBot(PipeBot):
    """A child process: its stdin, stdout and stderr pipes, and its uid lease if it has one."""

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
        fds = proc.stdin.fileno(), proc.stdout.fileno(), proc.stderr.fileno()
        for fd in fds:
            os.set_blocking(fd, False)
        super().__init__(limits, labels, stdin=fds[0], stdout=fds[1], stderr=fds[2])
        self.proc = proc
        self._lease = lease
        self._bwrap = bwrap
        self._killed_by_us = False
        #: after close: True when nothing the bot started was left running
        self.clean: bool | None = None

    def _close_fds(self) -> None:
        # The Popen's file objects own the descriptors (stdin is closed first, in _end).
        for f in (self.proc.stdout, self.proc.stderr):
            with contextlib.suppress(OSError):
                f.close()  # type: ignore[union-attr]

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
        if rc != 0 and self._stderr.has(b"MemoryError"):
            return f"exited {rc} (out of memory)"
        return f"exited {rc}"

    def _end(self, grace_s: float) -> None:
        with contextlib.suppress(OSError):
            self.proc.stdin.close()  # type: ignore[union-attr]  # EOF: a polite bot exits
        self._in = -1
        if grace_s > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=grace_s)
        if self.proc.poll() is None:
            self._killed_by_us = True
        self._drain_err()
        # Close our ends first: a bot blocked writing gets EPIPE instead of hanging the kill.
        self.close_pipes()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        clean = True
        if self._lease is not None:
            clean = uids.kill_all(self._lease.uid)  # daemonised children left the group
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        self.clean = clean and self.proc.poll() is not None

    def _release(self) -> None:
        if self._lease is not None:
            self._lease.release()
        _live.discard(self)
