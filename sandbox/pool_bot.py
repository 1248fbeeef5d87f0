"""A bot in a warm container (``sandbox.pool``), for one match: its stdin, stdout and stderr are
FIFOs in the slot's ``io`` folder, read and written here directly (no engine on the per-move
path, unlike an attach socket). How it ended comes from the container's supervisor
(``sandbox.pool_box``). After :meth:`close` the pool resets the container for the next match
of the same bot version, or removes it, in the background."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from typing import TYPE_CHECKING, Any

from sandbox.docker_bot import ContainerBot
from sandbox.docker_engine import exit_reason_of, inspect_exit
from sandbox.live import CONTAINERS
from sandbox.pool_box import WarmBox, open_stdin
from sandbox.pool_host import BotReleaser

if TYPE_CHECKING:
    from pathlib import Path


class PooledBot(ContainerBot):
    pooled = True

    def __init__(self, pool: BotReleaser, box: WarmBox, labels: dict[str, str]) -> None:
        # The match's bot takes the read ends the box opened for this match's loader.
        out, err = box.out, box.err
        box.out = box.err = -1
        super().__init__(box.limits, dict(labels), stdin=-1, stdout=out, stderr=err)
        self.pool = pool
        self.box = box
        self._killed_by_us = False
        self._released = threading.Event()
        #: release in the caller's thread on close (at shutdown), not in the background
        self.sync_removal = False

    @property
    def container(self) -> Any:
        return self.box.container

    @property
    def folder(self) -> Path:
        return self.box.folder

    def begin(self, command: list[str]) -> None:
        """Open the loader's stdin and send the bot's command (one JSON line): it execs it."""
        self._in = open_stdin(self.box.io)
        self.send_line(json.dumps(command))

    def disown(self) -> None:
        """In a forked child: this bot is the parent's. Never read, write, close or release it
        from here (its descriptor numbers may already belong to something else)."""
        self._pipes_closed = True
        self.closed = True
        CONTAINERS.discard(self)

    # -- ending --------------------------------------------------------------------------------
    def _inspect_exit(self, wait_s: float) -> str | None:
        """How the bot ended: its supervisor's report, or the engine's when the supervisor
        is gone (the container stopped: it was killed with the supervisor, or ran out of
        memory)."""
        try:
            end = self.box.bot_end(wait_s)
        except EOFError:
            return inspect_exit(self.container, self._stderr, wait_s)
        if end is None:
            return None
        code, oom = end
        status = 128 - code if code < 0 else code
        return exit_reason_of({"ExitCode": status, "OOMKilled": oom and code < 0}, self._stderr)

    def exit_reason(self) -> str | None:
        if self._reason is not None:
            return self._reason
        if self.closed:
            return "exited"
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
            self._reason = self._inspect_exit(wait_s=0.5)
        if self._reason is None:
            self._killed_by_us = True
            self._reason = "killed: ended by the referee"
        # Our ends closed first: a bot blocked writing gets EPIPE instead of hanging.
        self.close_pipes()

    def _release(self) -> None:
        try:
            self.pool.release(self)
        finally:
            CONTAINERS.discard(self)

    def released(self) -> None:
        """The pool is done with this bot's container: reset for its version, or removed."""
        self._released.set()

    def wait_removed(self, timeout_s: float) -> bool:
        """Wait until this match's container is gone or reset (in the background)."""
        return self._released.wait(timeout_s)
