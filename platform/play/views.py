"""People's matches: the start form (from a game's or a bot's page), the play page, its JSON
poll and its actions, and the player's own list. Thin: the rules are in services."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from bots.models import Bot
from catalog.models import Game
from catalog.selectors import active_games
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from foundation.fields import MAX_INT
from foundation.params import id_param, int_param
from foundation.parsers import load_json_body

from games.registry import get_game
from play import selectors, services
from play.services import PlayError

YOU = "you"
#: Characters of the chooser's search (a bot's name or its owner's).
SEARCH_MAX = 50


def _me(request: HttpRequest) -> User:
    """The signed-in user (every caller checked that someone is signed in)."""
    user = request.user
    assert isinstance(user, User)
    return user


def _game_from(request: HttpRequest) -> tuple[Game | None, Bot | None]:
    bot = None
    bot_id = id_param(request.GET.get("bot") or request.POST.get("bot"))
    if bot_id is not None:
        bot = Bot.objects.select_related("game").filter(pk=bot_id).first()
    slug = request.GET.get("game") or request.POST.get("game") or ""
    game = bot.game if bot else active_games().filter(slug=slug).first()
    return game, bot


@login_required
def new(request: HttpRequest) -> HttpResponse:
    game, bot = _game_from(request)
    if game is None:
        return render(request, "play/choose_game.html", {"games": active_games()}, status=200)
    search = (request.GET.get("q") or "").strip()[:SEARCH_MAX]
    versions = selectors.opponents(game, user=request.user, bot=bot, search=search)
    seats = range(game.max_players)
    error = ""
    if request.method == "POST":
        posted = [request.POST.get(f"seat_{i}", "") for i in seats]
        by_id = selectors.seat_versions(game, posted)
        picked: list[Any] = []
        status = 400
        for i in seats:
            value = request.POST.get(f"seat_{i}", "")
            if value == YOU:
                picked.append(None)
            elif value in by_id:
                picked.append(by_id[value])
            elif value:
                error = f"Seat {i}: no such bot."
        if not error:
            try:
                options = _options_from(request, game)
                match = services.start_match(
                    user=_me(request), game=game, seats=picked, options=options
                )
            except PlayError as exc:
                error = exc.message
                status = exc.status
            else:
                first = min(i for i, s in enumerate(picked) if s is None)
                return redirect("play:seat", match.pk, first)
        return _new_page(request, game, bot, versions, error, status)
    return _new_page(request, game, bot, versions, "", 200, search)


def _engine_options(game: Game) -> list[Any]:
    return list(get_game(game.slug).options)


def _options_from(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The game options the form sets (only those that differ from the defaults); the engine
    checks their bounds when the match is created."""
    out: dict[str, Any] = {}
    if request.POST.get("options_form") is None:  # posted without the options: the defaults
        return out
    for o in _engine_options(game):
        raw = request.POST.get(f"option_{o.name}")
        if o.kind is bool:
            value: Any = raw is not None
        elif raw is None or raw == "":
            continue
        elif o.kind is int:
            number = int_param(raw, minimum=-MAX_INT - 1)
            if number is None:
                raise PlayError(f"Option {o.name} must be a whole number, got {raw[:20]!r}.")
            value = number
        else:
            value = raw
        if value != o.default:
            out[o.name] = value
    return out


def _new_page(
    request: HttpRequest,
    game: Game,
    bot: Bot | None,
    versions: list[Any],
    error: str,
    status: int,
    search: str = "",
) -> HttpResponse:
    # Defaults: you in seat 0; the bot whose page you came from, then built-ins, in the others,
    # as few seats as the game allows (two at least, unless it is a solo game).
    others = [v for v in versions if bot and v.bot_id == bot.pk]
    others += [v for v in versions if v.bot.is_builtin and v not in others] or versions
    wanted = max(game.min_players, min(2, game.max_players))
    rows = []
    for i in range(game.max_players):
        chosen = ""
        if i == 0:
            chosen = YOU
        elif i < wanted and others:
            chosen = str(others[(i - 1) % len(others)].pk)
        rows.append({"index": i, "chosen": chosen})
    return render(
        request,
        "play/new.html",
        {
            "game": game,
            "bot": bot,
            "versions": versions,
            "rows": rows,
            "error": error,
            "options": _engine_options(game),
            "search": search,
            "chooser_size": selectors.CHOOSER_SIZE,
        },
        status=status if error else 200,
    )


