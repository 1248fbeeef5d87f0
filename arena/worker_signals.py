"""Celery's worker signals wired to the sandbox's clean-up, so that a worker process never
leaves bot containers behind however it stops (``sandbox.shutdown`` says how, per path).
Imported by ``arena.celery_app``: every worker of the app (``-A meeple`` or
``-A arena.celery_app``) has these receivers."""

from __future__ import annotations

from typing import Any

from celery import signals

from sandbox.shutdown import release_all


@signals.worker_process_shutdown.connect
def _on_process_shutdown(**_: Any) -> None:
    # A pool child: it ends with os._exit next, so no atexit hook of its own would run.
    release_all()


@signals.worker_shutdown.connect
def _on_worker_shutdown(**_: Any) -> None:
    # The main process (it plays matches itself in the solo and threads pools).
    release_all()
