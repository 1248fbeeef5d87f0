"""Every main page and API endpoint costs the same number of queries whatever the history
holds: measured at two sizes of the same site (the second about ten times the first), each
within a fixed ceiling (``django_assert_max_num_queries``), and equal between the sizes."""

from __future__ import annotations

from typing import Any

from competitions.leagues.services import create_league, run_league_round
from competitions.tournaments.services import create_tournament, start_tournament
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.scale.conftest import History

#: Ceilings per endpoint (the counts measured, plus room for one more lookup). Without
#: CACHE_URL the cache is the database's: every API call's throttle counters (about 12
#: queries) and a step's cache read are queries too, the same number at any size; so are an
#: anonymous page's cache reads (foundation.page_cache: its parts, the site stamp, the page).
CEILING = {
    "home": 6,
    "games list": 3,
    "leaderboard": 9,
    "leaderboard, find a bot": 11,
    "API leaderboard": 16,
    "bot page": 17,
    "API bots": 15,
    "matches": 5,
    "matches ?game=": 5,
    "matches older page": 6,
    "matches of a bot": 5,
    "API matches": 16,
    "API matches ?game=": 16,
    "match page": 6,
    "step": 3,
    "API replay": 14,
    "tournament page": 9,
    "API tournament": 18,
    "league page": 8,
}


def _finish_competitions(history: History, entrants: int, league_rounds: int) -> dict[str, int]:
    """A finished tournament of ``entrants`` bots and a league of ``league_rounds`` rounds,
    every match recorded through the real path."""
    organiser = history.users[0]
    t = create_tournament(
        organiser=organiser,
        game=history.game,
        name=f"cup {entrants}",
        entrants=history.versions[-entrants:],
        players_per_match=2,
    )
    for m in start_tournament(t, dispatch=False):
        history.finish(m)
    lg = create_league(game=history.game, name=f"league {league_rounds}", players_per_match=2)
    for _ in range(league_rounds):
        for m in run_league_round(lg, dispatch=False):
            history.finish(m)
    return {"tournament": t.pk, "league": lg.pk}


def _urls(history: History, ids: dict[str, int]) -> dict[str, str]:
    slug = history.game.slug
    match = history.play(1)[0]
    bot = history.versions[0].bot_id
    return {
        "home": "/",
        "games list": "/games/",
        "leaderboard": f"/games/{slug}/",
        "leaderboard, find a bot": f"/games/{slug}/?bot={bot}",
        "API leaderboard": f"/api/games/{slug}/leaderboard/",
        "bot page": f"/bots/{bot}/",
        "API bots": "/api/bots/",
        "matches": "/matches/",
        "matches ?game=": f"/matches/?game={slug}",
        "matches older page": f"/matches/?before={match.pk - 3}",
        "matches of a bot": f"/matches/?bot={bot}",
        "API matches": "/api/matches/",
        "API matches ?game=": f"/api/matches/?game={slug}&status=finished",
        "match page": f"/matches/{match.pk}/",
        "step": f"/matches/{match.pk}/steps/3.json",
        "API replay": f"/api/matches/{match.pk}/replay/",
        "tournament page": f"/tournaments/{ids['tournament']}/",
        "API tournament": f"/api/tournaments/{ids['tournament']}/",
        "league page": f"/tournaments/leagues/{ids['league']}/",
    }


def _measure(client: Any, urls: dict[str, str], assert_max: Any) -> dict[str, int]:
    counts = {}
    for name, url in urls.items():
        assert client.get(url).status_code == 200, url  # warm: caches as a server's would be
        with assert_max(CEILING[name]), CaptureQueriesContext(connection) as ctx:
            response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        counts[name] = len(ctx.captured_queries)
    return counts


def test_query_counts_stay_the_same_as_the_history_grows(
    history: History, client: Any, django_assert_max_num_queries: Any
) -> None:
    history.add_bots(6)
    history.play(10)
    small = _measure(
        client, _urls(history, _finish_competitions(history, 3, 1)), django_assert_max_num_queries
    )

    history.add_bots(54)  # 60 bots: more than a leaderboard page (50)
    history.play(120, seats=3)
    big = _measure(
        client, _urls(history, _finish_competitions(history, 10, 3)), django_assert_max_num_queries
    )
    assert big == small
