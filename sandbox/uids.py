"""A pool of otherwise unused user ids for the process backend, when it runs as root.

Running each bot as its own uid is what makes the process backend's limits hold: RLIMIT_NPROC
counts the processes of a *user*, so a fork bomb stops at ``Limits.pids`` only if the bot's
uid runs nothing else; and ``kill(-1)`` sent as that uid ends every process it started, even a
daemonised one that left our process group. A uid is held with an flock on a lock file, so
workers on one host never share one; a worker that dies releases its locks with its files.
"""

from __future__ import annotations

import fcntl
import os
import random
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

UID_BASE = int(os.environ.get("ARENA_SANDBOX_UID_BASE", "61000"))
UID_COUNT = int(os.environ.get("ARENA_SANDBOX_UID_COUNT", "256"))


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
    """SIGKILL every process of ``uid`` and wait (up to ``wait_s``) until they are gone. A
    helper switched to that uid calls kill(-1), which the kernel applies to all the user's
    processes at once, so a fork bomb cannot outrun it. True if none is left."""
    deadline = time.monotonic() + wait_s
    while processes_of(uid):
        if time.monotonic() > deadline:
            return False
        subprocess.run(
            ["/bin/kill", "-KILL", "-1"],
            user=uid,
            group=uid,
            extra_groups=[],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=10,
            check=False,
        )
        time.sleep(0.01)  # dying processes with many threads take a moment to go
    return True


def processes_by_uid() -> dict[int, list[int]]:
    """Live (non-zombie) pids by real uid, from /proc."""
    out: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status", "rb") as f:
                state = b""
                for line in f:
                    if line.startswith(b"State:"):
                        state = line.split()[1]
                    elif line.startswith(b"Uid:"):
                        if state != b"Z":
                            out.setdefault(int(line.split()[1]), []).append(int(entry.name))
                        break
        except (OSError, ValueError, IndexError):
            continue
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
