"""The platform's Celery tasks: storing what the referee's ``arena.run_match`` returns."""

from __future__ import annotations

from typing import Any

from meeple.celery import app

import arena.tasks  # noqa: F401  registers "arena.run_match" with the app (eager mode needs it)
from matches import services


@app.task(name="matches.record_match")
def record_match(outcome: dict[str, Any], match_id: int) -> dict[str, Any]:
    """Chained after ``arena.run_match``: store the outcome, rate it (one transaction)."""
    match = services.record_outcome(match_id, outcome)
    return {"match_id": match.pk, "status": match.status}


@app.task(name="matches.mark_match_error")
def mark_match_error(match_id: int, error: str) -> None:
    """The chain's error callback: a failed ``arena.run_match`` is a system error."""
    services.mark_error(match_id, error)
