"""A warm pool of pre-started, locked-down bot containers, per worker process.

Starting a container (create, attach, start) takes 0.15-0.3 s and removing one 0.05-0.15 s:
far more than a short match. The pool takes both off the match's path:

- **Before a match**: the pool keeps ``size`` containers per :class:`Limits` running, created
  with exactly the cold path's settings (``DockerSandbox._container_kwargs``: no network,
  read-only root, tmpfs, memory, pids, CPU, no capabilities, no-new-privileges, nobody,
  ulimits, no log driver). Each runs a tiny *loader* (below) that says hello and then waits,
  and has its own empty code folder on the host, bind-mounted read-only at ``/bot``.
- **At match start** (:meth:`WarmPool.acquire`, well under a millisecond for a small bot): the
  bot's prepared code is hard-linked (or copied) into that folder, and one line naming the
  entry goes to the loader's stdin. The loader ``exec``\\ s ``python3 -u main.py`` in ``/bot``:
  the same process, command, user, environment and folder as a cold container's bot. Then the
  referee sends ``start``, exactly as for a cold container: ``start_ms`` is unchanged for
  bots (their interpreter starts after ``start`` is on its way, as before).
  A container taken is replaced at once, in the background. With nothing idle, a seat waits for
  a container already on its way, and starts one the cold way only when more seats ask than
  are coming (or the pool cannot fill).
- **After the match**: the container is never reused. ``close()`` closes the pipe and hands it
  to a background remover (which first reads its exit state from the engine).

Why a host folder and not ``put_archive``: the engine (20.10) refuses to write into a
read-only container's tmpfs (measured: HTTP 500), and a loader that unpacked code sent over
stdin into ``/tmp`` would leave the code writable by the bot. The folder needs nothing the cold
path does not already need (``ARENA_BOT_DIR`` visible to the engine at the same path).

Labels are fixed when a container is created, before its match is known: pooled containers
carry ``meeple-arena.sandbox=1``, ``meeple-arena.worker=<host:pid:ticks>`` and
``meeple-arena.pool=1`` (so ``python -m sandbox.reap`` removes those of dead workers), and the
worker keeps each one's match and seat labels in-process (so ``DockerSandbox.reap({"match":
id})`` still finds them). An idle container older than ``max_idle_s`` is replaced.

No idle container outlives its worker process: a pool removes them when the process ends,
SIGTERM included (``sandbox.shutdown``), and a new pool first removes those of dead workers of
its host (a worker that was killed).
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import logging
import math
import os
import select
import shutil
import stat
import tempfile
import threading
import time
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.base import BotCode, BotGone, BotProcess, Limits, SandboxError
from sandbox.code import bot_dir_base
from sandbox.lines import CappedText, LineBuffer, PipeReading

if TYPE_CHECKING:
    from sandbox.docker import DockerSandbox

log = logging.getLogger("sandbox.pool")

#: where a pooled container sees its FIFOs (a read-only bind: a FIFO opens on one all the same)
IO_DIR = "/run/arena"
#: what the loader writes once its interpreter is up; never reaches the referee
HELLO = b"meeple-arena-pool-ready\n"
#: The loader, run as ``python3 -I -S -c LOADER`` (isolated, no site: about 10 ms to start).
#: It holds its stdin FIFO open read-write (so that our open for writing never finds it
#: without a reader, and its reads block instead of seeing an end), says hello, waits for the
#: entry line (one byte at a time, so that nothing after it, the referee's ``start``, is
#: swallowed), reopens stdin read-only (we hold the writing end by then) and drops its own
#: writer (so the bot sees the end of its input when we close ours), makes the FIFOs its
#: stdin, stdout and stderr, and execs the bot.
LOADER = f"""\
import os
w = os.open('{IO_DIR}/stdin', os.O_RDWR)
o = os.open('{IO_DIR}/stdout', os.O_WRONLY)
e = os.open('{IO_DIR}/stderr', os.O_WRONLY)
os.write(o, {HELLO!r})
b = b''
while not b.endswith(b'\\n'):
    b += os.read(w, 1)
