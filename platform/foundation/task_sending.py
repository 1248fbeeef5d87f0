"""Sending work to a worker by the task's name, never by importing the task: services stay
below their tasks (no import cycle, not even through a function-level import), and the
routes in ``CELERY_TASK_ROUTES`` choose the queue.

When tasks run eagerly (tests, scripts), Celery's ``send_task`` would still post a message;
here the task is found by name in the app's registry (after the apps' task modules are
imported, as a worker imports them) and run in this process.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import current_app

log = logging.getLogger(__name__)


def send_by_name(name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None) -> bool:
    """Put one message for task ``name`` on the broker (inline when eager); False, logged,
    when it could not be sent (the broker is down): the caller's sweeper sends it again."""
    try:
        if current_app.conf.task_always_eager:
            if name not in current_app.tasks:
                current_app.autodiscover_tasks(force=True)
            current_app.tasks[name].apply(args=list(args), kwargs=kwargs or {}, throw=True)
        else:
            current_app.send_task(name, args=list(args), kwargs=kwargs or {})
    except Exception:
        log.warning("task %s%s not sent", name, tuple(args) or "", exc_info=True)
        return False
    return True
