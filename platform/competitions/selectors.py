"""Reading competitions: leaderboards, tournament and league standings, progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from bots.models import Bot, BotVersion
from django.db.models import Count, Prefetch, QuerySet
from django.utils import timezone
from matches.models import Match, MatchSeat, MatchStatus

from arena.ratings import Standing, standings
from competitions.models import League, Tournament


@dataclass(frozen=True)
class StandingRow:
    """One entrant's line of a tournament table."""

    position: int
    version: BotVersion
    standing: Standing


def _records(matches: QuerySet[Match], key: Callable[[MatchSeat], str]) -> list[dict]:
    """``arena.ratings`` match records of finished ``matches`` (oldest first), each seat
    named by ``key(seat)``."""
    records = []
    finished = matches.filter(status=MatchStatus.FINISHED).order_by("pk")
    seats_qs = MatchSeat.objects.select_related("bot_version")
    for m in finished.prefetch_related(Prefetch("seats", seats_qs)):
        seats = sorted(m.seats.all(), key=lambda s: s.seat)
        records.append(
            {
                "id": str(m.pk),
                "bots": [key(s) for s in seats],
                "ranks": [s.rank for s in seats],
                "scores": [s.score for s in seats]
                if all(s.score is not None for s in seats)
                else [],
                "seat_status": [s.status or "ok" for s in seats],
            }
        )
    return records


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """The table of a tournament from its finished matches (oldest first), computed with
    ``arena.ratings.standings`` over those matches only (fresh ratings, not the global ones):
    best first by conservative OpenSkill ordinal, then Elo. Error matches do not count."""
    entrants = {str(v.pk): v for v in tournament.entrants.select_related("bot", "bot__owner")}
    records = _records(tournament.matches.all(), lambda s: str(s.bot_version_id))
    table = standings(records, bots=list(entrants))
    return [
        StandingRow(position=i, version=entrants[row.bot], standing=row)
        for i, row in enumerate(table.rows, start=1)
        if row.bot in entrants
    ]


@dataclass(frozen=True)
class Progress:
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


def match_progress(matches: QuerySet[Match]) -> Progress:
    counts = {row["status"]: row["n"] for row in matches.values("status").annotate(n=Count("pk"))}
    return Progress(
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


def league_standings(league: League) -> list[LeagueRow]:
    """The table of a league, computed like a tournament's (``tournament_standings``) over
    the league's finished matches, oldest first, per bot rather than per version: each round
    plays a bot's latest version, so a bot keeps its line when its owner uploads a new one."""
    records = _records(league.matches.all(), lambda s: str(s.bot_version.bot_id))
    table = standings(records)
    bots = Bot.objects.select_related("owner").in_bulk([int(r.bot) for r in table.rows])
    rows = [r for r in table.rows if int(r.bot) in bots]
    return [
        LeagueRow(position=i, bot=bots[int(row.bot)], standing=row)
        for i, row in enumerate(rows, start=1)
    ]


def next_round_at(league: League) -> datetime | None:
    """When ``run_leagues`` will next play a round of ``league`` (None: paused). A league
    that never played is due at once."""
    if not league.is_active:
        return None
    if league.last_run_at is None:
        return timezone.now()
    return league.last_run_at + timedelta(hours=league.every_hours)
