"""Two-seat Swiss at league size (arena.formats.pairing): fields far above the exact
matching's limit keep the guarantees of tests/arena/test_formats.py (no repeated pairing while
one can be avoided, the bye to someone with fewest byes), round after round; the blocks look
ahead, and fall back to the exact matching, when a block alone cannot avoid a repeat."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from arena.formats import FormatOptions, Result, Round, StandingRow, new_standings, next_round
from arena.formats import record_round as record
from arena.formats.pairing import BLOCK, EXACT_LIMIT, exact_pairs, swiss_pairs
from games.rng import Rng


def _results(rnd: Round, rng: Rng) -> list[Result]:
    ranks = [(1, 2), (1, 1), (2, 1)]
    return [Result(m.bots, ranks[rng.below(3)]) for m in rnd.matches]


def _meet(rows: dict[str, StandingRow], a: str, b: str) -> None:
    rows[a].opponents[b] = rows[a].opponents.get(b, 0) + 1
    rows[b].opponents[a] = rows[b].opponents.get(a, 0) + 1


def _check(rnd: Round, rows: dict[str, StandingRow]) -> None:
    """Everyone seated once or has the bye; no pair met before; the bye has fewest byes."""
    seated = [b for t in rnd.tables for b in t.bots]
    assert Counter(seated + list(rnd.byes)) == Counter(list(rows))
    assert len(rnd.byes) == len(rows) % 2
    met = [t.bots for t in rnd.tables if rows[t.bots[0]].opponents.get(t.bots[1])]
    assert met == [], f"round {rnd.number} repeats {met[:5]}"
    if rnd.byes:
        assert rows[rnd.byes[0]].byes == min(r.byes for r in rows.values())


@settings(max_examples=6, deadline=None)
@given(
    st.integers(999, 1001),
    st.integers(0, 2**32),
    st.lists(st.tuples(st.integers(0, 980), st.integers(2, 3 * BLOCK)), max_size=6),
)
def test_a_thousand_entrants_never_meet_again_over_rounds(
    n: int, luck: int, cliques: list[tuple[int, int]]
) -> None:
    """Eight rounds of 1,000 entrants with random results, starting from a history in which
    whole runs of neighbours in the seeding have all met one another (so blocks must look
    ahead): every round avoids every repeat. One always can: nobody has met half the field
    (Dirac: a graph of fresh pairs with every degree at least n/2 has a perfect matching)."""
    rows = new_standings([f"bot{i:04d}" for i in range(n)])
    names = list(rows)
    for first, size in cliques:
        run = names[first : first + size]
        for i, a in enumerate(run):
            for b in run[i + 1 :]:
                _meet(rows, a, b)
    rng = Rng(luck)
    options = FormatOptions(players=2, rounds=8, seed=luck)
    for number in range(8):
        rnd = next_round("swiss", rows, number, options)
        assert rnd is not None
        _check(rnd, rows)
        rows = record("swiss", rows, number, _results(rnd, rng), options, planned=rnd)


def test_a_block_that_cannot_avoid_a_repeat_looks_ahead() -> None:
    """The top block (every pair of it met) pairs its entrants with those below it."""
    rows = new_standings([f"bot{i:03d}" for i in range(200)])
    names = list(rows)
    for i, a in enumerate(names[:BLOCK]):
        for b in names[i + 1 : BLOCK]:
            _meet(rows, a, b)
    rnd = next_round("swiss", rows, 0, FormatOptions(players=2))
    assert rnd is not None
    _check(rnd, rows)
    assert all(rows[a].opponents.get(b) is None for a, b in (t.bots for t in rnd.tables))


def test_a_pairing_only_the_whole_field_allows_is_found() -> None:
    """The top entrant has met everyone but the last: its block grows to the whole field to
    pair them. Then it has met everyone: one repeat, no more, is the best there is (the exact
    matching of the whole field finds it)."""
    n = 2 * EXACT_LIMIT + 2
    rows = new_standings([f"bot{i:03d}" for i in range(n)])
    names = list(rows)
    for b in names[1:-1]:
        _meet(rows, names[0], b)
    pairs, byes = swiss_pairs(sorted(rows.values(), key=lambda r: r.seed))
    assert (names[0], names[-1]) in pairs and byes == []
    _meet(rows, names[0], names[-1])
    pairs, _ = swiss_pairs(sorted(rows.values(), key=lambda r: r.seed))
    assert sum(rows[a].opponents.get(b, 0) for a, b in pairs) == 1


def test_blocks_pair_a_fresh_field_as_the_exact_matching_does() -> None:
    """With nobody having met, the blocks give the exact matching's pairs of the whole field
    (neighbours: 1 v 2, 3 v 4, ...) and its bye (the lowest)."""
    rows = new_standings([f"bot{i:03d}" for i in range(EXACT_LIMIT * 2 + 1)])
    ordered = sorted(rows.values(), key=lambda r: r.seed)
    assert swiss_pairs(ordered) == exact_pairs(ordered)
