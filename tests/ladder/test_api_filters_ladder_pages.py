"""Ladder lists in bounded pages: the ladder API (``?page=``, with ``count``/``next``/
``previous`` as its schema says) and the game page's placement and suspended lists
(``?placement=``, ``?suspended=``), at the same number of queries whatever their size."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from bots.models import Bot
from catalog.models import Game
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from ladder.api import LadderPagination
from ladder.models import LadderEntry
from ratings.models import Rating
from site_pages.game_page import HELD_PAGE


def _ladder(game: Game, *, ranked: int, placement: int, suspended: int, start: int = 0) -> None:
    owner, _ = get_user_model().objects.get_or_create(username="owner")
    now = timezone.now()
    for i in range(start, start + ranked + placement + suspended):
        bot = Bot.objects.create(owner=owner, game=game, name=f"bot-{i:03d}")
        kind = i - start
        LadderEntry.objects.create(
            bot=bot,
            game=game,
            placement_owed=3 if ranked <= kind < ranked + placement else 0,
            suspended_at=now if kind >= ranked + placement else None,
        )
        if kind % 4:  # every fourth bot unrated
            Rating.objects.create(bot=bot, game=game, ordinal=float(i % 17), elo=1500.0)


def test_the_ladder_api_pages_best_first_as_its_schema_says(trnd: Game) -> None:
    _ladder(trnd, ranked=40, placement=15, suspended=10)
    size = LadderPagination.page_size
    first = Client().get(f"/api/games/{trnd.slug}/ladder/").json()
    assert first["count"] == 65 and len(first["entries"]) == size
    assert first["previous"] is None and "page=2" in first["next"]
    second = Client().get(first["next"]).json()
    assert len(second["entries"]) == 65 - size and second["next"] is None
    rows = first["entries"] + second["entries"]
    assert len({r["bot"] for r in rows}) == 65
    # Best rated first (ordinal down), the unrated last, each group by name.
    rated = [r for r in rows if r["rating"] is not None]
    unrated = [r for r in rows if r["rating"] is None]
    assert rows == rated + unrated
    keys = [(-r["rating"]["ordinal"], r["name"]) for r in rated]
    assert keys == sorted(keys)
    assert [r["name"] for r in unrated] == sorted(r["name"] for r in unrated)
    # The schema documents exactly these keys, and the page parameter.
    out = StringIO()
    call_command("spectacular", "--format", "openapi-json", stdout=out)
    schema = json.loads(out.getvalue())
    op = schema["paths"]["/api/games/{slug}/ladder/"]["get"]
    assert "page" in {p["name"] for p in op["parameters"]}
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    component = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]
    assert set(component["properties"]) == set(first)
    assert set(component["required"]) == set(first)


@pytest.mark.parametrize("page", ["x", "0", "%D9%A1", "99"])
def test_a_bad_ladder_page_is_refused(trnd: Game, page: str) -> None:
    _ladder(trnd, ranked=3, placement=0, suspended=0)
    got = Client().get(f"/api/games/{trnd.slug}/ladder/?page={page}")
    assert got.status_code == 404 and "page" in got.json()["detail"].lower()


def _game_page(client: Client, url: str) -> tuple[Any, int]:
    cache.clear()
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return response, len(ctx.captured_queries)


def test_the_game_page_pages_its_held_lists_at_a_constant_cost(trnd: Game) -> None:
    client = Client()
    _ladder(trnd, ranked=5, placement=3, suspended=2)
    _, small = _game_page(client, f"/games/{trnd.slug}/")
    _ladder(trnd, ranked=5, placement=2 * HELD_PAGE + 5, suspended=HELD_PAGE + 1, start=100)
    page, big = _game_page(client, f"/games/{trnd.slug}/")
    assert big == small
    placement, suspended = page.context["in_placement"], page.context["suspended"]
    assert (
        len(placement.object_list) == HELD_PAGE and placement.paginator.count == 2 * HELD_PAGE + 8
    )
    assert len(suspended.object_list) == HELD_PAGE and suspended.paginator.count == HELD_PAGE + 3
    html = page.content.decode()
    assert "?placement=2#placement" in html and "?suspended=2#suspended" in html
    last, _ = _game_page(client, f"/games/{trnd.slug}/?placement=3")
    assert len(last.context["in_placement"].object_list) == 8
    # Held bots stay out of the ranking, whatever their number.
    ranked = {r.bot_id for r in page.context["ratings"]}
    held = set(
        LadderEntry.objects.exclude(placement_owed=0, suspended_at=None).values_list(
            "bot_id", flat=True
        )
    )
    assert ranked and not ranked & held
