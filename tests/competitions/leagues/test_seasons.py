"""A league's seasons: each keeps its own stored table beside the all-time one, and the next
season opens when one has played its rounds (eager mode; tests/foundation plays a league
through Redis and a real worker)."""

from __future__ import annotations

from typing import Any

import pytest
from competitions.leagues.selectors import league_standings
from competitions.leagues.services import create_league, current_season, run_league_round
from competitions.management.commands.demo import demo_entrants
from competitions.models import LeagueStanding, Season
from django_celery_beat.models import PeriodicTask
from matches.models import Match


def field(games: dict[str, Any], size: int) -> list[Any]:
    """``size`` bots of Manhattan Traffiq (built-ins and numbered copies)."""
    entrants = demo_entrants(games["manhattan-traffiq"], size - 1)[:size]
    assert len({v.bot_id for v in entrants}) == size
    return entrants


def test_league_seasons_keep_season_and_all_time_tables(games, django_capture_on_commit_callbacks):
    entrants = field(games, 4)
    lg = create_league(
        game=games["manhattan-traffiq"], name="Weekly", every_hours=6, rounds_per_season=2, seed=4
    )
    task = PeriodicTask.objects.get(name=f"League {lg.pk}")
    assert task.task == "competitions.play_league_round" and task.enabled
    assert task.interval.every == 6 and task.interval.period == "hours"
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            matches = run_league_round(lg)
        assert len(matches) == 2  # every bot once: 4 bots, 2-seat tables
    seasons = list(Season.objects.filter(league=lg).order_by("number"))
    assert [(s.number, s.rounds_played, s.is_over) for s in seasons] == [
        (1, 2, True),
        (2, 1, False),
    ]
    # Swiss pairing over the season's stored rows: nobody meets the same bot twice in season 1.
    first = [
        frozenset(m.seats.values_list("bot_version__bot_id", flat=True))
        for m in Match.objects.filter(
            competition_link__league=lg, competition_link__round__in=[1, 2]
        )
    ]
    assert len(set(first)) == 4
    all_time = league_standings(lg)
    s1, s2 = (league_standings(lg, s) for s in seasons)
    assert sum(r.standing.matches for r in all_time) == 12
    assert sum(r.standing.matches for r in s1) == 8 and sum(r.standing.matches for r in s2) == 4
    by_bot = {r.bot.pk: r.points for r in all_time}
    for bot_id, pts in by_bot.items():
        parts = [r.points for r in (*s1, *s2) if r.bot.pk == bot_id]
        assert pts == pytest.approx(sum(parts))
    assert {v.bot_id for v in entrants} == set(by_bot)
    assert LeagueStanding.objects.filter(league=lg, season__isnull=True).count() == 4
    assert current_season(lg).number == 2
