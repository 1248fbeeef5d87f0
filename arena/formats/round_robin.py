"""Round robin: every combination of entrants, packed into rounds."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from arena.formats.base import (
    FormatError,
    FormatOptions,
    Round,
    StandingRow,
    Standings,
    Table,
    by_seed,
)
from arena.formats.parts import Column, ranking_key
from arena.formats.tables import check_common
from arena.schedule import ScheduledMatch, round_robin


class RoundRobin:
    """Every combination of ``players`` entrants, ``games_per_table`` matches each: the
    schedule of :func:`arena.schedule.round_robin`, packed into rounds in which each entrant
    sits at one table at most (first fit, in the schedule's order)."""

    name = "round-robin"
    label = "Round robin"
    summary = "everyone meets everyone"
    takes: dict[str, str] = {"rounds": "stop after this many rounds"}
    ranked_by: tuple[str, ...] = ("points", "buchholz", "wins", "seed")
    order_note = "Ordered by points, then Buchholz (the opponents' points), wins, seeding."
    columns: tuple[Column, ...] = (Column("Buchholz", lambda r: r.buchholz),)
    results_section = "crosstable"
    spaced = False  # its rounds follow one another
    can_cut = True
    _TAG = 1

    def check(self, entrants: int, options: FormatOptions) -> None:
        check_common(entrants, options, "round robin", seats=1)  # solitaire: a score table
        if options.smallest != options.players:
            raise FormatError("a round robin plays full tables: it takes no min_players")
        if options.advance != 1:
            raise FormatError("advance is for a knockout: a round robin knocks nobody out")
        if entrants < options.players:
            raise FormatError(
                f"a round robin of {options.players}-seat matches needs at least "
                f"{options.players} entrants, got {entrants}"
            )

    def _rounds(self, names: list[str], options: FormatOptions) -> list[list[ScheduledMatch]]:
        rounds = _packed_round_robin(
            tuple(names), options.players, options.games_per_table, options.seed
        )
        if options.rounds is not None:
            rounds = rounds[: options.rounds]
        return [list(r) for r in rounds]

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        return len(self._rounds([f"e{i}" for i in range(entrants)], options))

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        return sum(map(len, self._rounds([f"e{i}" for i in range(entrants)], options)))

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        names = [r.bot for r in by_seed(rows.values())]
        rounds = self._rounds(names, options)
        if number >= len(rounds):
            return None
        tables: dict[frozenset[str], list[ScheduledMatch]] = {}
        for m in rounds[number]:
            tables.setdefault(frozenset(m.bots), []).append(m)
        seated = set().union(*tables)
        return Round(
            number=number,
            tables=tuple(Table(bots=ms[0].bots, matches=tuple(ms)) for ms in tables.values()),
            byes=tuple(b for b in names if b not in seated),
        )

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        return set()

    def ranking(self, rows: Standings) -> list[StandingRow]:
        return sorted(rows.values(), key=ranking_key(self.ranked_by))


@lru_cache(maxsize=8)
def _packed_round_robin(
    names: tuple[str, ...], players: int, games: int, seed: int
) -> tuple[tuple[ScheduledMatch, ...], ...]:
    """``round_robin`` packed first fit into rounds: each combination (with all its games)
    goes to the earliest round where none of its entrants is busy. Cached: every round of a
    tournament asks for the same packing."""
    units: dict[frozenset[str], list[ScheduledMatch]] = {}
    for m in round_robin(list(names), players, games, seed):
        units.setdefault(frozenset(m.bots), []).append(m)
    rounds: list[list[ScheduledMatch]] = []
    busy = dict.fromkeys(names, 0)  # a bitmask per entrant: bit r set = a table in round r
    for unit, matches in units.items():
        taken = 0
        for b in unit:
            taken |= busy[b]
        r = (~taken & (taken + 1)).bit_length() - 1  # the lowest round free for all of them
        if r == len(rounds):
            rounds.append([])
        for b in unit:
            busy[b] |= 1 << r
        rounds[r].extend(replace(m, round=r) for m in matches)
    return tuple(tuple(r) for r in rounds)