@login_required
@require_GET
def seat_page(request: HttpRequest, match_id: int, seat: int) -> HttpResponse:
    found = selectors.seat_for(match_id, seat)
    if found is None:
        raise Http404("No such seat.")
    if found.user_id != _me(request).pk:
        return render(
            request, "play/refused.html", {"message": "This seat is another player's."}, status=403
        )
    return render(
        request,
        "play/seat.html",
        {
            "seat": found,
            "match": found.match,
            "table": selectors.table(found.match, found),
            "urls": json.dumps(
                {
                    "claim": reverse("play:claim", args=[match_id, seat]),
                    "state": reverse("play:state", args=[match_id, seat]),
                    "act": reverse("play:act", args=[match_id, seat]),
                    "resign": reverse("play:resign", args=[match_id, seat]),
                    "replay": reverse("matches:detail", args=[match_id]),
                }
            ),
        },
    )


def _json_error(exc: PlayError) -> JsonResponse:
    return JsonResponse({"detail": exc.message}, status=exc.status)


def _body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = load_json_body(request.body or b"{}")
    except RawPostDataException:  # a multipart form, already read as one (CSRF, NUL check)
        raise PlayError("The request body must be JSON (Content-Type: application/json).") from None
    except ValueError as exc:  # not JSON, too large, nested too deep: the message says which
        raise PlayError(str(exc)) from None
    if not isinstance(data, dict):
        raise PlayError("The request body must be a JSON object.")
    return data


def _login_json(request: HttpRequest) -> JsonResponse | None:
    if not request.user.is_authenticated:
        return JsonResponse({"detail": "Log in to play."}, status=401)
    return None


@require_POST
def claim(request: HttpRequest, match_id: int, seat: int) -> JsonResponse:
    if (denied := _login_json(request)) is not None:
        return denied
    try:
        token = str(_body(request).get("tab") or "")
        return JsonResponse({"tab": services.claim_tab(_me(request), match_id, seat, token)})
    except PlayError as exc:
        return _json_error(exc)


@require_GET
def state(request: HttpRequest, match_id: int, seat: int) -> JsonResponse:
    if (denied := _login_json(request)) is not None:
        return denied
    try:
        polled = services.poll(_me(request), match_id, seat, request.GET.get("tab", ""))
    except PlayError as exc:
        return _json_error(exc)
    match = polled["match"]
    out: dict[str, Any] = {"status": match.status, "request": None, "result": None}
    pending = polled["request"]
    if pending and not match.is_done:
        out["request"] = {
            "turn": pending["turn"],
            "labels": pending["labels"],
            "observation": pending["observation"],
            "svg": pending.get("svg"),
            "text": pending.get("text"),
            # per action, the part of the picture it is about (a CSS selector) or null
            "targets": pending.get("targets"),
            "seconds_left": max(0, int(pending["deadline"] - time.time())),
        }
    if match.is_done:
        row = match.seats.filter(seat=seat).first()
        end = polled["end"] or {}
        out["result"] = {
            "rank": row.rank if row else None,
            "score": row.score if row else None,
            "status": row.status if row else None,
            # why a forfeited seat ended ("you resigned", "you left the page ..."): the page
            # says it instead of the bare fault kind ("timeout" after a Resign misleads)
            "why": _why_forfeited(row.faults) if row else None,
            "error": match.error,
            # the last position drawn for the seat (the worker's, while the play cache keeps
            # it): the page replaces the last decision's picture with it
            "svg": end.get("svg"),
            "text": end.get("text"),
        }
    return JsonResponse(out)


def _why_forfeited(faults: list[dict[str, Any]]) -> str | None:
    """The seat's first fault told to its person ("the player resigned": "you resigned")."""
    detail = str(faults[0].get("detail") or "") if faults else ""
    return re.sub(r"^the player\b", "you", detail) or None


@require_POST
def act(request: HttpRequest, match_id: int, seat: int) -> JsonResponse:
    if (denied := _login_json(request)) is not None:
        return denied
    try:
        data = _body(request)
        turn, index = data.get("turn"), data.get("index")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise PlayError("turn must be an integer.")
        if isinstance(index, bool) or not isinstance(index, int):
            raise PlayError("index must be an integer.")
        services.act(_me(request), match_id, seat, str(data.get("tab") or ""), turn, index)
    except PlayError as exc:
        return _json_error(exc)
    return JsonResponse({"ok": True})


@require_POST
def resign(request: HttpRequest, match_id: int, seat: int) -> JsonResponse:
    if (denied := _login_json(request)) is not None:
        return denied
    try:
        services.resign(_me(request), match_id, seat, str(_body(request).get("tab") or ""))
    except PlayError as exc:
        return _json_error(exc)
    return JsonResponse({"ok": True})


@login_required
@require_GET
def mine(request: HttpRequest) -> HttpResponse:
    return render(request, "play/mine.html", {"seats": selectors.my_seats(_me(request))})
