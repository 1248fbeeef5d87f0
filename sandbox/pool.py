"""A warm pool of pre-started, locked-down bot containers, per worker process.

Starting a container (create, attach, start) takes 0.15-0.3 s and removing one 0.05-0.15 s:
far more than a short match. The pool takes both off the match's path:

- **Before a match**: the pool keeps ``size`` containers per :class:`Limits` running, created
  with exactly the cold path's settings (``sandbox.docker_spec.container_kwargs``: no network,
  read-only root, tmpfs, memory, pids, CPU, no capabilities, no-new-privileges, nobody,
  ulimits, no log driver). Each runs a tiny *loader* that says hello and then waits, and has
  its own slot folder on the host: an empty code folder bind-mounted read-only at ``/bot``,
  and FIFOs for its stdin, stdout and stderr (``sandbox.pool_slot``; the bot that talks over
  them is ``sandbox.pool_bot.PooledBot``).
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
import logging
import os
import shutil
import threading
import time
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sandbox.base import BotCode, Limits, SandboxError
from sandbox.docker_engine import launch, remove
from sandbox.docker_spec import container_kwargs
from sandbox.live import CONTAINERS
from sandbox.pool_bot import PooledBot
from sandbox.pool_slot import IO_DIR, LOADER_COMMAND, SLOT_PREFIX, make_slot_folder, put_code

if TYPE_CHECKING:
    from sandbox.docker import DockerSandbox

log = logging.getLogger("sandbox.pool")

__all__ = ["SLOT_PREFIX", "PooledBot", "WarmPool", "pools", "shutdown_pools"]

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
                put_code(code.root, bot.folder / "code")
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
        folder = make_slot_folder()
        io = folder / "io"
        fds: dict[str, int] = {}
        container = None
        try:
            # Our read ends first: the loader's opens for writing then return at once.
            for name in ("stdout", "stderr"):
                fds[name] = os.open(io / name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            sb = self.sandbox
            kwargs = container_kwargs(
                BotCode(root=folder / "code"),
                {"pool": "1"},
                limits,
                runtime=sb.runtime,
                command=LOADER_COMMAND,
                extra_volumes={str(io): {"bind": IO_DIR, "mode": "ro"}},
                stdin=False,
            )
            container, _ = launch(sb.client, sb.image, kwargs, attach=False)
            bot = PooledBot(self, container, folder, fds["stdout"], fds["stderr"], limits)
        except BaseException:
            for fd in fds.values():
                os.close(fd)
            remove(container)
            shutil.rmtree(folder, ignore_errors=True)
            raise
        CONTAINERS.add(bot)
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

    def idle_bots(self, limits: Limits) -> list[PooledBot]:
        """The idle containers' bots for ``limits``, oldest first (tests)."""
        with self._lock:
            return [slot.bot for slot in self._idle.get(limits, ())]

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


def pools() -> list[WarmPool]:
    """This process's warm pools."""
    return list(_POOLS)


def _forget_after_fork() -> None:
    """In a forked child (a Celery pool process; also a process-backend bot between fork and
    exec, where Python runs these hooks): the parent's pools, their threads and containers
    are the parent's. Forget them, touching no file descriptor (a closed bot's numbers may
    already belong to something else, e.g. the pipes of the child being started)."""
    for bot in CONTAINERS.all():
        if isinstance(bot, PooledBot):
            bot.disown()
    _POOLS.clear()


os.register_at_fork(after_in_child=_forget_after_fork)


@atexit.register
def shutdown_pools() -> None:
    """Stop every pool of this process and remove its idle containers, so that none outlives
    the worker: at exit (before sandbox.live's hook, which closes the live containers: this
    module imports that one first, and atexit runs last-registered first) and when a worker
    process shuts down (sandbox/shutdown.py). Idempotent."""
    for pool in list(_POOLS):
        try:
            pool.shutdown()
        except Exception as e:  # never fail an exit
            log.warning("warm pool shutdown: %s", e)
        finally:
            _POOLS.discard(pool)
