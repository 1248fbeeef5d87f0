"""Standings: what counts, what moves ratings, and how match results are read."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.ratings import (
    DEFAULT_ELO,
    MatchRecord,
    RatingError,
    Skill,
    Standing,
    elo_match,
    openskill_match,
    standings,
    update_standings,
)


def test_table_counts_wins_ranks_scores() -> None:
    table = standings(
        [
            MatchRecord(bots=("a", "b", "c"), ranks=(1, 2, 2), scores=(30, 12, 12)),
            MatchRecord(bots=("b", "a"), ranks=(1, 1), scores=(5, 5)),
            MatchRecord(bots=("c", "a"), ranks=(1, 2), scores=(9, 3)),
        ]
    ).by_bot()
    a, b, c = table["a"], table["b"], table["c"]
    assert (a.matches, a.wins, a.avg_rank, a.avg_score) == (3, 2, pytest.approx(4 / 3), 38 / 3)
    assert (b.matches, b.wins, b.avg_rank, b.avg_score) == (2, 1, 1.5, 8.5)  # a shared 1st wins
    assert (c.matches, c.wins, c.avg_rank, c.avg_score) == (2, 1, 1.5, 10.5)


def test_ratings_are_the_one_match_functions_folded_in_order() -> None:
    m1 = MatchRecord(bots=("a", "b", "c"), ranks=(3, 1, 2))
    m2 = MatchRecord(bots=("c", "a"), ranks=(1, 2))
    table = standings([m1, m2]).by_bot()
    elo1 = elo_match([DEFAULT_ELO] * 3, m1.ranks)
    elo2 = elo_match([elo1[2], elo1[0]], m2.ranks)
    assert table["b"].elo == elo1[1]
    assert (table["c"].elo, table["a"].elo) == (elo2[0], elo2[1])
    sk1 = openskill_match([Skill()] * 3, m1.ranks)
    sk2 = openskill_match([sk1[2], sk1[0]], m2.ranks)
    assert (table["a"].mu, table["a"].sigma) == (sk2[1].mu, sk2[1].sigma)
    assert table["a"].ordinal == pytest.approx(sk2[1].mu - 3 * sk2[1].sigma)


def test_rows_are_sorted_best_first() -> None:
    rows = standings([MatchRecord(bots=("low", "high"), ranks=(2, 1)) for _ in range(3)]).rows
    assert [r.bot for r in rows] == ["high", "low"]
    assert rows[0].ordinal > rows[1].ordinal and rows[0].elo > rows[1].elo


def test_error_matches_count_nowhere() -> None:
    good = [
        MatchRecord(bots=("a", "b"), ranks=(1, 2)),
        MatchRecord(bots=("b", "a"), ranks=(1, 2)),
    ]
    broken = MatchRecord(bots=("a", "b"), ranks=(1, 2), status="error", id="m-7")
    with_error = standings([good[0], broken, good[1]])
    assert with_error.rows == standings(good).rows
    assert with_error.ignored == [("m-7", "system error: not counted")]
    # An error match needs no valid result at all (the referee may have none).
    assert standings([{"match_id": "x", "status": "error", "seats": []}]).rows == []


def test_player_faults_count_and_move_ratings() -> None:
    faulty = MatchRecord(
        bots=("a", "b", "c"), ranks=(1, 2, 3), seat_status=("ok", "illegal", "timeout")
    )
    table = standings([faulty]).by_bot()
    assert table["c"].matches == 1 and table["c"].rated == 1
    assert table["c"].elo < DEFAULT_ELO and table["c"].mu < Skill().mu
    assert (table["a"].faults, table["b"].faults, table["c"].faults) == (0, 1, 1)
    # Same ranks without faults give the same ratings: the rank carries the penalty.
    clean = standings([MatchRecord(bots=("a", "b", "c"), ranks=(1, 2, 3))]).by_bot()
    assert clean["c"].elo == table["c"].elo


def test_self_play_and_solo_count_but_are_not_rated() -> None:
    result = standings(
        [
            MatchRecord(bots=("a", "a", "b"), ranks=(1, 2, 3), scores=(9, 5, 1), id="self"),
            MatchRecord(bots=("solo",), ranks=(1,), scores=(40,), id="alone"),
        ]
    )
    table = result.by_bot()
    assert (table["a"].matches, table["a"].rated, table["a"].wins) == (2, 0, 1)
    assert table["a"].avg_score == 7 and table["a"].elo == DEFAULT_ELO
    assert (table["solo"].matches, table["solo"].rated, table["solo"].wins) == (1, 0, 1)
    assert [m for m, _ in result.ignored] == ["self", "alone"]


def test_provisional_until_enough_rated_matches() -> None:
    matches = [MatchRecord(bots=("a", "b"), ranks=(1, 2)) for _ in range(4)]
    assert all(r.provisional for r in standings(matches[:3], provisional_below=4).rows)
    assert not any(r.provisional for r in standings(matches, provisional_below=4).rows)


def test_listed_bots_appear_without_matches() -> None:
    row = standings([], bots=["new"]).by_bot()["new"]
    assert (row.matches, row.avg_rank, row.avg_score, row.elo) == (0, None, None, DEFAULT_ELO)
    assert row.provisional and row.to_json()["ordinal"] == pytest.approx(0.0)


def test_reads_the_referee_outcome_shape() -> None:
    # The shape of arena.outcome.MatchOutcome.to_json(): extra keys are ignored.
    outcome = {
        "match_id": "m1",
        "game": "trnd",
        "seed": 3,
        "options": {},
        "status": "finished",
        "error": None,
        "result": {"scores": [4, 9], "ranks": [2, 1], "reason": "normal"},
        "seats": [
            {
                "bot": "a",
                "name": None,
                "score": 4,
                "rank": 2,
                "status": "crashed",
                "faults": [{"kind": "crash"}],
                "time_ms": 1.5,
                "retired_turn": 7,
            },
            {
                "bot": "b",
                "name": "B",
                "score": 9,
                "rank": 1,
                "status": "ok",
                "faults": [],
                "time_ms": 2.0,
                "retired_turn": None,
            },
        ],
    }
    record = MatchRecord.from_json(outcome)
    assert record == MatchRecord(
        bots=("a", "b"),
        ranks=(2, 1),
        scores=(4, 9),
        seat_status=("crashed", "ok"),
        status="finished",
        id="m1",
    )

    class Outcome:  # anything with to_json() is read the same way
        def to_json(self) -> dict:
            return outcome

    assert standings([Outcome()]).rows == standings([record]).rows


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"bots": ["a", "b"], "ranks": [1, 2], "status": "done"}, "status must be one of"),
        ({"bots": ["a", "b"], "ranks": [1]}, "1 ranks for 2 seats"),
        ({"bots": ["a", "b"], "ranks": [1, 2], "scores": [3]}, "1 scores for 2 seats"),
        ({"bots": ["a", "b"], "ranks": [1, 2], "seat_status": ["ok", "late"]}, "seat status"),
        ({"bots": ["a", ""], "ranks": [1, 2]}, "non-empty strings"),
        ({"bots": "ab", "ranks": [1, 2]}, "bots must be a list"),
        ({"ranks": [1, 2]}, "needs 'bots' and 'ranks'"),
        ({"seats": [{"bot": "a"}]}, "every seat needs 'rank'"),
        (
            {"id": 5, "seats": [{"bot": "a", "rank": 1, "score": 2}, {"bot": "b", "rank": 2}]},
            "match 5: some seats have a score",
        ),
        ({"bots": ["a", "b"], "ranks": [1, 2], "scores": [1, float("nan")]}, "finite numbers"),
        ([1, 2], "must be an object"),
    ],
)
def test_bad_match_input_is_a_clear_error(data: object, message: str) -> None:
    with pytest.raises(RatingError, match=message):
        standings([data])


bots = st.sampled_from(["a", "b", "c", "d", "e", "f"])


@st.composite
def match_records(draw: st.DrawFn) -> MatchRecord:
    n = draw(st.integers(2, 5))
    seated = draw(st.lists(bots, min_size=n, max_size=n, unique=True))
    keys = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    ranks = tuple(1 + sum(1 for o in keys if o > k) for k in keys)
    status = draw(st.sampled_from(["ok", "ok", "ok", "error"]))
    seat_status = tuple(draw(st.lists(st.sampled_from(["ok", "retired"]), min_size=n, max_size=n)))
    return MatchRecord(bots=tuple(seated), ranks=ranks, seat_status=seat_status, status=status)


@settings(max_examples=60, deadline=None)
@given(st.lists(match_records(), max_size=12))
def test_incremental_updates_equal_the_fold_and_elo_stays_zero_sum(
    matches: list[MatchRecord],
) -> None:
    table: dict[str, Standing] = {}
    for m in matches:
        snapshot = dict(table)
        new = update_standings(table, m)
        assert table == snapshot  # the input table is not changed
        table = new
    assert sorted(table.values(), key=lambda r: r.bot) == sorted(
        standings(matches).rows, key=lambda r: r.bot
    )
    counted = [m for m in matches if m.status != "error"]
    assert sum(r.matches for r in table.values()) == sum(len(m.bots) for m in counted)
    # Pairwise Elo moves points between bots, never creates them.
    assert sum(r.elo for r in table.values()) == pytest.approx(DEFAULT_ELO * len(table))
