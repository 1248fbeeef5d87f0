"""Tournament formats (arena.formats): properties of whole tournaments played with random
results, checked round by round; exact checks of Swiss repeat avoidance against brute force."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.formats import (
    BYE_POINTS,
    FormatError,
    FormatOptions,
    Result,
    Round,
    StandingRow,
    match_points,
    new_standings,
    next_round,
    ranking,
    record_round,
    standings_from_json,
    standings_to_json,
    total_matches,
    total_rounds,
)
from arena.schedule import round_robin
from games import registry
from games.rng import Rng

NAMES = [f"bot{i:02d}" for i in range(16)]
#: The seat ranges of the real games, at two or more seats (tournaments need opponents).
RANGES = sorted(
    {(max(2, g.min_players), g.max_players) for g in map(registry.get_game, registry.slugs())}
)


def random_ranks(rng: Rng, seats: int) -> tuple[int, ...]:
    """Competition ranks with ties now and then (as a game with draws gives)."""
    scores = [rng.below(4) for _ in range(seats)]
    return tuple(1 + sum(1 for o in scores if o > s) for s in scores)


def play(rnd: Round, rng: Rng, error_rate: int = 0) -> list[Result]:
    out = []
    for m in rnd.matches:
        failed = error_rate and rng.below(error_rate) == 0
        out.append(Result(m.bots, None if failed else random_ranks(rng, len(m.bots))))
    return out


@st.composite
def setups(draw: st.DrawFn, fmt: str, max_bots: int = 12) -> tuple[list[str], FormatOptions]:
    lo_game, hi_game = draw(st.sampled_from(RANGES))
    players = draw(st.integers(lo_game, hi_game))
    smallest = draw(st.integers(lo_game, players))
    if fmt == "round-robin":
        smallest = players
    advance, tie_replays = 1, 0
    if fmt == "knockout" and players > 2:
        advance = draw(st.integers(1, smallest - 1))
    if fmt == "knockout" and players == 2:
        tie_replays = draw(st.integers(0, 2))
    n = draw(st.integers(smallest, max_bots if players > 2 or fmt != "round-robin" else 9))
    options = FormatOptions(
        players=players,
        min_players=smallest,
        rounds=draw(st.none() | st.integers(1, 5)) if fmt == "swiss" else None,
        games_per_table=draw(st.integers(1, 3)),
        advance=advance,
        seed=draw(st.integers(0, 2**40)),
        tie_replays=tie_replays,
    )
    return NAMES[:n], options


def run(
    fmt: str, bots: list[str], options: FormatOptions, luck: int, error_rate: int = 0
) -> tuple[list[Round], dict[str, StandingRow]]:
    """Play a whole tournament, checking the invariants of every round on the way."""
    rng = Rng(luck)
    rows = new_standings(bots)
    rounds: list[Round] = []
    while (rnd := next_round(fmt, rows, len(rounds), options)) is not None:
        check_round(fmt, rnd, rows, options)
        assert next_round(fmt, rows, len(rounds), options) == rnd  # pure
        results = play(rnd, rng, error_rate)
        rows = record_round(fmt, rows, len(rounds), results, options)
        rounds.append(rnd)
        assert len(rounds) < 200, "the tournament must end"
    return rounds, rows


def check_round(fmt: str, rnd: Round, rows: dict[str, StandingRow], options: FormatOptions) -> None:
    alive = {b for b, r in rows.items() if not r.eliminated}
    seated = [b for t in rnd.tables for b in t.bots]
    # Nobody plays at two tables; every entrant still in is seated or has a bye, once.
    assert len(seated) == len(set(seated))
    assert Counter(seated + list(rnd.byes)) == Counter(alive)
    assert rnd.tables, "a round that exists plays something"
    for t in rnd.tables:
        assert options.smallest <= len(t.bots) <= options.players
        assert len(t.matches) == options.games_per_table
        for m in t.matches:
            assert sorted(m.bots) == sorted(t.bots)
            assert m.round == rnd.number
    if fmt == "swiss" or (fmt == "knockout" and options.players > 2):
        # Byes only for those who cannot make up one more table.
        assert len(rnd.byes) < options.smallest


@settings(max_examples=80, deadline=None)
@given(setups("swiss"), st.integers(0, 2**32))
def test_swiss_rounds_seat_everyone(setup: tuple[list[str], FormatOptions], luck: int) -> None:
    bots, options = setup
    rounds, rows = run("swiss", bots, options, luck)
    assert len(rounds) == total_rounds("swiss", len(bots), options)
    byes = Counter(b for r in rounds for b in r.byes)
    # Points add up: each finished match hands out seats / 2, each bye its fixed value.
    total = sum(r.points for r in rows.values())
    matches = [m for r in rounds for m in r.matches]
    assert len(matches) == total_matches("swiss", len(bots), options)
    expected = sum(len(m.bots) / 2 for m in matches) + BYE_POINTS * options.games_per_table * sum(
        byes.values()
    )
    assert total == pytest.approx(expected)
    # The same seed and results give the same tournament.
    assert run("swiss", bots, options, luck) == (rounds, rows)


def _repeat_free_partition_exists(pool: list[str], sizes: list[int], met: set[frozenset]) -> bool:
    if not pool:
        return True
    head, rest = pool[0], pool[1:]
    for size in set(sizes):
        for combo in combinations(rest, size - 1):
            table = (head, *combo)
            if any(frozenset(p) in met for p in combinations(table, 2)):
                continue
            left = list(sizes)
            left.remove(size)
            if _repeat_free_partition_exists([b for b in rest if b not in combo], left, met):
                return True
    return False


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 9),
    st.integers(2, 4),
    st.integers(0, 2),
    st.integers(1, 8),
    st.integers(0, 2**32),
    st.integers(0, 2**32),
)
def test_swiss_repeats_no_pairing_while_avoidable(
    n: int, players: int, shrink: int, rounds: int, seed: int, luck: int
) -> None:
    """Two seats: if any pairing of the field (any bye) repeats no earlier pairing, the round
    repeats none. More seats: given the round's byes, if the others can be split into tables
    of the round's sizes with nobody meeting again, nobody meets again."""
    players = min(players, n)
    smallest = max(2, players - shrink) if players > 2 else 2
    options = FormatOptions(players=players, min_players=smallest, rounds=rounds, seed=seed)
    rng = Rng(luck)
    rows = new_standings(NAMES[:n])
    met: set[frozenset] = set()
    for number in range(rounds):
        rnd = next_round("swiss", rows, number, options)
        assert rnd is not None
        if players == 2:
            sizes = [2] * (n // 2)
            candidates = (
                [NAMES[:n]]
                if n % 2 == 0
                else [[b for b in NAMES[:n] if b != bye] for bye in NAMES[:n]]
            )
            avoidable = any(_repeat_free_partition_exists(c, sizes, met) for c in candidates)
        else:
            sizes = [len(t.bots) for t in rnd.tables]
            pool = [b for b in NAMES[:n] if b not in rnd.byes]
            avoidable = _repeat_free_partition_exists(pool, sizes, met)
        repeats = [p for t in rnd.tables for p in combinations(t.bots, 2) if frozenset(p) in met]
        if avoidable:
            assert repeats == [], f"round {number} repeats {repeats}"
        for t in rnd.tables:
            met.update(frozenset(p) for p in combinations(t.bots, 2))
        rows = record_round("swiss", rows, number, play(rnd, rng), options)


def _pairings(pool: list[str]):  # type: ignore[no-untyped-def]
    """Every way to pair ``pool`` (odd: one of them unpaired, the bye): (pairs, bye or None)."""
    if not pool:
        yield [], None
        return
    head, rest = pool[0], pool[1:]
    if len(pool) % 2:
        for pairs, bye in _pairings(rest):
            if bye is None:
                yield pairs, head
    for i, other in enumerate(rest):
        for pairs, bye in _pairings(rest[:i] + rest[i + 1 :]):
            yield [(head, other), *pairs], bye


def _cost(rows: dict[str, StandingRow], pairs: list, bye: str | None) -> tuple[int, int]:
    repeats = sum(rows[a].opponents.get(b, 0) for a, b in pairs)
    return repeats, rows[bye].byes if bye else 0


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 9), st.integers(1, 9), st.integers(0, 2**32), st.integers(0, 2**32))
def test_swiss_two_seat_goals_in_order(n: int, rounds: int, seed: int, luck: int) -> None:
    """Against every pairing of the field: fewest repeated pairings first; among those, the
    bye to an entrant with fewest byes."""
    options = FormatOptions(players=2, rounds=rounds, seed=seed)
    rng = Rng(luck)
    rows = new_standings(NAMES[:n])
    for number in range(rounds):
        rnd = next_round("swiss", rows, number, options)
        assert rnd is not None

        best = min(_cost(rows, pairs, bye) for pairs, bye in _pairings(NAMES[:n]))
        chosen = _cost(rows, [t.bots for t in rnd.tables], rnd.byes[0] if rnd.byes else None)
        assert chosen == best
        rows = record_round("swiss", rows, number, play(rnd, rng), options)


