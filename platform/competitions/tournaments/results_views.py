"""Results people publish (docs/organisers.md, "Publishing results"): the standings as CSV
and JSON (with the crosstable and every match's replay), and an embeddable standings page for
a club's own site (no navigation; the only page other sites may frame). A private tournament
answers 404 to whoever may not see it, here as everywhere."""

from __future__ import annotations

from typing import Any

from csp.decorators import csp_replace
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.http import require_GET
from foundation.limits import error_response

from competitions.models import Tournament, TournamentStatus
from competitions.permissions import may_see_tournament
from competitions.tournaments.results.data import tournament_results
from competitions.tournaments.results.export import results_json, standings_csv
from competitions.tournaments.results.section import match_url_builder, table_rows

#: The embed's ``?top=`` is clamped to this (a club's sidebar shows a few rows).
MAX_TOP = 1000


def visible_tournament(request: HttpRequest, pk: int) -> Tournament:
    """The tournament, or 404 when there is none or the user may not see it (a private
    tournament does not exist for non-members)."""
    t = get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    if not may_see_tournament(request.user, t):
        raise Http404("No such tournament.")
    return t


@require_GET
def standings_csv_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The table with its tie-breaks, one line per entrant (a draft: the header only)."""
    t = visible_tournament(request, pk)
    response = HttpResponse(
        standings_csv(tournament_results(t)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="tournament-{t.pk}-standings.csv"'
    return response


@require_GET
def standings_json_view(request: HttpRequest, pk: int) -> JsonResponse:
    """The tournament, the table with its tie-breaks, the crosstable, the winner and every
    match with the absolute address of its replay."""
    t = visible_tournament(request, pk)
    url = match_url_builder(request.build_absolute_uri)
    data = results_json(t, tournament_results(t), url)
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})


@require_GET
@xframe_options_exempt
@csp_replace({"frame-ancestors": ["*"]})  # type: ignore[arg-type]  # stubs: one-argument views
def embed_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings alone, for a frame on any site: no navigation, links open a new tab.
    ``?top=N`` shows the first N lines."""
    t = visible_tournament(request, pk)
    top = request.GET.get("top", "")
    if top and (not top.isascii() or not top.isdigit() or not 1 <= int(top) <= MAX_TOP):
        return error_response(request, f"top must be a whole number from 1 to {MAX_TOP}.", 400)
    results = tournament_results(t)
    rows = table_rows(results)
    shown = rows[: int(top)] if top else rows
    final = results.winner_matches()
    context: dict[str, Any] = {
        "t": t,
        "page_url": request.build_absolute_uri(
            reverse("competitions:tournament_detail", args=[t.pk])
        ),
        "started": t.status != TournamentStatus.DRAFT,
        "rows": shown,
        "more": len(shown) < len(rows),
        "total": len(rows),
        "winner": results.winner,
        "winner_match": match_url_builder(request.build_absolute_uri)(final[0].match_id)
        if final
        else None,
        "entrants": len(rows) if rows else t.entrants.count(),
    }
    return render(request, "competitions/embed.html", context)
