"""The home page and the health check."""

from catalog.selectors import active_games
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from matches.selectors import latest_matches
from ratings.selectors import top_bots


def home(request: HttpRequest) -> HttpResponse:
    games = active_games().annotate(
        bot_count=Count("bots", distinct=True), match_count=Count("matches", distinct=True)
    )
    return render(
        request,
        "site_pages/home.html",
        {
            "games": games,
            "latest_matches": latest_matches(10),
            "top_bots": top_bots(10),
        },
    )


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
