"""The bots' Celery task: checking an uploaded version's code on a worker (``bots.checks``)."""

from __future__ import annotations

from celery import shared_task

from bots import checks


@shared_task(
    name="bots.check_version",
    ignore_result=True,
    # The compiler runs in a child with its own limits; these bound the fetch and the rest.
    soft_time_limit=180,
    time_limit=240,
    # A platform failure (storage down, no child process) is retried; the bot's own faults
    # end the version ``failed`` inside the task and are never retried.
    autoretry_for=(Exception,),
    retry_backoff=30,
    max_retries=3,
)
def check_version(version_id: int) -> str:
    """Check (compile) one uploaded version; it then qualifies, or fails with the reason."""
    return checks.run_check(version_id)
