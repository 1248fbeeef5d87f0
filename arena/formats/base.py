"""What every format shares: the options, the standing rows, tables, rounds and results, the
points a match gives and the order of the standings (docs/formats.md)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from arena.schedule import ScheduledMatch, ScheduleError

if TYPE_CHECKING:  # parts describes rows with the StandingRow below: a type only here
    from arena.formats.parts import Column

#: What a Swiss bye is worth, per game the table would have played: an average result.
BYE_POINTS = 0.5


class FormatError(ScheduleError):
    """Bad input to a format; the message says which value and why."""


# ------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class FormatOptions:
    """How a tournament is played; the platform stores these with the tournament.

    ``players`` is the table size; ``min_players`` (default ``players``) the smallest table
    Swiss and multiplayer knockout may form when the field does not divide (within the
    game's range). ``rounds``: Swiss rounds (default ``ceil(log2 n)``), or a cut of a round
    robin after that many rounds; knockout refuses it (it plays until one winner).
    ``games_per_table``: matches each table plays in its round, seats rotated (a multiple of
    the table size gives every bot every seat once). ``advance``: how many of each
    multiplayer knockout table go through (fewer than ``min_players``). ``tie_replays``:
    two-seat knockout, how many times a table level on points is played again before the
    better seed goes through.
    """

    players: int = 2
    min_players: int | None = None
    rounds: int | None = None
    games_per_table: int = 1
    advance: int = 1
    seed: int = 0
    tie_replays: int = 0

    @property
    def smallest(self) -> int:
        return self.players if self.min_players is None else self.min_players

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "min_players": self.min_players,
            "rounds": self.rounds,
            "games_per_table": self.games_per_table,
            "advance": self.advance,
            "seed": self.seed,
            "tie_replays": self.tie_replays,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FormatOptions:
        unknown = sorted(set(data) - set(cls().to_json()))
        if unknown:
            raise FormatError(f"unknown format options: {', '.join(unknown)}")
        return cls(**dict(data))


@dataclass
class StandingRow:
    """One entrant's standing in a tournament: what the platform stores per entrant.

    ``seed`` is the seeding (1 is the top seed: the first entrant). ``opponents`` counts the
    matches played against each other entrant; ``seats`` how often the entrant sat in each
    seat; ``buchholz`` is the sum of the current points of every opponent, once per match
    against them (recomputed by :func:`record_round`). ``eliminated_in`` is the knockout round
    that put the entrant out.
    """

    bot: str
    seed: int
    points: float = 0.0
    wins: int = 0
    matches: int = 0
    byes: int = 0
    opponents: dict[str, int] = field(default_factory=dict)
    seats: list[int] = field(default_factory=list)
    buchholz: float = 0.0
    eliminated: bool = False
    eliminated_in: int | None = None

    def count_match(
        self, seat: int, bots: Sequence[str], ranks: Sequence[int], points: float
    ) -> None:
        """Add one played match: ``points`` for it, a win if ranked first from ``seat``, the
        seat, and one meeting with each other bot at the table."""
        self.points += points
        self.matches += 1
        self.wins += ranks[seat] == 1
        self.seats = list(self.seats) + [0] * (seat + 1 - len(self.seats))
        self.seats[seat] += 1
        for other in bots:
            if other != self.bot:
                self.opponents[other] = self.opponents.get(other, 0) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seed": self.seed,
            "points": self.points,
            "wins": self.wins,
            "matches": self.matches,
            "byes": self.byes,
            "opponents": dict(sorted(self.opponents.items())),
            "seats": list(self.seats),
            "buchholz": self.buchholz,
            "eliminated": self.eliminated,
            "eliminated_in": self.eliminated_in,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StandingRow:
        try:
            return cls(
                bot=str(data["bot"]),
                seed=int(data["seed"]),
                points=float(data.get("points", 0.0)),
                wins=int(data.get("wins", 0)),
                matches=int(data.get("matches", 0)),
                byes=int(data.get("byes", 0)),
                opponents={str(k): int(v) for k, v in dict(data.get("opponents", {})).items()},
                seats=[int(x) for x in data.get("seats", [])],
                buchholz=float(data.get("buchholz", 0.0)),
                eliminated=bool(data.get("eliminated", False)),
                eliminated_in=(
                    None if data.get("eliminated_in") is None else int(data["eliminated_in"])
                ),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise FormatError(f"bad standing row {dict(data)!r}: {e}") from e


Standings = Mapping[str, StandingRow]


def standings_to_json(rows: Standings) -> list[dict[str, Any]]:
    """All rows as a JSON list, by seeding (for one JSON field per tournament)."""
    return [r.to_json() for r in by_seed(rows.values())]


def standings_from_json(data: Sequence[Mapping[str, Any]]) -> dict[str, StandingRow]:
    """The rows back from :func:`standings_to_json`, checked: distinct bots, seeds 1..n."""
    if isinstance(data, (str, bytes, Mapping)) or not isinstance(data, Sequence):
        raise FormatError(f"standings must be a list of rows, got {type(data).__name__}")
    rows = [StandingRow.from_json(d) for d in data]
    out = {r.bot: r for r in rows}
    if len(out) != len(rows):
        raise FormatError("standings name a bot twice")
    return checked_rows(out)


@dataclass(frozen=True)
class Table:
    """The entrants who meet at one table in a round, and the matches they play there.

    ``advance`` (knockout only) is how many of them go through to the next round."""

    bots: tuple[str, ...]
    matches: tuple[ScheduledMatch, ...]
    advance: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "advance": self.advance,
            "matches": [m.to_json() for m in self.matches],
        }


@dataclass(frozen=True)
class Round:
    """One round: tables (an entrant sits at one table at most) and the entrants left out.

    ``byes`` are entrants with no table this round; a Swiss bye scores :data:`BYE_POINTS` per
    game, a knockout bye goes through, a round robin's left-out entrants play later."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()

    @property
    def matches(self) -> list[ScheduledMatch]:
        return [m for t in self.tables for m in t.matches]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [t.to_json() for t in self.tables],
            "byes": list(self.byes),
        }


