"""The production path of competitions: a Swiss tournament and a knockout played round by round
through Redis by a real worker process (each round scheduled by the worker that records the
last match of the one before), and a league round started by Celery beat's scheduler tick."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.conftest import WorkerProcess, celery_on, missing_service

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def worker(request: pytest.FixtureRequest, tmp_path: Any) -> WorkerProcess:
    request.node.worker_env = {
        "DATABASE_URL": _database_url(),
        "ARENA_SANDBOX": "process",
        "ARENA_DATA_DIR": str(tmp_path),
    }
    return request.getfixturevalue("celery_worker_process")


def _wait(check: Any, worker: WorkerProcess, what: str, limit: float = 240) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.3)
    raise AssertionError(f"{what} did not happen: {worker.stderr_tail()}")


def _field(size: int) -> tuple[Any, list[Any]]:
    from catalog.services import sync_games
    from competitions.management.commands.demo import demo_entrants

    game = {g.slug: g for g in sync_games()}["manhattan-traffiq"]
    return game, demo_entrants(game, size - 1)[:size]


@pytest.mark.parametrize(("fmt", "size", "matches"), [("swiss", 5, 6), ("knockout", 6, 5)])
def test_tournament_formats_on_a_worker(
    fmt: str, size: int, matches: int, redis_url: str, worker: WorkerProcess
) -> None:
    from competitions.models import Tournament, TournamentStatus
    from competitions.tournaments.selectors import tournament_standings
    from competitions.tournaments.services import create_tournament, start_tournament
    from matches.models import MatchStatus

    game, entrants = _field(size)
    t = create_tournament(
        organiser=entrants[0].bot.owner, game=game, name=fmt, entrants=entrants, format=fmt
    )
    with celery_on(redis_url):
        start_tournament(t)  # round 0 is sent on commit; the worker schedules the rest
        _wait(
            lambda: Tournament.objects.get(pk=t.pk).status == TournamentStatus.FINISHED,
            worker,
            f"the {fmt} tournament finishing",
        )
    t.refresh_from_db()
    assert t.matches.count() == matches
    assert set(t.matches.values_list("status", flat=True)) == {MatchStatus.FINISHED}
    assert all(m.worker and m.attempts == 1 for m in t.matches.all())
    rows = tournament_standings(t)
    if fmt == "knockout":
        assert sum(not r.eliminated for r in rows) == 1
    else:
        assert sum(r.byes for r in rows) == 3


def test_league_round_started_by_beat(redis_url: str, worker: WorkerProcess) -> None:
    from competitions.leagues.selectors import league_standings
    from competitions.leagues.services import create_league
    from django_celery_beat.schedulers import DatabaseScheduler
    from matches.models import Match, MatchStatus

    from arena.celery_app import app

    game, entrants = _field(4)
    lg = create_league(game=game, name="Beat league", every_hours=1)
    with celery_on(redis_url):
        scheduler = DatabaseScheduler(app=app, lazy=False)
        scheduler.tick()  # the league's entry is due: beat sends competitions.play_league_round
        _wait(
            lambda: (
                Match.objects.filter(competition_link__league=lg).count() == 2
                and not Match.objects.filter(competition_link__league=lg)
                .exclude(status=MatchStatus.FINISHED)
                .exists()
            ),
            worker,
            "the league round",
        )
    lg.refresh_from_db()
    assert lg.rounds_played == 1 and lg.last_run_at
    table = league_standings(lg, lg.seasons.get(number=1))
    assert sorted(r.bot.pk for r in table) == sorted(v.bot_id for v in entrants)
    assert sum(r.standing.matches for r in table) == 4
