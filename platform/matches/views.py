"""Match pages: the filterable list, the detail page with its replay viewer, and the JSON
steps the viewer fetches."""

from __future__ import annotations

import json

from catalog.selectors import active_games
from django import forms
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from meeple.fields import IdField, LookupField
from meeple.limits import error_response

from matches import replay_steps
from matches.models import Match, MatchStatus
from matches.selectors import filter_matches, match_detail

PAGE_SIZE = 25


class MatchFilterForm(forms.Form):
    """The list's filters: a bad value (NUL, non-ASCII digits, unknown status) is a 400."""

    game = LookupField(required=False)
    bot = IdField(required=False)
    status = forms.ChoiceField(required=False, choices=[("", "any"), *MatchStatus.choices])
    page = forms.CharField(required=False, max_length=20)


def match_list(request: HttpRequest) -> HttpResponse:
    filters = MatchFilterForm(request.GET)
    if not filters.is_valid():
        problems = "; ".join(f"{k}: {' '.join(map(str, v))}" for k, v in filters.errors.items())
        return error_response(request, f"Bad filter: {problems}", 400)
    game = filters.cleaned_data["game"] or None
    status = filters.cleaned_data["status"] or None
    bot = filters.cleaned_data["bot"]
    bot_raw = str(bot) if bot is not None else ""
    page = Paginator(filter_matches(game=game, bot=bot, status=status), PAGE_SIZE).get_page(
        filters.cleaned_data["page"]
    )
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "matches/list.html",
        {
            "page": page,
            "games": active_games(),
            "statuses": MatchStatus.choices,
            "selected": {"game": game or "", "status": status or "", "bot": bot_raw},
            "query": query.urlencode(),
        },
    )


def match_view(request: HttpRequest, pk: int) -> HttpResponse:
    try:
        match = match_detail(pk)
    except Match.DoesNotExist:
        raise Http404(f"No match {pk}") from None
    seats = list(match.seats.all())
    for seat in seats:
        seat.show_stderr = may_read_stderr(request.user, match, seat)  # type: ignore[attr-defined]
    first = None
    try:
        first = replay_steps.step(match.replay, 0)
    except replay_steps.ReplayUnavailable as exc:
        note = str(exc)
    else:
        note = ""
    return render(
        request,
        "matches/detail.html",
        {
            "match": match,
            "seats": seats,
            "seat_names": {s.seat: s.bot_version.bot.name for s in seats},
            "first_step": first,
            "replay_note": note,
            "seat_choices": [(s.seat, s.bot_version.bot.name) for s in seats],
            # as JSON values (true, "points"), the way bots and the API spell them
            "option_rows": [(k, json.dumps(v)) for k, v in (match.options or {}).items()],
            "has_renderer": replay_steps.renderer_for(match.game.slug) is not None,
            "has_svg": replay_steps.svg_renderer_for(match.game.slug) is not None,
        },
    )


def may_read_stderr(user, match: Match, seat) -> bool:  # type: ignore[no-untyped-def]
    """A bot's stderr is its owner's and staff's only (docs/permissions.md): an organiser who
    enters someone's bot in a tournament does not get to read its logs."""
    if not user.is_authenticated:
        return False
    return bool(user.is_staff or seat.bot_version.bot.owner_id == user.pk)


def match_step(request: HttpRequest, pk: int, n: int) -> JsonResponse:
    """Step ``n`` of the replay; ``?seat=k`` adds what seat ``k`` knew (``seat_view``)."""
    replay = Match.objects.filter(pk=pk).values_list("replay", flat=True).first()
    if replay is None and not Match.objects.filter(pk=pk).exists():
        raise Http404(f"No match {pk}")
    raw = request.GET.get("seat", "")
    if raw and not raw.isdigit():
        return JsonResponse({"error": f"seat must be a seat number, got {raw!r}"}, status=400)
    try:
        return JsonResponse(replay_steps.step(replay, n, int(raw) if raw else None))
    except replay_steps.ReplayUnavailable as exc:
        return JsonResponse({"error": str(exc)}, status=404)


def match_replay_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The public replay document as a file (the same JSON as ``/api/matches/<id>/replay/``:
    stderr and server paths were removed when the match was recorded)."""
    replay = Match.objects.filter(pk=pk).values_list("replay", flat=True).first()
    if replay is None:
        if not Match.objects.filter(pk=pk).exists():
            raise Http404(f"No match {pk}")
        return HttpResponse("This match has no replay yet.", status=404, content_type="text/plain")
    response = JsonResponse(replay, json_dumps_params={"separators": (",", ":")})
    response["Content-Disposition"] = f'attachment; filename="match-{pk}-replay.json"'
    return response
