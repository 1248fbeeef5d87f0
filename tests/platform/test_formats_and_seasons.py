"""Ratings rebuilt from the history (eager mode; tests/workers plays the same through Redis
and a real worker). Tournaments in each format:
tests/competitions/tournaments/test_formats_on_the_site.py; a league's seasons:
tests/competitions/leagues/test_seasons.py."""

from __future__ import annotations

import itertools

import pytest
from competitions.tournaments.services import create_tournament
from django.core.management import call_command
from matches.models import ErrorKind, MatchStatus
from ratings.models import Rating, RatingChange

from tests.competitions.tournaments.test_formats_on_the_site import field, play


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
