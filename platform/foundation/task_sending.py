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


def send_named(name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None) -> str:
    """Put one message for task ``name`` on the broker (inline when eager); its task id. Raises
    what the broker raised (inline: what the task raised), for a caller that tells them apart."""
    if current_app.conf.task_always_eager:
        if name not in current_app.tasks:
            current_app.autodiscover_tasks(force=True)
        # Eager, apply_async runs it here and raises what it raised (task_eager_propagates).
        task = current_app.tasks[name]
        return str(task.apply_async(args=list(args), kwargs=kwargs or {}).id or "")
    task = current_app.tasks.get(name)
    if task is not None:
        # The task's own apply_async, as before sending by name: the message carries the
        # task's time limits (a people's match's differ from a bot match's) and is published
        # with the task's options (a dead broker failed in 38 s through send_task, CI, against
        # about half that before).
        return str(task.apply_async(args=list(args), kwargs=kwargs or {}).id or "")
    return str(current_app.send_task(name, args=list(args), kwargs=kwargs or {}).id or "")


def send_by_name(name: str, args: Sequence[Any] = (), kwargs: dict[str, Any] | None = None) -> bool:
    """Put one message for task ``name`` on the broker (inline when eager); False, logged,
    when it could not be sent (the broker is down): the caller's sweeper sends it again."""
    try:
        send_named(name, args, kwargs)
    except Exception:
        log.warning("task %s%s not sent", name, tuple(args) or "", exc_info=True)
        return False
    return True
