"""Knockout: a seeded bracket at two seats, tables whose best go through at three or more."""

from __future__ import annotations

import math
from dataclasses import replace

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
from arena.formats.tables import check_common, seat_table, table_sizes


class Knockout:
    """Two seats: a bracket in standard seeding order (1 meets 2 only in the final), byes to
    the top seeds when the field is not a power of two. Three or more seats: tables of the
    survivors (byes to the top seeds, the rest dealt out snake-wise by seed) whose best
    ``advance`` go through, until one table plays the final. Who goes through: most points at
    the table over its games; level on points, the better seed."""

    name = "knockout"
    label = "Knockout"
    summary = "losers go out until one winner"
    takes: dict[str, str] = {
        "min_players": "the smallest table when the field does not divide",
        "advance": "with 3+ seats, how many of each table go through",
        "tie_replays": "two seats, how often a level table is played again",
    }
    ranked_by: tuple[str, ...] = ("eliminated_in", "points", "buchholz", "seed")
    order_note = (
        "Ordered by how far each bot got (the last one standing, then the others by the round "
        "they went out in, latest first), then points, Buchholz, seeding."
    )
    columns: tuple[Column, ...] = (Column("out", lambda r: _out(r), left=True),)
    results_section = "bracket"
    spaced = True
    can_cut = False
    _TAG = 3

    def check(self, entrants: int, options: FormatOptions) -> None:
        check_common(entrants, options, "knockout")
        if options.rounds is not None:
            raise FormatError("a knockout plays until one winner: it takes no number of rounds")
        if options.players == 2 and options.advance != 1:
            raise FormatError("a two-seat knockout advances one per match")
        if options.players > 2 and options.advance >= options.smallest:
            raise FormatError(
                f"advance ({options.advance}) must be below the smallest table "
                f"({options.smallest}) or nobody would be knocked out"
            )

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        if options.players == 2:
            return math.ceil(math.log2(entrants)) if entrants > 1 else 0
        return len(self._tables_per_round(entrants, options))

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        if options.players == 2:
            tables = entrants - 1  # every table knocks one out
        else:
            tables = sum(self._tables_per_round(entrants, options))
        return tables * options.games_per_table

    @staticmethod
    def _tables_per_round(entrants: int, options: FormatOptions) -> list[int]:
        m, tables = entrants, []
        while m > 1:
            sizes, byes, advances = _group_plan(m, options)
            m = sum(advances) + len(byes)
            tables.append(len(sizes))
        return tables

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        alive = by_seed(r for r in rows.values() if not r.eliminated)
        if len(alive) <= 1:
            return None
        groups: list[list[str]]
        if options.players == 2:
            groups, byes = _bracket_round(alive, len(rows))
            advances = [1] * len(groups)
        else:
            sizes, bye_idx, advances = _group_plan(len(alive), options)
            byes = [alive[i].bot for i in bye_idx]
            rest = [r.bot for i, r in enumerate(alive) if i not in set(bye_idx)]
            groups = [[] for _ in sizes]
            t, direction = 0, 1
            for b in rest:  # snake: tables 1..t, then t..1, ..., skipping full tables
                while len(groups[t]) >= sizes[t]:
                    t, direction = _snake_step(t, direction, len(sizes))
                groups[t].append(b)
                t, direction = _snake_step(t, direction, len(sizes))
        tables = tuple(
            replace(seat_table(g, rows, options, self._TAG, number, i), advance=a)
            for i, (g, a) in enumerate(zip(groups, advances, strict=True))
        )
        return Round(number=number, tables=tables, byes=tuple(byes))

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        order = sorted(table.bots, key=lambda b: (-points[b], rows[b].seed))
        if options.tie_replays and len(order) == 2 and points[order[0]] == points[order[1]]:
            # How often this pair's table was played, this round included: the rows count
            # the finished games between them, and in a bracket they meet only here.
            games = rows[order[0]].opponents.get(order[1], 0)
            if math.ceil(games / options.games_per_table) <= options.tie_replays:
                return set()  # nobody out: the bracket plays this table again
        return set(order[table.advance :])

    def ranking(self, rows: Standings) -> list[StandingRow]:
        """The winner, then by the round each went out in (later is better), then points,
        Buchholz, seeding."""
        return sorted(rows.values(), key=ranking_key(self.ranked_by))


def _out(row: StandingRow) -> str:
    """Where a bot went out, as the CLI's table says it (rounds counted from 1)."""
    if not row.eliminated or row.eliminated_in is None:
        return "winner"
    return f"round {row.eliminated_in + 1}"


def _snake_step(t: int, direction: int, n: int) -> tuple[int, int]:
    nxt = t + direction
    if 0 <= nxt < n:
        return nxt, direction
    return t, -direction


def _bracket_order(size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two ``size``: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for x in order for s in (x, n + 1 - x)]
    return order


def _bracket_round(alive: list[StandingRow], field: int) -> tuple[list[list[str]], list[str]]:
    """The next level of the bracket still to be played: the smallest block size at which two
    survivors share a block. Survivors alone in their block wait (a bye): in the first round
    those are the top seeds; later only when a table had to be replayed."""
    size = 1 << max(0, (field - 1).bit_length())
    pos = {seed: i for i, seed in enumerate(_bracket_order(size))}
    level = 1
    while True:
        blocks: dict[int, list[StandingRow]] = {}
        for r in alive:
            blocks.setdefault(pos[r.seed] >> level, []).append(r)
        if any(len(b) > 1 for b in blocks.values()):
            break
        level += 1
    groups = [[r.bot for r in b] for _, b in sorted(blocks.items()) if len(b) == 2]
    byes = [b[0].bot for _, b in sorted(blocks.items()) if len(b) == 1]
    return groups, byes


def _group_plan(m: int, options: FormatOptions) -> tuple[list[int], list[int], list[int]]:
    """Table sizes, the indexes (by seed) of the survivors with a bye, and how many go
    through from each table, for ``m`` survivors of a multiplayer knockout. The number going
    through is raised where needed so that the next round can seat its field (at least
    ``min_players`` of them, or one winner)."""
    p, lo = options.players, options.smallest
    if m <= p:
        return [m], [], [1]
    sizes = table_sizes(m, p, lo)
    byes = list(range(m - sum(sizes)))
    adv = [min(options.advance, s - 1) for s in sizes]
    total = sum(adv) + len(byes)
    i = 0
    while total < lo:
        if adv[i % len(adv)] < sizes[i % len(adv)] - 1:
            adv[i % len(adv)] += 1
            total += 1
        i += 1
        if i > lo * len(adv) * p:
            raise FormatError(f"cannot seat a knockout of {m} at tables of {lo}-{p}")
    return sizes, byes, adv
