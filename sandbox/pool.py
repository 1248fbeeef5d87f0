"""A warm pool of pre-started, locked-down bot containers, per worker process; a container is
reused for later matches of the same bot version, reset in between (docs/sandbox.md, "The warm
pool").

A container costs the engine 0.15-0.3 s to start and 0.05-0.15 s to remove, and a busy host
makes about 3 a second. The pool keeps ``size`` fresh containers per :class:`Limits` running
(the cold path's settings, plus one pid for the supervisor: ``sandbox.pool_box``), so that a
seat starts in well under a millisecond: the code is hard-linked into the container's slot
folder and the loader execs the bot (``sandbox.pool_supervisor``). A fresh container taken is
replaced at once, in the background; with none idle a seat waits for one on its way, and starts
cold only when more seats ask than are coming.

After a match, with ``reuse`` > 0, the container is reset in the background (every other
process killed, ``/tmp``, ``/dev/shm``, ``/dev/mqueue`` and System V IPC emptied, all of it
checked by the supervisor and, where the worker sees the host, by the worker) and kept for
that bot version only (``sandbox.pool_key``); a later seat of the version takes it, waiting
for a reset on its way. A reset that fails or takes over ``reset_timeout_s`` removes the
container, as do ``max_uses`` matches or ``max_life_s`` (an hour: well inside the reaper's
age cap, ``sandbox.reap``); at most ``reuse`` reset containers are kept per worker
(least recently used removed first), none idle for over ``max_idle_s``. With ``reuse`` = 0 a
container serves one match and is removed.

Labels are fixed when a container is created: ``meeple-arena.sandbox=1``, ``.worker`` and
``.pool=1`` (so ``python -m sandbox.reap`` removes those of dead workers); the worker keeps each
bot's match and seat labels in-process (so ``DockerSandbox.reap({"match": id})`` finds them).
No idle container outlives its worker process: a pool removes them when the process ends,
SIGTERM included (``sandbox.shutdown``), and a new pool first removes those of dead workers of
its host.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import threading
import time
import weakref
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from sandbox.base import BotCode, Limits, SandboxError
from sandbox.docker_spec import run_command
from sandbox.live import CONTAINERS
from sandbox.pool_bot import PooledBot
from sandbox.pool_box import WarmBox
from sandbox.pool_fill import Filling
from sandbox.pool_host import PoolHost
from sandbox.pool_key import reuse_key
from sandbox.pool_slot import SLOT_PREFIX, put_code

log = logging.getLogger("sandbox.pool")

__all__ = ["SLOT_PREFIX", "PooledBot", "WarmPool", "pools", "shutdown_pools"]

_POOLS: weakref.WeakSet[WarmPool] = weakref.WeakSet()


class WarmPool(Filling):
    """``size`` fresh idle containers per :class:`Limits` and up to ``reuse`` reset ones (each
    for one bot version) for one :class:`DockerSandbox` in one process; thread-safe (the
    referee starts a match's seats in parallel)."""

    def __init__(
        self,
        sandbox: PoolHost,
        size: int,
        *,
        reuse: int = 0,
        max_idle_s: float = 1800.0,
        max_uses: int = 500,
        max_life_s: float = 3600.0,
        reset_timeout_s: float = 5.0,
        fill_threads: int = 2,
        remove_threads: int = 4,
        hello_timeout_s: float = 30.0,
    ) -> None:
        self.sandbox = sandbox
        self.size = size
        self.reuse = reuse
        self.max_idle_s = max_idle_s
        self.max_uses = max_uses
        self.max_life_s = max_life_s
        self.reset_timeout_s = reset_timeout_s
        self.hello_timeout_s = hello_timeout_s
        self._lock = threading.Condition()
        self._idle: dict[Limits, deque[WarmBox]] = {}
        self._kept: deque[WarmBox] = deque()  # reset containers, least recently used first
        self._filling: dict[Limits, int] = {}
        self._resetting: dict[str, int] = {}  # resets on their way, per version
        self._waiting: dict[object, int] = {}  # seats waiting, per limits and per version
        self._used: dict[Limits, float] = {}  # last demand per limits: refill only those
        self._pending = 0  # containers handed to the background (reset or removal)
        self._closing = False
        self._filler = ThreadPoolExecutor(max_workers=fill_threads, thread_name_prefix="pool-fill")
        self._remover = ThreadPoolExecutor(
            max_workers=remove_threads, thread_name_prefix="pool-remove"
        )
        self.hits = 0
        self.misses = 0
        self.reuses = 0
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
        already on its way is waited for rather than a second one started beside it."""
        if not code.entry or "\n" in code.entry or "/" in code.entry:
            raise SandboxError(f"bad entry file name {code.entry!r}")
        key = reuse_key(code, limits, labels) if self.reuse > 0 else None
        while True:
            box = self._claim(key, limits)
            if box is None:
                return None
            if time.monotonic() - box.idle_since > self.max_idle_s or not box.idle_alive():
                self._discard(box)
                continue
            bot = None
            try:
                if box.key is None:
                    put_code(code.root, box.folder / "code")
                    box.key = key
                box.uses += 1
                bot = PooledBot(self, box, labels)
                CONTAINERS.add(bot)
                bot.begin(run_command(code))
            except Exception as e:  # a dead loader, a full disk: this container is no good
                log.warning("warm container %s unusable (%s)", box.container.id[:12], e)
                box.key = None  # never reset for reuse
                if bot is not None:
                    bot.close(grace_s=0)
                else:
                    self._discard(box)
                continue
            with self._lock:
                self.hits += 1
            return bot

    def _claim(self, key: str | None, limits: Limits) -> WarmBox | None:
        """Take an idle container: one kept for ``key``, waiting for a reset of that version
        on its way, else a fresh one for ``limits``, waiting for a fill on its way."""
        now = time.monotonic()
        with self._lock:
            self._used[limits] = now
            self._top_up(limits)
            if key is not None:
                box = self._wait_for(key, now + self.reset_timeout_s)
                if box is not None:
                    self.reuses += 1
                    return box
            box = self._wait_for(limits, now + self.sandbox.api_timeout_s)
            if box is None:
                self.misses += 1
            return box

    def _wait_for(self, want: str | Limits, deadline: float) -> WarmBox | None:
        """An idle container for a version (str) or fresh for limits, waiting while enough
        are on their way for every seat waiting ahead (each waiter counts itself). Holds the
        lock."""
        self._waiting[want] = self._waiting.get(want, 0) + 1
        try:
            while True:
                box = self._take(want)
                coming = (
                    self._resetting.get(want, 0)
                    if isinstance(want, str)
                    else self._filling.get(want, 0)
                )
                left = deadline - time.monotonic()
                if box or coming < self._waiting[want] or self._closing or left <= 0:
                    return box
                self._lock.wait(left)
        finally:
            self._waiting[want] -= 1

    def _take(self, want: str | Limits) -> WarmBox | None:
        if isinstance(want, str):
            for box in self._kept:
                if box.key == want:
                    self._kept.remove(box)
                    return box
            return None
        queue = self._idle.get(want)
        return queue.popleft() if queue else None

    # -- after a match -------------------------------------------------------------------------
    def release(self, bot: PooledBot) -> None:
        """A match's bot closed: reset its container for its version, or remove it, in the
        background (here and now at shutdown, or when no thread can be started)."""
        box = bot.box
        with self._lock:
            reuse = (
                self.reuse > 0
                and box.key is not None
                and box.uses < self.max_uses
                and time.monotonic() - box.born < self.max_life_s
                and not self._closing
                and not bot.sync_removal
            )
            if reuse:
                assert box.key is not None
                self._resetting[box.key] = self._resetting.get(box.key, 0) + 1
            self._pending += 1
        work = self._recycle if reuse else self._remove
        if bot.sync_removal:
            work(box, bot)
            return
        try:
            self._remover.submit(work, box, bot)
        except RuntimeError:  # interpreter exit: executors take no new work
            work(box, bot)

    def _recycle(self, box: WarmBox, bot: PooledBot) -> None:
        """Reset a container for its version's next match; removed if it is not clean."""
        key = box.key
        assert key is not None
        evicted: list[WarmBox] = []
        try:
            why = box.rearm(self.reset_timeout_s)
        except Exception as e:  # never kept after a surprise
            why = f"{type(e).__name__}: {e}"
        with self._lock:
            self._resetting[key] -= 1
            keep = not why and not self._closing
            if keep:
                box.idle_since = time.monotonic()
                self._kept.append(box)
                while len(self._kept) > self.reuse:
                    evicted.append(self._kept.popleft())
            self._lock.notify_all()
        if why:
            log.warning("warm container %s not reused: %s", box.container.id[:12], why)
        for gone in evicted + ([] if keep else [box]):
            gone.remove_now()
        self._done(bot)

    def _remove(self, box: WarmBox, bot: PooledBot | None) -> None:
        box.remove_now()
        self._done(bot)

    def _done(self, bot: PooledBot | None) -> None:
        if bot is not None:
            bot.released()
        with self._lock:
            self._pending -= 1
            self._lock.notify_all()
        self._refresh()

    def _discard(self, box: WarmBox) -> None:
        """Remove an idle container that is no good (dead, too old) in the background."""
        with self._lock:
            self._pending += 1
        try:
            self._remover.submit(self._remove, box, None)
        except RuntimeError:
            self._remove(box, None)

    def kept(self) -> list[WarmBox]:
        """The reset containers kept for their versions, least recently used first (tests)."""
        with self._lock:
            return list(self._kept)

    # -- removal -------------------------------------------------------------------------------
    def _refresh(self) -> None:
        """Refill every recently used pool; remove idle containers idle for too long."""
        now = time.monotonic()
        stale: list[WarmBox] = []
        with self._lock:
            for queue in (*self._idle.values(), self._kept):
                for box in [b for b in queue if now - b.idle_since > self.max_idle_s]:
                    queue.remove(box)
                    stale.append(box)
            for limits, used in self._used.items():
                if now - used < self.max_idle_s:
                    self._top_up(limits)
        for box in stale:
            self._discard(box)

    def settle(self, timeout_s: float = 60.0) -> bool:
        """Wait until no reset or removal is pending. True if none is."""
        deadline = time.monotonic() + timeout_s
        with self._lock:
            while self._pending:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(left)
            return True

    def shutdown(self) -> None:
        """Stop filling and reusing, remove every idle container now (in parallel) and wait
        for pending resets and removals. At interpreter exit, and for tests and benchmarks."""
        with self._lock:
            self._closing = True
            boxes = [b for q in (*self._idle.values(), self._kept) for b in q]
            self._idle.clear()
            self._kept.clear()
            self._lock.notify_all()
        self._filler.shutdown(wait=True)  # a fill in progress ends in removal
        # Plain threads: at interpreter exit, executors take no new work.
        threads = [threading.Thread(target=b.remove_now) for b in boxes]
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
