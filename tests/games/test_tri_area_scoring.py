"""Tri*Area settlement: area exclusivity (the 8/2, 7/3, 5/5, 4/6 examples), building occupancy,
tallest building, declarations of intent and lead areas, unplaced blocks."""

from __future__ import annotations

from games.tri_area.board import AREA_OF, AREA_POINTS, AREAS, BONUS
from games.tri_area.scoring import (
    area_awards,
    area_places,
    best_five_outcome,
    building_owner,
    tallest_awards,
)

BLUE, ORANGE, GREEN, PINK = 0, 1, 2, 3


def board_with(stacks: dict[int, list[int]]) -> list[list[int]]:
    board: list[list[int]] = [[] for _ in range(16)]
    for sq, stack in stacks.items():
        board[sq] = list(stack)
    return board


def test_board_layout_is_four_t_areas_with_printed_bonuses() -> None:
    assert sorted(sq for sq in range(16)) == sorted(s for a in AREAS.values() for s in a)
    for suit, squares in AREAS.items():
        assert all(AREA_OF[s] == suit for s in squares)
        assert sorted(BONUS[s] for s in squares) == [0, 1, 2, 3]
    assert sorted(AREA_POINTS.values()) == [(4, 6), (5, 5), (7, 3), (8, 2)]


def test_example_8_2_taller_building_wins_second_place() -> None:
    # Intelligent (8/2): blue tops two buildings; green and orange one each, green's taller.
    i0, i1, i2, i3 = AREAS["I"]
    board = board_with({i0: [BLUE], i1: [ORANGE, BLUE], i2: [ORANGE], i3: [BLUE, GREEN]})
    assert area_awards(board, "I") == {BLUE: 8, GREEN: 2}
    assert area_places(board, "I") == {BLUE: 1, GREEN: 2, ORANGE: 3}


def test_example_7_3_shared_first_splits_ten_and_no_second() -> None:
    m0, m1, m2, m3 = AREAS["M"]
    board = board_with({m0: [BLUE], m1: [GREEN], m2: [BLUE, GREEN], m3: [ORANGE, BLUE]})
    # Blue and green top two buildings each, heights (2,1) each; orange tops none.
    assert area_awards(board, "M") == {BLUE: 5, GREEN: 5}
    board[m3] = [BLUE, ORANGE]
    # Orange takes blue's tall top: green (two tops) first; orange's single top of height 2
    # beats blue's of height 1 for second.
    assert area_awards(board, "M") == {GREEN: 7, ORANGE: 3}


def test_example_5_5_shared_second_is_rounded_up() -> None:
    e0, e1, e2, e3 = AREAS["E"]
    board = board_with({e0: [ORANGE], e1: [ORANGE], e2: [GREEN], e3: [BLUE]})
    assert area_awards(board, "E") == {ORANGE: 5, GREEN: 3, BLUE: 3}


def test_example_4_6_height_breaks_the_tie_for_first() -> None:
    h0, h1, h2, h3 = AREAS["H"]
    board = board_with({h0: [BLUE, ORANGE], h1: [ORANGE], h2: [BLUE], h3: [BLUE]})
    # Orange tops 2 (heights 2,1), blue tops 2 (1,1): orange first by height.
    assert area_awards(board, "H") == {ORANGE: 4, BLUE: 6}


def test_three_way_tie_for_first_rounds_up_and_single_or_no_player() -> None:
    i0, i1, i2, _ = AREAS["I"]
    board = board_with({i0: [BLUE], i1: [ORANGE], i2: [GREEN]})
    assert area_awards(board, "I") == {BLUE: 4, ORANGE: 4, GREEN: 4}  # ceil(10/3)
    assert area_awards(board_with({i0: [PINK]}), "I") == {PINK: 8}
    assert area_awards(board_with({}), "I") == {}
    assert area_places(board_with({}), "I") == {}


def test_only_top_blocks_count_for_areas() -> None:
    i0, i1, _, _ = AREAS["I"]
    board = board_with({i0: [BLUE, BLUE, ORANGE], i1: [BLUE, BLUE, ORANGE]})
    assert area_awards(board, "I") == {ORANGE: 8}


def test_building_occupancy_majority_then_lowest_block() -> None:
    assert building_owner([BLUE, GREEN, GREEN]) == GREEN
    # Green and blue two each: green's block is lowest (the rulebook's example).
    assert building_owner([GREEN, BLUE, BLUE, GREEN]) == GREEN
    assert building_owner([ORANGE, BLUE, GREEN]) == ORANGE
    assert building_owner([]) is None


def test_tallest_single_building_gets_ten() -> None:
    board = board_with({0: [BLUE, ORANGE, ORANGE], 5: [GREEN, GREEN]})
    assert tallest_awards(board) == ([0], {ORANGE: 10})


def test_tallest_two_tied_six_each() -> None:
    board = board_with({0: [BLUE, ORANGE, ORANGE], 9: [GREEN, GREEN, BLUE], 3: [PINK]})
    assert tallest_awards(board) == ([0, 9], {ORANGE: 6, GREEN: 6})


def test_tallest_three_tied_four_per_building_one_owner_twice() -> None:
    board = board_with({0: [BLUE, BLUE], 6: [BLUE, GREEN], 12: [ORANGE, ORANGE], 3: [PINK]})
    # Building 6 is tied 1-1: blue's block is lowest. Blue owns two of the three.
    assert tallest_awards(board) == ([0, 6, 12], {BLUE: 8, ORANGE: 4})


def test_tallest_on_empty_board_awards_nothing() -> None:
    assert tallest_awards(board_with({})) == ([], {})


def test_five_in_a_declaration_takes_its_best_value() -> None:
    # First place in the declared area: 10 for 2 VP (net +8) beats keeping the 5 (+5).
    assert best_five_outcome(3, {5: 5, 0: 0, 10: 10}) == (10, 11)
    # Third place in a lead declaration: pay 1 to count 0 rather than lose 5.
    assert best_five_outcome(7, {5: -5, 0: 0, 10: -10}) == (0, 6)
    # Nothing to gain: keep the 5 and pay nothing.
    assert best_five_outcome(7, {5: 0, 0: 0, 10: 0}) == (5, 7)
    # With 1 VP the 10 cannot be bought.
    assert best_five_outcome(1, {5: 5, 0: 0, 10: 10}) == (5, 6)
    # At 0 VP a loss is floored at 0 anyway.
    assert best_five_outcome(0, {5: -5, 0: 0, 10: -10}) == (5, 0)
