"""The ladder's matchmaker (arena.matchmaking): properties over random ladders and ticks."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.matchmaking import Candidate, plan_matches


@st.composite
def ladders(draw: st.DrawFn) -> tuple[list[Candidate], int, int, int]:
    lo = draw(st.integers(1, 4))
    hi = draw(st.integers(lo, 6))
    n = draw(st.integers(0, 40))
    bots = [
        Candidate(
            bot_id=draw(st.integers(1, 60)),  # duplicate ids: the first one counts
            mu=draw(st.floats(-10, 60)),
            sigma=draw(st.floats(0.5, 8.4)),
            matches_played=draw(st.integers(0, 500)),
            placement_owed=draw(st.sampled_from([0, 0, 0, 1, 5])),
            waited_s=draw(st.floats(0, 86_400)),
            active=draw(st.booleans()) or draw(st.booleans()),
        )
        for _ in range(n)
    ]
    budget = draw(st.integers(0, 12))
    return bots, lo, hi, budget


@settings(max_examples=300, deadline=None)
@given(ladders(), st.integers(0, 2**32))
def test_one_tick_respects_the_rules(setup: tuple, seed: int) -> None:
    bots, lo, hi, budget = setup
    groups = plan_matches(bots, min_seats=lo, max_seats=hi, budget=budget, rng=random.Random(seed))
    first = {}
    for b in bots:
        first.setdefault(b.bot_id, b)
    active = {i for i, b in first.items() if b.active}
    assert len(groups) <= budget
    seated = Counter(bot for g in groups for bot in g)
    for g in groups:
        assert lo <= len(g) <= hi
        assert len(set(g)) == len(g), "a bot holds two seats of one match"
    assert set(seated) <= active, "an inactive (busy or suspended) bot was seated"
    assert all(n == 1 for n in seated.values()), "a bot was seated in two matches at once"
    # Nothing left undone: another match was possible only when the budget ran out.
    if len(groups) < budget:
        assert len(active) - len(seated) < lo


@settings(max_examples=200, deadline=None)
@given(ladders(), st.integers(0, 2**32))
def test_placement_bots_are_served_first(setup: tuple, seed: int) -> None:
    bots, lo, hi, budget = setup
    groups = plan_matches(bots, min_seats=lo, max_seats=hi, budget=budget, rng=random.Random(seed))
    first: dict[int, Candidate] = {}
    for b in bots:
        first.setdefault(b.bot_id, b)
    seated = {bot for g in groups for bot in g}
    new = [i for i, b in first.items() if b.active and b.placement_owed > 0]
    left_out = [i for i in new if i not in seated]
    if left_out:
        # A new version waits only when every slot went to a group seeded by another new one.
        assert len(groups) == budget or len(seated) + lo > sum(b.active for b in first.values())
        assert all(any(first[x].placement_owed > 0 for x in g) for g in groups)


def simulate(
    n: int, lo: int, hi: int, budget: int, ticks: int, seed: int, length: int = 1
) -> dict[int, list[int]]:
    """Play ``ticks`` ticks of 60 s on a ladder of ``n`` bots whose matches last ``length``
    ticks; returns the ticks at which each bot was seated."""
    rng = random.Random(seed)
    mu = {i: rng.gauss(25, 8) for i in range(n)}
    sigma = dict.fromkeys(range(n), 25 / 3)
    owed = {i: (5 if i % 7 == 0 else 0) for i in range(n)}
    last = dict.fromkeys(range(n), 0.0)
    busy_until = dict.fromkeys(range(n), -1)
    seated: dict[int, list[int]] = {i: [] for i in range(n)}
    for t in range(ticks):
        now = t * 60.0
        cands = [
            Candidate(
                bot_id=i,
                mu=mu[i],
                sigma=sigma[i],
                placement_owed=owed[i],
                waited_s=now - last[i],
                active=busy_until[i] < t,
            )
            for i in range(n)
        ]
        for g in plan_matches(cands, min_seats=lo, max_seats=hi, budget=budget, rng=rng):
            for i in g:
                seated[i].append(t)
                busy_until[i] = t + length - 1
                last[i] = now + 60.0 * length
                owed[i] = max(0, owed[i] - 1)
                sigma[i] = max(1.0, sigma[i] * 0.95)
            # The lowest seed wins: ratings move so that neighbours change over time.
            winner = min(g)
            mu[winner] += 0.5
    return seated


@pytest.mark.parametrize(
    ("n", "lo", "hi", "budget", "length"),
    [(30, 2, 2, 3, 1), (50, 2, 4, 4, 2), (12, 3, 5, 1, 1), (200, 2, 6, 10, 3)],
)
def test_nobody_starves_over_many_ticks(n: int, lo: int, hi: int, budget: int, length: int) -> None:
    ticks = 400
    seated = simulate(n, lo, hi, budget, ticks, seed=n * 31 + budget)
    # Each tick seats at least budget*lo bots when all are free; a fair share of the ticks,
    # with room for the longest matches, bounds every gap between two seatings.
    slots_per_tick = budget * lo / length
    bound = int(3 * n / slots_per_tick) + 3 * length + 10
    for bot, at in seated.items():
        gaps = [b - a for a, b in zip([0, *at], [*at, ticks], strict=True)]
        assert at, f"bot {bot} never played in {ticks} ticks"
        assert max(gaps) <= bound, f"bot {bot} waited {max(gaps)} ticks (bound {bound})"


def test_everyone_meets_many_opponents() -> None:
    """The random window: over a long run (mu spread over 28 points, a wide real ladder) top and
    bottom bots meet too."""
    rng = random.Random(5)
    n = 20
    met: dict[int, set[int]] = {i: set() for i in range(n)}
    last = dict.fromkeys(range(n), 0.0)
    for t in range(600):
        cands = [
            Candidate(bot_id=i, mu=i * 1.5, sigma=2.0, waited_s=t * 60.0 - last[i])
            for i in range(n)
        ]
        for g in plan_matches(cands, min_seats=2, max_seats=2, budget=3, rng=rng):
            for i in g:
                met[i] |= set(g) - {i}
                last[i] = t * 60.0
    assert min(met[n - 1]) < n // 4, "the strongest never met the bottom quarter"
    assert max(met[0]) >= 3 * n // 4, "the weakest never met the top quarter"
    assert min(len(m) for m in met.values()) >= n // 2


def test_neighbours_meet_most() -> None:
    rng = random.Random(9)
    pairs: Counter[int] = Counter()
    for _ in range(300):
        cands = [Candidate(bot_id=i, mu=i * 4.0, waited_s=rng.random()) for i in range(40)]
        for g in plan_matches(cands, min_seats=2, max_seats=2, budget=5, rng=rng):
            pairs[abs(g[0] - g[1])] += 1
    near = sum(c for d, c in pairs.items() if d <= 2)
    far = sum(c for d, c in pairs.items() if d >= 10)
    assert near > 3 * far


def test_bad_seat_range_is_refused() -> None:
    with pytest.raises(ValueError, match="seat range"):
        plan_matches([], min_seats=3, max_seats=2, budget=1)
