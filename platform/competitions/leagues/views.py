"""League pages: the list, one with its standings, a new one, playing a round now. Creating
and playing are for organisers (``competitions.permissions``); the services do the work."""

from __future__ import annotations

from functools import partial
from typing import cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from foundation import stamps
from matches.selectors import competition_rows

from competitions.leagues.forms import LeagueForm
from competitions.leagues.selectors import (
    league_standings,
    next_round_at,
    seasons_of,
    table_stamp_key,
)
from competitions.leagues.services import create_league, enqueue_league_round
from competitions.match_counts import match_progress
from competitions.models import League
from competitions.permissions import may_organise, may_run_league
from competitions.refusals import NOT_ORGANISER, forbidden

LEAGUE_MATCHES_SHOWN = 20
LEAGUE_ROWS_SHOWN = 100


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = League.objects.select_related("game")
    return render(
        request,
        "competitions/league_list.html",
        {
            "leagues": [(lg, next_round_at(lg)) for lg in leagues],
            "can_organise": may_organise(request.user),
        },
    )


def league_detail(request: HttpRequest, pk: int) -> HttpResponse:
    lg = get_object_or_404(League.objects.select_related("game"), pk=pk)
    seasons = list(seasons_of(lg))
    wanted = request.GET.get("season", "")
    shown = next((s for s in seasons if str(s.number) == wanted), None)
    return render(
        request,
        "competitions/league_detail.html",
        {
            "lg": lg,
            "players": lg.game.clamp_players(lg.players_per_match),
            "next_at": next_round_at(lg),
            "season": seasons[0] if seasons else None,
            "seasons": seasons,
            "shown_season": shown,
            # Read only when the table is drawn (a cache miss): the template calls it.
            "rows": partial(league_standings, lg, shown, limit=LEAGUE_ROWS_SHOWN),
            "table_stamp": stamps.current(table_stamp_key(lg.pk)),
            # The latest round's progress: the history is not counted on every view.
            "progress": match_progress(lg.matches.filter(competition_link__round=lg.rounds_played)),
            "matches": competition_rows().filter(competition_link__league=lg)[
                :LEAGUE_MATCHES_SHOWN
            ],
            "can_organise": may_run_league(request.user, lg),
        },
    )


@login_required
def league_new(request: HttpRequest) -> HttpResponse:
    if not may_organise(request.user):
        return forbidden(request, NOT_ORGANISER.format(what="create leagues"))
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            lg = create_league(organiser=cast(User, request.user), **form.create_kwargs())
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, f"{lg.name} is created; its first round is due now.")
            return redirect("competitions:league_detail", pk=lg.pk)
    return render(request, "competitions/league_new.html", {"form": form})


@login_required
def league_play_round(request: HttpRequest, pk: int) -> HttpResponse:
    """POST: ask the workers for the league's next round now, due or not; returns at once (a
    round of a big league is hundreds of matches). Sent twice, it plays one round."""
    lg = get_object_or_404(League.objects.select_related("game"), pk=pk)
    if request.method != "POST":
        return redirect("competitions:league_detail", pk=lg.pk)
    if not may_run_league(request.user, lg):
        return forbidden(request, "Only the league's organiser or staff may play its rounds.")
    enqueue_league_round(lg)
    messages.success(
        request,
        f"{lg.name}: round {lg.rounds_played + 1} is on its way to the workers; "
        "its matches appear here as they are scheduled and played.",
    )
    return redirect("competitions:league_detail", pk=lg.pk)
