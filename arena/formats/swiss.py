"""Swiss: rounds paired by the standings (a maximum-weight matching at two seats, over the
whole field or, above a few dozen entrants, blocks of it: ``arena.formats.pairing``; searched
score-group tables at three or more: ``arena.formats.swiss_tables``)."""

from __future__ import annotations

import math

from arena.formats.base import (
    FormatError,
    FormatOptions,
    Round,
    StandingRow,
    Standings,
    Table,
)
from arena.formats.pairing import swiss_pairs
from arena.formats.parts import Column, ranking_key
from arena.formats.swiss_tables import SEARCH_BUDGET, split_tables
from arena.formats.tables import check_common, seat_table, table_sizes

__all__ = ["SEARCH_BUDGET", "Swiss"]


class Swiss:
    """Rounds paired by the standings. Two seats: a maximum-weight matching (of the whole
    field, or of blocks of neighbours in a big one: ``arena.formats.pairing``) that, in this
    order, repeats as few pairings as possible, gives the bye to someone with fewest byes,
    pairs equal scores, pairs neighbours in the standings, gives the bye to the lowest. Three
    or more seats: score-group tables cut from the standings top down, searched for tables
    where nobody has met (exactly, within a budget; in blocks of a big field), else greedily
    with fewest repeats."""

    name = "swiss"
    label = "Swiss"
    summary = "rounds paired by the standings"
    takes: dict[str, str] = {
        "rounds": "how many rounds (blank: enough to find a winner)",
        "min_players": "the smallest table when the field does not divide",
    }
    ranked_by: tuple[str, ...] = ("points", "buchholz", "wins", "seed")
    order_note = "Ordered by points, then Buchholz (the opponents' points), wins, seeding."
    columns: tuple[Column, ...] = (
        Column("Buchholz", lambda r: r.buchholz),
        Column("byes", lambda r: r.byes),
    )
    results_section = "rounds_grid"
    spaced = True
    can_cut = False
    _TAG = 2

    def check(self, entrants: int, options: FormatOptions) -> None:
        check_common(entrants, options, "Swiss tournament")
        if options.advance != 1:
            raise FormatError("advance is for a knockout: a Swiss tournament knocks nobody out")

    def total_rounds(self, entrants: int, options: FormatOptions) -> int:
        if options.rounds is not None:
            return options.rounds
        return max(1, math.ceil(math.log2(entrants)))

    def total_matches(self, entrants: int, options: FormatOptions) -> int:
        tables = len(table_sizes(entrants, options.players, options.smallest))
        return self.total_rounds(entrants, options) * tables * options.games_per_table

    def plan(self, rows: Standings, number: int, options: FormatOptions) -> Round | None:
        if number >= self.total_rounds(len(rows), options):
            return None
        ordered = self.ranking(rows)
        if options.players == 2:
            pairs, byes = swiss_pairs(ordered)
            groups = [list(p) for p in pairs]
        else:
            groups, byes = _swiss_tables(ordered, options)
        tables = tuple(
            seat_table(g, rows, options, self._TAG, number, i) for i, g in enumerate(groups)
        )
        return Round(number=number, tables=tables, byes=tuple(byes))

    def advance(
        self, table: Table, points: dict[str, float], rows: Standings, options: FormatOptions
    ) -> set[str]:
        return set()

    def ranking(self, rows: Standings) -> list[StandingRow]:
        return sorted(rows.values(), key=ranking_key(self.ranked_by))


def _swiss_tables(
    ordered: list[StandingRow], options: FormatOptions
) -> tuple[list[list[str]], list[str]]:
    """Score-group tables of three or more: byes to the lowest placed among those with
    fewest byes; then tables top down from neighbours in the standings, none repeating a
    meeting if the search finds such a split (``arena.formats.swiss_tables``), else fewest
    repeats."""
    sizes = table_sizes(len(ordered), options.players, options.smallest)
    spare = len(ordered) - sum(sizes)
    placed = list(enumerate(ordered))
    bye_rows = sorted(placed, key=lambda ir: (ir[1].byes, -ir[0]))[:spare]
    bye_names = {r.bot for _, r in bye_rows}
    pool = [r for r in ordered if r.bot not in bye_names]
    tables = split_tables(pool, sizes)
    byes = [r.bot for r in ordered if r.bot in bye_names]
    return [[r.bot for r in t] for t in tables], byes
