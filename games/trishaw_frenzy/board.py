"""The map as data: what each board cell shows, where portals and arrows send a trishaw, and
tile rotations and swaps. Pure functions over ``tiles`` (9 ``[tile_index, turns]`` pairs,
indexed by tile position) and trishaw cells; nothing here rolls dice.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.trishaw_frenzy.components import FACES
from games.trishaw_frenzy.geometry import (
    ARROWS,
    N,
    arrow_target,
    cell_of,
    local_of,
    tile_of,
    turn_local_cw,
)

Tiles = Sequence[Sequence[int]]

#: PORTAL_LOCALS[tile][turns] -> tile-local squares holding a portal
PORTAL_LOCALS: list[list[tuple[int, ...]]] = [
    [tuple(i for i, ch in enumerate(face) if ch == "P") for face in faces] for faces in FACES
]


def face(tiles: Tiles, cell: int) -> str:
    """The square at ``cell``: ``.`` beige, ``E`` event, ``P`` portal, or an arrow ``^ > v <``."""
    t, turns = tiles[tile_of(cell)]
    return FACES[t][turns][local_of(cell)]


def board_rows(tiles: Tiles) -> list[str]:
    """The whole 9x9 board as 9 strings of square characters, north row first."""
    return ["".join(face(tiles, r * N + c) for c in range(N)) for r in range(N)]


def arrow_destination(tiles: Tiles, cell: int) -> int | None:
    """Where the arrow at ``cell`` sends a trishaw (wrapping off the edges), or None."""
    d = ARROWS.find(face(tiles, cell))
    return None if d < 0 else arrow_target(cell, d)


def portal_cells(tiles: Tiles) -> list[int]:
    out: list[int] = []
    for p, (t, turns) in enumerate(tiles):
        out.extend(cell_of(p, local) for local in PORTAL_LOCALS[t][turns])
    return out


def portal_destination(
    tiles: Tiles, cell: int, route_cells: Sequence[int], route_index: Sequence[int]
) -> int:
    """The next portal along the route after ``cell``; from the last one, the first (a loop).
    A lone portal leads to itself."""
    here = route_index[cell]
    portals = sorted(route_index[c] for c in portal_cells(tiles))
    for prog in portals:
        if prog > here:
            return route_cells[prog]
    return route_cells[portals[0]] if portals else cell


def rotate_tile(
    tiles: list[list[int]], pos: list[int], tile: int, turns: int, carry: bool
) -> list[int]:
    """Turn the tile at position ``tile`` by ``turns`` quarters clockwise, in place. With
    ``carry`` the trishaws on it ride along (stay on their printed square). Returns the indices
    of the trishaws that moved."""
    tiles[tile][1] = (tiles[tile][1] + turns) % 4
    moved = []
    if carry:
        for i, cell in enumerate(pos):
            if tile_of(cell) == tile:
                new = cell_of(tile, turn_local_cw(local_of(cell), turns))
                if new != cell:
                    pos[i] = new
                    moved.append(i)
    return moved


def free_tiles(pos: Sequence[int]) -> list[int]:
    """Tile positions with no trishaw on them (the only ones a swap may move)."""
    taken = {tile_of(c) for c in pos}
    return [p for p in range(9) if p not in taken]


def swap_tiles(tiles: list[list[int]], a: int, b: int) -> None:
    """Exchange two tiles' places, each keeping its orientation."""
    tiles[a], tiles[b] = tiles[b], tiles[a]
