"""Reading competitions: leaderboards and tournament standings."""

from __future__ import annotations

from dataclasses import dataclass

from bots.models import BotVersion
from catalog.models import Game
from django.db.models import QuerySet
from matches.models import MatchStatus

from arena.ratings import Standing, standings
from competitions.models import Rating, Tournament


def leaderboard(game: Game) -> QuerySet[Rating]:
    """Ratings of a game, best first (conservative OpenSkill ordinal, then Elo)."""
    return (
        Rating.objects.filter(game=game)
        .select_related("bot", "bot__owner")
        .order_by("-ordinal", "-elo", "bot__name")
    )


def top_bots(limit: int = 10) -> QuerySet[Rating]:
    return Rating.objects.select_related("bot", "game").order_by("-ordinal", "-elo")[:limit]


@dataclass(frozen=True)
class StandingRow:
    """One entrant's line of a tournament table."""

    position: int
    version: BotVersion
    standing: Standing


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The table of a tournament from its finished matches (oldest first), computed with
    ``arena.ratings.standings`` over those matches only (fresh ratings, not the global ones):
    best first by conservative OpenSkill ordinal, then Elo. Error matches do not count."""
    entrants = {str(v.pk): v for v in tournament.entrants.select_related("bot", "bot__owner")}
    records = []
    matches = tournament.matches.filter(status=MatchStatus.FINISHED).order_by("pk")
    for m in matches.prefetch_related("seats"):
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        records.append(
            {
                "id": str(m.pk),
                "bots": [str(s.bot_version_id) for s in seats],
                "ranks": [s.rank for s in seats],
                "scores": [s.score for s in seats]
                if all(s.score is not None for s in seats)
                else [],
                "seat_status": [s.status or "ok" for s in seats],
            }
        )
    table = standings(records, bots=list(entrants))
    return [
        StandingRow(position=i, version=entrants[row.bot], standing=row)
        for i, row in enumerate(table.rows, start=1)
        if row.bot in entrants
    ]
