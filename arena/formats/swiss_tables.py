"""Swiss tables of three or more seats: split the standings (byes already out) into tables of
the round's sizes, nobody meeting again where that can be found.

A field of up to :data:`WHOLE_LIMIT` entrants is searched whole: depth first, top of the
standings first, for the first split with no two table-mates who met before, within a node
budget; if there is none (or the budget runs out), tables are filled as a big field's are.

A big field is not searched: the search is cheap where it succeeds, but in a field of hundreds
it fails whenever a few entrants at the bottom of the standings have met one another (found
only after the top is laid out, and out of the budget's reach), and the greedy fill that
followed it looked at the whole rest of the field for each seat (quadratic: 0.5 s a round at
1,000 entrants, four seats) and left meetings a local change would have avoided. Instead,
tables are filled top down from neighbours in the standings (each seat: the first of the next
:data:`FRESH_REACH` entrants who met nobody at the table, else the one of the next
:data:`LOOK_AHEAD` who met it least), then each table that still repeats a meeting swaps an
entrant with a table at most :data:`SWAP_REACH` away (nearest first) when that lowers the
repeats, for at most :data:`SWAP_PASSES` passes: as chess pairing programs do, score order
with bounded look-ahead and exchanges, linear in the field.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from arena.formats.base import StandingRow

#: Node budget of one exact search for repeat-free tables; past it the search gives up.
SEARCH_BUDGET = 20_000
#: Fields of up to this many seated entrants are always searched whole.
WHOLE_LIMIT = 64
#: How far down the standings the greedy fill looks for an entrant who met nobody at the
#: table, and, if there is none, for the one who met it least.
FRESH_REACH = 256
LOOK_AHEAD = 64
#: How many tables up and down a table with a repeated meeting looks for an entrant to swap.
SWAP_REACH = 16
#: Passes of swaps over the tables (each pass stops early when nothing improved).
SWAP_PASSES = 4

Tables = list[list[StandingRow]]


def split_tables(pool: Sequence[StandingRow], sizes: Sequence[int]) -> Tables:
    """Tables of ``sizes`` (largest first) from ``pool`` (the standings without the byes,
    best first): a small field searched for a repeat-free split, else (and a big field
    always) filled greedily, then swaps to undo repeats (module docstring)."""
    if len(pool) > WHOLE_LIMIT:
        return fewest_repeats(pool, sizes)
    found = repeat_free(pool, sizes)
    return found if found is not None else fewest_repeats(pool, sizes)


def met(a: StandingRow, b: StandingRow) -> int:
    return a.opponents.get(b.bot, 0)


def repeat_free(pool: Sequence[StandingRow], sizes: Sequence[int]) -> Tables | None:
    """Depth-first, top of the standings first, candidates in standings order, larger tables
    first: the first split into tables of ``sizes`` (in any order) with no two table-mates
    who met before (None if there is none, or if the budget ran out)."""
    budget = [SEARCH_BUDGET]

    def search(rest: list[StandingRow], left: Counter[int]) -> Tables | None:
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        fresh = [r for r in others if not met(head, r)]
        for size in sorted((s for s, k in left.items() if k), reverse=True):
            for combo in combinations(fresh, size - 1):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                if any(met(a, b) for a, b in combinations(combo, 2)):
                    continue
                taken = {r.bot for r in combo}
                tail = search([r for r in others if r.bot not in taken], left - Counter([size]))
                if tail is not None:
                    return [[head, *combo], *tail]
                if budget[0] < 0:
                    return None
        return None

    return search(list(pool), Counter(sizes))


def fewest_repeats(pool: Sequence[StandingRow], sizes: Sequence[int]) -> Tables:
    """:func:`fill_tables`, then swaps between nearby tables undo what meetings they can."""
    tables = fill_tables(pool, sizes)
    _swap_out_repeats(tables)
    return tables


def fill_tables(pool: Sequence[StandingRow], sizes: Sequence[int]) -> Tables:
    """Tables top down, each headed by the best placed left and filled seat by seat with
    the first of the next :data:`FRESH_REACH` entrants who met nobody at it, else the one of
    the next :data:`LOOK_AHEAD` who met it least (the higher placed on a tie)."""
    rest = list(pool)
    tables = []
    for size in sizes:
        table = [rest.pop(0)]
        while len(table) < size:
            table.append(rest.pop(_next_seat(rest, table)))
        tables.append(table)
    return tables


def _next_seat(rest: list[StandingRow], table: list[StandingRow]) -> int:
    for i in range(min(len(rest), FRESH_REACH)):
        if not any(met(rest[i], t) for t in table):
            return i
    window = range(min(len(rest), LOOK_AHEAD))
    return min(window, key=lambda i: (sum(met(rest[i], t) for t in table), i))


def _repeats(table: list[StandingRow]) -> int:
    return sum(met(a, b) for a, b in combinations(table, 2))


def _swap_out_repeats(tables: Tables) -> None:
    """Each table that repeats a meeting swaps one of its entrants with one of a table at most
    :data:`SWAP_REACH` away (nearest first) if that lowers the two tables' repeats; at most
    :data:`SWAP_PASSES` passes, so linear in the field."""
    for _ in range(SWAP_PASSES):
        improved = False
        for i, table in enumerate(tables):
            if _repeats(table) and _swap_one(tables, i):
                improved = True
        if not improved:
            return


def _swap_one(tables: Tables, i: int) -> bool:
    """The first swap (nearest table, lowest placed entrant of table ``i`` first) that lowers
    the repeats of the two tables it touches; False if there is none."""
    table = tables[i]
    before_i = _repeats(table)
    for d in range(1, SWAP_REACH + 1):
        for j in (i + d, i - d):
            if not 0 <= j < len(tables):
                continue
            other = tables[j]
            before = before_i + _repeats(other)
            for x in range(len(table) - 1, -1, -1):  # the lowest placed first
                for y in range(len(other)):
                    table[x], other[y] = other[y], table[x]
                    if _repeats(table) + _repeats(other) < before:
                        return True
                    table[x], other[y] = other[y], table[x]
    return False