def test_swiss_pairs_by_score() -> None:
    # Eight bots, the results decided by name: after round one the four winners meet each
    # other and the four losers each other.
    options = FormatOptions(players=2, seed=1)
    rows = new_standings(NAMES[:8])
    rnd = next_round("swiss", rows, 0, options)
    assert rnd is not None and rnd.byes == ()
    results = [Result(m.bots, (1, 2) if m.bots[0] < m.bots[1] else (2, 1)) for m in rnd.matches]
    rows = record_round("swiss", rows, 0, results, options)
    winners = {b for b, r in rows.items() if r.points == 1}
    assert len(winners) == 4
    second = next_round("swiss", rows, 1, options)
    assert second is not None
    for t in second.tables:
        assert len(winners & set(t.bots)) in (0, 2)


@settings(max_examples=120, deadline=None)
@given(setups("knockout", max_bots=16), st.integers(0, 2**32), st.sampled_from([0, 4]))
def test_knockout_ends_with_one_winner(
    setup: tuple[list[str], FormatOptions], luck: int, error_rate: int
) -> None:
    bots, options = setup
    rounds, rows = run("knockout", bots, options, luck, error_rate)
    alive = [b for b, r in rows.items() if not r.eliminated]
    assert len(alive) == 1
    order = ranking("knockout", rows)
    assert order[0].bot == alive[0]
    # Later exits rank higher.
    outs = [r.eliminated_in for r in order[1:]]
    assert outs == sorted(outs, reverse=True)
    if not error_rate and not options.tie_replays:
        assert len(rounds) == total_rounds("knockout", len(bots), options)
        played = sum(len(r.matches) for r in rounds)
        assert played == total_matches("knockout", len(bots), options)
    # Everyone knocked out lost at a table in the round they went out.
    for r in rows.values():
        if r.eliminated:
            assert any(r.bot in t.bots for t in rounds[r.eliminated_in].tables)


