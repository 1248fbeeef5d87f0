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
from functools import cache

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


def has_empty_neighbour(
    tiles: dict[Cell, str], occupied: Container[Node], spots: set[Node], start: Node
) -> bool:
    """Can a vehicle on ``start`` move at all (``taxi_targets`` and ``truck_targets`` are
    non-empty exactly when an empty spot lies one street segment away)?"""
    return any(nb in spots and nb not in occupied for nb in street_neighbours(tiles, start))


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


OPEN = "."  # a frontier cell's side with no tile beyond it: any colour fits there


@cache
def fitting_rotations(pattern: str, need: str) -> tuple[int, ...]:
    """The distinct rotations of ``pattern`` whose edges match ``need`` (N,E,S,W colours a
    cell's placed neighbours ask for, ``OPEN`` where there is none). Memoised: there are few
    patterns and at most 5**4 needs."""
    return tuple(
        rot
        for rot, edges in distinct_rotations(pattern)
        if all(c in (OPEN, e) for c, e in zip(need, edges, strict=True))
    )


class Board:
    """The placed tiles plus caches kept up to date on each placement: the frontier (empty
    cells touching the map) with the edge colours each frontier cell needs, the spots, and
    what the state's observation shows of them. ``tiles`` may be changed for a look-ahead
    (the bots do) as long as it is restored before ``place``, ``placements`` or
    ``can_place`` is called."""

    __slots__ = (
        "_placeable",
        "_sorted_frontier",
        "_sorted_spots",
        "frontier",
        "need",
        "placed",
        "shown",
        "spots",
        "tiles",
    )

    def __init__(self) -> None:
        self.tiles: dict[Cell, str] = {}  # cell -> rotated edges N,E,S,W
        self.placed: list[tuple[int, int, str, int]] = []  # (x, y, pattern, rot) in order
        self.shown: list[tuple[int, int, str, int, str]] = []  # placed, with the edges
        self.frontier: set[Cell] = set()
        self.need: dict[Cell, str] = {}  # frontier cell -> colours its neighbours ask for
        self.spots: set[Node] = set()
        self._sorted_frontier: list[Cell] | None = None
        self._sorted_spots: list[Node] | None = None
        self._placeable: dict[str, bool] = {}  # pattern -> can_place, for this map

    def copy(self) -> Board:
        b = Board.__new__(Board)
        b.tiles = dict(self.tiles)
        b.placed = list(self.placed)
        b.shown = list(self.shown)
        b.frontier = set(self.frontier)
        b.need = dict(self.need)
        b.spots = set(self.spots)
        b._sorted_frontier = self._sorted_frontier
        b._sorted_spots = self._sorted_spots
        b._placeable = dict(self._placeable)
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

    def sorted_spots(self) -> list[Node]:
        if self._sorted_spots is None:
            self._sorted_spots = sorted(self.spots)
        return self._sorted_spots

    def placements(self, pattern: str) -> list[tuple[int, int, int]]:
        """Every (x, y, rot) where ``pattern`` may go, by cell then rotation; equal-looking
        rotations given once."""
        need = self.need
        return [
            (cell[0], cell[1], rot)
            for cell in self.sorted_frontier()
            for rot in fitting_rotations(pattern, need[cell])
        ]

    def can_place(self, pattern: str) -> bool:
        known = self._placeable.get(pattern)
        if known is None:
            known = any(fitting_rotations(pattern, n) for n in set(self.need.values()))
            self._placeable[pattern] = known
        return known

    def place(self, x: int, y: int, pattern: str, rot: int) -> list[Node]:
        """Put a tile down (the caller checked it fits); returns the new spots, sorted."""
        cell = (x, y)
        tiles, need = self.tiles, self.need
        edges = tiles[cell] = rotate(pattern, rot)
        self.placed.append((x, y, pattern, rot))
        self.shown.append((x, y, pattern, rot, edges))
        self.frontier.discard(cell)
        need.pop(cell, None)
        for d, (dx, dy) in enumerate(STEP):
            nb = (x + dx, y + dy)
            if nb not in tiles:
                self.frontier.add(nb)
                # The neighbour's side facing back here (d + 2) must now match edges[d].
                back = (d + 2) % 4
                old = need.get(nb, OPEN * 4)
                need[nb] = old[:back] + edges[d] + old[back + 1 :]
        self._sorted_frontier = None
        self._placeable = {}
        new = [n for n in cell_nodes(cell) if is_spot(tiles, n)]
        if new:
            self.spots.update(new)
            self._sorted_spots = None
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
