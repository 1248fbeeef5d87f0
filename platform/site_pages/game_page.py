"""A game's page: one page of its leaderboard (ratings), who is in placement or suspended
(ladder), its recent matches (matches). It composes several domains, so it lives at the top
(site_pages), not in the catalog."""

from __future__ import annotations

from catalog.selectors import game_by_slug, leaderboard_position
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from foundation import stamps
from foundation.params import id_param
from ladder.selectors import split_leaderboard
from matches.selectors import match_rows
from ratings.selectors import board_stamp_key, leaderboard

#: Leaderboard rows per page.
LEADERBOARD_PAGE = 50


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    """A game and one page of its leaderboard; ``?bot=id`` opens the page holding that bot
    (find my bot), ``?page=n`` another page. Bots in placement and suspended bots are listed
    apart (the ladder's), and left out of the ranked pages in the query itself."""
    game = game_by_slug(slug)
    board = split_leaderboard(game, [])  # only the held bots: the ranking is paged below
    held = [e.bot_id for e in (*board.in_placement, *board.suspended)]
    ratings = leaderboard(game).exclude(bot_id__in=held)
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
            "in_placement": board.in_placement,
            "suspended": board.suspended,
            "matches": match_rows(game=game.slug)[:10],
            "tournaments": game.tournaments.order_by("-created_at")[:5],
        },
    )