@pytest.mark.parametrize("n", range(2, 18))
def test_knockout_bracket_byes_go_to_the_top_seeds(n: int) -> None:
    options = FormatOptions(players=2, seed=n)
    rows = new_standings(NAMES[:n] if n <= 16 else [f"b{i}" for i in range(n)])
    rnd = next_round("knockout", rows, 0, options)
    assert rnd is not None
    size = 1 << (n - 1).bit_length()
    assert sorted(rows[b].seed for b in rnd.byes) == list(range(1, size - n + 1))
    # The seeds of each first-round match add up to size + 1 (1 v 8, 2 v 7...).
    assert {sum(rows[b].seed for b in t.bots) for t in rnd.tables} == {size + 1}
    assert total_rounds("knockout", n, options) == (n - 1).bit_length()


def test_knockout_top_two_seeds_meet_only_in_the_final() -> None:
    options = FormatOptions(players=2, seed=0)
    rows = new_standings(NAMES[:8])
    number = 0
    while (rnd := next_round("knockout", rows, number, options)) is not None:
        # The better seed wins every match.
        results = [
            Result(m.bots, (1, 2) if rows[m.bots[0]].seed < rows[m.bots[1]].seed else (2, 1))
            for m in rnd.matches
        ]
        if number < 2:
            assert all({"bot00", "bot01"} != set(t.bots) for t in rnd.tables)
        rows = record_round("knockout", rows, number, results, options)
        number += 1
    assert number == 3
    assert [r.bot for r in ranking("knockout", rows)][:2] == ["bot00", "bot01"]


