"""One warm container for its whole life (``sandbox.pool``): started with its supervisor
(``sandbox.pool_supervisor``), handed to a match's bot (``sandbox.pool_bot.PooledBot``), reset
between matches of the same bot version, removed.

The worker talks to the supervisor over two FIFOs of the slot folder (``ctl`` and ``ack``,
``sandbox.pool_slot``), sealed against the bot once both ends are open. A reset is trusted only
when the supervisor says ``clean`` *and*, where the worker can see the container from the host
(the engine's host: the container's init in our ``/proc``), the host agrees: its pids cgroup
holds exactly tini, the supervisor and the next loader, and its ``/tmp`` and ``/dev/shm`` are
empty.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import shutil
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from sandbox.base import BotCode, Limits, SandboxError
from sandbox.docker_engine import launch, remove
from sandbox.docker_spec import container_kwargs
from sandbox.pool_host import PoolHost
from sandbox.pool_slot import (
    IO_DIR,
    LOADER_COMMAND,
    make_slot_folder,
    renew_bot_fifos,
    seal,
)
from sandbox.pool_supervisor import LOADER_HELLO, SUPERVISOR_HELLO

log = logging.getLogger("sandbox.pool")

#: processes of an idle warm container: tini, the supervisor, the loader waiting for a bot
IDLE_PROCESSES = 3
#: what the host checks is empty after a reset (the container's writable space)
WIPED = ("tmp", "dev/shm")


def read_ready(fd: int, want: int, deadline: float) -> bytes | None:
    """Up to ``want`` bytes from a non-blocking ``fd`` before ``deadline``; b'' at its end,
    None on timeout."""
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        try:
            return os.read(fd, want)
        except BlockingIOError:
            continue


class WarmBox:
    """A warm container: its slot folder, the supervisor's channels, and the read ends of the
    current bot FIFOs (taken by the match's bot)."""

    def __init__(self, container: Any, folder: Path, ack: int, limits: Limits) -> None:
        self.container = container
        self.folder = folder
        self.io = folder / "io"
        self.limits = limits
        self.ack = ack
        self.ctl = -1
        self.out = -1
        self.err = -1
        #: the bot version it runs (``sandbox.pool_key``), once it ran one; then only that one
        self.key: str | None = None
        self.uses = 0
        self.born = time.monotonic()
        self.idle_since = self.born
        self._ack_buf = bytearray()
        self._host: tuple[int, Path | None] | None = None
        self.removed = threading.Event()

    # -- the supervisor's channel --------------------------------------------------------------
    def ack_line(self, wait_s: float) -> str | None:
        """The supervisor's next line; None on timeout; raises EOFError when it is gone."""
        deadline = time.monotonic() + wait_s
        while b"\n" not in self._ack_buf:
            data = read_ready(self.ack, 4096, deadline)
            if data is None:
                return None
            if not data:
                raise EOFError("the supervisor is gone")
            self._ack_buf += data
        line, _, rest = bytes(self._ack_buf).partition(b"\n")
        self._ack_buf = bytearray(rest)
        return line.decode(errors="replace")

    def bot_end(self, wait_s: float) -> tuple[int, bool] | None:
        """The bot's exit code (minus the signal) and whether memory ran out, as the
        supervisor reports it; None if it has not ended in ``wait_s``. EOFError: supervisor gone."""
        deadline = time.monotonic() + wait_s
        while (line := self.ack_line(max(0.0, deadline - time.monotonic()))) is not None:
            word, *rest = line.split()
            if word == "end" and len(rest) == 2:
                return int(rest[0]), rest[1] == "1"
        return None

    def wait_hello(self, timeout_s: float) -> bool:
        """The loader's hello on the new stdout (exactly its bytes: nothing of a bot's before)."""
        deadline = time.monotonic() + timeout_s
        got = b""
        while len(got) < len(LOADER_HELLO):
            data = read_ready(self.out, len(LOADER_HELLO) - len(got), deadline)
            if not data:
                return False
            got += data
        return got == LOADER_HELLO

    def idle_alive(self) -> bool:
        """An idle container writes nothing: anything readable means its loader or its
        supervisor ended."""
        fds = [fd for fd in (self.out, self.err, self.ack) if fd >= 0]
        return len(fds) == 3 and not select.select(fds, [], [], 0)[0]

    def open_bot_fifos(self) -> None:
        """Our read ends of the bot's stdout and stderr, before the loader opens them."""
        self.close_bot_fifos()
        flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC
        self.out = os.open(self.io / "stdout", flags)
        self.err = os.open(self.io / "stderr", flags)

    def close_bot_fifos(self) -> None:
        for fd in (self.out, self.err):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.out = self.err = -1

    def handshake(self, timeout_s: float) -> None:
        """After start: the supervisor's hello, our writing end of ``ctl``, both channels
        sealed, the first loader's hello. Raises SandboxError."""
        deadline = time.monotonic() + timeout_s
        got = b""
        while len(got) < len(SUPERVISOR_HELLO):
            data = read_ready(self.ack, len(SUPERVISOR_HELLO) - len(got), deadline)
            if not data:
                raise SandboxError("the warm container's supervisor did not start")
            got += data
        if got != SUPERVISOR_HELLO:
            raise SandboxError("the warm container's supervisor said something else")
        try:  # it holds ctl open for reading: a non-blocking open for writing succeeds
            self.ctl = os.open(self.io / "ctl", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as e:
            raise SandboxError(f"cannot reach the warm container's supervisor ({e})") from None
        for name in ("ctl", "ack"):
            seal(self.io / name)
        if not self.wait_hello(max(0.0, deadline - time.monotonic())):
            raise SandboxError("the warm container's loader did not start")
        self._host = self._host_view()

    # -- reset ---------------------------------------------------------------------------------
    def rearm(self, timeout_s: float) -> str:
        """Reset after a match and start the next loader: '' when clean (checked from the host
        where it can see), else why not. The bot's FIFO ends must be closed already."""
        deadline = time.monotonic() + timeout_s
        try:
            renew_bot_fifos(self.io)
            self.open_bot_fifos()
            os.write(self.ctl, b"reset\n")
            while True:
                line = self.ack_line(max(0.0, deadline - time.monotonic()))
                if line is None:
                    return "the reset timed out"
                if line == "clean":
                    break
                if line.startswith("dirty"):
                    return line
        except (OSError, EOFError) as e:
            return f"the supervisor cannot be reached ({e})"
        if not self.wait_hello(max(0.0, deadline - time.monotonic())):
            return "the next loader did not start"
        return self.host_check()

    def _host_view(self) -> tuple[int, Path | None] | None:
        """The container's init as a pid of ours, and its pids.current file, or None when this
        worker cannot see the engine's host (e.g. a worker in a container)."""
        try:
            self.container.reload()
            pid = int(self.container.attrs["State"]["Pid"])
            text = Path(f"/proc/{pid}/cgroup").read_text()
        except Exception:
            return None
        if pid <= 0 or self.container.id not in text:
            return None
        pids_file = None
        for row in text.splitlines():
            _, controllers, path = row.split(":", 2)
            if "pids" in controllers.split(","):
                root = "/sys/fs/cgroup/pids"  # cgroup v1
            elif controllers == "":
                root = "/sys/fs/cgroup"  # v2 (v1's unified tree has no pids.current: skipped)
            else:
                continue
            candidate = Path(root) / path.lstrip("/") / "pids.current"
            if candidate.is_file():
                pids_file = candidate
                break
        return pid, pids_file

    @property
    def host_visible(self) -> bool:
        """Whether this worker sees the container from the engine's host (its own check runs)."""
        return self._host is not None

    def host_check(self) -> str:
        """'' when the host sees the container idle and empty (or cannot see it), else what."""
        if self._host is None:
            return ""
        pid, pids_file = self._host
        try:
            if self.container.id not in Path(f"/proc/{pid}/cgroup").read_text():
                return "the container's init is gone"
            if pids_file is not None:
                n = int(pids_file.read_text())
                if n != IDLE_PROCESSES:
                    return f"{n} processes in the container after the reset"
            for place in WIPED:
                left = os.listdir(f"/proc/{pid}/root/{place}")
                if left:
                    return f"/{place} holds {len(left)} entries after the reset"
        except (OSError, ValueError) as e:
            return f"the host cannot check the reset ({e})"
        return ""

    # -- the end -------------------------------------------------------------------------------
    def wait_removed(self, timeout_s: float) -> bool:
        return self.removed.wait(timeout_s)

    def remove_now(self) -> None:
        """Close our channels, remove the container and the slot folder; never raises."""
        try:
            self.close_bot_fifos()
            for fd in (self.ctl, self.ack):
                if fd >= 0:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self.ctl = self.ack = -1
            if not remove(self.container):
                log.error("bot container %s left for the reaper", self.container.id)
            shutil.rmtree(self.folder, ignore_errors=True)
        except Exception as e:
            log.error("removing a warm container failed: %s", e)
        finally:
            self.removed.set()


def open_stdin(io: Path) -> int:
    """Our writing end of the loader's stdin; the loader holds it open for reading while it
    waits for the entry (else ENXIO: it is not waiting)."""
    try:
        return os.open(io / "stdin", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ENXIO:
            raise SandboxError("the warm container's loader is not waiting") from None
        raise


def start_box(sandbox: PoolHost, limits: Limits, hello_timeout_s: float) -> WarmBox:
    """Create and start a warm container for ``limits`` with exactly the cold path's settings
    (``docker_spec.container_kwargs``), plus one process for its supervisor (the bot keeps
    the whole ``pids`` budget it has cold, where tini is the only other process). Waits for
    its supervisor and first loader. Raises SandboxError, leaving nothing behind."""
    folder = make_slot_folder()
    io = folder / "io"
    container = None
    box: WarmBox | None = None
    try:
        # Our read ends first: the supervisor's and loader's opens for writing then return.
        ack = os.open(io / "ack", os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        box = WarmBox(None, folder, ack, limits)
        box.open_bot_fifos()
        kwargs = container_kwargs(
            BotCode(root=folder / "code"),
            {"pool": "1"},
            replace(limits, pids=limits.pids + 1),
            runtime=sandbox.runtime,
            command=LOADER_COMMAND,
            extra_volumes={str(io): {"bind": IO_DIR, "mode": "ro"}},
            stdin=False,
        )
        container, _ = launch(sandbox.client, sandbox.image, kwargs, attach=False)
        box.container = container
        box.handshake(hello_timeout_s)
    except BaseException:
        if box is not None and box.container is not None:
            box.remove_now()
        else:
            if box is not None:
                box.close_bot_fifos()
                os.close(box.ack)
            remove(container)
            shutil.rmtree(folder, ignore_errors=True)
        raise
    return box
