"""What a worker process removes when it ends: its warm pools' idle containers and any bot
container it still has, so that none outlives it.

Three ways a worker process ends, three paths here (the worker wires them up:
``arena.worker_signals``):

- **It shuts down cleanly** (Celery's ``worker_process_shutdown`` in a pool child, whose exit is
  ``os._exit`` and runs no ``atexit`` hook; ``worker_shutdown`` and ``atexit`` in the main
  process): :func:`release_all` stops the pools and removes their containers, through the
  in-process tables.
- **It is sent SIGTERM directly** (systemd stops every process of the unit, ``kill`` of the
  process group; a Celery pool child dies of it at once): :func:`install_sigterm_cleanup`
  removes the process's containers by their worker label, touching no in-process table (a
  signal handler may run while a lock is held), then dies of the signal as before.
- **It is killed** (SIGKILL, out of memory): a new pool on the same host removes what dead
  workers left (``WarmPool`` at its start), as ``python -m sandbox.reap`` does.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from typing import Any

log = logging.getLogger("sandbox.shutdown")


def release_all() -> None:
    """Stop this process's warm pools (their idle containers removed) and close its live bots.
    Idempotent; a no-op in a process that never used the Docker backend."""
    pool = sys.modules.get("sandbox.pool")
    if pool is not None:
        pool.shutdown_pools()
    docker = sys.modules.get("sandbox.docker")
    if docker is not None:
        docker.close_live_bots()


def remove_own_containers() -> int:
    """Remove every bot container this process started, found by its worker label through a
    client of its own. Safe in a signal handler; never raises. Returns how many went."""
    docker = sys.modules.get("sandbox.docker")
    if docker is None:
        return 0
    try:
        return int(docker.DockerSandbox().remove_labelled({"worker": docker.worker_id()}))
    except Exception as e:  # never fail a dying process
        log.warning("removing this worker's bot containers failed: %s", e)
        return 0


def install_sigterm_cleanup() -> bool:
    """Make SIGTERM remove this process's containers before it ends the process as it would
    have (the default action: the parent sees the same death). Only for a process whose
    SIGTERM is at its default (a Celery pool child), and only from the main thread; returns
    whether it was installed."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return False  # someone else's handler (Celery's main process): theirs decides
    signal.signal(signal.SIGTERM, _on_sigterm)
    return True


def _on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        remove_own_containers()
    finally:
        os.kill(os.getpid(), signal.SIGTERM)