def test_knockout_level_tie_goes_to_the_better_seed() -> None:
    options = FormatOptions(players=2, games_per_table=2)
    rows = new_standings(["top", "low"])
    rnd = next_round("knockout", rows, 0, options)
    assert rnd is not None
    # One win each (seats rotated): level on points.
    results = [Result(m.bots, (1, 2)) for m in rnd.matches]
    rows = record_round("knockout", rows, 0, results, options)
    assert rows["top"].points == rows["low"].points == 1
    assert not rows["top"].eliminated and rows["low"].eliminated
    assert next_round("knockout", rows, 1, options) is None


def test_knockout_level_tie_is_replayed_when_asked() -> None:
    options = FormatOptions(players=2, games_per_table=2, tie_replays=1)
    rows = new_standings(["top", "mid", "low"])
    # Round 0: "top" waits (a bye); "mid" and "low" share a win each: level, played again.
    rnd = next_round("knockout", rows, 0, options)
    assert rnd is not None and rnd.byes == ("top",)
    rows = record_round("knockout", rows, 0, [Result(m.bots, (1, 2)) for m in rnd.matches], options)
    assert not any(r.eliminated for r in rows.values())
    again = next_round("knockout", rows, 1, options)
    assert again is not None and again.byes == ("top",)
    assert [set(t.bots) for t in again.tables] == [{"mid", "low"}]
    assert [m.seed for m in again.matches] != [m.seed for m in rnd.matches]  # new deals
    # Level again: the one replay is spent, so the better seed goes through.
    rows = record_round(
        "knockout", rows, 1, [Result(m.bots, (1, 2)) for m in again.matches], options
    )
    assert rows["low"].eliminated and rows["low"].eliminated_in == 1
    assert not rows["mid"].eliminated
    final = next_round("knockout", rows, 2, options)
    assert final is not None and {b for t in final.tables for b in t.bots} == {"top", "mid"}


def test_knockout_table_whose_matches_all_failed_is_played_again() -> None:
    options = FormatOptions(players=2)
    rows = new_standings(NAMES[:4])
    rnd = next_round("knockout", rows, 0, options)
    assert rnd is not None and len(rnd.tables) == 2
    failed, ok = rnd.tables
    results = [Result(failed.matches[0].bots, None), Result(ok.matches[0].bots, (1, 2))]
    rows = record_round("knockout", rows, 0, results, options)
    again = next_round("knockout", rows, 1, options)
    assert again is not None
    assert [set(t.bots) for t in again.tables] == [set(failed.bots)]
    assert again.byes == (ok.matches[0].bots[0],)


@settings(max_examples=60, deadline=None)
@given(setups("round-robin", max_bots=9), st.integers(0, 2**32))
def test_round_robin_rounds_hold_the_whole_round_robin(
    setup: tuple[list[str], FormatOptions], luck: int
) -> None:
    bots, options = setup
    options = FormatOptions(
        players=options.players, games_per_table=options.games_per_table, seed=options.seed
    )
    rounds, _ = run("round-robin", bots, options, luck)
    played = sorted((m.bots, m.seed) for r in rounds for m in r.matches)
    whole = round_robin(bots, options.players, options.games_per_table, options.seed)
    assert played == sorted((m.bots, m.seed) for m in whole)
    assert len(rounds) == total_rounds("round-robin", len(bots), options)
    assert len(played) == total_matches("round-robin", len(bots), options)
    # A cut after two rounds plays the first two.
    cut = FormatOptions(**{**options.to_json(), "rounds": 2})
    assert total_rounds("round-robin", len(bots), cut) == min(2, len(rounds))


@pytest.mark.parametrize("fmt", ["round-robin", "swiss", "knockout"])
def test_the_same_seed_gives_the_same_schedule(fmt: str) -> None:
    def first_two(seed: int) -> list[Round]:
        options = FormatOptions(players=2, seed=seed)
        rows = new_standings(NAMES[:10])
        out = []
        for number in range(2):
            rnd = next_round(fmt, rows, number, options)
            assert rnd is not None
            out.append(rnd)
            results = [Result(m.bots, (1, 2)) for m in rnd.matches]
            rows = record_round(fmt, rows, number, results, options)
        return out

    assert first_two(5) == first_two(5)
    assert [m.seed for r in first_two(5) for m in r.matches] != [
        m.seed for r in first_two(6) for m in r.matches
    ]


