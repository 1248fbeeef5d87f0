"""Tournaments played round by round in each format, and ratings rebuilt from the history
(eager mode; tests/workers plays the same through Redis and a real worker). A league's
seasons: tests/competitions/leagues/test_seasons.py."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from bots.models import BotVersion
from competitions.models import TournamentEntry, TournamentStatus
from competitions.selectors import tournament_standings
from competitions.services.tournaments import create_tournament, start_tournament
from django.core.exceptions import ValidationError
from django.core.management import call_command
from matches.models import MatchStatus
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
    mark_error(m.pk, "the worker's disk was full")
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
