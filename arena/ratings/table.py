"""Standings: one row per bot (matches, wins, averages, faults, Elo, OpenSkill), match by match."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from arena.ratings.elo import DEFAULT_ELO, DEFAULT_K, elo_match
from arena.ratings.records import MATCH_ERROR, PLAYER_FAULTS, SEAT_OK, MatchRecord, as_record
from arena.ratings.skill import DEFAULT_MU, DEFAULT_SIGMA, Skill, openskill_match

#: A bot with fewer rated matches than this is flagged provisional.
PROVISIONAL_MATCHES = 10


@dataclass(frozen=True)
class Standing:
    """One bot's row of the table. Averages are over the matches counted (``None`` if none)."""

    bot: str
    matches: int = 0
    rated: int = 0  # matches that moved its ratings
    wins: int = 0  # first places, shared first places included
    faults: int = 0  # seats it ended with a player fault (timeout, crashed, illegal, retired)
    rank_sum: int = 0
    score_sum: float = 0.0
    scored: int = 0  # matches that carried scores
    elo: float = DEFAULT_ELO
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    provisional_below: int = PROVISIONAL_MATCHES

    @property
    def avg_rank(self) -> float | None:
        return self.rank_sum / self.matches if self.matches else None

    @property
    def avg_score(self) -> float | None:
        return self.score_sum / self.scored if self.scored else None

    @property
    def ordinal(self) -> float:
        return Skill(self.mu, self.sigma).ordinal

    @property
    def provisional(self) -> bool:
        """Too few rated matches for its rating to mean much yet."""
        return self.rated < self.provisional_below

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "matches": self.matches,
            "rated": self.rated,
            "wins": self.wins,
            "faults": self.faults,
            "avg_rank": self.avg_rank,
            "avg_score": self.avg_score,
            "elo": self.elo,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
            "provisional": self.provisional,
        }


@dataclass(frozen=True)
class Standings:
    """The table (best first) and the matches left out, as (match id or index, reason)."""

    rows: list[Standing]
    ignored: list[tuple[str, str]] = field(default_factory=list)

    def by_bot(self) -> dict[str, Standing]:
        return {row.bot: row for row in self.rows}

    def to_json(self) -> dict[str, Any]:
        return {
            "rows": [r.to_json() for r in self.rows],
            "ignored": [{"match": m, "reason": why} for m, why in self.ignored],
        }


def update_standings(
    table: Mapping[str, Standing],
    match: MatchRecord | Mapping[str, Any] | Any,
    *,
    k: float = DEFAULT_K,
    provisional_below: int = PROVISIONAL_MATCHES,
) -> dict[str, Standing]:
    """A new table with one match added (``table`` is not changed). An ``error`` match returns
    an unchanged copy. New bots start at :data:`DEFAULT_ELO` and OpenSkill's default prior."""
    m = as_record(match)
    out = dict(table)
    if m.status == MATCH_ERROR:
        return out
    rows = [
        out.get(bot) or Standing(bot=bot, provisional_below=provisional_below) for bot in m.bots
    ]
    if m.rated:
        elos = elo_match([r.elo for r in rows], m.ranks, k)
        skills = openskill_match([Skill(r.mu, r.sigma) for r in rows], m.ranks)
    else:
        elos = [r.elo for r in rows]
        skills = [Skill(r.mu, r.sigma) for r in rows]
    for seat, bot in enumerate(m.bots):
        # Re-read: a bot holding two seats accumulates both (such a match is never rated).
        row = out.get(bot) or rows[seat]
        status = m.seat_status[seat] if m.seat_status else SEAT_OK
        out[bot] = replace(
            row,
            matches=row.matches + 1,
            rated=row.rated + m.rated,
            wins=row.wins + (m.ranks[seat] == 1),
            faults=row.faults + (status in PLAYER_FAULTS),
            rank_sum=row.rank_sum + m.ranks[seat],
            score_sum=row.score_sum + (m.scores[seat] if m.scores else 0.0),
            scored=row.scored + bool(m.scores),
            elo=elos[seat],
            mu=skills[seat].mu,
            sigma=skills[seat].sigma,
        )
    return out


def rank_table(table: Mapping[str, Standing]) -> list[Standing]:
    """Rows best first: conservative ordinal, then Elo, then bot name (for a stable order)."""
    return sorted(table.values(), key=lambda r: (-r.ordinal, -r.elo, r.bot))


def standings(
    matches: Iterable[MatchRecord | Mapping[str, Any] | Any],
    *,
    bots: Iterable[str] = (),
    k: float = DEFAULT_K,
    provisional_below: int = PROVISIONAL_MATCHES,
) -> Standings:
    """The table after ``matches`` in the order given (oldest first: Elo depends on order).

    ``bots`` lists bots to show even with no match yet. Dicts are read by
    :meth:`MatchRecord.from_json`. ``error`` matches, single-seat matches and matches where a
    bot holds several seats are listed in ``ignored`` (the last two still count in the
    statistics, not in ratings).
    """
    table: dict[str, Standing] = {
        b: Standing(bot=b, provisional_below=provisional_below) for b in bots
    }
    ignored: list[tuple[str, str]] = []
    for index, raw in enumerate(matches):
        m = as_record(raw)
        label = m.id if m.id is not None else f"#{index}"
        if m.status == MATCH_ERROR:
            ignored.append((label, "system error: not counted"))
        elif len(m.bots) < 2:
            ignored.append((label, "single seat: counted, not rated"))
        elif not m.rated:
            ignored.append((label, "a bot holds several seats: counted, not rated"))
        table = update_standings(table, m, k=k, provisional_below=provisional_below)
    return Standings(rows=rank_table(table), ignored=ignored)
