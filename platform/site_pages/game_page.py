"""A game's page: one page of its leaderboard (ratings), who is in placement or suspended
(ladder), its recent matches (matches). It composes several domains, so it lives at the top
(site_pages), not in the catalog."""

from __future__ import annotations

from catalog.selectors import game_by_slug, leaderboard_position
from competitions.permissions import visible_tournaments_q
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from foundation import stamps
from foundation.params import id_param
from ladder import selectors as ladder
from ladder.models import LadderEntry
from ratings.selectors import board_stamp_key, leaderboard

from site_pages.match_rows import match_rows

#: Leaderboard rows per page.
LEADERBOARD_PAGE = 50
#: Bots in placement, and suspended bots, per page of their lists (``?placement=n``,
#: ``?suspended=n``): a ladder of thousands of new bots still draws a page of this many.
HELD_PAGE = 20


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A game and one page of its leaderboard; ``?bot=id`` opens the page holding that bot
    (find my bot), ``?page=n`` another page. Bots in placement and suspended bots are listed
    apart (the ladder's, a page of ``HELD_PAGE`` each), and left out of the ranked pages in
    the query itself (a subquery, whatever their number)."""
    game = game_by_slug(slug)
    ratings = leaderboard(game).exclude(bot_id__in=ladder.held(game).values("bot_id"))
    found = id_param(request.GET.get("bot"))
    place = leaderboard_position(ratings, found) if found else None
    page_no = (place - 1) // LEADERBOARD_PAGE + 1 if place else request.GET.get("page")
    page = Paginator(ratings, LEADERBOARD_PAGE).get_page(page_no)
    mine = []
    if request.user.is_authenticated:
        mine = list(request.user.bots.filter(game=game).order_by("name")[:20])
    return render(
        request,
        "site_pages/game.html",
        {
            "game": game,
            "ratings": page.object_list,  # read only when the table is drawn (a cache miss)
            "board_stamp": stamps.current(board_stamp_key(game.pk)),
            "page": page,
            "found": found if place else None,
            "not_found": found if found and not place else None,
            "my_bots": mine,
            "in_placement": _page(ladder.in_placement(game), request.GET.get("placement")),
            "suspended": _page(ladder.suspended(game), request.GET.get("suspended")),
            "matches": match_rows(viewer=request.user, game=game.slug)[:10],
            "tournaments": game.tournaments.filter(visible_tournaments_q(request.user)).order_by(
                "-created_at"
            )[:5],
        },
    )


def _page(entries: QuerySet[LadderEntry], number: str | None) -> Page:
    """One page of a held list (a bad or too large number: the nearest page, as ``?page=``)."""
    return Paginator(entries, HELD_PAGE).get_page(number)
