"""The Celery application running matches.

Configured from the environment so that the ``arena`` side works without Django: with no
``CELERY_BROKER_URL`` tasks run eagerly in the calling process (no broker, nothing to start);
with ``redis://...`` they go to workers on any number of machines. The Django site re-reads the
same values from its settings (``platform/meeple/celery.py``).
"""

from __future__ import annotations

import os

from celery import Celery

app = Celery("meeple_arena", include=["arena.tasks"])

_broker = os.environ.get("CELERY_BROKER_URL", "")
app.conf.update(
    broker_url=_broker or "memory://",
    result_backend=os.environ.get("CELERY_RESULT_BACKEND", _broker) or None,
    task_always_eager=not _broker,
    task_eager_propagates=True,
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    # A match is long and must not be lost with a worker: acknowledge after running, one at a time.
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    result_expires=24 * 3600,
    broker_connection_retry_on_startup=True,
)

import arena.worker_signals  # noqa: E402  no bot container outlives a worker process
import arena.worker_watchdog  # noqa: E402, F401  a solo worker never runs a task past its limit
