"""Competitions' Celery tasks: the calendar's tick (beat, every minute: tournaments due to
start, spaced rounds, league rounds at their times), a league's round on its own beat entry,
and the organisers' long actions ("start", "play a round now"), run by a worker, not a
request."""

from __future__ import annotations

import logging
from datetime import datetime

from celery import shared_task
from django.core.exceptions import ValidationError
from django.utils import timezone

from competitions.calendar import CALENDAR_TASK, run_calendar
from competitions.leagues.services import (
    LEAGUE_TASK,
    ROUND_NOW_TASK,
    beat_round_due,
    run_league_round,
)
from competitions.live import clear_starting
from competitions.models import League, Tournament
from competitions.tournaments.services import START_TASK, start_tournament


@shared_task(name=LEAGUE_TASK, ignore_result=True)
def play_league_round(league_id: int) -> int:
    """Beat's tick of a league: schedule its next round (its matches go to the workers) if it
    is due; returns how many matches. Two beats by mistake send each tick twice: the second
    finds, under the league's row lock, the round just played and does nothing. The round is
    planned before that lock is taken (``run_league_round``)."""
    league = League.objects.filter(pk=league_id, is_active=True).first()
    if league is None:
        return 0
    return len(run_league_round(league, when=_beat_due))


def _beat_due(league: League, now: datetime) -> bool:
    return league.is_active and beat_round_due(league, now)


@shared_task(name=CALENDAR_TASK, ignore_result=True)
def calendar_tick() -> dict[str, int]:
    """Beat's minute (its entry: migration competitions 0008): what the calendar made due
    since the last tick (``services.calendar.run_calendar``). Two ticks at once are safe."""
    report = run_calendar(timezone.now())
    return {
        "started": report.started,
        "not_started": report.not_started,
        "rounds": report.rounds,
        "league_rounds": report.league_rounds,
    }


log = logging.getLogger(__name__)


@shared_task(name=START_TASK, ignore_result=True)
def start_tournament_task(tournament_id: int) -> int:
    """Start a draft tournament (its first round); 0 when it was started already (a request
    sent twice starts it once)."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return 0
    try:
        return len(start_tournament(t))
    except ValidationError as exc:
        log.warning("tournament %s not started: %s", tournament_id, exc.messages)
        clear_starting(t)  # the page shows the Start button again, not "Starting" for ever
        return 0


@shared_task(name=ROUND_NOW_TASK, ignore_result=True)
def play_league_round_now(league_id: int, number: int) -> int:
    """Round ``number`` of a league, if it is still the next one (paused leagues too: an
    organiser asked for it)."""
    league = League.objects.filter(pk=league_id).first()
    if league is None:
        return 0
    return len(run_league_round(league, number=number))