i = os.open('{IO_DIR}/stdin', os.O_RDONLY)
os.close(w)
for fd, std in ((i, 0), (o, 1), (e, 2)):
    os.dup2(fd, std)
    os.close(fd)
os.chdir('/bot')
os.execvp('python3', ['python3', '-u', b.decode().strip()])
"""
LOADER_COMMAND = ["python3", "-I", "-S", "-c", LOADER]
SLOT_PREFIX = "pool-"
BOT_UID = 65534

_POOLS: weakref.WeakSet[WarmPool] = weakref.WeakSet()


@dataclass
class _Slot:
    bot: PooledBot
    born: float = field(default_factory=time.monotonic)


class WarmPool:
    """``size`` idle containers per :class:`Limits` for one :class:`DockerSandbox` in one
    process; thread-safe (the referee starts a match's seats in parallel)."""

    def __init__(
        self,
        sandbox: DockerSandbox,
        size: int,
        *,
        max_idle_s: float = 1800.0,
        fill_threads: int = 2,
        remove_threads: int = 4,
        hello_timeout_s: float = 30.0,
    ) -> None:
        self.sandbox = sandbox
        self.size = size
        self.max_idle_s = max_idle_s
        self.hello_timeout_s = hello_timeout_s
        self._lock = threading.Condition()
        self._idle: dict[Limits, deque[_Slot]] = {}
        self._filling: dict[Limits, int] = {}
        self._waiting: dict[Limits, int] = {}  # seats in acquire() waiting for a fill
        self._used: dict[Limits, float] = {}  # last demand per limits: refill only those
        self._pending_removals = 0
        self._closing = False
        self._filler = ThreadPoolExecutor(max_workers=fill_threads, thread_name_prefix="pool-fill")
        self._remover = ThreadPoolExecutor(
            max_workers=remove_threads, thread_name_prefix="pool-remove"
        )
        self.hits = 0
        self.misses = 0
        _POOLS.add(self)
        # The engine's client (and the docker package's first import, which two threads must
        # not do at once) here, before the fill threads use it.
        with contextlib.suppress(SandboxError):
            _ = sandbox.client
        # Beside this pool's first fills: what a killed worker of this host left (its pool had
        # no chance to remove it, sandbox/shutdown.py).
        self._filler.submit(self._reap_dead_workers)

    # -- the match's path ----------------------------------------------------------------------
    def acquire(self, code: BotCode, labels: dict[str, str], limits: Limits) -> PooledBot | None:
        """A warm container running ``code``, or None when none is idle and none is on its
        way (the caller starts one the cold way, and the pool refills meanwhile). A container
        already being started for the pool is waited for rather than a second one started
        beside it: it is further along, and the engine is not asked for two at once."""
        if not code.entry or "\n" in code.entry or "/" in code.entry:
            raise SandboxError(f"bad entry file name {code.entry!r}")
        deadline = time.monotonic() + self.sandbox.api_timeout_s
        while True:
            with self._lock:
                self._used[limits] = time.monotonic()
                self._top_up(limits)
                queue = self._idle.setdefault(limits, deque())
                self._waiting[limits] = self._waiting.get(limits, 0) + 1
                try:
                    # wait only for a fill no earlier waiter will take
                    while (
                        not queue
                        and self._filling.get(limits, 0) >= self._waiting[limits]
                        and not self._closing
                        and (left := deadline - time.monotonic()) > 0
                    ):
                        self._lock.wait(left)
                finally:
                    self._waiting[limits] -= 1
                slot = queue.popleft() if queue else None
                if slot is None:
                    self.misses += 1
                    return None
            bot = slot.bot
            if time.monotonic() - slot.born > self.max_idle_s or not bot.idle_alive():
                bot.close(grace_s=0)
                continue
            try:
                _put_code(code.root, bot.folder / "code")
                bot.labels.update(labels)
                bot.begin(code.entry)
            except Exception as e:  # a dead loader, a full disk: this container is no good
                log.warning("warm container %s unusable (%s)", bot.container.id[:12], e)
                bot.close(grace_s=0)
                continue
            with self._lock:
                self.hits += 1
            return bot

    # -- filling -------------------------------------------------------------------------------
    def warm(self, limits: Limits) -> None:
        """Fill the pool for ``limits`` in the background (e.g. when a worker starts)."""
        with self._lock:
            self._used[limits] = time.monotonic()
            self._top_up(limits)

    def _top_up(self, limits: Limits) -> None:
        """Start enough fills to bring ``limits``' pool to ``size``. Holds the lock."""
        if self._closing:
            return
        have = len(self._idle.get(limits, ())) + self._filling.get(limits, 0)
        for _ in range(max(0, self.size - have)):
            self._filling[limits] = self._filling.get(limits, 0) + 1
            try:
                self._filler.submit(self._fill_one, limits)
            except RuntimeError:  # interpreter shutting down
                self._filling[limits] -= 1
                return

    def _fill_one(self, limits: Limits) -> None:
        bot = None
        failed = False
        try:
            bot = self._start_one(limits)
        except Exception as e:  # the engine is down or refused: acquire() falls back to cold
            log.warning("cannot start a warm bot container: %s", e)
            failed = True
        with self._lock:
            self._filling[limits] -= 1
            if bot is not None and not self._closing:
                self._idle.setdefault(limits, deque()).append(_Slot(bot))
                bot = None
            self._lock.notify_all()  # waiters: a container, or one fewer on its way
        if bot is not None:  # the pool closed meanwhile
            bot.close(grace_s=0)
        if failed:
            time.sleep(1.0)  # this filler thread does not spin against a failing engine

    def _start_one(self, limits: Limits) -> PooledBot:
        from sandbox.docker import _LIVE, _LIVE_LOCK

        folder = Path(tempfile.mkdtemp(prefix=SLOT_PREFIX, dir=bot_dir_base()))
        fds: dict[str, int] = {}
        container = None
        try:
            # The slot is 0711: the engine and the bot reach its parts by name, other users
            # of the host cannot list it (so cannot find the FIFOs).
            os.chmod(folder, 0o711)  # nosec
            (folder / "code").mkdir(mode=0o755)
            os.chmod(folder / "code", 0o755)  # nosec: the bot reads its code, read-only
            io = folder / "io"
            io.mkdir(mode=0o711)
            os.chmod(io, 0o711)  # nosec
            for name in ("stdin", "stdout", "stderr"):
                os.mkfifo(io / name, 0o600)
                _give_to_bot(io / name)
            # Our read ends first: the loader's opens for writing then return at once.
            for name in ("stdout", "stderr"):
                fds[name] = os.open(io / name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            sb = self.sandbox
            kwargs = sb._container_kwargs(
                BotCode(root=folder / "code"),
                {"pool": "1"},
                limits,
                command=LOADER_COMMAND,
                extra_volumes={str(io): {"bind": IO_DIR, "mode": "ro"}},
                stdin=False,
            )
            container, _ = sb._launch(kwargs, attach=False)
            bot = PooledBot(self, container, folder, fds["stdout"], fds["stderr"], limits)
        except BaseException:
            for fd in fds.values():
                os.close(fd)
            if container is not None:
                self.sandbox._remove(container)
            shutil.rmtree(folder, ignore_errors=True)
            raise
        with _LIVE_LOCK:
            _LIVE.add(bot)
        if not bot.wait_hello(self.hello_timeout_s):
            reason = bot.exit_reason() or "no hello"
            bot.close(grace_s=0)
            raise SandboxError(f"the warm container's loader did not start ({reason})")
        return bot

    def _reap_dead_workers(self) -> None:
        try:
            n = self.sandbox.reap_orphans(max_age_s=None)
        except Exception as e:  # the engine is down: the fills will say so
            log.warning("cannot reap dead workers' bot containers: %s", e)
            return
        if n:
            log.warning("removed %d bot containers left by dead workers of this host", n)

    def wait_full(self, limits: Limits, timeout_s: float = 60.0) -> bool:
        """Wait until ``size`` containers for ``limits`` are idle (tests, benchmarks)."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            self._used[limits] = time.monotonic()
            self._top_up(limits)
            while len(self._idle.get(limits, ())) < self.size:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def idle(self, limits: Limits) -> int:
        with self._lock:
            return len(self._idle.get(limits, ()))

    # -- removal -------------------------------------------------------------------------------
    def discard(self, bot: PooledBot) -> None:
        """Remove a closed bot's container in the background (then top the pools up); here and now
        when no thread can be started (interpreter exit)."""
        with self._lock:
            self._pending_removals += 1
        try:
            self._remover.submit(self._remove, bot)
        except RuntimeError:
            self._remove(bot)

    def _remove(self, bot: PooledBot) -> None:
        try:
            bot.remove_now()
        finally:
            with self._lock:
                self._pending_removals -= 1
                self._lock.notify_all()
            self._refresh()

    def _refresh(self) -> None:
        """Refill every recently used pool; replace idle containers that grew too old."""
        now = time.monotonic()
        stale: list[_Slot] = []
        with self._lock:
            for queue in self._idle.values():
                while queue and now - queue[0].born > self.max_idle_s:
                    stale.append(queue.popleft())
            for limits, used in self._used.items():
                if now - used < self.max_idle_s:
                    self._top_up(limits)
        for slot in stale:
            slot.bot.close(grace_s=0)

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Wait until no removal is pending. True if none is."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while self._pending_removals:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def shutdown(self) -> None:
        """Stop filling, remove every idle container now (in parallel) and wait for pending
        removals. At interpreter exit, and for tests and benchmarks."""
        with self._lock:
            self._closing = True
            slots = [s for q in self._idle.values() for s in q]
            self._idle.clear()
            self._lock.notify_all()
        self._filler.shutdown(wait=True)  # a fill in progress ends in close()
        for slot in slots:
            slot.bot.sync_removal = True
        # Plain threads: at interpreter exit, executors take no new work.
        threads = [threading.Thread(target=s.bot.close, args=(0,)) for s in slots]
        for t in threads:
            t.start()
        for t in threads:
            t.join(self.sandbox.api_timeout_s * 2)
        self.settle(self.sandbox.api_timeout_s * 2)
        self._remover.shutdown(wait=True)


class PooledBot(PipeReading, BotProcess):
    """A bot in a warm container: its stdin, stdout and stderr are FIFOs in the slot's ``io``
    folder, read and written here directly (no engine on the per-move path, unlike an attach
    socket). The container itself is removed in the background after :meth:`close`."""

    pooled = True

    def __init__(
        self,
        pool: WarmPool,
        container: Any,
        folder: Path,
        out_fd: int,
        err_fd: int,
        limits: Limits,
    ) -> None:
        self.pool = pool
        self.sandbox = pool.sandbox
        self.container = container
        self.folder = folder
        self.limits = limits
        self.labels: dict[str, str] = {}
        self._in = -1
        self._out = out_fd
        self._err = err_fd
        self._lines = LineBuffer(limits.max_line_bytes)
        self._stderr = CappedText(limits.stderr_cap_bytes)
        self._hello = bytearray()
        self._poll: select.poll | None = None
        self._out_eof = False
        self._err_eof = False
        self._fds_closed = False
        self._reason: str | None = None
        self._inspect_later = False
        self._killed_by_us = False
        self._close_lock = threading.Lock()
        self._removed = threading.Event()
        self.closed = False
        #: remove in the caller's thread on close (at shutdown), not in the background
        self.sync_removal = False

    # -- the pool's side -----------------------------------------------------------------------
    def wait_hello(self, timeout_s: float) -> bool:
        """Read the loader's hello (exactly its bytes: nothing of the bot's comes before it)."""
        deadline = time.monotonic() + timeout_s
        while len(self._hello) < len(HELLO):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                return False
            try:
                data = os.read(self._out, len(HELLO) - len(self._hello))
            except BlockingIOError:
                continue
            if not data:
                self._out_eof = True
                return False
            self._hello += data
        return bytes(self._hello) == HELLO

    def idle_alive(self) -> bool:
        """An idle loader writes nothing: readable stdout (data or end) means it is gone."""
        if self._fds_closed or self._out_eof:
            return False
        return not select.select([self._out, self._err], [], [], 0)[0]

    def begin(self, entry: str) -> None:
        """Open the loader's stdin and name the entry: it execs the bot."""
        try:
            # Non-blocking: with no reader (a dead loader) this fails at once with ENXIO.
            self._in = os.open(
                self.folder / "io" / "stdin", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC
            )
        except OSError as e:
            if e.errno == errno.ENXIO:
                raise SandboxError("the warm container's loader is not waiting") from None
            raise
        self.send_line(entry)

    # -- talking -------------------------------------------------------------------------------
    def send_line(self, line: str | bytes, timeout_s: float = 5.0) -> None:
        if self.closed or self._in < 0:
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
            except OSError:  # EPIPE: nobody reads it any more
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
        while True:
            line = self._lines.pop()
            if line is not None:
                return line
            if self._out_eof or self._fds_closed:
                raise BotGone(self._gone_reason("closed its output"))
            left = deadline - time.monotonic()
            if not self._pump(left) and left <= 0:
                return None

    def _pump(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for output and take it in. False if none came."""
        if self._poll is None:
            self._poll = select.poll()  # one for the whole match: cheaper than select()
            self._poll.register(self._out, select.POLLIN)
            if not self._err_eof:
                self._poll.register(self._err, select.POLLIN)
        # poll() takes milliseconds: round up, never wait less than asked
        ready = self._poll.poll(max(0, math.ceil(timeout_s * 1000)))
        self._read_ready(ready)
        return bool(ready)

    def _drain_err(self) -> None:
        # Bounded per call so that a stderr flood cannot starve stdout.
        for _ in range(16):
            if self._err_eof or self._fds_closed:
                return
            try:
                data = os.read(self._err, 1 << 16)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._err_eof = True
                if self._poll is not None:
                    with contextlib.suppress(KeyError, ValueError):
                        self._poll.unregister(self._err)
                return
            self._stderr.feed(data)

    def stderr_text(self) -> str:
        with contextlib.suppress(OSError):
            self._drain_err()
        return self._stderr.text()

    # -- ending --------------------------------------------------------------------------------
    def _gone_reason(self, alive_reason: str) -> str:
        if self._reason is None:
            from sandbox.docker import inspect_exit

            self._reason = inspect_exit(self.container, self._stderr, wait_s=1.0)
        return self._reason or alive_reason

    def exit_reason(self) -> str | None:
        if self._reason is not None:
            return self._reason
        if self.closed:
            if self._inspect_later:
                self._removed.wait(self.sandbox.api_timeout_s)  # the remover reads it first
            return self._reason or "exited"
        if not self._out_eof:
            return None
        from sandbox.docker import inspect_exit

        self._reason = inspect_exit(self.container, self._stderr, wait_s=1.0)
        return self._reason

    def _close_socket(self) -> None:
        """Close our ends of the FIFOs (the name matches DockerBot's, for ``reap``)."""
        if self._fds_closed:
            return
        self._fds_closed = True
        for fd in (self._in, self._out, self._err):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def close(self, grace_s: float = 0.5) -> None:
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
        try:
            if self._in >= 0 and not self._fds_closed:
                with contextlib.suppress(OSError):
                    os.close(self._in)  # stdin EOF: a polite bot exits
                self._in = -1
                deadline = time.monotonic() + grace_s
                while grace_s > 0 and not self._out_eof and not self._fds_closed:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._pump(left)  # late lines are dropped; stderr is kept
                with contextlib.suppress(OSError):
                    self._drain_err()
            if self._out_eof and self._reason is None:
                self._inspect_later = True  # ended by itself: the remover asks the engine how
            elif self._reason is None:
                self._killed_by_us = True
                self._reason = "killed: ended by the referee"
            # Our ends closed first: a bot blocked writing gets EPIPE instead of hanging.
            self._close_socket()
        except Exception as e:  # close never raises
            log.error("closing pooled bot failed: %s", e)
        finally:
            if self.sync_removal:
                self.remove_now()
            else:
                self.pool.discard(self)

    def remove_now(self) -> None:
        """Read the exit reason if it is still owed, remove the container and the slot's
        folder. In the pool's remover thread; never raises."""
        from sandbox.docker import _LIVE, _LIVE_LOCK, inspect_exit

        try:
            self._close_socket()
            if self._inspect_later and self._reason is None:
                self._reason = inspect_exit(self.container, self._stderr, wait_s=0.5)
                if self._reason is None:
                    self._killed_by_us = True
                    self._reason = "killed: ended by the referee"
            if not self.sandbox._remove(self.container):
                log.error("bot container %s left for the reaper", self.container.id)
            shutil.rmtree(self.folder, ignore_errors=True)
        except Exception as e:
            log.error("removing pooled bot container failed: %s", e)
        finally:
            self._removed.set()
            with _LIVE_LOCK:
                _LIVE.discard(self)

    def wait_removed(self, timeout_s: float) -> bool:
        """Wait until the container is gone (the remover runs in the background)."""
        return self._removed.wait(timeout_s)

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close(grace_s=0)


def _give_to_bot(path: Path) -> None:
    """Make a FIFO the bot's alone: owned by the bot's uid, mode 0600. Without root (no
    chown) it is left 0666 inside the slot's unlistable 0711 folder."""
    try:
        os.chown(path, BOT_UID, BOT_UID)
    except PermissionError:
        os.chmod(path, 0o666)  # nosec: reachable only through the random slot name
    else:
        os.chmod(path, 0o600)


def _put_code(src: Path, dest: Path) -> None:
    """Put the prepared bot into a pooled container's (empty, host-side) code folder: hard
    links where the file system allows (the prepared copy is a snapshot of our own), else
    copies. Regular files, folders and links as they are; the container sees them read-only."""
    for dirpath, dirnames, filenames in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        target = dest if rel == "." else dest / rel
        for d in list(dirnames):
            if os.path.islink(os.path.join(dirpath, d)):
                os.symlink(os.readlink(os.path.join(dirpath, d)), target / d)
                dirnames.remove(d)
            else:
                (target / d).mkdir(mode=0o755)
                os.chmod(target / d, stat.S_IMODE(os.stat(os.path.join(dirpath, d)).st_mode))
        for name in filenames:
            s, t = os.path.join(dirpath, name), target / name
            try:
                os.link(s, t, follow_symlinks=False)
            except OSError:
                shutil.copy2(s, t, follow_symlinks=False)


def _forget_after_fork() -> None:
    """In a forked child (a Celery pool process; also a process-backend bot between fork and
    exec, where Python runs these hooks): the parent's pools, their threads and containers
    are the parent's. Forget them, touching no file descriptor (a closed bot's numbers may
    already belong to something else, e.g. the pipes of the child being started)."""
    from sandbox.docker import _LIVE

    for bot in list(_LIVE):
        if isinstance(bot, PooledBot):
            bot._fds_closed = True  # never read, written or closed from here
            bot.closed = True  # never closed (so never removed) from here
            _LIVE.discard(bot)
    _POOLS.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


@atexit.register
def shutdown_pools() -> None:
    """Stop every pool of this process and remove its idle containers, so that none outlives
    the worker: at exit (before sandbox.docker's own hook: atexit runs last-registered first)
    and when a worker process shuts down (sandbox/shutdown.py). Idempotent."""
    for pool in list(_POOLS):
        try:
            pool.shutdown()
        except Exception as e:  # never fail an exit
            log.warning("warm pool shutdown: %s", e)
        finally:
            _POOLS.discard(pool)
