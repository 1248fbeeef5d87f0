"""Tournament pages: the list and one tournament with its standings."""

from __future__ import annotations

from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from matches.selectors import filter_matches

from competitions.models import Tournament
from competitions.selectors import tournament_standings

MATCHES_SHOWN = 100


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.select_related("game", "organiser").annotate(
        entrant_count=Count("entrants", distinct=True), match_count=Count("matches", distinct=True)
    )
    return render(request, "competitions/list.html", {"tournaments": tournaments[:100]})


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(Tournament.objects.select_related("game", "organiser"), pk=pk)
    matches = filter_matches().filter(tournament=t).order_by("pk")
    counts = {row["status"]: row["n"] for row in t.matches.values("status").annotate(n=Count("pk"))}
    return render(
        request,
        "competitions/detail.html",
        {
            "t": t,
            "rows": tournament_standings(t),
            "matches": matches[:MATCHES_SHOWN],
            "match_total": sum(counts.values()),
            "counts": counts,
        },
    )