def test_match_points() -> None:
    assert match_points([1, 2]) == [1.0, 0.0]
    assert match_points([1, 1]) == [0.5, 0.5]
    assert match_points([2, 1, 4, 3]) == pytest.approx([2 / 3, 1.0, 0.0, 1 / 3])
    assert match_points([1, 1, 3]) == [0.75, 0.75, 0.0]


def test_rows_round_trip_through_json() -> None:
    options = FormatOptions(players=3, games_per_table=2, seed=4)
    rows = new_standings(NAMES[:6])
    rnd = next_round("swiss", rows, 0, options)
    assert rnd is not None
    rows = record_round("swiss", rows, 0, play(rnd, Rng(1)), options)
    stored = {b: StandingRow.from_json(r.to_json()) for b, r in rows.items()}
    assert stored == rows
    assert standings_from_json(json.loads(json.dumps(standings_to_json(rows)))) == rows
    with pytest.raises(FormatError, match=r"seeds must be 1\.\.2"):
        standings_from_json([{"bot": "a", "seed": 1}, {"bot": "b", "seed": 3}])
    with pytest.raises(FormatError, match="bad standing row"):
        standings_from_json([{"bot": "a"}])
    assert next_round("swiss", stored, 1, options) == next_round("swiss", rows, 1, options)
    assert FormatOptions.from_json(options.to_json()) == options


def test_results_from_another_round_are_refused() -> None:
    options = FormatOptions(players=2)
    rows = new_standings(NAMES[:4])
    rnd = next_round("swiss", rows, 0, options)
    assert rnd is not None
    bots = rnd.tables[0].bots
    stranger = (bots[0], rnd.tables[1].bots[0])
    with pytest.raises(FormatError, match="not in round 0"):
        record_round("swiss", rows, 0, [Result(stranger, (1, 2))], options)


@pytest.mark.parametrize(
    ("fmt", "n", "options", "message"),
    [
        ("league", 4, FormatOptions(), "unknown format 'league'"),
        ("swiss", 1, FormatOptions(), "needs at least 2 entrants, got 1"),
        ("knockout", 8, FormatOptions(rounds=3), "takes no number of rounds"),
        ("knockout", 8, FormatOptions(players=3, advance=3), "advance \\(3\\) must be below"),
        ("knockout", 8, FormatOptions(players=2, advance=2), "advances one per match"),
        ("knockout", 8, FormatOptions(players=3, tie_replays=1), "for a two-seat knockout"),
        ("swiss", 8, FormatOptions(tie_replays=1), "for a two-seat knockout"),
        ("knockout", 8, FormatOptions(tie_replays=-1), "tie_replays must be"),
        ("swiss", 8, FormatOptions(players=3, min_players=4), "must not exceed players"),
        ("swiss", 8, FormatOptions(games_per_table=0), "games_per_table must be"),
        ("swiss", 8, FormatOptions(rounds=0), "rounds must be"),
        ("round-robin", 2, FormatOptions(players=3), "needs at least 3 entrants"),
        ("round-robin", 6, FormatOptions(players=3, min_players=2), "takes no min_players"),
        ("round-robin", 6, FormatOptions(advance=2), "a round robin knocks nobody out"),
        ("swiss", 6, FormatOptions(advance=2), "a Swiss tournament knocks nobody out"),
    ],
)
def test_bad_input_is_a_clear_error(fmt: str, n: int, options: FormatOptions, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        total_rounds(fmt, n, options)


def test_entrants_must_be_distinct() -> None:
    with pytest.raises(FormatError, match="distinct, repeated: a"):
        new_standings(["a", "b", "a"])


def test_recording_with_the_planned_round_gives_the_same_rows() -> None:
    options = FormatOptions(players=2, seed=3)
    rows = new_standings(NAMES[:7])
    rnd = next_round("swiss", rows, 0, options)
    assert rnd is not None
    results = play(rnd, Rng(2))
    assert record_round("swiss", rows, 0, results, options, planned=rnd) == record_round(
        "swiss", rows, 0, results, options
    )
    with pytest.raises(FormatError, match="round 0, not 1"):
        record_round("swiss", rows, 1, results, options, planned=rnd)
