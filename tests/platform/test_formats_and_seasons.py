"""Tournaments played round by round in each format, league seasons with stored standings,
and ratings rebuilt from the history (eager mode; tests/foundation plays the same through Redis
and a real worker)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from bots.models import BotVersion
from competitions.models import LeagueStanding, Season, TournamentEntry, TournamentStatus
from competitions.selectors import league_standings, tournament_standings
from competitions.services.leagues import create_league, current_season, run_league_round
from competitions.services.tournaments import create_tournament, start_tournament
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django_celery_beat.models import PeriodicTask
from matches.models import ErrorKind, Match, MatchStatus
from ratings.models import Rating, RatingChange

from arena.ratings import standings


def field(games: dict[str, Any], size: int, slug: str = "manhattan-traffiq") -> list[BotVersion]:
    from competitions.management.commands.demo import demo_entrants

    game = games[slug]
    entrants = demo_entrants(game, size - 1)[:size]
    assert len({v.bot_id for v in entrants}) == size
    return entrants


def play(t: Any, capture: Any) -> None:
    with capture(execute=True):
        start_tournament(t)
    t.refresh_from_db()


def pairings(t: Any) -> list[frozenset[int]]:
    return [
        frozenset(m.seats.values_list("bot_version_id", flat=True))
        for m in t.matches.order_by("pk")
    ]


def test_swiss_plays_rounds_from_stored_standings(games, django_capture_on_commit_callbacks):
    entrants = field(games, 5)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="Swiss",
        entrants=entrants,
        format="swiss",
        seed=3,
    )
    play(t, django_capture_on_commit_callbacks)
    assert t.status == TournamentStatus.FINISHED
    # ceil(log2 5) = 3 rounds of 2 tables and a bye each; no pairing repeated (avoidable here).
    assert t.current_round == 2 and t.matches.count() == t.planned_matches == 6
    pairs = pairings(t)
    assert len(set(pairs)) == len(pairs)
    entries = list(TournamentEntry.objects.filter(tournament=t))
    assert sum(e.row["byes"] for e in entries) == 3
    assert all(e.matches + e.row["byes"] == 3 for e in entries)
    rows = tournament_standings(t)
    assert [r.position for r in rows] == [1, 2, 3, 4, 5]
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)


def test_knockout_ends_with_one_winner(games, django_capture_on_commit_callbacks):
    entrants = field(games, 4)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="Cup",
        entrants=entrants,
        format="knockout",
        seed=8,
    )
    play(t, django_capture_on_commit_callbacks)
    assert t.status == TournamentStatus.FINISHED
    rows = tournament_standings(t)
    assert [r.eliminated for r in rows] == [False, True, True, True]
    assert t.current_round == 1 and t.matches.count() == 3  # semi-finals, final
    final = t.matches.get(competition_link__round=1)
    winner = final.seats.get(rank=1).bot_version_id
    assert rows[0].version.pk == winner


def test_stored_table_equals_a_recomputation(games, django_capture_on_commit_callbacks):
    entrants = field(games, 4)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="RR",
        entrants=entrants,
        games_per_pairing=2,
        seed=11,
    )
    play(t, django_capture_on_commit_callbacks)
    records = []
    for m in t.matches.filter(status=MatchStatus.FINISHED).order_by("finished_at", "pk"):
        seats = list(m.seats.order_by("seat"))
        records.append(
            {
                "bots": [str(s.bot_version_id) for s in seats],
                "ranks": [s.rank for s in seats],
                "scores": [s.score for s in seats],
                "seat_status": [s.status for s in seats],
            }
        )
    fresh = standings(records).by_bot()
    for row in tournament_standings(t):
        expect = fresh[str(row.version.pk)]
        assert row.standing.matches == expect.matches == 6
        assert row.standing.wins == expect.wins
        assert row.standing.elo == pytest.approx(expect.elo)
        assert row.standing.mu == pytest.approx(expect.mu)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"format": "ladder"}, "Unknown format"),
        ({"format": "swiss", "max_matches": 3}, "Only a round robin can be cut"),
        ({"format": "knockout", "rounds": 2}, "plays until one winner"),
        ({"options": {"bogus": 1}}, "bogus"),
    ],
)
def test_tournament_settings_are_checked_at_creation(games, kwargs, message):
    entrants = field(games, 4)
    with pytest.raises(ValidationError, match=message):
        create_tournament(
            organiser=entrants[0].bot.owner,
            game=games["manhattan-traffiq"],
            name="bad",
            entrants=entrants,
            **kwargs,
        )


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


def test_recalculate_ratings_equals_the_live_path(games, django_capture_on_commit_callbacks):
    entrants = field(games, 4)
    t = create_tournament(
        organiser=entrants[0].bot.owner,
        game=games["manhattan-traffiq"],
        name="RR",
        entrants=entrants,
        games_per_pairing=2,
        seed=2,
    )
    play(t, django_capture_on_commit_callbacks)
    live = {r.bot_id: (r.elo, r.mu, r.sigma, r.matches_played) for r in Rating.objects.all()}
    changes = RatingChange.objects.count()
    assert live and changes == 2 * t.matches.count()
    Rating.objects.update(elo=1000, mu=1, sigma=1, matches_played=0)
    call_command("recalculate_ratings", "--game", "manhattan-traffiq")
    again = {r.bot_id: (r.elo, r.mu, r.sigma, r.matches_played) for r in Rating.objects.all()}
    assert set(again) == set(live)
    for bot, values in live.items():
        assert again[bot] == pytest.approx(values)
    assert RatingChange.objects.count() == changes


def test_error_match_can_be_requeued_and_is_then_rated_once(
    games, django_capture_on_commit_callbacks
):
    from matches.services import create_match, dispatch_match, mark_error, requeue_match

    a, b = field(games, 2)
    m = create_match(game=games["manhattan-traffiq"], versions=[a, b], seed=1)
    mark_error(m.pk, "the worker's disk was full", ErrorKind.WORKER)
    m.refresh_from_db()
    assert m.status == MatchStatus.ERROR and not RatingChange.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        assert requeue_match(m)
    m.refresh_from_db()
    assert m.status == MatchStatus.FINISHED and m.attempts == 1
    assert RatingChange.objects.filter(match=m).count() == 2
    # Finished matches are never played again; a stale delivery of an old attempt does nothing.
    assert not requeue_match(m)
    dispatch_match(m)
    assert RatingChange.objects.filter(match=m).count() == 2
    assert list(itertools.chain(Rating.objects.values_list("matches_played", flat=True))) == [1, 1]
