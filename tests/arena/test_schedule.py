"""Round robin and league schedules: fairness properties, determinism, clear errors."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.schedule import ScheduleError, round_robin, seat_counts

NAMES = [f"bot{i}" for i in range(9)]


@st.composite
def field_and_table(draw: st.DrawFn, max_bots: int = 8) -> tuple[list[str], int]:
    players = draw(st.integers(2, 5))
    n = draw(st.integers(players, max_bots))
    return NAMES[:n], players


@settings(max_examples=120, deadline=None)
@given(field_and_table(), st.integers(1, 6), st.integers(0, 2**32))
def test_round_robin_is_fair(setup: tuple[list[str], int], n: int, seed: int) -> None:
    bots, players = setup
    matches = round_robin(bots, players, games_per_pairing=n, seed=seed)
    assert len(matches) == comb(len(bots), players) * n
    # Every combination plays exactly n times; nobody meets themselves.
    tables = Counter(frozenset(m.bots) for m in matches)
    assert all(len(t) == players for t in tables)
    assert set(tables) == {frozenset(c) for c in combinations(bots, players)}
    assert set(tables.values()) == {n}
    # Every bot plays equally often, and its seats are balanced within one.
    counts = seat_counts(matches)
    assert {sum(row) for row in counts.values()} == {comb(len(bots) - 1, players - 1) * n}
    for row in counts.values():
        assert max(row) - min(row) <= 1
        if n % players == 0:
            assert max(row) == min(row)


def test_round_robin_is_deterministic_from_the_seed() -> None:
    a = round_robin(NAMES[:5], 3, 2, seed=11)
    assert a == round_robin(NAMES[:5], 3, 2, seed=11)
    assert a != round_robin(NAMES[:5], 3, 2, seed=12)
    assert len({m.seed for m in round_robin(NAMES[:5], 3, 2, seed=11, shared_deals=False)}) == 20


def test_round_robin_shares_deals_within_a_rotation_cycle() -> None:
    matches = round_robin(NAMES[:4], 2, games_per_pairing=4, seed=5)
    by_table: dict[tuple[frozenset[str], int], set[int]] = {}
    for m in matches:
        by_table.setdefault((frozenset(m.bots), m.round), set()).add(m.seed)
    # Each pairing, each cycle of 2 rotations: one deal, played from both seats.
    assert len(by_table) == 6 * 2 and all(len(s) == 1 for s in by_table.values())
    assert len({next(iter(s)) for s in by_table.values()}) == 12
    for m1, m2 in combinations(matches, 2):
        if m1.seed == m2.seed:
            assert m1.bots == m2.bots[::-1]


def test_round_robin_comes_cycle_by_cycle() -> None:
    matches = round_robin(NAMES[:5], 2, games_per_pairing=3, seed=1)
    first = matches[:10]  # the first 10 matches hold each of the 10 pairings once
    assert {frozenset(m.bots) for m in first} == {frozenset(c) for c in combinations(NAMES[:5], 2)}
    assert [m.round for m in matches] == [0] * 20 + [1] * 10


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: round_robin(["a", "b"], 3), "needs at least 3 bots, got 2"),
        (lambda: round_robin(["a", "a", "b"], 2), "distinct, repeated: a"),
        (lambda: round_robin(["a", "b"], 2, games_per_pairing=0), "games_per_pairing"),
        (lambda: round_robin(["a", "b"], 9), "players must be an integer from 1 to 6"),
        (lambda: round_robin("abc", 2), "list of names"),
        (lambda: round_robin(["a", 3], 2), "non-empty strings"),
        (lambda: round_robin([f"b{i}" for i in range(60)], 5), "play a Swiss tournament"),
        (lambda: round_robin(["a"], 2), "round robin of 2-seat matches needs at least 2"),
    ],
)
def test_bad_input_is_a_clear_error(call, message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        call()


def test_matches_serialise() -> None:
    m = round_robin(["a", "b"], 2, seed=3)[0]
    assert m.to_json() == {"bots": list(m.bots), "seed": m.seed, "round": 0}
