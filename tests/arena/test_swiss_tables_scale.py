"""Swiss of three or more seats at league size (arena.formats.swiss_tables): a big field is
filled top down from neighbours in the standings and swaps between nearby tables undo the
meetings the fill could not avoid; small fields keep the exact search
(tests/arena/test_formats.py checks that no meeting repeats while one can be avoided)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.formats import (
    FORMATS,
    FormatOptions,
    Result,
    Round,
    StandingRow,
    new_standings,
    next_round,
)
from arena.formats import record_round as record
from arena.formats.swiss_tables import (
    LOOK_AHEAD,
    WHOLE_LIMIT,
    fill_tables,
    met,
    split_tables,
)
from arena.formats.tables import table_sizes
from games.rng import Rng


def _results(rnd: Round, rng: Rng) -> list[Result]:
    out = []
    for m in rnd.matches:
        scores = [rng.below(3) for _ in m.bots]
        out.append(Result(m.bots, tuple(1 + sum(o > s for o in scores) for s in scores)))
    return out


def _repeats(rnd: Round, rows: dict[str, StandingRow]) -> list[tuple[str, str]]:
    return [
        (a, b) for t in rnd.tables for a, b in combinations(t.bots, 2) if rows[a].opponents.get(b)
    ]


def _check_seating(rnd: Round, rows: dict[str, StandingRow], options: FormatOptions) -> None:
    """Everyone at one table or on a bye; the round's table sizes; byes to fewest byes."""
    seated = [b for t in rnd.tables for b in t.bots]
    assert Counter(seated + list(rnd.byes)) == Counter(list(rows))
    want = table_sizes(len(rows), options.players, options.smallest)
    assert sorted(len(t.bots) for t in rnd.tables) == sorted(want)
    fewest = min(r.byes for r in rows.values())
    least_left = sorted(r.byes for b, r in rows.items() if b not in rnd.byes)
    assert all(rows[b].byes <= (least_left[0] if least_left else fewest) for b in rnd.byes)


def _meetings(table: list[StandingRow]) -> int:
    return sum(met(a, b) for a, b in combinations(table, 2))


def _meet_all(rows: dict[str, StandingRow], names: list[str]) -> None:
    for a, b in combinations(names, 2):
        rows[a].opponents[b] = rows[a].opponents.get(b, 0) + 1
        rows[b].opponents[a] = rows[b].opponents.get(a, 0) + 1


@settings(max_examples=8, deadline=None)
@given(
    st.integers(WHOLE_LIMIT + 1, 400),
    st.integers(3, 4),
    st.integers(0, 1),
    st.integers(0, 2**32),
)
def test_big_fields_seat_everyone_and_swaps_only_remove_repeats(
    n: int, players: int, shrink: int, luck: int
) -> None:
    """Over ten rounds of random results: everyone seated or on a bye, the round's table
    sizes, byes fair, the same round twice from the same standings, and never more repeated
    meetings than the greedy fill alone would have made."""
    options = FormatOptions(players=players, min_players=players - shrink, rounds=10, seed=luck)
    rows = new_standings([f"bot{i:03d}" for i in range(n)])
    rng = Rng(luck)
    for number in range(10):
        rnd = next_round("swiss", rows, number, options)
        assert rnd is not None and rnd == next_round("swiss", rows, number, options)
        _check_seating(rnd, rows, options)
        pool = [r for r in FORMATS["swiss"].ranking(rows) if r.bot not in rnd.byes]
        sizes = table_sizes(len(rows), options.players, options.smallest)
        filled = sum(_meetings(t) for t in fill_tables(pool, sizes))
        assert sum(_meetings([rows[b] for b in t.bots]) for t in rnd.tables) <= filled
        rows = record("swiss", rows, number, _results(rnd, rng), options, planned=rnd)


def test_a_thousand_entrants_meet_nobody_again_over_eight_rounds() -> None:
    """Three and four seats, 1,000 entrants, eight rounds of random results: no meeting
    repeats (the whole-field search the code used before left repeats from round 8 on)."""
    for players, luck in ((3, 5), (4, 11)):
        rows = new_standings([f"bot{i:04d}" for i in range(1000)])
        options = FormatOptions(players=players, rounds=8, seed=luck)
        rng = Rng(luck)
        for number in range(8):
            rnd = next_round("swiss", rows, number, options)
            assert rnd is not None
            _check_seating(rnd, rows, options)
            assert _repeats(rnd, rows) == []
            rows = record("swiss", rows, number, _results(rnd, rng), options, planned=rnd)


def test_entrants_at_the_bottom_who_all_met_are_swapped_apart() -> None:
    """The last twelve of a big field have all met one another: the fill seats them
    together, swaps with the tables above split them up."""
    rows = new_standings([f"bot{i:03d}" for i in range(120)])
    names = sorted(rows)
    _meet_all(rows, names[-12:])
    pool = sorted(rows.values(), key=lambda r: r.seed)
    sizes = [4] * 30
    tables = split_tables(pool, sizes)
    assert [len(t) for t in tables] == sizes
    assert sorted(r.bot for t in tables for r in t) == names
    assert all(not met(a, b) for t in tables for a, b in combinations(t, 2))


def test_a_leader_who_met_its_neighbours_is_seated_further_down() -> None:
    """The leader has met the next LOOK_AHEAD entrants: its table takes the first three it
    has not met, and the entrants it skipped fill the tables below."""
    n = 2 * LOOK_AHEAD + 8
    rows = new_standings([f"bot{i:03d}" for i in range(n)])
    pool = sorted(rows.values(), key=lambda r: r.seed)
    for r in pool[1 : LOOK_AHEAD + 1]:
        _meet_all(rows, [pool[0].bot, r.bot])
    tables = split_tables(pool, [4] * (n // 4))
    assert tables[0] == [pool[0], *pool[LOOK_AHEAD + 1 : LOOK_AHEAD + 4]]
    assert tables[1] == pool[1:5]
    assert all(not met(a, b) for t in tables for a, b in combinations(t, 2))
