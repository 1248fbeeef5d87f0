"""Leagues, their standings and the management commands, end to end in eager mode
(tournaments: tests/competitions/tournaments/test_tournaments_end_to_end.py)."""

from __future__ import annotations

import pytest
from bots.models import Bot
from competitions.leagues.services import run_league_round
from competitions.models import League, Tournament, TournamentStatus
from django.core.management import CommandError, call_command
from matches.models import Match, MatchStatus
from ratings.selectors import leaderboard


def test_league_round_schedules_each_bot_once(games, django_capture_on_commit_callbacks) -> None:
    from competitions.management.commands.demo import demo_entrants

    game = games["manhattan-traffiq"]
    demo_entrants(game, 2)
    league = League.objects.create(game=game, name="Ladder", every_hours=6, players_per_match=2)
    with django_capture_on_commit_callbacks(execute=True):
        matches = run_league_round(league)
    assert league.rounds_played == 1 and league.last_run_at
    assert len(matches) == 2
    seated = [s.bot_version.bot_id for m in matches for s in m.seats.all()]
    assert len(seated) == len(set(seated)) == 4
    assert all(Match.objects.get(pk=m.pk).status == MatchStatus.FINISHED for m in matches)
    # Not due again for six hours; --force plays anyway.
    call_command("run_leagues")
    assert League.objects.get(pk=league.pk).rounds_played == 1
    call_command("run_leagues", "--force")
    assert League.objects.get(pk=league.pk).rounds_played == 2


def test_load_games_is_idempotent(db) -> None:
    call_command("load_games")
    call_command("load_games")
    builtins = Bot.objects.filter(is_builtin=True, owner__username="arena")
    assert builtins.filter(game__slug="trnd", name="greedy").count() == 1
    assert builtins.values("game").distinct().count() == 4


def test_demo_runs_twice(db, capsys) -> None:
    call_command("demo", "--games", "manhattan-traffiq", "--matches", "2")
    call_command("demo", "--games", "manhattan-traffiq", "--matches", "2")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8000/" in out and "Demo Manhattan TraffIQ" in out
    assert Tournament.objects.filter(status=TournamentStatus.FINISHED).count() == 2
    assert Match.objects.filter(status=MatchStatus.FINISHED).count() == 4
    board = list(leaderboard(Tournament.objects.first().game))
    assert sum(r.matches_played for r in board) == 8
    with pytest.raises(CommandError, match="unknown game"):
        call_command("demo", "--games", "chess")


def test_league_page_table_follows_each_recorded_match(
    games, django_capture_on_commit_callbacks, client
) -> None:
    """The league's table is drawn once per version (``foundation.stamps``, bumped after each
    recorded match commits): the page shows every match as soon as it is recorded, for the
    season and all time."""
    import re

    from competitions.management.commands.demo import demo_entrants
    from matches.services import dispatch_match

    game = games["manhattan-traffiq"]
    demo_entrants(game, 2)
    league = League.objects.create(game=game, name="Cached", every_hours=6, players_per_match=2)
    matches = run_league_round(league, dispatch=False)
    assert len(matches) == 2

    def played(query: str = "") -> int:
        page = client.get(f"/tournaments/leagues/{league.pk}/{query}").content.decode()
        table = page.split("<h2>Standings", 1)[1].split("</table>", 1)[0]
        cells = re.findall(r'<td class="num">(\d+)</td><td class="num">\d+</td>', table)
        return sum(int(p) for p in cells)

    assert played() == 0 and played("?season=1") == 0
    for n, match in enumerate(matches, start=1):
        with django_capture_on_commit_callbacks(execute=True):
            dispatch_match(match)
        assert played() == 2 * n  # two seats a match
        assert played("?season=1") == 2 * n
        assert played() == 2 * n  # again, from the cache
