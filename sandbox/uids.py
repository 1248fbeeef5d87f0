"""A pool of otherwise unused user ids for the process backend, when it runs as root.

Running each bot as its own uid is what makes the process backend's limits hold: RLIMIT_NPROC
counts the processes of a *user*, so a fork bomb stops at ``Limits.pids`` only if the bot's
uid runs nothing else; and every process whose real uid is the bot's is killed when its seat
ends (``kill_all``), even a daemonised one that left our process group and session. A uid is
held with an flock on a lock file, so workers on one host never share one; a worker that dies
releases its locks with its files.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "61000"))
UID_COUNT = int(os.environ.get("ARENA_SANDBOX_UID_COUNT", "256"))
#: A program whose ``kill -KILL -1``, run as a uid, signals all of that user's processes at
#: once (a fork storm cannot outrun it). Optional: Debian's slim images, the worker's
#: (deploy/Dockerfile), have none, and ``kill_all``'s own sweep needs no program.
KILL_PROGRAM = "/bin/kill"


def _lock_dir() -> Path:
    d = Path(tempfile.gettempdir()) / "meeple-sandbox-uids"
    d.mkdir(mode=0o700, exist_ok=True)
    return d


def available() -> bool:
    """Whether this process may switch users (it runs as root)."""
    return os.geteuid() == 0


@dataclass
class UidLease:
    uid: int
    _fd: int

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # closing drops the flock
            self._fd = -1


def _try_lock(uid: int) -> int | None:
    fd = os.open(_lock_dir() / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def acquire() -> UidLease | None:
    """Lease a free uid (killing anything a dead worker left running as it), or None if all
    are taken."""
    start = random.randrange(UID_COUNT)
    for k in range(UID_COUNT):
        uid = UID_BASE + (start + k) % UID_COUNT
        fd = _try_lock(uid)
        if fd is not None:
            kill_all(uid)
            return UidLease(uid, fd)
    return None


def kill_all(uid: int, wait_s: float = 3.0) -> bool:
    """SIGKILL every process whose real uid is ``uid``, round after round until /proc shows none
    (up to ``wait_s``); True if none is left. Each round this process (root) signals each of
    them through a pidfd, so a pid reused meanwhile is never hit; where ``KILL_PROGRAM`` exists
    a helper switched to ``uid`` also calls kill(-1), which the kernel applies to all the
    user's processes at once. A process killed cannot fork: what a round misses (forked while
    it ran) is found by the next. Before, only the helper killed, and on a worker image without
    /bin/kill it raised: a timed-out bot's daemons lived on after its match."""
    deadline = time.monotonic() + wait_s
    while pids := processes_of(uid):
        if time.monotonic() > deadline:
            return False
        for pid in pids:
            _kill_if_owned(pid, uid)
        _kill_minus_one(uid)
        time.sleep(0.01)  # dying processes with many threads take a moment to go
    return True


def _kill_if_owned(pid: int, uid: int) -> None:
    try:
        fd = os.pidfd_open(pid)
    except OSError:  # gone already
        return
    try:
        # Read after the pidfd is held: it names one process, so the uid read is its own, or
        # (the pid reused before the pidfd was opened) the new process's, which it then names.
        status = _status(pid)
        if status is not None and status[1] == uid:
            signal.pidfd_send_signal(fd, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(fd)


def _kill_minus_one(uid: int) -> None:
    if not os.access(KILL_PROGRAM, os.X_OK):
        return
    # Its failure costs nothing: the sweep of kill_all does without it.
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [KILL_PROGRAM, "-KILL", "-1"],
            user=uid,
            group=uid,
            extra_groups=[],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
        )


def _status(pid: int) -> tuple[bytes, int] | None:
    """``(state, real uid)`` of ``pid`` from /proc, or None when it is gone or unreadable."""
    state = b""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"State:"):
                    state = line.split()[1]
                elif line.startswith(b"Uid:"):
                    return state, int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def processes_by_uid() -> dict[int, list[int]]:
    """Live (non-zombie) pids by real uid, from /proc."""
    out: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        status = _status(int(entry.name))
        if status is not None and status[0] != b"Z":
            out.setdefault(status[1], []).append(int(entry.name))
    return out


def task_count(uid: int) -> int:
    """Tasks (threads) of ``uid``: what RLIMIT_NPROC counts."""
    return sum(threads_of(pid) for pid in processes_of(uid))


def threads_of(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            for line in f:
                if line.startswith(b"Threads:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def processes_of(uid: int) -> list[int]:
    """Live pids whose real uid is ``uid``."""
    return processes_by_uid().get(uid, [])


def reap_free() -> int:
    """Kill the processes of every pool uid that no live worker holds (left by a dead one).
    Returns how many uids had some."""
    n = 0
    for uid in sorted(processes_by_uid()):
        if not UID_BASE <= uid < UID_BASE + UID_COUNT:
            continue
        fd = _try_lock(uid)
        if fd is None:
            continue
        try:
            kill_all(uid)
            n += 1
        finally:
            os.close(fd)
    return n
