"""A watchdog for the solo pool, which enforces no time limit of a task: a task still running
past its hard time limit ends the worker process, so that nothing holds it for good (a database
socket gone silent mid-request, which no socket option notices when the peer acknowledges every
byte). Its delivery, unacknowledged, comes back from the broker; the match it played is taken
back by the sweeper once its claim's lease lapses (deploy/SCALING.md, "Bounded waits"); the
process supervisor starts the worker again.

The prefork pool enforces the hard limit itself (it kills the pool child), and the threads pool
runs several tasks in one process: neither gets a watchdog. Imported by ``arena.celery_app``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from typing import Any

from celery import signals

from sandbox.shutdown import release_all

log = logging.getLogger(__name__)

#: How the process ends when its task overran: what a supervisor's logs show.
EXIT_CODE = 70
#: How long the sandbox's clean-up may take before the process ends anyway.
RELEASE_WAIT_S = 10.0

_state: dict[str, Any] = {"solo": False, "timers": {}}


@signals.worker_init.connect
def _note_the_pool(sender: Any = None, **_: Any) -> None:
    from celery.concurrency import get_implementation
    from celery.concurrency.solo import TaskPool as SoloPool

    pool = getattr(sender, "pool_cls", None)
    try:
        _state["solo"] = pool is not None and issubclass(get_implementation(pool), SoloPool)
    except Exception:  # an unknown pool name: Celery itself says so next
        _state["solo"] = False


def hard_limit_s(task: Any) -> float | None:
    """The hard time limit this delivery runs under: stamped on the message by its sender (what
    the prefork pool enforces), else the task's own."""
    stamped = getattr(task.request, "timelimit", None) or (None, None)
    limit = stamped[0] or getattr(task, "time_limit", None)
    return float(limit) if limit else None


@signals.task_prerun.connect
def _arm(task_id: str = "", task: Any = None, **_: Any) -> None:
    if not _state["solo"] or task is None:
        return
    limit = hard_limit_s(task)
    if limit is None:
        return
    timer = threading.Timer(limit, overdue, args=(task.name, task_id, limit))
    timer.daemon = True
    _state["timers"][task_id] = timer
    timer.start()


@signals.task_postrun.connect
def _disarm(task_id: str = "", **_: Any) -> None:
    timer = _state["timers"].pop(task_id, None)
    if timer is not None:
        timer.cancel()


def overdue(name: str, task_id: str, limit: float) -> None:
    """The task overran its hard limit: release the sandbox (boundedly) and end the process."""
    log.critical(
        "task %s[%s] still running past its hard time limit of %.0f s: ending this worker "
        "process so that its delivery comes back (watchdog of the solo pool)",
        name,
        task_id,
        limit,
    )
    cleaner = threading.Thread(target=release_all, daemon=True)
    cleaner.start()
    cleaner.join(RELEASE_WAIT_S)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed stream: nothing more to say
            stream.flush()
    logging.shutdown()
    os._exit(EXIT_CODE)
