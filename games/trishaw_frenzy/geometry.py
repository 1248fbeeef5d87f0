"""Board geometry: cells, tiles, quarter turns, viewpoints and the wrap-around of arrows.

A board cell is the int ``9 * row + col`` (row 0 = north edge). A tile position is
``3 * tile_row + tile_col``; a tile-local square is ``3 * a + b`` inside its tile.
Viewpoints (where the drawing rider sits) are 0 = South, 1 = West, 2 = North, 3 = East.
"""

from __future__ import annotations

N = 9
#: arrow characters by direction: 0 = north, 1 = east, 2 = south, 3 = west
ARROWS = "^>v<"
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))


def tile_of(cell: int) -> int:
    r, c = divmod(cell, N)
    return (r // 3) * 3 + c // 3


def local_of(cell: int) -> int:
    r, c = divmod(cell, N)
    return (r % 3) * 3 + c % 3


def cell_of(tile: int, local: int) -> int:
    tr, tc = divmod(tile, 3)
    a, b = divmod(local, 3)
    return (tr * 3 + a) * N + tc * 3 + b


def turn_local_cw(local: int, turns: int) -> int:
    """Where a tile-local square goes when its tile turns ``turns`` quarters clockwise:
    one turn sends (a, b) to (b, 2 - a)."""
    a, b = divmod(local, 3)
    for _ in range(turns % 4):
        a, b = b, 2 - a
    return a * 3 + b


def local_before_turns(local: int, turns: int) -> int:
    """The printed square that shows at ``local`` after ``turns`` clockwise quarter turns."""
    return turn_local_cw(local, -turns % 4)


def _view_map(r: int, c: int, view: int, size: int) -> tuple[int, int]:
    m = size - 1
    if view == 0:  # South: the card's top points north
        return r, c
    if view == 1:  # West: the top points east
        return c, m - r
    if view == 2:  # North: the top points south
        return m - r, m - c
    return m - c, r  # East: the top points west


def card_cell_to_board(card_cell: int, view: int) -> int:
    """A cell in card coordinates, read by a rider at ``view``, as a board cell."""
    r, c = _view_map(*divmod(card_cell, N), view, N)
    return r * N + c


def card_tile_to_board(card_tile: int, view: int) -> int:
    r, c = _view_map(*divmod(card_tile, 3), view, 3)
    return r * 3 + c


def arrow_target(cell: int, direction: int) -> int:
    """The neighbour an arrow points at; off an edge it wraps to the opposite edge."""
    r, c = divmod(cell, N)
    dr, dc = STEPS[direction]
    return ((r + dr) % N) * N + (c + dc) % N


def rc(cell: int) -> list[int]:
    """A cell as ``[row, col]`` for observations and events."""
    return list(divmod(cell, N))
