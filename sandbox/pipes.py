"""The pipe loop every backend shares: one bot's input written with a deadline, its output read
with ``poll()`` into lines, its stderr into a capped log.

A backend's bot class subclasses :class:`PipeBot`, hands it non-blocking descriptors, and says
only what differs: how its input ends, how its descriptors close, why its bot ended, and what
closing frees (``_end`` and ``_release``). The process backend gives it a child's pipes, the
warm pool a container's FIFOs, the cold Docker path an attach socket (with stdout and stderr
multiplexed in one stream: it overrides the reading hooks).
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import select
import threading
import time
from abc import abstractmethod
from collections.abc import Sequence

from sandbox.base import BotGone, BotProcess, Limits
from sandbox.lines import CappedText, LineBuffer

log = logging.getLogger("sandbox")

#: bytes per read; and reads per wake-up, so that a flood cannot starve the caller
CHUNK = 1 << 16
READS_PER_WAKE = 16


class PipeBot(BotProcess):
    """A bot reached over non-blocking descriptors: ``stdin`` (-1 until there is one) written,
    ``stdout`` read into lines, ``stderr`` (None: none of its own) into a capped log."""

    def __init__(
        self,
        limits: Limits,
        labels: dict[str, str],
        *,
        stdin: int,
        stdout: int,
        stderr: int | None,
    ) -> None:
        self.limits = limits
        self.labels = labels
        self._in = stdin
        self._out = stdout
        self._err = -1 if stderr is None else stderr
        self._lines = LineBuffer(limits.max_line_bytes)
        self._stderr = CappedText(limits.stderr_cap_bytes)
        self._poll: select.poll | None = None
        self._out_eof = False
        self._err_eof = stderr is None
        self._pipes_closed = False
        self._close_lock = threading.Lock()
        self.closed = False

    # -- what a backend may change -------------------------------------------------------------
    def _write(self, data: memoryview) -> int:
        return os.write(self._in, data)

    def _read(self, fd: int) -> bytes:
        return os.read(fd, CHUNK)

    def _take_output(self, data: bytes) -> None:
        """Bytes read from ``stdout``: lines (a multiplexed stream sorts them first)."""
        self._lines.feed(data)

    def _take_stderr(self) -> None:
        """Read what stderr holds now, without waiting."""
        self._drain_err()

    def _close_fds(self) -> None:
        """Close our ends of the pipes (once)."""
        for fd in (self._in, self._out, self._err):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)

    @abstractmethod
    def _gone_reason(self, alive_reason: str) -> str:
        """Why the bot cannot be talked to: its exit, else ``alive_reason``."""

    @abstractmethod
    def _end(self, grace_s: float) -> None:
        """Close's backend part: end the input, give the bot ``grace_s``, close the pipes,
        stop what it started. May raise (logged)."""

    def _release(self) -> None:
        """Close's last part, always run: free what the bot held (a uid, a record entry)."""

    # -- talking -------------------------------------------------------------------------------
    def send_line(self, line: str | bytes, timeout_s: float = 5.0) -> None:
        """Write one line. A bot that stops reading its input for ``timeout_s`` once the pipe
        is full is treated as gone (it would otherwise block the referee)."""
        if self.closed or self._pipes_closed or self._in < 0:
            raise BotGone("closed")
        data = memoryview((line if isinstance(line, bytes) else line.encode("utf-8")) + b"\n")
        deadline = time.monotonic() + timeout_s
        while data:
            try:
                n = self._write(data)
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
        deadline = time.monotonic() + max(0.0, timeout_s)
        while True:
            line = self._lines.pop()
            if line is not None:
                return line
            if self._out_eof or self._pipes_closed:
                raise BotGone(self._gone_reason("closed its output"))
            left = deadline - time.monotonic()
            if not self._pump(left) and left <= 0:
                return None

    def stderr_text(self) -> str:
        with contextlib.suppress(OSError):
            self._take_stderr()
        return self._stderr.text()

    def stderr_mark(self) -> int:
        with contextlib.suppress(OSError):
            self._take_stderr()
        return self._stderr.kept()

    def stderr_offsets(self, marks: Sequence[int]) -> list[int]:
        return self._stderr.char_offsets(marks)

    # -- reading -------------------------------------------------------------------------------
    def _poller(self) -> select.poll:
        if self._poll is None:
            # one for the whole match: cheaper per decision than select()
            self._poll = select.poll()
            self._poll.register(self._out, select.POLLIN)
            if not self._err_eof:
                self._poll.register(self._err, select.POLLIN)
        return self._poll

    def _pump(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for output and take it in. False if none came."""
        if self._pipes_closed or self._out_eof:
            return False
        # poll() takes milliseconds: round up, never wait less than asked
        ready = self._poller().poll(max(0, math.ceil(timeout_s * 1000)))
        for fd, _event in ready:
            if fd == self._err:
                self._drain_err()
            else:
                self._drain_out()
        return bool(ready)

    def _drain_out(self) -> None:
        for _ in range(READS_PER_WAKE):
            try:
                data = self._read(self._out)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._out_eof = True
                self._forget_fd(self._out)
                return
            self._take_output(data)
            if self._lines.has_line():
                return

    def _drain_err(self) -> None:
        for _ in range(READS_PER_WAKE):
            if self._err_eof or self._pipes_closed:
                return
            try:
                data = self._read(self._err)
            except BlockingIOError:
                return
            except OSError:
                data = b""
            if not data:
                self._err_eof = True
                self._forget_fd(self._err)
                return
            self._stderr.feed(data)

    def _forget_fd(self, fd: int) -> None:
        if self._poll is not None:
            with contextlib.suppress(KeyError, ValueError):
                self._poll.unregister(fd)

    # -- ending --------------------------------------------------------------------------------
    def _wait_output_end(self, grace_s: float) -> None:
        """After the input ended: read until the bot closes its output, up to ``grace_s`` (late
        lines are dropped with the bot; stderr is kept)."""
        deadline = time.monotonic() + grace_s
        while grace_s > 0 and not self._out_eof and not self._pipes_closed:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            with contextlib.suppress(OSError):
                self._pump(left)

    def close_pipes(self) -> None:
        """Close our ends now: a bot blocked writing gets EPIPE instead of hanging its kill.
        Idempotent; the bot is not closed (``close`` does that)."""
        if self._pipes_closed:
            return
        self._pipes_closed = True
        self._close_fds()

    def close(self, grace_s: float = 0.5) -> None:
        with self._close_lock:
            if self.closed:
                return
            self.closed = True
        try:
            self._end(grace_s)
        except Exception as e:  # close never raises: log-worthy, not the referee's problem
            log.error("closing a bot (%s) failed: %s", type(self).__name__, e)
        finally:
            self._release()

    def __del__(self) -> None:
        if not getattr(self, "closed", True):
            self.close(grace_s=0)
