"""Stats that explain a bot's rating: its rated results by table size and by seat, per
opponent, and its Elo over each version's period. Counted once, as each rated match is recorded
(``rate_match``, under its rating rows' locks), so a page reads a few small rows whatever the
history; ``recalculate`` clears them and counts them again with the ratings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bots.models import Bot, BotVersion
from django.db.models import Q
from matches.models import Match, MatchSeat

from ratings.models import OpponentStat, RatingChange, SeatStat, VersionPeriod
from ratings.stat_backfill import backfill
from ratings.stat_tally import SeatResult, Tally, save_tally


def count_rated(match: Match, seats: Sequence[MatchSeat], changes: Sequence[RatingChange]) -> None:
    """Add one rated match to the counters (inside its recording transaction)."""
    by_seat = {c.seat: c for c in changes}
    tally = Tally()
    tally.add(
        [
            SeatResult(
                seat=s.seat,
                bot_id=s.bot_version.bot_id,
                version_id=s.bot_version_id,
                rank=s.rank,
                elo_before=by_seat[s.seat].elo_before,
                elo_after=by_seat[s.seat].elo_after,
            )
            for s in seats
        ],
        match.finished_at,
    )
    save_tally(tally, SeatStat, OpponentStat, VersionPeriod)


def clear(game_id: int | None) -> None:
    """Forget the counters of one game (or all), before the ratings are counted again."""
    scope = Q() if game_id is None else Q(bot__game_id=game_id)
    for model in (SeatStat, OpponentStat, VersionPeriod):
        model.objects.filter(scope).delete()


def recount(game_id: int | None = None) -> int:
    """Count one game's (or every game's) counters again from its rating changes, after they
    were rewritten (a recalculation of the ratings). Run it where no rating of the game moves
    meanwhile (the counters of a match recorded during it would be lost or doubled); returns
    how many matches were counted."""
    from django.apps import apps

    clear(game_id)
    return backfill(apps.get_model, game_id=game_id)


# ----------------------------------------------------------------------------------- reading


@dataclass
class Split:
    """Rated results of one table size, or one seat."""

    key: int
    played: int = 0
    firsts: int = 0
    rank_sum: int = 0
    elo_change: float = 0.0

    @property
    def first_share(self) -> float:
        return self.firsts / self.played if self.played else 0.0

    @property
    def average_place(self) -> float:
        return self.rank_sum / self.played if self.played else 0.0

    @property
    def first_percent(self) -> int:
        return round(100 * self.first_share)

    @property
    def elo_text(self) -> str:
        """The Elo these matches moved, signed ("+12", "-3", "0")."""
        value = round(self.elo_change)
        return f"{value:+d}" if value else "0"


@dataclass
class Splits:
    by_size: list[Split] = field(default_factory=list)
    by_seat: list[Split] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.by_size)


COLUMNS = ("players", "seat", "played", "firsts", "rank_sum", "elo_change")


def _fold(rows: list[tuple[int, int, int, int, int, float]]) -> Splits:
    sizes: dict[int, Split] = {}
    seats: dict[int, Split] = {}
    for players, seat, played, firsts, rank_sum, elo in rows:
        for table, key in ((sizes, players), (seats, seat)):
            split = table.setdefault(key, Split(key))
            split.played += played
            split.firsts += firsts
            split.rank_sum += rank_sum
            split.elo_change += elo
    return Splits([sizes[k] for k in sorted(sizes)], [seats[k] for k in sorted(seats)])


def splits(bot: Bot) -> Splits:
    """The bot's rated results by table size and by seat, all versions together: one query
    over its counters (versions x table sizes x seats rows, never its matches)."""
    return _fold(list(SeatStat.objects.filter(bot=bot).values_list(*COLUMNS)))


def splits_by_version(versions: list[BotVersion]) -> dict[int, Splits]:
    """The same, for each of ``versions`` apart, in one query."""
    grouped: dict[int, list[Any]] = {v.pk: [] for v in versions}
    for version_id, *row in SeatStat.objects.filter(version__in=versions).values_list(
        "version_id", *COLUMNS
    ):
        grouped[version_id].append(tuple(row))
    return {v: _fold(rows) for v, rows in grouped.items()}
