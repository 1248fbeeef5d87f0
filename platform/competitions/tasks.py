"""Competitions' Celery tasks: a league's round, run by beat on the league's own schedule."""

from __future__ import annotations

from meeple.celery import app

from competitions.models import League
from competitions.services import LEAGUE_TASK, run_league_round


@app.task(name=LEAGUE_TASK, ignore_result=True)
def play_league_round(league_id: int) -> int:
    """Schedule the league's next round (its matches go to the workers); returns how many."""
    league = League.objects.filter(pk=league_id, is_active=True).first()
    if league is None:
        return 0
    return len(run_league_round(league))
