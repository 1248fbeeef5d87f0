"""The competitions' calendar (``services.calendar``, beat's minute): tournaments start at
their time, one that cannot start is marked once, spaced rounds wait for their time and then
play, leagues play on their calendar. The clock moves by passing ``now``: no sleeps."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from audiences.models import Audience, AudienceMember, AudienceRole
from bots.models import BotVersion
from competitions.calendar import (
    CALENDAR_ENTRY,
    CALENDAR_TASK,
    due_league_ids,
    due_round_tournaments,
    due_tournaments,
    run_calendar,
)
from competitions.leagues.services import create_league
from competitions.leagues.timetable import (
    league_next_round_at,
    league_round_due,
    league_slot,
)
from competitions.models import League, Tournament, TournamentStatus
from competitions.tournaments.services import create_tournament
from django.test import Client
from django.utils import timezone
from django_celery_beat.models import PeriodicTask
from matches.models import Match, MatchStatus
from notifications.models import Notification

HOUR = timedelta(hours=1)


def field(games: dict[str, Any], size: int) -> list[BotVersion]:
    from competitions.management.commands.demo import demo_entrants

    return demo_entrants(games["manhattan-traffiq"], size - 1)[:size]


def new(games: dict[str, Any], size: int, **kwargs: Any) -> Tournament:
    entrants = field(games, size)
    kwargs.setdefault("start_at", timezone.now() + HOUR)
    return create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="Cup",
        entrants=entrants,
        seed=5,
        **kwargs,
    )


def start_of(t: Tournament) -> datetime:
    assert t.start_at is not None
    return t.start_at


def due_of(t: Tournament) -> datetime:
    t.refresh_from_db()
    assert t.next_round_at is not None
    return t.next_round_at


def round_of(t: Tournament, number: int) -> list[Match]:
    return list(t.matches.filter(competition_link__round=number))


def test_a_tournament_starts_at_its_time_not_before(games: Any) -> None:
    t = new(games, 4)
    at = start_of(t)
    before = run_calendar(at - timedelta(seconds=1), dispatch=False)
    assert before.started == 0 and not due_tournaments(at - timedelta(seconds=1))
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT and t.matches.count() == 0
    assert list(due_tournaments(at)) == [t]
    report = run_calendar(at, dispatch=False)
    assert report.started == 1 and report.not_started == 0
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.entries.count() == 4
    assert t.matches.count() == 2  # round 0 of a round robin of 4: two tables
    # The next tick finds nothing to start: started once.
    assert run_calendar(at + timedelta(minutes=1), dispatch=False).started == 0
    assert t.matches.count() == 2


def test_too_few_entrants_is_marked_once_and_keeps_the_draft(games: Any, user: Any) -> None:
    t = new(games, 1)
    due = start_of(t)
    t.audience = Audience.objects.create(label="Cup")  # a co-organiser is told too
    t.save(update_fields=["audience"])
    AudienceMember.objects.create(audience=t.audience, user=user, role=AudienceRole.ORGANISER)
    assert due is not None
    report = run_calendar(due, dispatch=False)
    assert (report.started, report.not_started) == (0, 1)
    t.refresh_from_db()
    assert t.status == TournamentStatus.DRAFT
    assert t.start_at is None
    assert "needs at least 2 entrants (it has 1)" in t.start_problem
    told = Notification.objects.filter(title="Cup did not start")
    assert sorted(n.user_id for n in told) == sorted([t.organiser_id, user.pk])
    assert all(n.url == f"/tournaments/{t.pk}/" for n in told)
    assert "needs at least 2 entrants (it has 1)" in told[0].body
    # Not tried again every minute.
    for minutes in (1, 2, 60):
        assert run_calendar(due + timedelta(minutes=minutes), dispatch=False).not_started == 0
    # A new start time, once the field is full, starts it and clears the problem.
    t.entrants.add(*field(games, 3))
    Tournament.objects.filter(pk=t.pk).update(start_at=due + 2 * HOUR)
    assert run_calendar(due + 2 * HOUR, dispatch=False).started == 1
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.start_problem == ""
    assert Notification.objects.filter(title="Cup did not start").count() == 2  # not again


def test_a_start_pressed_meanwhile_is_not_marked_as_a_problem(
    games: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from competitions import calendar
    from competitions.tournaments.services import start_tournament

    t = new(games, 4)
    due = start_of(t)
    stale = list(calendar.due_tournaments(due))  # what the tick read ...
    start_tournament(t, dispatch=False)  # ... before the organiser's Start took the lock
    monkeypatch.setattr(calendar, "due_tournaments", lambda now: stale)
    assert calendar.start_due_tournaments(due, dispatch=False) == (0, 0)
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING
    assert t.start_problem == "" and t.start_at == due


@pytest.mark.parametrize(("fmt", "size", "rounds"), [("swiss", 5, 3), ("knockout", 4, 2)])
def test_spaced_rounds_wait_for_their_time_then_play(
    games: Any, inline: Callable[..., Any], client: Client, fmt: str, size: int, rounds: int
) -> None:
    t = new(games, size, format=fmt, round_spacing_hours=24)
    inline(run_calendar, start_of(t))  # starts it; round 0 is played by the (eager) workers
    t.refresh_from_db()
    assert t.status == TournamentStatus.RUNNING and t.current_round == 0
    assert all(m.status == MatchStatus.FINISHED for m in round_of(t, 0))
    assert round_of(t, 1) == []  # waiting: its round falls a day after the first began
    assert timedelta(hours=23) < due_of(t) - timezone.now() <= timedelta(hours=24)
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert f'the next one at <time datetime="{due_of(t):%Y-%m-%dT%H:%M:%SZ}" data-local>' in page
    for number in range(1, rounds):
        due = due_of(t)
        assert due_round_tournaments(due - timedelta(seconds=1)) == []
        assert inline(run_calendar, due - timedelta(seconds=1)).rounds == 0
        assert round_of(t, number) == []
        assert due_round_tournaments(due) == [t.pk]
        assert inline(run_calendar, due).rounds == 1
        t.refresh_from_db()
        assert t.current_round == number and len(round_of(t, number)) > 0
        assert all(m.status == MatchStatus.FINISHED for m in round_of(t, number))
        if t.status == TournamentStatus.RUNNING:
            assert t.next_round_at == due + timedelta(hours=24)  # its start + the spacing
    assert t.status == TournamentStatus.FINISHED and t.next_round_at is None
    assert t.entries.filter(position=1).exists()


def test_a_round_still_playing_at_its_successors_time_schedules_it_when_it_ends(
    games: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from matches.services import dispatch_matches

    t = new(games, 4, format="swiss", round_spacing_hours=2)
    run_calendar(start_of(t), dispatch=False)  # round 0 queued, not played
    late = due_of(t) + HOUR
    assert due_round_tournaments(late) == []  # its round is still being played
    assert run_calendar(late, dispatch=False).rounds == 0
    Tournament.objects.filter(pk=t.pk).update(next_round_at=timezone.now() - HOUR)
    with django_capture_on_commit_callbacks(execute=True):
        dispatch_matches(round_of(t, 0))  # the last match's end schedules round 1 at once
    t.refresh_from_db()
    assert t.current_round >= 1 and round_of(t, 1)


def test_a_round_robin_is_not_spaced(games: Any, inline: Callable[..., Any]) -> None:
    t = new(games, 3, round_spacing_hours=24)
    inline(run_calendar, start_of(t))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.next_round_at is None


def utc(day: int, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, second, tzinfo=UTC)


def test_league_calendar_arithmetic() -> None:
    lg = League(starts_at=utc(1, 20, 0), every_hours=6, is_active=True)
    assert league_slot(lg, utc(1, 19, 59)) is None
    assert league_next_round_at(lg, utc(1, 19, 0)) == utc(1, 20, 0)
    assert league_slot(lg, utc(1, 20, 0)) == utc(1, 20, 0)
    assert league_slot(lg, utc(3, 7, 59)) == utc(3, 2, 0)
    assert league_round_due(lg, utc(1, 20, 0))
    lg.last_run_at = utc(1, 20, 0, 30)  # played (a tick runs a little late)
    assert not league_round_due(lg, utc(2, 1, 59))
    assert league_next_round_at(lg, utc(2, 1, 59)) == utc(2, 2, 0)
    assert league_round_due(lg, utc(2, 2, 0))
    # "Play a round now" in between does not move the calendar.
    lg.last_run_at = utc(2, 4, 0)
    assert league_next_round_at(lg, utc(2, 5, 0)) == utc(2, 8, 0)
    # Times missed while beat was down: one round, then the calendar again.
    lg.last_run_at = utc(1, 20, 0)
    assert league_next_round_at(lg, utc(5, 9, 0)) == utc(5, 8, 0)
    lg.is_active = False
    assert league_next_round_at(lg, utc(5, 9, 0)) is None


def test_leagues_play_on_their_calendar(games: Any, inline: Callable[..., Any]) -> None:
    field(games, 4)
    now = timezone.now().replace(microsecond=0)
    starts = now + 2 * HOUR
    lg = create_league(
        game=games["manhattan-traffiq"], name="Nightly", every_hours=6, starts_at=starts
    )
    assert lg.starts_at == starts
    season = lg.seasons.get()
    assert season.starts_at == starts  # the first season begins with the calendar
    assert due_league_ids(now) == [] and inline(run_calendar, now).league_rounds == 0
    report = inline(run_calendar, starts + timedelta(seconds=40))
    assert report.league_rounds == 1
    lg.refresh_from_db()
    assert lg.rounds_played == 1 and lg.last_run_at == starts + timedelta(seconds=40)
    assert lg.matches.count() == 2
    assert inline(run_calendar, starts + 5 * HOUR).league_rounds == 0  # played already
    assert league_next_round_at(lg, starts + 5 * HOUR) == starts + 6 * HOUR
    assert inline(run_calendar, starts + 6 * HOUR).league_rounds == 1
    lg.refresh_from_db()
    assert lg.rounds_played == 2


def test_a_league_without_a_start_time_starts_now(games: Any) -> None:
    before = timezone.now()
    lg = create_league(game=games["manhattan-traffiq"], name="Now", every_hours=24)
    assert lg.starts_at is not None and before <= lg.starts_at <= timezone.now()
    assert due_league_ids(timezone.now()) == [lg.pk]
    task = PeriodicTask.objects.get(name=f"League {lg.pk}")
    assert task.start_time == lg.starts_at


def test_the_league_beat_entry_follows_the_calendar(games: Any) -> None:
    from competitions.tasks import play_league_round

    field(games, 4)
    lg = create_league(
        game=games["manhattan-traffiq"],
        name="Later",
        every_hours=24,
        starts_at=timezone.now() + HOUR,
    )
    assert play_league_round(lg.pk) == 0  # its own entry ticks: not before the calendar
    lg.refresh_from_db()
    assert lg.rounds_played == 0


def test_beat_runs_the_calendar_every_minute(db: None) -> None:
    import competitions.tasks
    from meeple.celery import app

    entry = PeriodicTask.objects.get(name=CALENDAR_ENTRY, task=CALENDAR_TASK)
    assert entry.enabled and (entry.interval.every, entry.interval.period) == (1, "minutes")
    assert CALENDAR_TASK in app.tasks
    assert competitions.tasks.calendar_tick() == {
        "started": 0,
        "not_started": 0,
        "rounds": 0,
        "league_rounds": 0,
    }


def test_an_unexpected_error_marks_that_start_and_the_others_go_on(
    games: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from competitions import calendar

    broken, fine = new(games, 4), new(games, 4)
    due = max(start_of(broken), start_of(fine))
    real = calendar.start_tournament

    def start(t: Tournament, **kwargs: Any) -> Any:
        if t.pk == broken.pk:
            raise RuntimeError("a bug")
        return real(t, **kwargs)

    monkeypatch.setattr(calendar, "start_tournament", start)
    assert calendar.start_due_tournaments(due, dispatch=False) == (1, 1)
    broken.refresh_from_db()
    fine.refresh_from_db()
    assert fine.status == TournamentStatus.RUNNING
    assert broken.status == TournamentStatus.DRAFT and broken.start_at is None
    assert broken.start_problem == calendar.FAILED
