"""The competitions' calendar, run by beat every minute (``competitions.calendar_tick``):
draft tournaments whose ``start_at`` has come start; spaced Swiss and knockout rounds whose
``next_round_at`` has come are scheduled; leagues play the round of their latest calendar time
(``starts_at + k * every_hours``). Every step takes ``now``, so tests move the clock by
passing it; each is bounded per tick (the rest waits a minute) and safe to run twice at once
(each tournament's and league's row is locked, and what is no longer due is left alone)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, QuerySet

from competitions import notices
from competitions.leagues.services import run_league_round
from competitions.leagues.timetable import league_round_due
from competitions.models import CompetitionMatch, League, Tournament, TournamentStatus
from competitions.tournaments.services import (
    DONE_STATUSES,
    play_waiting_round,
    start_tournament,
)

log = logging.getLogger(__name__)

#: The Celery task beat sends every minute, and its beat entry (a ``PeriodicTask`` made by
#: migration competitions 0008; a test with a real beat may shorten its interval).
CALENDAR_TASK = "competitions.calendar_tick"
CALENDAR_ENTRY = "competitions: calendar tick"
#: Most tournaments started, rounds scheduled and league rounds played in one tick: a tick
#: stays short (each is a transaction of its own); what is left is still due a minute later.
STARTS_PER_TICK = 20
ROUNDS_PER_TICK = 50
LEAGUES_PER_TICK = 20
#: Longest reason stored in ``Tournament.start_problem``, and the one of an unexpected error.
PROBLEM_MAX = 500
FAILED = "The site failed to start it (its administrators have the error in the log)."


@dataclass(frozen=True)
class TickReport:
    started: int = 0
    not_started: int = 0
    rounds: int = 0
    league_rounds: int = 0


def due_tournaments(now: datetime) -> QuerySet[Tournament]:
    """Draft tournaments whose start time has come, the earliest first."""
    return Tournament.objects.filter(
        status=TournamentStatus.DRAFT, start_at__isnull=False, start_at__lte=now
    ).order_by("start_at", "pk")


def start_due_tournaments(now: datetime, *, dispatch: bool = True) -> tuple[int, int]:
    """Start the due tournaments (``start_tournament``, the organisers' Start); one that
    cannot start (too few entrants, a field its format refuses) keeps its draft, loses its
    ``start_at`` (so it is not tried again every minute) and records why in
    ``start_problem`` for its page; its organisers are told. Returns (started, not started)."""
    started = refused = 0
    for t in list(due_tournaments(now)[:STARTS_PER_TICK]):
        try:
            start_tournament(t, dispatch=dispatch)
        except ValidationError as exc:
            refused += _not_started(t, " ".join(exc.messages))
        except Exception:  # a bug must not stop the others' starts, nor recur every minute
            log.exception("tournament %s: the start at %s failed", t.pk, t.start_at)
            refused += _not_started(t, FAILED)
        else:
            started += 1
            Tournament.objects.filter(pk=t.pk).exclude(start_problem="").update(start_problem="")
    return started, refused


def _not_started(t: Tournament, reason: str) -> int:
    # Only the draft as it was read: a start pressed meanwhile, or a new start time set by an
    # organiser, is theirs to keep.
    marked = Tournament.objects.filter(
        pk=t.pk, status=TournamentStatus.DRAFT, start_at=t.start_at
    ).update(start_at=None, start_problem=reason[:PROBLEM_MAX])
    if marked:
        log.info("tournament %s did not start at %s: %s", t.pk, t.start_at, reason)
        notices.tournament_not_started(t, reason)
    return marked


def due_round_tournaments(now: datetime) -> list[int]:
    """Running spaced tournaments whose next round is due and whose current round has ended
    (one query): a round still being played schedules the next one itself when it ends."""
    unfinished = CompetitionMatch.objects.filter(
        tournament=OuterRef("pk"), round=OuterRef("current_round")
    ).exclude(match__status__in=DONE_STATUSES)
    return list(
        Tournament.objects.filter(
            status=TournamentStatus.RUNNING, round_spacing_hours__gt=0, next_round_at__lte=now
        )
        .exclude(Exists(unfinished))
        .order_by("next_round_at", "pk")
        .values_list("pk", flat=True)[:ROUNDS_PER_TICK]
    )


def play_due_rounds(now: datetime, *, dispatch: bool = True) -> int:
    """Schedule the due spaced rounds; returns how many tournaments moved on."""
    moved = 0
    for pk in due_round_tournaments(now):
        try:
            moved += bool(play_waiting_round(pk, now, dispatch=dispatch))
        except Exception:  # the others' rounds still go; this one is tried next minute
            log.exception("tournament %s: its waiting round failed to schedule", pk)
    return moved


def due_league_ids(now: datetime) -> list[int]:
    """Active leagues whose latest calendar time has no round yet (leagues are few: their
    calendars are read in Python, four columns each)."""
    leagues = League.objects.filter(is_active=True, starts_at__lte=now).only(
        "pk", "is_active", "starts_at", "every_hours", "last_run_at"
    )
    return [lg.pk for lg in leagues.order_by("pk") if league_round_due(lg, now)]


def play_due_leagues(now: datetime, *, dispatch: bool = True) -> int:
    """Play the due leagues' rounds (each checked again under its row's lock)."""

    def due(lg: League, _at: datetime) -> bool:
        return lg.is_active and league_round_due(lg, now)

    played = 0
    for pk in due_league_ids(now)[:LEAGUES_PER_TICK]:
        league = League(pk=pk)
        try:
            run_league_round(league, when=due, now=now, dispatch=dispatch)
        except Exception:  # the other leagues still play; this one is tried next minute
            log.exception("league %s: its round at %s failed", pk, now)
            continue
        played += league.last_run_at == now  # not when another tick played it first
    return played


def run_calendar(now: datetime, *, dispatch: bool = True) -> TickReport:
    """One tick of the calendar: starts, spaced rounds, league rounds."""
    started, refused = start_due_tournaments(now, dispatch=dispatch)
    return TickReport(
        started=started,
        not_started=refused,
        rounds=play_due_rounds(now, dispatch=dispatch),
        league_rounds=play_due_leagues(now, dispatch=dispatch),
    )
