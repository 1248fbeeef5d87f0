"""foundation.page_cache: anonymous pages kept under what they show (site_pages.page_keys),
retired when it changes, never kept for a signed-in visitor, with a token, a nonce or
anything private."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from audiences.models import Audience
from bots.models import BotVersion
from bots.services import ensure_builtin_bots
from catalog.models import Game
from catalog.services import sync_games
from competitions.models import Tournament, Visibility
from competitions.tournaments.services import create_tournament
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client, RequestFactory
from django.urls import reverse
from foundation import page_cache
from matches.models import Match
from matches.services import create_match, dispatch_match

pytestmark = pytest.mark.django_db
HEADER = "X-Page-Cache"


@pytest.fixture(autouse=True)
def _fresh(settings: Any, celery_inline: None) -> Iterator[None]:
    settings.PAGE_CACHE_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def game() -> Game:
    return {g.slug: g for g in sync_games()}["tri-area"]


@pytest.fixture
def versions(game: Game) -> list[BotVersion]:
    return [v for b in ensure_builtin_bots(game) if (v := b.latest_version())][:3]


def _played(game: Game, versions: list[BotVersion], capture: Any) -> Match:
    with capture(execute=True):
        match = create_match(game=game, versions=versions, seed=5)
    with capture(execute=True):
        dispatch_match(match)
    match.refresh_from_db()
    assert match.status == "finished", match.status
    return match


def _twice(client: Client, url: str) -> tuple[Any, Any]:
    first, second = client.get(url), client.get(url)
    assert first.status_code == second.status_code == 200, url
    return first, second


def _pages(game: Game, match: Match, tournament: Tournament) -> list[str]:
    bot = match.seats.first().bot_version.bot_id  # type: ignore[union-attr]
    return [
        "/",
        "/games/",
        f"/games/{game.slug}/",
        f"/games/{game.slug}/?page=1",
        f"/bots/{bot}/",
        "/matches/",
        f"/matches/?game={game.slug}&before={match.pk + 1}",
        f"/matches/{match.pk}/",
        f"/tournaments/{tournament.pk}/",
    ]


def test_anonymous_pages_are_kept_and_answered_the_same(
    game: Game, versions: list[BotVersion], django_capture_on_commit_callbacks: Any
) -> None:
    match = _played(game, versions, django_capture_on_commit_callbacks)
    owner = versions[0].bot.owner
    t = create_tournament(organiser=owner, game=game, name="Cup", entrants=versions)
    client = Client()
    for url in _pages(game, match, t):
        first, second = _twice(client, url)
        assert (first[HEADER], second[HEADER]) == ("miss", "hit"), url
        assert first.content == second.content, url
        assert first["Content-Type"] == second["Content-Type"]
        # the policy is the site's, whoever drew the page, and no nonce is drawn into it
        assert first["Content-Security-Policy"] == second["Content-Security-Policy"], url
        assert "nonce" not in second["Content-Security-Policy"]
        assert b"nonce=" not in second.content and b"csrfmiddlewaretoken" not in second.content
        assert "csrftoken" not in second.cookies


def test_a_recorded_match_retires_the_pages_that_show_it(
    game: Game, versions: list[BotVersion], django_capture_on_commit_callbacks: Any
) -> None:
    first = _played(game, versions, django_capture_on_commit_callbacks)
    bot = versions[0].bot_id
    client = Client()
    urls = ["/", f"/games/{game.slug}/", f"/bots/{bot}/", "/matches/"]
    for url in urls:
        _twice(client, url)
    with django_capture_on_commit_callbacks(execute=True):
        queued = create_match(game=game, versions=versions, seed=6)
    for url in urls:  # a new match, queued: every list that shows it draws afresh
        page = client.get(url)
        assert page[HEADER] == "miss" and f"#{queued.pk}<".encode() in page.content, url
    with django_capture_on_commit_callbacks(execute=True):
        dispatch_match(queued)
    for url in urls:  # ... and once it is recorded
        page = client.get(url)
        assert page[HEADER] == "miss", url
    page = client.get(f"/matches/{queued.pk}/")
    assert b"Finished" in page.content or b"finished" in page.content
    assert f"#{first.pk}<".encode() in client.get("/matches/").content


def test_a_match_page_follows_its_status(
    game: Game, versions: list[BotVersion], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(game=game, versions=versions, seed=7)
    client = Client()
    _twice(client, f"/matches/{match.pk}/")
    Match.objects.filter(pk=match.pk).update(status="running")  # as the worker's claim does
    page = client.get(f"/matches/{match.pk}/")
    assert page[HEADER] == "miss" and b"Running" in page.content


def test_signed_in_visitors_never_get_or_leave_a_kept_page(
    game: Game, versions: list[BotVersion]
) -> None:
    anonymous, alice = Client(), Client()
    alice.force_login(get_user_model().objects.create_user("alice-cache"))
    url = f"/games/{game.slug}/"
    _twice(anonymous, url)
    for _ in range(2):
        page = alice.get(url)
        assert HEADER not in page and b"alice-cache" in page.content
    assert b"alice-cache" not in anonymous.get(url).content


def test_pages_with_a_token_unknown_parameters_or_messages_are_not_kept(
    game: Game, versions: list[BotVersion]
) -> None:
    client = Client()
    # a page that draws a CSRF token (the log-in form), registered for this test only
    page_cache.register("login", lambda request: [])
    try:
        for _ in range(2):
            page = client.get(reverse("login"))
            assert page.status_code == 200 and HEADER not in page
    finally:
        page_cache._rules.pop("login")
    for url in ("/matches/?utm=x", "/matches/?game=game&game=tri-area"):
        for _ in range(2):
            assert HEADER not in client.get(url), url
    client.cookies["messages"] = "anything"
    for _ in range(2):
        assert HEADER not in client.get("/games/")


def test_a_nonce_or_a_cookie_keeps_a_page_out() -> None:
    from django.http import HttpResponse

    request = RequestFactory().get("/")
    assert page_cache._may_keep(request, HttpResponse("x"))
    request._csp_nonce = "abc"  # type: ignore[attr-defined]
    assert not page_cache._may_keep(request, HttpResponse("x"))
    request = RequestFactory().get("/")
    with_cookie = HttpResponse("x")
    with_cookie.set_cookie("c", "1")
    assert not page_cache._may_keep(request, with_cookie)
    assert not page_cache._may_keep(request, HttpResponse("x", status=404))


def test_private_tournaments_and_matches_are_never_kept(
    game: Game, versions: list[BotVersion], django_capture_on_commit_callbacks: Any
) -> None:
    owner = versions[0].bot.owner
    t = create_tournament(organiser=owner, game=game, name="Open cup", entrants=versions)
    client = Client()
    url = f"/tournaments/{t.pk}/"
    _twice(client, url)
    audience = Audience.objects.create(label="class 4B")
    Tournament.objects.filter(pk=t.pk).update(visibility=Visibility.PRIVATE, audience=audience)
    for _ in range(2):  # made private: the public page kept before is not answered
        assert client.get(url).get(HEADER) != "hit"
    cache.clear()
    for _ in range(2):
        client.get(url)
    assert _kept("competitions") == []  # nothing of it is kept under any key
    with django_capture_on_commit_callbacks(execute=True):
        match = create_match(game=game, versions=versions, seed=8)
    Match.objects.filter(pk=match.pk).update(audience=audience)
    for _ in range(2):
        assert HEADER not in client.get(f"/matches/{match.pk}/")


def _kept(app: str) -> list[str]:
    """Keys of the pages of ``app`` kept since the last clear (the database cache's table)."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT cache_key FROM arena_cache WHERE cache_key LIKE %s", [f"%page:{app}:%"])
        return [row[0] for row in cur.fetchall()]


def test_no_page_kept_when_switched_off(settings: Any, game: Game) -> None:
    settings.PAGE_CACHE_SECONDS = 0
    client = Client()
    for _ in range(2):
        assert HEADER not in client.get("/games/")


def test_a_kept_page_is_served_compressed_to_who_takes_gzip(game: Game) -> None:
    import gzip

    client = Client()
    drawn = client.get(f"/games/{game.slug}/")  # drawn and kept (the test client asks plain)
    zipped = client.get(f"/games/{game.slug}/", HTTP_ACCEPT_ENCODING="gzip, deflate")
    assert zipped[HEADER] == "hit" and zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"] and "Cookie" in zipped["Vary"]
    assert gzip.decompress(zipped.content) == drawn.content
    plain = client.get(f"/games/{game.slug}/")
    assert plain[HEADER] == "hit" and not plain.has_header("Content-Encoding")
    assert plain.content == drawn.content


def test_a_deleted_account_retires_every_kept_page(
    game: Game, versions: list[BotVersion], django_capture_on_commit_callbacks: Any
) -> None:
    from accounts.deletion import delete_account
    from bots.models import Bot

    author = get_user_model().objects.create_user("leaving")
    bot = Bot.objects.create(owner=author, game=game, name="leaving-bot")
    mine = BotVersion.objects.create(bot=bot, number=1, builtin_name="random", status="active")
    with django_capture_on_commit_callbacks(execute=True):
        create_match(game=game, versions=[mine, versions[0]], seed=9)
    client = Client()
    assert b"leaving-bot" in _twice(client, "/matches/")[1].content
    with django_capture_on_commit_callbacks(execute=True):
        delete_account(author)
    page = client.get("/matches/")
    assert page[HEADER] == "miss" and b"leaving-bot" not in page.content


def test_a_league_page_follows_its_latest_round(game: Game, versions: list[BotVersion]) -> None:
    from bots.models import Bot
    from competitions.leagues.services import create_league, run_league_round

    owner = get_user_model().objects.create_user("crowd")
    for i in range(44):  # a round of more matches than the page lists (20)
        bot = Bot.objects.create(owner=owner, game=game, name=f"crowd-{i}")
        BotVersion.objects.create(bot=bot, number=1, builtin_name="random", status="active")
    league = create_league(game=game, name="Weekly", players_per_match=2)
    scheduled = sorted(run_league_round(league, dispatch=False), key=lambda m: m.pk)
    assert len(scheduled) > 20
    client = Client()
    url = f"/tournaments/leagues/{league.pk}/"
    _twice(client, url)
    # a match of the round fails: no table changes, but the round's progress does
    Match.objects.filter(pk=scheduled[0].pk).update(status="error")  # not among the listed
    page = client.get(url)
    assert page[HEADER] == "miss" and b"1 failed" in page.content
