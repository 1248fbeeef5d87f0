"""The platform's Celery tasks: a worker plays and records a match itself (so a result is
stored before its message is acknowledged), and a periodic sweeper takes back lost matches.
Settings and why: deploy/SCALING.md, "Exactly once"."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from meeple.celery import app

import arena.tasks  # noqa: F401  registers "arena.run_match" (the contract's task) with the app
from matches import services


@app.task(
    bind=True,
    name="matches.play_match",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=settings.ARENA_MATCH_TIME_LIMIT_S,
    time_limit=settings.ARENA_MATCH_TIME_LIMIT_S + 30,
)
def play_match(self: Any, match_id: int, attempt: int) -> dict[str, Any] | None:
    """Claim, play and record attempt ``attempt`` of match ``match_id`` (a stale or duplicate
    delivery does nothing)."""
    match = services.play(match_id, attempt, node=self.request.hostname or "")
    return None if match is None else {"match_id": match.pk, "status": match.status}


@app.task(name="matches.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Periodic (Celery beat): send again, or fail, the matches no worker will finish."""
    return services.sweep_matches()
