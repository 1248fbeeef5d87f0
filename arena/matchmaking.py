"""The ladder's matchmaker: whom to seat next, as a pure function (no Django, no I/O).

One call is one *tick* for one game: given the bots that may play (:class:`Candidate`), the
game's seat range and a budget of free match slots, :func:`plan_matches` returns the groups of
bots to seat, each in seat order. The platform turns them into matches.

How it chooses (after ladder-notes.md: Halite, AI Arena, Battlecode and what their users asked):

* Bots already in a queued or running ladder match are locked out (Halite PR #311), and a bot
  holds at most one seat in at most one match per tick.
* *Seeds* go first in this order: bots still owed placement matches (new versions; the most
  owed first), then the others by a priority that grows with the time since they last played
  and with the uncertainty of their rating (sigma), plus a little noise. Waiting dominates in
  the long run, so nobody starves (aichallenge #179, riddles.io #81).
* Each seed's opponents are drawn at random among the bots nearest to it in rating, inside a
  window that widens at random (Halite III: ``base / (0.01 + u) ** 0.65``), so that neighbours
  meet most often but everyone meets everyone now and then (aichallenge #215).
* The number of seats of each match is drawn uniformly in the game's range (capped by the bots
  left), so the mix of table sizes does not drift with ratings (Halite III #207); seat order is
  shuffled (seat bias is real: Halite II PR #372).
* At most ``budget`` matches come out.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.ratings import DEFAULT_MU, DEFAULT_SIGMA


@dataclass(frozen=True)
class Candidate:
    """One bot that may play on a game's ladder."""

    bot_id: int
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    matches_played: int = 0
    #: Placement matches its current version still owes (0 once placed).
    placement_owed: int = 0
    #: Seconds since it last played (or since it joined the ladder, when it never did).
    waited_s: float = 0.0
    #: False for bots that may not be seated now (in a running match, suspended...).
    active: bool = True


@dataclass(frozen=True)
class MatchmakingSettings:
    """The knobs of :func:`plan_matches`; the defaults suit a small ladder."""

    #: The base half-width of the rating window, in mu points (Halite III used 5).
    window: float = 5.0
    #: How many seconds of waiting weigh as much as one point of sigma.
    wait_per_sigma_s: float = 60.0
    #: Noise added to the priority of non-placement seeds, in sigma points.
    jitter: float = 0.5


DEFAULT_SETTINGS = MatchmakingSettings()


def _window(rng: random.Random, base: float) -> float:
    # Usually a little over base, now and then very wide: everyone meets everyone eventually.
    return base / (0.01 + rng.random()) ** 0.65


def _priority(c: Candidate, rng: random.Random, s: MatchmakingSettings) -> tuple[int, float]:
    if c.placement_owed > 0:
        return (1, c.placement_owed + c.waited_s / 1e9)
    return (0, c.waited_s / s.wait_per_sigma_s + c.sigma + rng.uniform(0.0, s.jitter))


def plan_matches(
    candidates: Iterable[Candidate],
    *,
    min_seats: int,
    max_seats: int,
    budget: int,
    rng: random.Random | None = None,
    settings: MatchmakingSettings = DEFAULT_SETTINGS,
) -> list[tuple[int, ...]]:
    """The matches to start now: at most ``budget`` groups of distinct bot ids, each of a size
    in ``[min_seats, max_seats]``, in seat order. Deterministic for a given ``rng`` seed."""
    if min_seats < 1 or max_seats < min_seats:
        raise ValueError(f"bad seat range {min_seats}..{max_seats}")
    rng = rng or random.Random()
    pool: dict[int, Candidate] = {}
    seen: set[int] = set()
    for c in candidates:
        if c.bot_id not in seen:  # a bot listed twice counts once, as first listed
            seen.add(c.bot_id)
            if c.active:
                pool[c.bot_id] = c
    if budget <= 0 or len(pool) < min_seats:
        return []

    # Sorted by mu once; the free bots' indices in that order answer "nearest in rating" with
    # two bisections instead of a scan per seed.
    by_mu = sorted(pool.values(), key=lambda c: (c.mu, c.bot_id))
    mus = [c.mu for c in by_mu]
    free = [True] * len(by_mu)
    index_of = {c.bot_id: i for i, c in enumerate(by_mu)}
    left = len(by_mu)

    seeds = sorted(
        pool.values(), key=lambda c: (_priority(c, rng, settings), c.bot_id), reverse=True
    )
    groups: list[tuple[int, ...]] = []
    for seed in seeds:
        if len(groups) >= budget or left < min_seats:
            break
        i = index_of[seed.bot_id]
        if not free[i]:
            continue
        seats = rng.randint(min_seats, min(max_seats, left))
        opponents = _near(by_mu, mus, free, i, seats - 1, _window(rng, settings.window), rng)
        group = [seed.bot_id, *(by_mu[j].bot_id for j in opponents)]
        for j in (i, *opponents):
            free[j] = False
        left -= len(group)
        rng.shuffle(group)
        groups.append(tuple(group))
    return groups


def _near(
    by_mu: Sequence[Candidate],
    mus: Sequence[float],
    free: list[bool],
    i: int,
    wanted: int,
    window: float,
    rng: random.Random,
) -> list[int]:
    """``wanted`` free indices other than ``i``: random ones inside ``mu +- window`` when there
    are enough, topped up with the nearest free ones outside it."""
    if wanted <= 0:
        return []
    mu = mus[i]
    lo = bisect.bisect_left(mus, mu - window)
    hi = bisect.bisect_right(mus, mu + window)
    inside = [j for j in range(lo, hi) if free[j] and j != i]
    if len(inside) >= wanted:
        return rng.sample(inside, wanted)
    chosen = list(inside)
    # Walk outwards from the window's edges, nearest first.
    a, b = lo - 1, hi
    while len(chosen) < wanted and (a >= 0 or b < len(mus)):
        take_a = a >= 0 and (b >= len(mus) or mu - mus[a] <= mus[b] - mu)
        j = a if take_a else b
        if take_a:
            a -= 1
        else:
            b += 1
        if free[j] and j != i:
            chosen.append(j)
    return chosen
