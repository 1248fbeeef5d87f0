"""Celery's worker signals wired to the sandbox's clean-up, so that a worker process never
leaves bot containers behind however it stops (``sandbox.shutdown`` says how, per path).
Imported by ``arena.celery_app``: every worker of the app (``-A meeple`` or
``-A arena.celery_app``) has these receivers."""

from __future__ import annotations

from typing import Any

from celery import signals

from sandbox.shutdown import install_sigterm_cleanup, release_all


@signals.worker_process_init.connect
def _on_process_init(**_: Any) -> None:
    # A pool child: Celery resets its SIGTERM to the default (die at once).
    install_sigterm_cleanup()


@signals.worker_process_shutdown.connect
def _on_process_shutdown(**_: Any) -> None:
    # A pool child leaving its loop ends with os._exit: no atexit hook runs after this.
    release_all()


@signals.worker_shutdown.connect
def _on_worker_shutdown(**_: Any) -> None:
    # The main process (it plays matches itself in the solo and threads pools).
    release_all()
