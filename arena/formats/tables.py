"""Seating shared by the formats: the common option checks, table sizes for a field, and the
seat order of one table's matches."""

from __future__ import annotations

import math
from collections.abc import Sequence

from arena.formats.base import FormatError, FormatOptions, Standings, Table
from arena.schedule import MAX_SEATS, ScheduledMatch, _SeatCounts
from games.rng import Rng, derive_seed


def check_common(entrants: int, options: FormatOptions, what: str, seats: int = 2) -> None:
    p, lo = options.players, options.smallest
    for name, value, least in (
        ("players", p, seats),
        ("min_players", lo, seats),
        ("games_per_table", options.games_per_table, 1),
        ("advance", options.advance, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise FormatError(f"{name} must be an integer of at least {least}, got {value!r}")
    if p > MAX_SEATS:
        raise FormatError(f"players must be at most {MAX_SEATS}, got {p}")
    if lo > p:
        raise FormatError(f"min_players ({lo}) must not exceed players ({p})")
    t = options.tie_replays
    if isinstance(t, bool) or not isinstance(t, int) or t < 0:
        raise FormatError(f"tie_replays must be an integer of at least 0, got {t!r}")
    if t and (what != "knockout" or p != 2):
        raise FormatError("tie_replays is for a two-seat knockout")
    r = options.rounds
    if r is not None and (isinstance(r, bool) or not isinstance(r, int) or r < 1):
        raise FormatError(f"rounds must be an integer of at least 1, got {r!r}")
    if entrants < lo:
        raise FormatError(
            f"a {what} of {lo}-seat tables needs at least {lo} entrants, got {entrants}"
        )


def table_sizes(n: int, most: int, least: int) -> list[int]:
    """Table sizes for ``n`` entrants within [least, most], seating as many as possible and
    as evenly as possible (largest first); whoever is left over has a bye."""
    t = math.ceil(n / most)
    if t * least > n:
        t = n // most
        return [most] * t
    base, extra = divmod(n, t)
    return [base + 1] * extra + [base] * (t - extra)


def seat_table(
    bots: Sequence[str],
    rows: Standings,
    options: FormatOptions,
    tag: int,
    number: int,
    index: int,
) -> Table:
    """A table's matches: a base seat order that favours each bot's least-used seats (ties
    drawn from the seed), rotated game by game; games of one rotation cycle share a deal."""
    s = len(bots)
    counts = _SeatCounts(bots, s)
    for b in bots:
        row = rows[b].seats
        counts.counts[b] = [row[i] if i < len(row) else 0 for i in range(s)]
    rng = Rng(derive_seed(options.seed, tag, number, index))
    base = list(counts.best_order(list(bots), rng, set()))
    matches = []
    for g in range(options.games_per_table):
        shift = g % s
        order = tuple(base[shift:] + base[:shift])
        deal = derive_seed(options.seed, tag, number, index, g // s)
        matches.append(ScheduledMatch(bots=order, seed=deal, round=number))
    return Table(bots=tuple(bots), matches=tuple(matches))
