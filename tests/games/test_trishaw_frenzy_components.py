"""Trishaw Frenzy: the invented component data and the board geometry."""

from __future__ import annotations

import copy
import itertools

import pytest

from games.trishaw_frenzy import components as comp
from games.trishaw_frenzy import geometry as geo


def _swap(seq: list, i: int, j: int) -> None:
    seq[i], seq[j] = seq[j], seq[i]


def test_shipped_component_data_validates() -> None:
    assert comp.validate(comp.DATA) == []
    counts: dict[str, int] = {}
    for rows in comp.DATA["tiles"].values():
        for ch in "".join(rows):
            counts[ch] = counts.get(ch, 0) + 1
    assert counts == comp.DATA["square_counts"]
    assert counts["E"] == 13 and counts["P"] == 5 and counts["."] == 47
    assert all(counts[a] == 4 for a in "^>v<")
    # no all-beige tile; every tile has one or two event squares
    for rows in comp.DATA["tiles"].values():
        assert 1 <= "".join(rows).count("E") <= 2


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["tiles"].pop("T9"), "expected 9 tiles"),
        (lambda d: d["tiles"].__setitem__("T1", ["E.>", ".X.", "v.."]), "unknown square"),
        (lambda d: d["routes"][0]["cells"].__setitem__(5, [8, 8]), "does not visit"),
        (lambda d: _swap(d["routes"][1]["cells"], 1, 40), "jumps"),
        (lambda d: d["events"][0].__setitem__("highlight", [0, 0, 1]), "3 distinct"),
        (lambda d: d["events"][0]["solo"].__setitem__("tile", 8), "bad solo mark"),
        (lambda d: d["events"][0].__setitem__("bottom", "gain_1vp"), "2 cards"),
        (lambda d: d["events"][0].__setitem__("highlight", [0, 1, 3]), "highlighted 4 times"),
    ],
)
def test_validation_catches_broken_data(mutate, message: str) -> None:
    data = copy.deepcopy(comp.DATA)
    mutate(data)
    problems = comp.validate(data)
    assert any(message in p for p in problems), problems


def test_routes_are_hamiltonian_paths_in_every_view() -> None:
    for r in range(12):
        for v in range(4):
            cells = comp.ROUTE_CELLS[r][v]
            assert sorted(cells) == list(range(81))
            for a, b in itertools.pairwise(cells):
                (ra, ca), (rb, cb) = divmod(a, 9), divmod(b, 9)
                assert abs(ra - rb) + abs(ca - cb) == 1
            assert all(comp.ROUTE_INDEX[r][v][c] == i for i, c in enumerate(cells))


def test_reversed_routes_are_the_first_six_backwards() -> None:
    for r in range(6):
        assert comp.ROUTE_CELLS[r + 6][0] == comp.ROUTE_CELLS[r][0][::-1]


def test_card_orientation_example_rider_facing_east() -> None:
    # Rulebook: Ali faces the east side of the map, so the top of Ali's card points east.
    # Ali sits on the west side: viewpoint 1. The card's top row lands on the east column.
    assert {geo.card_cell_to_board(c, 1) % 9 for c in range(9)} == {8}
    # the card's top-left corner is at Ali's far left, i.e. the north-east corner
    assert geo.card_cell_to_board(0, 1) == 0 * 9 + 8
    # the row snake (R1) read by Ali starts north-east and runs south down the east column
    r1 = comp.ROUTE_CELLS[0][1]
    assert [divmod(c, 9) for c in r1[:3]] == [(0, 8), (1, 8), (2, 8)]


@pytest.mark.parametrize(
    ("view", "top_edge"),
    [(0, "north"), (1, "east"), (2, "south"), (3, "west")],
)
def test_each_viewpoint_puts_the_card_top_on_the_far_side(view: int, top_edge: str) -> None:
    top = {geo.card_cell_to_board(c, view) for c in range(9)}
    expected = {
        "north": {c for c in range(9)},
        "south": {72 + c for c in range(9)},
        "east": {r * 9 + 8 for r in range(9)},
        "west": {r * 9 for r in range(9)},
    }[top_edge]
    assert top == expected
    # the map of the 3x3 tile grid agrees with the 9x9 map on tile centres
    for p in range(9):
        centre = geo.cell_of(p, 4)
        board_tile = geo.tile_of(geo.card_cell_to_board(centre, view))
        assert geo.card_tile_to_board(p, view) == board_tile


def test_quarter_turn_moves_squares_clockwise_and_arrows_turn() -> None:
    assert geo.turn_local_cw(0, 1) == 2  # top-left -> top-right
    assert geo.turn_local_cw(2, 1) == 8  # top-right -> bottom-right
    assert geo.turn_local_cw(4, 1) == 4  # the centre stays
    assert all(geo.turn_local_cw(x, 4) == x for x in range(9))
    # T1 = "E.>" / ".P." / "v..": one clockwise turn puts the event top-right, and the
    # east arrow (top-right) goes bottom-right pointing south
    one = comp.FACES[comp.TILE_IDS.index("T1")][1]
    assert one[2] == "E" and one[8] == "v" and one[4] == "P"
    # the south arrow (bottom-left) goes top-left pointing west
    assert one[0] == "<"


@pytest.mark.parametrize(
    ("cell", "direction", "target"),
    [
        ((0, 4), 0, (8, 4)),  # north edge wraps to the south edge
        ((8, 4), 2, (0, 4)),  # south -> north
        ((3, 8), 1, (3, 0)),  # east -> west
        ((3, 0), 3, (3, 8)),  # west -> east
        ((4, 4), 1, (4, 5)),  # inside the board: the neighbour
    ],
)
def test_arrow_targets_wrap_around(cell, direction, target) -> None:
    assert divmod(geo.arrow_target(cell[0] * 9 + cell[1], direction), 9) == target
