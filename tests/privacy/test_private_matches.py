"""A private tournament's matches: made with its audience and unrated, seen by its members,
organiser and staff only (lists, pages, the API), counted in no public counter."""

from __future__ import annotations

from typing import Any

import pytest
from catalog.models import Game
from competitions.tournaments.services import create_tournament, start_tournament
from django.test import Client
from matches.models import Match
from matches.services import recount_game_counters
from ratings.models import RatingChange, SeatStat

from tests.privacy.world import SECRET_NAME, World

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def test_round_matches_carry_the_audience_and_are_unrated(world: World) -> None:
    private = Match.objects.filter(pk__in=world.private_ids)
    assert world.private.audience_id is not None
    assert set(private.values_list("audience_id", flat=True)) == {world.private.audience_id}
    assert set(private.values_list("rated", flat=True)) == {False}
    assert not RatingChange.objects.filter(match_id__in=world.private_ids).exists()
    public = world.public.matches.all()
    assert set(public.values_list("audience_id", "rated")) == {(None, True)}


def test_private_matches_feed_no_public_counter(world: World) -> None:
    game = Game.objects.get(pk=world.public.game_id)
    public_finished = Match.objects.filter(game=game, status="finished", audience=None).count()
    assert Match.objects.filter(pk__in=world.private_ids, status="finished").exists()
    assert game.match_count == public_finished  # kept as matches are recorded
    recount_game_counters()
    game.refresh_from_db()
    assert game.match_count == public_finished  # and the recount agrees
    played = sum(SeatStat.objects.filter(bot=world.bot).values_list("played", flat=True))
    assert played == RatingChange.objects.filter(bot=world.bot).count()  # rated ones only


@pytest.mark.parametrize("who", ["member", "organiser", "staff"])
def test_members_see_the_private_matches(world: World, who: str) -> None:
    client = _client(getattr(world, who))
    match = world.private_match.pk
    assert client.get(f"/matches/{match}/").status_code == 200
    assert client.get(f"/api/matches/{match}/").status_code == 200
    assert client.get(f"/api/matches/{match}/replay/").status_code == 200
    listed = client.get(f"/api/matches/?tournament={world.private.pk}").json()["results"]
    assert sorted(m["id"] for m in listed) == world.private_ids
    assert SECRET_NAME in client.get("/tournaments/").content.decode()
    assert client.get(f"/tournaments/{world.private.pk}/").status_code == 200


@pytest.mark.parametrize("who", [None, "outsider"])
def test_others_get_404_and_empty_lists(world: World, who: str | None) -> None:
    client = _client(getattr(world, who) if who else None)
    match = world.private_match.pk
    for url in (
        f"/matches/{match}/",
        f"/matches/{match}/status.json",
        f"/matches/{match}/steps/0.json",
        f"/matches/{match}/replay.json",
        f"/matches/{match}/logs.json",
        f"/api/matches/{match}/",
        f"/api/matches/{match}/replay/",
        f"/tournaments/{world.private.pk}/",
        f"/api/tournaments/{world.private.pk}/",
    ):
        assert client.get(url).status_code == 404, url
    listed = client.get(f"/api/matches/?tournament={world.private.pk}").json()
    assert listed["results"] == [] and listed["count"] == 0
    mine = client.get(f"/api/matches/?bot={world.bot.pk}").json()["results"]
    assert mine and not {m["id"] for m in mine} & set(world.private_ids)


def test_cache_headers_keep_private_matches_out_of_shared_caches(world: World) -> None:
    client = _client(world.member)
    private, public = world.private_match.pk, world.public_match.pk
    for url in ("status.json", "steps/0.json"):
        assert client.get(f"/matches/{private}/{url}")["Cache-Control"].startswith("private")
        assert client.get(f"/matches/{public}/{url}")["Cache-Control"].startswith("public")
    replay = client.get(f"/api/matches/{private}/replay/")
    assert replay["Cache-Control"].startswith("private")


def test_a_private_tournament_rated_on_the_ladder_rates_its_matches(world: World) -> None:
    t = create_tournament(
        organiser=world.organiser,
        game=world.private.game,
        name="Rated private",
        entrants=list(world.private.entrants.all()),
        visibility="private",
        rated_on_ladder=True,
    )
    matches = start_tournament(t, dispatch=False)
    assert matches and {(m.audience_id, m.rated) for m in matches} == {(t.audience_id, True)}
