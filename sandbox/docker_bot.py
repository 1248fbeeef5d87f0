"""A bot in a Docker container, as the referee talks to it.

:class:`ContainerBot` is what every container bot shares (its exit read from the engine, its
entry in the record of live containers); :class:`DockerBot` is a cold container reached over
its attach socket (stdin, and stdout and stderr multiplexed in one stream). The warm pool's
bot (``sandbox.pool_bot.PooledBot``) reads FIFOs instead.
"""

from __future__ import annotations

import contextlib
import logging
import socket
from typing import Any

from sandbox.base import Limits
from sandbox.docker_engine import inspect_exit, remove
from sandbox.live import CONTAINERS
from sandbox.pipes import READS_PER_WAKE, PipeBot

log = logging.getLogger("sandbox.docker")


class ContainerBot(PipeBot):
    """A bot in a container: the pipe loop, plus how the engine says it ended."""

    #: warm-pool bots say True: their container is removed in the background
    pooled = False
    container: Any
    _reason: str | None = None

    def _inspect_exit(self, wait_s: float) -> str | None:
        """The container's exit, from the engine (waiting up to ``wait_s`` for it)."""
        return inspect_exit(self.container, self._stderr, wait_s)

    def _gone_reason(self, alive_reason: str) -> str:
        if self._reason is None:
            self._reason = self._inspect_exit(wait_s=1.0)
        return self._reason or alive_reason

    def wait_removed(self, timeout_s: float) -> bool:
        """Wait until the container is gone (a cold one is gone when ``close`` returns)."""
        return True

    def _release(self) -> None:
        CONTAINERS.discard(self)


class DockerBot(ContainerBot):
    """A running container: a demultiplexed attach socket (stdout -> lines, stderr -> cap)."""

    def __init__(
        self,
        container: Any,
        sock: Any,
        limits: Limits,
        labels: dict[str, str],
    ) -> None:
        self._io = sock  # keep the SocketIO/response alive
        self._sock: socket.socket = getattr(sock, "_sock", sock)
        self._sock.setblocking(False)
        fd = self._sock.fileno()
        super().__init__(limits, labels, stdin=fd, stdout=fd, stderr=None)
        self.container = container
        self._frame = bytearray()  # undecoded multiplexed stream
        self._killed_by_us = False

    # -- the attach socket ---------------------------------------------------------------------
    def _write(self, data: memoryview) -> int:
        return self._sock.send(data)

    def _read(self, fd: int) -> bytes:
        return self._sock.recv(1 << 16)

    def _take_output(self, data: bytes) -> None:
        """Demultiplex the engine's frames: 8-byte header (stream, size), then the payload."""
        buf = self._frame
        buf += data
        while len(buf) >= 8:
            size = int.from_bytes(buf[4:8], "big")
            if len(buf) < 8 + size:
                return
            kind, payload = buf[0], bytes(buf[8 : 8 + size])
            del buf[: 8 + size]
            if kind == 2:
                self._stderr.feed(payload)
            else:
                self._lines.feed(payload)

    def _take_stderr(self) -> None:
        # stderr comes in the same stream, behind any stdout: read all that is there now (a
        # bounded number of wake-ups, so a flood cannot hold the caller).
        with contextlib.suppress(Exception):
            for _ in range(READS_PER_WAKE):
                if not self._pump(0):
                    return

    def _close_fds(self) -> None:
        with contextlib.suppress(Exception):
            self._sock.close()
        with contextlib.suppress(Exception):
            self._io.close()

    # -- ending --------------------------------------------------------------------------------
    def exit_reason(self) -> str | None:
        if self._reason is not None:
            return self._reason
        if self.closed:
            return "killed: ended by the referee" if self._killed_by_us else "exited"
        if not self._out_eof:
            # Cheap check first: only ask the engine when the stream has ended.
            with contextlib.suppress(Exception):
                self._pump(0)
            if not self._out_eof:
                return None
        self._reason = self._inspect_exit(wait_s=1.0)
        return self._reason

    def _end(self, grace_s: float) -> None:
        if grace_s > 0 and not self._out_eof and not self._pipes_closed:
            with contextlib.suppress(OSError):
                self._sock.shutdown(socket.SHUT_WR)  # stdin EOF: a polite bot exits
            self._wait_output_end(grace_s)
        if self._out_eof and self._reason is None:
            self._reason = self._inspect_exit(wait_s=0.5)
        if self._reason is None:
            self._killed_by_us = True
            self._reason = "killed: ended by the referee"
        # Close the pipe before the kill: a kill with unread output can hang.
        self.close_pipes()
        if not remove(self.container):
            log.error("bot container %s left for the reaper", self.container.id)
