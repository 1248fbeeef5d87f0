"""The play chooser (``/play/new/?game=`` and ``?bot=``) at any size (issue 24): each seat
offers the built-ins, the user's own bots, the bot they came from and the best rated
(``play.selectors.CHOOSER_SIZE``), a search finds any other, and a bot found that way can be
seated; the page costs the same queries whatever the game holds."""

from __future__ import annotations

from typing import Any

import pytest
from bots.models import Bot, BotVersion
from catalog.models import Game
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from play.selectors import CHOOSER_SIZE
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def _bots(game: Game, start: int, n: int) -> list[Bot]:
    """``n`` uploaded bots of one author, each with a version and a rating (better the higher
    its number)."""
    owner, _ = get_user_model().objects.get_or_create(username="crowd")
    made = []
    for i in range(start, start + n):
        bot = Bot.objects.create(owner=owner, game=game, name=f"crowd-{i:03d}")
        BotVersion.objects.create(bot=bot, number=1, builtin_name="random", status="active")
        Rating.objects.create(bot=bot, game=game, ordinal=float(i))
        made.append(bot)
    return made


def _names(page: str) -> set[str]:
    """The crowd's bots the seats' drop-downs offer."""
    texts = (part.split("<", 1)[0] for part in page.split(">"))
    return {t.split(" ")[0] for t in texts if t.startswith("crowd-")}


def test_seats_offer_the_best_rated_and_a_search_finds_the_others(
    trnd: Game, builtin_versions: Any, user: Any, user_bot: Bot
) -> None:
    crowd = _bots(trnd, 0, CHOOSER_SIZE + 10)
    BotVersion.objects.create(bot=user_bot, number=1, builtin_name="random", status="active")
    c = Client()
    c.force_login(user)
    page = c.get(f"/play/new/?game={trnd.slug}").content.decode()
    best = {b.name for b in crowd[-CHOOSER_SIZE:]}
    assert _names(page) == best  # the best rated, not every bot
    assert "(built-in)" in page and "first-legal" in page  # built-ins and the user's own
    weakest = crowd[0]
    page = c.get(f"/play/new/?game={trnd.slug}&bot={weakest.pk}").content.decode()
    assert weakest.name in _names(page)  # the bot whose page the user came from
    page = c.get(f"/play/new/?game={trnd.slug}&q=crowd-00").content.decode()
    assert _names(page) == {f"crowd-00{i}" for i in range(10)}
    assert 'value="crowd-00"' in page
    # a bot found by a search is seated (the form posts its newest version's id)
    version = weakest.versions.get()
    seats = {"seat_0": "you", "seat_1": str(version.pk), "seat_2": str(builtin_versions[0].pk)}
    r = c.post("/play/new/", {"game": trnd.slug, **seats})
    assert r.status_code == 302, r.content


def test_an_old_version_or_another_games_bot_is_no_such_bot(
    trnd: Game, games: dict[str, Game], builtin_versions: Any, user: Any
) -> None:
    (bot,) = _bots(trnd, 0, 1)
    old = bot.versions.get()
    BotVersion.objects.create(bot=bot, number=2, builtin_name="random", status="active")
    (elsewhere,) = _bots(games["tri-area"], 1, 1)
    c = Client()
    c.force_login(user)
    for value in (str(old.pk), str(elsewhere.versions.get().pk), "12x", "9" * 30):
        seats = {"seat_0": "you", "seat_1": value, "seat_2": str(builtin_versions[0].pk)}
        r = c.post("/play/new/", {"game": trnd.slug, **seats})
        assert r.status_code == 400 and b"no such bot" in r.content, value


def test_the_chooser_costs_the_same_queries_at_any_size(
    trnd: Game, builtin_versions: Any, user: Any
) -> None:
    c = Client()
    c.force_login(user)
    urls = [f"/play/new/?game={trnd.slug}", f"/play/new/?game={trnd.slug}&q=crowd"]

    def counts() -> list[int]:
        found = []
        for url in [*urls, f"/play/new/?bot={Bot.objects.latest('pk').pk}"]:
            c.get(url)
            with CaptureQueriesContext(connection) as ctx:
                assert c.get(url).status_code == 200
            found.append(len(ctx.captured_queries))
        return found

    _bots(trnd, 0, 3)
    small = counts()
    _bots(trnd, 3, 60)
    assert counts() == small
