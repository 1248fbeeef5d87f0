"""Which worker process started a container: ``host:pid:start-ticks``, a label on every bot
container, and whether that worker still lives (what the reaper of dead workers asks)."""

from __future__ import annotations

import os
import socket


def start_ticks(pid: int) -> str:
    """A process's start time (clock ticks since boot): with the pid, it names one process
    even after the pid is reused."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
        return stat[stat.rindex(")") + 2 :].split()[19]
    except (OSError, ValueError, IndexError):
        return "0"


_worker_ids: dict[int, str] = {}


def worker_id() -> str:
    """host:pid:start-ticks of this worker process, a label on every container it starts.
    Computed per pid: a Celery pool child forked after import gets its own."""
    pid = os.getpid()
    wid = _worker_ids.get(pid)
    if wid is None:
        wid = _worker_ids[pid] = f"{socket.gethostname()}:{pid}:{start_ticks(pid)}"
    return wid


def worker_alive(pid: int, ticks: str) -> bool:
    """Whether the process ``pid`` started at ``ticks`` still runs (a reused pid does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return not ticks or start_ticks(pid) == ticks


def dead_worker_on_this_host(worker_label: str) -> bool:
    """True when ``worker_label`` (``host:pid:ticks``) names a worker of this host that is gone."""
    whost, wpid, wticks = [*worker_label.split(":"), "", ""][:3]
    return whost == socket.gethostname() and wpid.isdigit() and not worker_alive(int(wpid), wticks)
