"""Tournament formats: who plays whom, in which seats, with which seed. Pure and deterministic.

* :func:`round_robin` plays every combination of ``players`` bots (every pairing when
  ``players`` is 2) ``games_per_pairing`` times, rotating seat orders so that each bot sits in
  each seat equally often: exactly when ``games_per_pairing`` is a multiple of ``players``,
  otherwise within one (the leftover games are seated greedily toward each bot's least-used
  seats; see docs/ratings.md for what is and is not guaranteed).
Leagues and tournaments over time are played round by round by the formats
(:mod:`arena.formats`: a league runs Swiss rounds over each season's standings).

It returns :class:`ScheduledMatch` values (bots per seat plus a per-match seed) and depend only
on their arguments: the same call gives the same schedule, on any machine.

Seeds: in a round robin the games of one combination within one rotation cycle share one deal
seed (``shared_deals=True``, the default), as in duplicate bridge: every bot of the table gets
to play every seat of the same deal, which takes the luck of the deal out of the comparison.

Example::

    from arena.schedule import round_robin
    for m in round_robin(["alpha", "beta", "gamma", "delta"], players=3, games_per_pairing=3):
        print(m.bots, m.seed)   # 4 combinations x 3 seat rotations = 12 matches
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Any

from games.rng import Rng, derive_seed

#: Seat orders are searched exhaustively (players! of them): fine up to this table size.
MAX_SEATS = 6
#: A round robin larger than this is refused: use a league instead.
MAX_MATCHES = 200_000


class ScheduleError(ValueError):
    """Bad input to a schedule function; the message says which value and why."""


@dataclass(frozen=True)
class ScheduledMatch:
    """One match to play: ``bots[seat]`` sits in ``seat``; ``seed`` seeds the game."""

    bots: tuple[str, ...]
    seed: int
    round: int = 0  # round robin: rotation cycle; league: round number

    def to_json(self) -> dict[str, Any]:
        return {"bots": list(self.bots), "seed": self.seed, "round": self.round}


class _SeatCounts:
    """How often each bot sat in each seat so far, and the best seat order for a table."""

    def __init__(self, bots: Iterable[str], players: int) -> None:
        self.players = players
        self.counts = {b: [0] * players for b in bots}

    def add(self, order: Sequence[str]) -> None:
        for seat, bot in enumerate(order):
            self.counts[bot][seat] += 1

    def best_order(
        self, table: Sequence[str], rng: Rng, avoid: set[tuple[str, ...]]
    ) -> tuple[str, ...]:
        """The seat order that puts fewest bots in a seat they used more than their least-used
        one (which keeps every bot within one), then least-used overall, then unplayed orders;
        ties broken by ``rng``."""
        orders = list(permutations(table))
        rng.shuffle(orders)

        def cost(order: tuple[str, ...]) -> tuple[int, int, int]:
            over = total = 0
            for seat, bot in enumerate(order):
                row = self.counts[bot]
                over += row[seat] > min(row)
                total += row[seat]
            return (over, total, order in avoid)

        return min(orders, key=cost)

    def spread(self, bot: str) -> int:
        row = self.counts[bot]
        return max(row) - min(row)

    def rebalance(self, orders: list[tuple[str, ...]], movable: Iterable[int], rng: Rng) -> None:
        """Re-seat ``orders[i]`` (``i`` in ``movable``) in place until every bot's seat counts
        are within one, or a step budget runs out. A local search on the sum of squared counts
        (its minimum is "all within one"), taking sideways moves too so it does not get stuck;
        deterministic through ``rng``."""
        movable = list(movable)
        by_bot: dict[str, list[int]] = {}
        for i in movable:
            for b in orders[i]:
                by_bot.setdefault(b, []).append(i)
        budget = 2_000 + 50 * len(movable)
        for _ in range(budget):
            bad = sorted(b for b in by_bot if self.spread(b) > 1)
            if not bad:
                return
            bot = rng.choice(bad)
            row = self.counts[bot]
            high = row.index(max(row))
            choices = [i for i in by_bot[bot] if orders[i][high] == bot]
            i = rng.choice(choices)
            current = orders[i]
            best: list[tuple[str, ...]] = []
            best_delta = 1
            for order in permutations(current):
                if order == current:
                    continue
                delta = 0
                for seat, b in enumerate(order):
                    old = current.index(b)
                    if old != seat:
                        delta += 2 * (self.counts[b][seat] - self.counts[b][old]) + 2
                if delta < best_delta:
                    best, best_delta = [order], delta
                elif delta == best_delta:
                    best.append(order)
            if not best:
                continue
            new = rng.choice(best)
            for seat, b in enumerate(current):
                self.counts[b][seat] -= 1
            self.add(new)
            orders[i] = new


def _check(bots: Sequence[str], players: int, what: str) -> list[str]:
    if isinstance(bots, str) or not isinstance(bots, Sequence):
        raise ScheduleError(f"bots must be a list of names, got {bots!r}")
    names = list(bots)
    for b in names:
        if not isinstance(b, str) or not b:
            raise ScheduleError(f"bot names must be non-empty strings, got {b!r}")
    dupes = sorted(b for b, n in Counter(names).items() if n > 1)
    if dupes:
        raise ScheduleError(f"bots must be distinct, repeated: {', '.join(dupes)}")
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= MAX_SEATS:
        raise ScheduleError(f"players must be an integer from 1 to {MAX_SEATS}, got {players!r}")
    if len(names) < players:
        raise ScheduleError(
            f"a {what} of {players}-seat matches needs at least {players} bots, got {len(names)}"
        )
    return names


def _positive(name: str, value: int, minimum: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ScheduleError(f"{name} must be an integer of at least {minimum}, got {value!r}")


def round_robin(
    bots: Sequence[str],
    players: int,
    games_per_pairing: int = 1,
    seed: int = 0,
    *,
    shared_deals: bool = True,
) -> list[ScheduledMatch]:
    """Every combination of ``players`` distinct bots, ``games_per_pairing`` matches each.

    Matches come cycle by cycle (all combinations once, then again...), so a tournament cut
    short has still spread its games evenly. Full cycles of ``players`` games rotate one seeded
    seat order of the combination, so each bot sits once in each seat; leftover games take the
    seat orders that keep each bot's seat counts within one.
    """
    names = _check(bots, players, "round robin")
    _positive("games_per_pairing", games_per_pairing)
    rng = Rng(derive_seed(seed, "round-robin"))
    combos = list(combinations(names, players))
    total = len(combos) * games_per_pairing
    if total > MAX_MATCHES:
        raise ScheduleError(
            f"a round robin of {len(names)} bots at {players}-seat tables is {total} matches "
            f"(limit {MAX_MATCHES}); play a Swiss tournament for a field this size"
        )
    rng.shuffle(combos)
    bases: list[list[str]] = []
    for combo in combos:
        base = list(combo)
        rng.shuffle(base)  # which bot follows which varies between combinations
        bases.append(base)
    counts = _SeatCounts(names, players)
    played: list[set[tuple[str, ...]]] = [set() for _ in combos]
    full = games_per_pairing - games_per_pairing % players
    orders: list[tuple[str, ...]] = []
    origin: list[int] = []  # combination index of each match
    for game in range(games_per_pairing):
        for c, base in enumerate(bases):
            if game < full:
                shift = game % players
                order = tuple(base[shift:] + base[:shift])
            else:
                order = counts.best_order(base, rng, played[c])
            counts.add(order)
            played[c].add(order)
            orders.append(order)
            origin.append(c)
    # Full cycles are balanced by construction; only the leftover games may need repair.
    counts.rebalance(orders, range(full * len(combos), len(orders)), rng)
    out: list[ScheduledMatch] = []
    for i, (order, c) in enumerate(zip(orders, origin, strict=True)):
        cycle = (i // len(combos)) // players
        if shared_deals:
            match_seed = derive_seed(seed, "deal", c, cycle)
        else:
            match_seed = derive_seed(seed, "match", i)
        out.append(ScheduledMatch(bots=order, seed=match_seed, round=cycle))
    return out


def seat_counts(matches: Iterable[ScheduledMatch]) -> dict[str, list[int]]:
    """How often each bot sits in each seat over ``matches`` (for checks and reports)."""
    out: dict[str, list[int]] = {}
    for m in matches:
        for seat, bot in enumerate(m.bots):
            row = out.setdefault(bot, [0] * len(m.bots))
            row[seat] += 1
    return out
