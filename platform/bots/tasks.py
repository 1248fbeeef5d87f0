"""The bots' Celery tasks: checking an uploaded version's code on a builds worker
(``bots.upload_check``, within its owner's build time: ``bots.build_quota``), and the sweeper that
sends lost checks again (``bots.check_sweeper``). deploy/SCALING.md, "Builds"."""

from __future__ import annotations

from celery import shared_task

from bots import build_quota, check_sweeper
from bots.check_sending import CHECK_TASK


@shared_task(
    name=CHECK_TASK,
    ignore_result=True,
    # Routed to settings.BUILDS_QUEUE (CELERY_TASK_ROUTES): never on a match worker.
    soft_time_limit=check_sweeper.CHECK_SOFT_LIMIT_S,
    time_limit=check_sweeper.CHECK_TIME_LIMIT_S,
    # A platform failure (storage down, no child process) is retried; the bot's own faults
    # end the version ``failed`` inside the task and are never retried. Past the retries, the
    # sweeper sends it again.
    autoretry_for=(Exception,),
    retry_backoff=30,
    retry_backoff_max=check_sweeper.CHECK_RETRY_BACKOFF_MAX_S,
    max_retries=3,
)
def check_version(version_id: int) -> str:
    """Check (compile) one uploaded version; it then qualifies, or fails with the reason."""
    return build_quota.run_counted(version_id)


@shared_task(
    name="bots.sweep_checks",
    ignore_result=True,
    soft_time_limit=check_sweeper.SWEEP_TIME_LIMIT_S,
    time_limit=check_sweeper.SWEEP_TIME_LIMIT_S + 30,
)
def sweep_checks() -> dict[str, int]:
    """Periodic (Celery beat): send again the checks a dead worker or a failed send lost."""
    return check_sweeper.sweep_checks()
