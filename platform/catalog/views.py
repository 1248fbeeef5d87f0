"""Game pages of the catalog: the list, a game's rules page and starter bot. A game's own page
(its leaderboard, ladder and matches) composes several domains and lives in
``site_pages.game_page``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from foundation.limits import error_response

from arena.newbot import UnknownLanguage, starter_languages, starter_zip
from catalog.selectors import game_by_slug, games_with_counts, rules_page


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/list.html", {"games": games_with_counts()})


def game_rules(request: HttpRequest, slug: str) -> HttpResponse:
    game = game_by_slug(slug)
    return render(
        request,
        "catalog/rules.html",
        {"game": game, "page": rules_page(slug), "languages": starter_languages()},
    )


def starter_bot(request: HttpRequest, slug: str) -> HttpResponse:
    """The files ``arena new-bot SLUG --lang LANG`` writes (``?lang=``, Python by default), as
    a zip that is itself a valid upload. An unknown language is a 400 naming the known ones."""
    game = game_by_slug(slug)
    lang = request.GET.get("lang") or None
    try:
        data = starter_zip(game.slug, lang)
    except UnknownLanguage as exc:
        return error_response(request, str(exc), 400)
    response = HttpResponse(data, content_type="application/zip")
    name = f"{game.slug}-starter-bot.zip" if lang is None else f"{game.slug}-starter-bot-{lang}.zip"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response