@dataclass(frozen=True)
class Result:
    """One played match: ``bots[seat]`` finished at ``ranks[seat]`` (1 is first, equal ranks
    tie); ``ranks=None`` is a match that ended in ``error`` and counts for nothing."""

    bots: tuple[str, ...]
    ranks: tuple[int, ...] | None

    def __post_init__(self) -> None:
        if self.ranks is not None and len(self.ranks) != len(self.bots):
            raise FormatError(f"{len(self.bots)} seats but {len(self.ranks)} ranks")


# ----------------------------------------------------------------------------------- points


def match_points(ranks: Sequence[int]) -> list[float]:
    """Each seat's points: (seats beaten + half the seats tied with) / (seats - 1)."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    out = []
    for i, r in enumerate(ranks):
        beaten = sum(1 for j, o in enumerate(ranks) if j != i and o > r)
        tied = sum(1 for j, o in enumerate(ranks) if j != i and o == r)
        out.append((beaten + tied / 2) / (n - 1))
    return out


def new_standings(entrants: Sequence[str]) -> dict[str, StandingRow]:
    """Empty rows for a field; the order of ``entrants`` is the seeding (first: top seed)."""
    names = list(entrants)
    if isinstance(entrants, str) or any(not isinstance(b, str) or not b for b in names):
        raise FormatError(f"entrants must be a list of non-empty names, got {entrants!r}")
    dupes = sorted(b for b, k in Counter(names).items() if k > 1)
    if dupes:
        raise FormatError(f"entrants must be distinct, repeated: {', '.join(dupes)}")
    return {b: StandingRow(bot=b, seed=i + 1) for i, b in enumerate(names)}


def by_seed(rows: Iterable[StandingRow]) -> list[StandingRow]:
    return sorted(rows, key=lambda r: r.seed)


def checked_rows(rows: Standings) -> dict[str, StandingRow]:
    """The rows as a new dict, checked: each filed under its own bot, seeds 1..n."""
    for bot, row in rows.items():
        if row.bot != bot:
            raise FormatError(f"standing row {row.bot!r} filed under {bot!r}")
    seeds = sorted(r.seed for r in rows.values())
    if seeds != list(range(1, len(seeds) + 1)):
        raise FormatError(f"seeds must be 1..{len(seeds)}, got {seeds}")
    return dict(rows)


# ---------------------------------------------------------------------------------- formats


class Format(Protocol):
    """A tournament format: pure functions of the standing rows and the round number, and
    what it says about itself, which every consumer reads (``arena.formats.parts``)."""

    #: As the CLI, the platform and the API spell it; ``label`` as the pages show it, and
    #: ``summary`` what it is in a few words (the form's help).
    name: str
    label: str
    summary: str
    #: The options it takes beyond ``parts.COMMON_OPTIONS``, each with what it means here.
    takes: dict[str, str]
    #: ``StandingRow`` fields its ranking orders by, first to last (``parts.ranking_key``).
    ranked_by: tuple[str, ...]
    #: The legend of its table: what orders it, in words.
    order_note: str
    #: The columns it adds to the CLI's table after the points.
    columns: tuple[Column, ...]
    #: What its published results draw (one of ``parts.RESULTS_SECTIONS``).
    results_section: str
    #: Whether its rounds may be spaced hours apart, and whether it may be cut at a number
    #: of matches (``max_matches``).
    spaced: bool
    can_cut: bool

    def check(self, entrants: int, options: FormatOptions) -> None:
        """Raise :class:`FormatError` if this field cannot play this format so."""

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        """Rounds a field of ``entrants`` plays (knockout: if no table has to be replayed)."""

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        """Matches a field of ``entrants`` plays (knockout: if no table is played again)."""

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        """Round ``number`` (from 0), or None when the tournament is over."""

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        """Who of ``table`` is eliminated after its games earned ``points`` (``rows`` as
        they are after the round)."""

    def ranking(self, rows: Standings) -> list[StandingRow]:
        """The final (or current) order of the field, best first."""
