"""A bot in a warm container (``sandbox.pool``): its stdin, stdout and stderr are FIFOs in the
slot's ``io`` folder, read and written here directly (no engine on the per-move path, unlike
an attach socket). The container itself is removed in the background after :meth:`close`."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import shutil
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sandbox.base import Limits, SandboxError
from sandbox.docker_bot import ContainerBot
from sandbox.docker_engine import inspect_exit, remove
from sandbox.live import CONTAINERS
from sandbox.pool_slot import HELLO

if TYPE_CHECKING:
    from sandbox.pool import WarmPool

log = logging.getLogger("sandbox.pool")


class PooledBot(ContainerBot):
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
        super().__init__(limits, {}, stdin=-1, stdout=out_fd, stderr=err_fd)
        self.pool = pool
        self.sandbox = pool.sandbox
        self.container = container
        self.folder = folder
        self._hello = bytearray()
        self._inspect_later = False
        self._killed_by_us = False
        self._removed = threading.Event()
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
        if self._pipes_closed or self._out_eof:
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

    def disown(self) -> None:
        """In a forked child: this bot is the parent's. Never read, write, close or remove it
        from here (its descriptor numbers may already belong to something else)."""
        self._pipes_closed = True
        self.closed = True
        CONTAINERS.discard(self)

    # -- ending --------------------------------------------------------------------------------
    def exit_reason(self) -> str | None:
        if self._reason is not None:
            return self._reason
        if self.closed:
            if self._inspect_later:
                self._removed.wait(self.sandbox.api_timeout_s)  # the remover reads it first
            return self._reason or "exited"
        if not self._out_eof:
            return None
        self._reason = self._inspect_exit(wait_s=1.0)
        return self._reason

    def _end(self, grace_s: float) -> None:
        if self._in >= 0 and not self._pipes_closed:
            with contextlib.suppress(OSError):
                os.close(self._in)  # stdin EOF: a polite bot exits
            self._in = -1
            self._wait_output_end(grace_s)
            with contextlib.suppress(OSError):
                self._drain_err()
        if self._out_eof and self._reason is None:
            self._inspect_later = True  # ended by itself: the remover asks the engine how
        elif self._reason is None:
            self._killed_by_us = True
            self._reason = "killed: ended by the referee"
        # Our ends closed first: a bot blocked writing gets EPIPE instead of hanging.
        self.close_pipes()

    def _release(self) -> None:
        if self.sync_removal:
            self.remove_now()
        else:
            self.pool.discard(self)

    def remove_now(self) -> None:
        """Read the exit reason if it is still owed, remove the container and the slot's
        folder. In the pool's remover thread; never raises."""
        try:
            self.close_pipes()
            if self._inspect_later and self._reason is None:
                self._reason = inspect_exit(self.container, self._stderr, wait_s=0.5)
                if self._reason is None:
                    self._killed_by_us = True
                    self._reason = "killed: ended by the referee"
            if not remove(self.container):
                log.error("bot container %s left for the reaper", self.container.id)
            shutil.rmtree(self.folder, ignore_errors=True)
        except Exception as e:
            log.error("removing pooled bot container failed: %s", e)
        finally:
            self._removed.set()
            CONTAINERS.discard(self)

    def wait_removed(self, timeout_s: float) -> bool:
        """Wait until the container is gone (the remover runs in the background)."""
        return self._removed.wait(timeout_s)
