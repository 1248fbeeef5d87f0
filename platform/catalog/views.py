"""Game pages of the catalog: the list, a game's rules page and starter bot. A game's own page
(its leaderboard, ladder and matches) composes several domains and lives in
``site_pages.game_page``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.newbot import starter_zip
from catalog.selectors import game_by_slug, games_with_counts, rules_page


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/list.html", {"games": games_with_counts()})


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
