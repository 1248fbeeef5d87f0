"""Reading leagues: a season's or the all-time table as stored, its seasons, when the next
round is due."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bots.models import Bot
from django.db.models import QuerySet
from django.utils import timezone

from arena.ratings import Standing
from competitions.leagues.timetable import league_next_round_at
from competitions.models import League, LeagueStanding, Season


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
    of the league commits (``leagues.services.league_match_ended``); the page caches its drawn table
    under it."""
    return f"league-table:{league_id}"


def seasons_of(league: League) -> QuerySet[Season]:
    return league.seasons.order_by("-number")


def next_round_at(league: League) -> datetime | None:
    """When the league's next round is due (None: paused): on its calendar
    (``leagues.timetable.league_next_round_at``)."""
    return league_next_round_at(league, timezone.now())
