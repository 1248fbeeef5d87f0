"""The home page, the health check, and the documentation pages for bot authors (the bot
protocol rendered from ``arena/bot-protocol.md``, and how to use the API from a script)."""

from catalog.markdown import markdown_file
from catalog.selectors import active_games, games_with_counts
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from ratings.selectors import top_bots

from arena.newbot import starter_languages
from arena.protocol import DOC as PROTOCOL_DOC
from site_pages.match_rows import latest_matches


def home(request: HttpRequest) -> HttpResponse:
    games = games_with_counts()
    return render(
        request,
        "site_pages/home.html",
        {
            "games": games,
            "latest_matches": latest_matches(10, viewer=request.user),
            "top_bots": top_bots(10),
        },
    )


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})


def protocol(request: HttpRequest) -> HttpResponse:
    """The bot protocol: the repository's ``arena/bot-protocol.md``, rendered, with the
    languages a bot may be uploaded in (``sandbox/languages/``, through the arena)."""
    return render(
        request,
        "site_pages/docs/protocol.html",
        {"html": markdown_file(PROTOCOL_DOC), "languages": starter_languages()},
    )


def api_guide(request: HttpRequest) -> HttpResponse:
    """How to get a token and upload a version from a script or CI, with curl."""
    games = list(active_games().values_list("slug", flat=True))
    return render(
        request,
        "site_pages/docs/api.html",
        {"base": request.build_absolute_uri("/").rstrip("/"), "game": (games or ["trnd"])[0]},
    )
