"""Game pages: the list and one game with its leaderboard."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from matches.selectors import filter_matches
from ratings.selectors import leaderboard

from catalog.selectors import active_games, game_by_slug


def game_list(request: HttpRequest) -> HttpResponse:
    games = active_games().annotate(
        bot_count=Count("bots", distinct=True), match_count=Count("matches", distinct=True)
    )
    return render(request, "catalog/list.html", {"games": games})


def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    from ladder.selectors import split_leaderboard

    game = game_by_slug(slug)
    board = split_leaderboard(game, leaderboard(game))
    return render(
        request,
        "catalog/detail.html",
        {
            "game": game,
            "ratings": board.ranked,
            "in_placement": board.in_placement,
            "suspended": board.suspended,
            "matches": filter_matches(game=game.slug)[:10],
            "tournaments": game.tournaments.order_by("-created_at")[:5],
        },
    )
