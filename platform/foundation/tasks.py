"""Periodic upkeep of what every app stands on (Celery beat; the schedule is a migration)."""

from __future__ import annotations

from celery import shared_task

from foundation.rate_counter import sweep_expired


@shared_task(name="foundation.sweep_rate_counts", ignore_result=True, soft_time_limit=60)
def sweep_rate_counts() -> int:
    """Delete the rate counters of windows gone by (embedded default: they live in a table)."""
    return sweep_expired()
