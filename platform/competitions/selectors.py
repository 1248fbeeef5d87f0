"""Reading competitions: leaderboards, tournament and league standings, progress."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bots.models import Bot, BotVersion
from django.db.models import Count, F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from matches.models import Match, MatchStatus

from arena.ratings import Standing
from competitions.models import (
    CompetitionMatch,
    League,
    LeagueStanding,
    Season,
    Tournament,
    TournamentEntry,
)
from competitions.permissions import visible_tournaments_q
from competitions.services.timetable import league_next_round_at


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


@dataclass(frozen=True)
class MatchCounts:
    """How far a tournament (or a league) has got: matches by status."""

    total: int
    finished: int
    errors: int

    @property
    def done(self) -> int:
        return self.finished + self.errors

    @property
    def pending(self) -> int:
        return self.total - self.done

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


def match_progress(matches: QuerySet[Match]) -> MatchCounts:
    counts = {row["status"]: row["n"] for row in matches.values("status").annotate(n=Count("pk"))}
    return MatchCounts(
        total=sum(counts.values()),
        finished=counts.get(MatchStatus.FINISHED, 0),
        errors=counts.get(MatchStatus.ERROR, 0),
    )


@dataclass(frozen=True)
class LeagueRow:
    """One bot's line of a league table (a league follows bots, whatever version played)."""

    position: int
    bot: Bot
    standing: Standing
    points: float = 0.0


def league_standings(
    league: League, season: Season | None = None, limit: int | None = None
) -> list[LeagueRow]:
    """A league's table as stored (one row per bot, whatever version played), for a season or
    all time (``season=None``): most points first, then the conservative skill; the first
    ``limit`` rows (all when None)."""
    rows = (
        LeagueStanding.objects.filter(league=league, season=season)
        .select_related("bot__owner")
        .order_by("-points", "-ordinal", "bot_id")
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        LeagueRow(position=i, bot=st.bot, standing=st.standing(str(st.bot_id)), points=st.points)
        for i, st in enumerate(rows, start=1)
    ]


def table_stamp_key(league_id: int) -> str:
    """The ``foundation.stamps`` number of a league's standings: bumped after each recorded match
    of the league commits (``services.league_match_ended``); the page caches its drawn table
    under it."""
    return f"league-table:{league_id}"


def seasons_of(league: League) -> QuerySet[Season]:
    return league.seasons.order_by("-number")


def next_round_at(league: League) -> datetime | None:
    """When the league's next round is due (None: paused): on its calendar
    (``services.timetable.league_next_round_at``)."""
    return league_next_round_at(league, timezone.now())


def visible_tournaments(viewer: Any) -> QuerySet[Tournament]:
    """The tournaments ``viewer`` may see: pages and endpoints answer 404 for any other (a
    private tournament exists for its members only)."""
    return Tournament.objects.filter(visible_tournaments_q(viewer))


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
