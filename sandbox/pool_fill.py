"""The warm pool's filling (``sandbox.pool``): fresh containers started in the background
until ``size`` per :class:`Limits` are idle, and the dead workers' containers removed when a
pool starts. A mixin of :class:`sandbox.pool.WarmPool`, which holds the state."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from sandbox.base import Limits
from sandbox.pool_box import WarmBox, start_box
from sandbox.pool_host import PoolHost

log = logging.getLogger("sandbox.pool")


class Filling:
    sandbox: PoolHost
    size: int
    hello_timeout_s: float
    _lock: threading.Condition
    _idle: dict[Limits, deque[WarmBox]]
    _filling: dict[Limits, int]
    _used: dict[Limits, float]
    _closing: bool
    _filler: ThreadPoolExecutor

    # -- filling -------------------------------------------------------------------------------
    def warm(self, limits: Limits) -> None:
        """Fill the pool for ``limits`` in the background (e.g. when a worker starts)."""
        with self._lock:
            self._used[limits] = time.monotonic()
            self._top_up(limits)

    def _top_up(self, limits: Limits) -> None:
        """Start enough fills to bring ``limits``' fresh containers to ``size``. Holds the lock."""
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
        box = None
        failed = False
        try:
            box = start_box(self.sandbox, limits, self.hello_timeout_s)
        except Exception as e:  # the engine is down or refused: acquire() falls back to cold
            log.warning("cannot start a warm bot container: %s", e)
            failed = True
        with self._lock:
            self._filling[limits] -= 1
            if box is not None and not self._closing:
                self._idle.setdefault(limits, deque()).append(box)
                box = None
            self._lock.notify_all()  # waiters: a container, or one fewer on its way
        if box is not None:  # the pool closed meanwhile
            box.remove_now()
        if failed:
            time.sleep(1.0)  # this filler thread does not spin against a failing engine

    def _reap_dead_workers(self) -> None:
        try:
            n = self.sandbox.reap_orphans(max_age_s=None)
        except Exception as e:  # the engine is down: the fills will say so
            log.warning("cannot reap dead workers' bot containers: %s", e)
            return
        if n:
            log.warning("removed %d bot containers left by dead workers of this host", n)

    def wait_full(self, limits: Limits, timeout_s: float = 60.0) -> bool:
        """Wait until ``size`` fresh containers for ``limits`` are idle (tests, benchmarks)."""
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

    def idle_bots(self, limits: Limits) -> list[WarmBox]:
        """The fresh idle containers for ``limits``, oldest first (tests)."""
        with self._lock:
            return list(self._idle.get(limits, ()))
