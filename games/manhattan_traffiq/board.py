"""The city map: tiles on an unbounded grid, the streets between them, and where vehicles go.

Coordinates: tile (cell) ``(x, y)`` covers the unit square from corner ``(x, y)`` to
``(x + 1, y + 1)``; ``y`` grows southwards (down the screen). Nodes are tile corners: node
``(i, j)`` touches the cells ``(i-1, j-1)``, ``(i, j-1)``, ``(i-1, j)`` and ``(i, j)``.

A *segment* is the unit edge between two neighbouring nodes; it is complete when both tiles
beside it lie on the map, and it is a *street* when that shared border is beige or red. A
*spot* (crossing or street corner) is a node whose four tiles are placed and which has at
least one street. Vehicles only stand on spots. A *road* is the longest straight run of
streets through a node, horizontally or vertically.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Container

from games.manhattan_traffiq.components import STREET_COLOURS, distinct_rotations, rotate

Cell = tuple[int, int]
Node = tuple[int, int]

N, E, S, W = 0, 1, 2, 3
STEP: tuple[Cell, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))  # N, E, S, W
_STREET = frozenset(STREET_COLOURS)


def node_cells(node: Node) -> tuple[Cell, Cell, Cell, Cell]:
    i, j = node
    return ((i - 1, j - 1), (i, j - 1), (i - 1, j), (i, j))


def cell_nodes(cell: Cell) -> tuple[Node, Node, Node, Node]:
    x, y = cell
    return ((x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1))


def street_h(tiles: dict[Cell, str], i: int, j: int) -> bool:
    """Is the segment from node (i, j) east to (i + 1, j) a complete street?"""
    below = tiles.get((i, j))
    return below is not None and (i, j - 1) in tiles and below[N] in _STREET


def street_v(tiles: dict[Cell, str], i: int, j: int) -> bool:
    """Is the segment from node (i, j) south to (i, j + 1) a complete street?"""
    right = tiles.get((i, j))
    return right is not None and (i - 1, j) in tiles and right[W] in _STREET


def street_neighbours(tiles: dict[Cell, str], node: Node) -> list[Node]:
    """Nodes one complete street segment away from ``node`` (E, W, S, N order)."""
    i, j = node
    out = []
    if street_h(tiles, i, j):
        out.append((i + 1, j))
    if street_h(tiles, i - 1, j):
        out.append((i - 1, j))
    if street_v(tiles, i, j):
        out.append((i, j + 1))
    if street_v(tiles, i, j - 1):
        out.append((i, j - 1))
    return out


def is_spot(tiles: dict[Cell, str], node: Node) -> bool:
    i, j = node
    if not all(c in tiles for c in node_cells(node)):
        return False
    return (
        street_h(tiles, i, j)
        or street_h(tiles, i - 1, j)
        or street_v(tiles, i, j)
        or street_v(tiles, i, j - 1)
    )


def roads_through(tiles: dict[Cell, str], node: Node) -> dict[str, list[Node]]:
    """The horizontal ("h") and vertical ("v") roads through ``node``, each as its nodes in
    order (west to east, north to south); a direction without a street is left out."""
    i, j = node
    roads: dict[str, list[Node]] = {}
    if street_h(tiles, i - 1, j) or street_h(tiles, i, j):
        lo = i
        while street_h(tiles, lo - 1, j):
            lo -= 1
        hi = i
        while street_h(tiles, hi, j):
            hi += 1
        roads["h"] = [(k, j) for k in range(lo, hi + 1)]
    if street_v(tiles, i, j - 1) or street_v(tiles, i, j):
        lo = j
        while street_v(tiles, i, lo - 1):
            lo -= 1
        hi = j
        while street_v(tiles, i, hi):
            hi += 1
        roads["v"] = [(i, k) for k in range(lo, hi + 1)]
    return roads


def taxi_targets(
    tiles: dict[Cell, str], occupied: Container[Node], spots: set[Node], start: Node
) -> list[Node]:
    """Spots a taxi on ``start`` can reach along streets through empty spots only."""
    seen = {start}
    todo = deque([start])
    while todo:
        for nb in street_neighbours(tiles, todo.popleft()):
            if nb not in seen and nb in spots and nb not in occupied:
                seen.add(nb)
                todo.append(nb)
    seen.discard(start)
    return sorted(seen)


def truck_targets(
    tiles: dict[Cell, str], occupied: Container[Node], spots: set[Node], start: Node
) -> list[Node]:
    """Empty spots one street segment away from ``start``."""
    return sorted(
        nb for nb in street_neighbours(tiles, start) if nb in spots and nb not in occupied
    )


class Board:
    """The placed tiles plus two caches kept up to date on each placement: the frontier
    (empty cells touching the map) and the spots."""

    __slots__ = ("_sorted_frontier", "frontier", "placed", "spots", "tiles")

    def __init__(self) -> None:
        self.tiles: dict[Cell, str] = {}  # cell -> rotated edges N,E,S,W
        self.placed: list[tuple[int, int, str, int]] = []  # (x, y, pattern, rot) in order
        self.frontier: set[Cell] = set()
        self.spots: set[Node] = set()
        self._sorted_frontier: list[Cell] | None = None

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.tiles = dict(self.tiles)
        b.placed = list(self.placed)
        b.frontier = set(self.frontier)
        b.spots = set(self.spots)
        b._sorted_frontier = self._sorted_frontier
        return b

    def fits(self, cell: Cell, edges: str) -> bool:
        """Does a tile with these rotated edges match every placed neighbour of ``cell``?"""
        x, y = cell
        tiles = self.tiles
        for d in range(4):
            dx, dy = STEP[d]
            nb = tiles.get((x + dx, y + dy))
            if nb is not None and nb[(d + 2) % 4] != edges[d]:
                return False
        return True

    def sorted_frontier(self) -> list[Cell]:
        if self._sorted_frontier is None:
            self._sorted_frontier = sorted(self.frontier)
        return self._sorted_frontier

    def placements(self, pattern: str) -> list[tuple[int, int, int]]:
        """Every (x, y, rot) where ``pattern`` may go; equal-looking rotations given once."""
        rots = distinct_rotations(pattern)
        tiles = self.tiles
        out = []
        for cell in self.sorted_frontier():
            x, y = cell
            need: list[str | None] = [None, None, None, None]
            for d in range(4):
                dx, dy = STEP[d]
                nb = tiles.get((x + dx, y + dy))
                if nb is not None:
                    need[d] = nb[(d + 2) % 4]
            for rot, edges in rots:
                if all(c is None or c == e for c, e in zip(need, edges, strict=True)):
                    out.append((x, y, rot))
        return out

    def can_place(self, pattern: str) -> bool:
        rots = distinct_rotations(pattern)
        return any(self.fits(cell, edges) for cell in self.frontier for _, edges in rots)

    def place(self, x: int, y: int, pattern: str, rot: int) -> list[Node]:
        """Put a tile down (the caller checked it fits); returns the new spots, sorted."""
        cell = (x, y)
        self.tiles[cell] = rotate(pattern, rot)
        self.placed.append((x, y, pattern, rot))
        self.frontier.discard(cell)
        for dx, dy in STEP:
            nb = (x + dx, y + dy)
            if nb not in self.tiles:
                self.frontier.add(nb)
        self._sorted_frontier = None
        new = [n for n in cell_nodes(cell) if is_spot(self.tiles, n)]
        self.spots.update(new)
        return sorted(new)

    def completes(self, x: int, y: int, edges: str) -> list[Node]:
        """The spots a tile with these edges would create on cell (x, y) (no change made)."""
        cell = (x, y)
        self.tiles[cell] = edges
        try:
            return [n for n in cell_nodes(cell) if is_spot(self.tiles, n)]
        finally:
            del self.tiles[cell]

    @classmethod
    def from_placed(cls, placed: list[tuple[int, int, str, int]]) -> Board:
        b = cls()
        for x, y, pattern, rot in placed:
            b.place(x, y, pattern, rot)
        return b
