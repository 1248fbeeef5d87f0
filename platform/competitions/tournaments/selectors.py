"""Reading tournaments: their standings, and the list with its counts (a league's tables are
``competitions.leagues.selectors``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bots.models import BotVersion
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from arena.ratings import Standing
from competitions.models import CompetitionMatch, Tournament, TournamentEntry
from competitions.permissions import visible_tournaments


@dataclass(frozen=True)
class TournamentLine:
    """One entrant's line of a tournament table (the format's own row is
    ``arena.formats.StandingRow``)."""

    position: int
    version: BotVersion
    standing: Standing
    #: The format's points (match points, byes), and whether a knockout put it out.
    points: float = 0.0
    eliminated: bool = False
    byes: int = 0


def tournament_standings(tournament: Tournament) -> list[TournamentLine]:
    """The table of a tournament as stored per entrant (updated when each match is recorded,
    never recomputed here): in the format's ranking order. A draft lists its entrants."""
    entries = list(
        TournamentEntry.objects.filter(tournament=tournament)
        .select_related("version__bot__owner")
        .order_by(F("position").asc(nulls_last=True), "seed")
    )
    if not entries:
        versions = tournament.entrants.select_related("bot", "bot__owner").order_by("pk")
        return [
            TournamentLine(position=i, version=v, standing=Standing(bot=str(v.pk)))
            for i, v in enumerate(versions, start=1)
        ]
    return [
        TournamentLine(
            position=e.position or i,
            version=e.version,
            standing=e.standing(str(e.version_id)),
            points=e.points,
            eliminated=e.eliminated,
            byes=int(e.row.get("byes", 0)),
        )
        for i, e in enumerate(entries, start=1)
    ]


def tournaments_with_counts(viewer: Any) -> QuerySet[Tournament]:
    """The tournaments ``viewer`` may see (``visible_tournaments_q``: a private one only to its
    members), with ``entrant_count`` and ``match_count`` as scalar subqueries (each bounded by
    one tournament's size), not a join of entrants and matches."""
    entrants = (
        Tournament.objects.filter(pk=OuterRef("pk"))
        .order_by()
        .annotate(n=Count("entrants"))
        .values("n")
    )
    matches = (
        CompetitionMatch.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        visible_tournaments(viewer)
        .select_related("game", "organiser")
        .annotate(
            entrant_count=Coalesce(Subquery(entrants), 0),
            match_count=Coalesce(Subquery(matches), 0),
        )
    )
