"""Game pages: the list, one game with its leaderboard, its rules page and starter bot."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from matches.selectors import filter_matches
from ratings.selectors import leaderboard

from arena.newbot import starter_zip
from catalog.selectors import active_games, game_by_slug, rules_page


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


def game_rules(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_by_slug(slug)
    return render(request, "catalog/rules.html", {"game": game, "page": rules_page(slug)})


def starter_bot(request: HttpRequest, slug: str) -> HttpResponse:
    """The files ``arena new-bot SLUG`` writes, as a zip that is itself a valid upload."""
    game = game_by_slug(slug)
    response = HttpResponse(starter_zip(game.slug), content_type="application/zip")
    name = f"{game.slug}-starter-bot.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
