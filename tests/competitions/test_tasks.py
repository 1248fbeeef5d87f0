"""Competitions' work is sent by task name: the services name the tasks, ``competitions.tasks``
registers them under those names (it imports the services, never the reverse: the import
contracts), and a name sent while tasks run inline finds its task and does the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import competitions.tasks
from catalog.models import Game
from competitions.calendar import CALENDAR_TASK
from competitions.leagues.services import (
    LEAGUE_TASK,
    ROUND_NOW_TASK,
    create_league,
    enqueue_league_round,
)
from competitions.models import TournamentStatus
from competitions.tournaments.services import START_TASK, create_tournament, enqueue_start
from matches.models import MatchStatus

from arena.celery_app import app


def test_every_name_the_services_send_is_a_task_of_competitions() -> None:
    for name in (START_TASK, ROUND_NOW_TASK, LEAGUE_TASK, CALENDAR_TASK):
        assert name in app.tasks, name
        assert app.tasks[name].__module__ == competitions.tasks.__name__, name


def test_play_a_round_now_reaches_its_task_by_name(
    trnd: Game, three_versions: Any, inline: Callable[..., Any]
) -> None:
    lg = create_league(game=trnd, name="Weekly", players_per_match=3, is_active=False)
    inline(enqueue_league_round, lg)
    lg.refresh_from_db()
    assert lg.rounds_played == 1
    statuses = set(lg.matches.values_list("status", flat=True))
    assert statuses == {MatchStatus.FINISHED}, statuses


def test_start_reaches_its_task_by_name(
    trnd: Game, three_versions: Any, inline: Callable[..., Any]
) -> None:
    t = create_tournament(
        organiser=three_versions[0].bot.owner,
        game=trnd,
        name="Cup",
        entrants=three_versions,
        players_per_match=3,
    )
    inline(enqueue_start, t)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED and t.matches.count() > 0
