"""What a worker process removes when it ends: its warm pools' idle containers and any bot
container it still has, so that none outlives it.

How a Celery worker process ends, and the path each takes (the receivers are in
``arena.worker_signals``):

- **A pool child** (prefork, the default pool) leaves its loop when the worker shuts down, and
  on a SIGTERM of its own (systemd stops every process of the unit; ``kill`` of the process
  group; a hard time limit): billiard's handler turns that into ``sys.exit``. Either way it ends
  with ``os._exit``, which runs no ``atexit`` hook, after Celery's ``worker_process_shutdown``:
  that signal calls :func:`release_all`.
- **The main process** (which plays the matches itself in the solo and threads pools) gets
  ``worker_shutdown`` at the end of a warm shutdown (Celery's SIGTERM handler), then ``atexit``.
- **A killed worker** (SIGKILL, out of memory) removes nothing: a new warm pool on the same host
  removes what dead workers left (``WarmPool`` at its start), as ``python -m sandbox.reap`` does.
"""

from __future__ import annotations

import sys


def release_all() -> None:
    """Stop this process's warm pools (their idle containers removed) and close its live bots.
    Idempotent; a no-op in a process that never used the Docker backend."""
    # Only what this process imported: a process that never used Docker imports nothing here.
    pool = sys.modules.get("sandbox.pool")
    if pool is not None:
        pool.shutdown_pools()
    live = sys.modules.get("sandbox.live")
    if live is not None:
        live.close_live_containers()
