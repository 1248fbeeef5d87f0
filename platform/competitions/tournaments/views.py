"""Tournament pages: the list, one with its standings, a new one, starting it (a league's are
``competitions.leagues.views``). Creating and starting are for organisers
(``competitions.permissions``); the services do the work."""

from __future__ import annotations

from functools import partial
from typing import cast

from catalog.models import Game
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from foundation import stamps
from foundation.limits import error_response
from matches.selectors import competition_rows

from competitions.entries.member_views import members_context
from competitions.entries.services import entries_stamp_key
from competitions.entries.views import entry_context
from competitions.live import mark_starting, start_pending
from competitions.match_counts import match_progress
from competitions.models import Tournament, TournamentStatus
from competitions.permissions import may_organise, may_start, visible_tournaments
from competitions.refusals import NOT_ORGANISER, forbidden
from competitions.tournaments.forms import TournamentForm
from competitions.tournaments.selectors import tournament_standings, tournaments_with_counts
from competitions.tournaments.services import (
    MAX_TOURNAMENT_MATCHES,
    create_tournament,
    enqueue_start,
)
from games.base import GameError

#: Latest matches listed on a tournament's page (a table of 2,000 would cost 100s of ms).
MATCHES_SHOWN = 25


# ------------------------------------------------------------------------------ tournaments


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = tournaments_with_counts(request.user)
    return render(
        request,
        "competitions/list.html",
        {"tournaments": tournaments[:100], "can_organise": may_organise(request.user)},
    )


def _tournament_page(
    request: HttpRequest, t: Tournament, *, start_error: list[str] | None = None, status: int = 200
) -> HttpResponse:
    matches = competition_rows().filter(competition_link__tournament=t).order_by("pk")
    counts = _status_counts(t)
    entrant_count = t.entrants.count()
    starting = start_pending(t)
    return render(
        request,
        "competitions/detail.html",
        {
            "t": t,
            # Read only when the tables are drawn (a cache miss): the template calls it.
            "rows": partial(tournament_standings, t),
            "standings_stamp": standings_stamp(t, counts, entrant_count),
            "page_stamp": page_stamp(t, counts, entrant_count, starting),
            "starting": starting,
            "live": starting or t.status == TournamentStatus.RUNNING,
            "matches": matches[:MATCHES_SHOWN],
            "match_total": sum(counts.values()),
            "counts": counts,
            "progress": match_progress(t.matches.all()),
            "can_start": t.status == TournamentStatus.DRAFT
            and not starting
            and may_start(request.user, t),
            "entrant_count": entrant_count,
            "eager": settings.CELERY_TASK_ALWAYS_EAGER,
            "start_error": start_error,
            **_entries_and_members(request, t),
        },
        status=status,
    )


def _entries_and_members(request: HttpRequest, t: Tournament) -> dict[str, object]:
    """The entry form, the managers' entrants and members parts (views_entries, views_members)."""
    context = entry_context(request, t)
    if context["can_manage"]:
        context.update(members_context(request, t))
    return context


def standings_stamp(t: Tournament, counts: dict[str, int], entrants: int) -> str:
    """What the standings of ``t`` depend on: they change only when a match is scheduled or
    changes status (its entries are updated in the same transaction), so the drawn table is
    cached under this stamp (drawing 64 rows costs more than all the page's queries)."""
    by_status = ",".join(f"{k}{v}" for k, v in sorted(counts.items()))
    if t.status == TournamentStatus.DRAFT:  # a swap keeps the count: entries bump a number
        by_status += f".e{stamps.current(entries_stamp_key(t.pk))}"
    return f"{t.status}.{entrants}.{t.current_round}.{t.scheduled_matches}.{by_status}"


def page_stamp(t: Tournament, counts: dict[str, int], entrants: int, starting: bool) -> str:
    """What the whole page depends on: the standings' stamp and whether a start is on its
    way. The page's script polls it (``tournament_status``) and redraws when it changes."""
    return f"{standings_stamp(t, counts, entrants)}.{int(starting)}"


def _status_counts(t: Tournament) -> dict[str, int]:
    return {row["status"]: row["n"] for row in t.matches.values("status").annotate(n=Count("pk"))}


def _seen(request: HttpRequest) -> QuerySet[Tournament]:
    return visible_tournaments(request.user)


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(_seen(request).select_related("game", "organiser"), pk=pk)
    return _tournament_page(request, t)


def tournament_status(request: HttpRequest, pk: int) -> JsonResponse:
    """The small JSON the tournament page polls while it is starting or running: its status
    and the stamp of what the page shows (three queries, whatever the tournament's size)."""
    t = get_object_or_404(
        _seen(request).only("pk", "status", "current_round", "scheduled_matches"), pk=pk
    )
    counts = _status_counts(t)
    starting = start_pending(t)
    return JsonResponse(
        {
            "status": t.status,
            "starting": starting,
            "live": starting or t.status == TournamentStatus.RUNNING,
            "stamp": page_stamp(t, counts, t.entrants.count(), starting),
        }
    )


@login_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Step 1 (no ``?game=``): choose the game. Step 2: the form for that game."""
    if not may_organise(request.user):
        return forbidden(request, NOT_ORGANISER.format(what="create tournaments"))
    games = Game.objects.filter(is_active=True)
    slug = request.GET.get("game", "")
    if "\x00" in slug or len(slug) > 100:  # never reaches the database (PostgreSQL refuses NUL)
        return error_response(request, "Not a game's slug.", 400)
    game = games.filter(slug=slug).first() if slug else None
    form = None
    if game is not None:
        try:
            form = TournamentForm(request.POST or None, game=game)
        except GameError:  # in the catalog but no longer in the registry
            game = None
    if form is None:
        return render(
            request,
            "competitions/tournament_new.html",
            {"games": games, "unknown_game": slug},
            status=404 if slug else 200,
        )
    if request.method == "POST" and form.is_valid():
        try:
            # login_required above: a signed-in user.
            t = create_tournament(organiser=cast(User, request.user), **form.create_kwargs())
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(
                request, f"{t.name} is created as a draft with {t.entrants.count()} entrants."
            )
            return redirect("competitions:tournament_detail", pk=t.pk)
    return render(
        request,
        "competitions/tournament_new.html",
        {"games": games, "game": game, "form": form, "max_matches_limit": MAX_TOURNAMENT_MATCHES},
        status=400 if form.errors else 200,
    )


@login_required
def tournament_start(request: HttpRequest, pk: int) -> HttpResponse:
    """POST: check the draft, then have a worker schedule and send its matches (never in the
    request: a tournament may hold 2,000 matches)."""
    t = get_object_or_404(_seen(request).select_related("game", "organiser"), pk=pk)
    if request.method != "POST":
        return redirect("competitions:tournament_detail", pk=t.pk)
    if not may_start(request.user, t):
        return forbidden(request, "Only the tournament's organiser or staff may start it.")
    try:
        enqueue_start(t)
    except ValidationError as exc:
        return _tournament_page(request, t, start_error=exc.messages, status=400)
    mark_starting(t)
    messages.success(
        request,
        f"{t.name} is starting: a worker schedules its matches; this page follows them.",
    )
    return redirect("competitions:tournament_detail", pk=t.pk)
