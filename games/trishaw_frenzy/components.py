"""The component set (tiles, route cards, event cards) loaded from ``data/components.json``,
plus tables precomputed once so the rules never redo geometry on the hot path.

Board cells are plain ints ``9 * row + col`` (row 0 = the north edge). Tile positions are
``3 * tile_row + tile_col``. The rulebook prints none of these components: the data is our own
invented set, described in RULES.md.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from games.trishaw_frenzy.geometry import (
    ARROWS,
    N,
    card_cell_to_board,
    card_tile_to_board,
    local_before_turns,
)

DATA_PATH = Path(__file__).with_name("data") / "components.json"


def load_data(path: Path = DATA_PATH) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


DATA = load_data()

TILE_IDS: list[str] = list(DATA["tiles"])
ROUTE_IDS: list[str] = [r["id"] for r in DATA["routes"]]
ROUTE_NAMES: list[str] = [r["name"] for r in DATA["routes"]]
EVENT_IDS: list[str] = [e["id"] for e in DATA["events"]]
#: per event card: highlighted tile positions in card coordinates
EVENT_HIGHLIGHT: list[list[int]] = [list(e["highlight"]) for e in DATA["events"]]
#: per event card: the bottom effect's name
EVENT_BOTTOM: list[str] = [e["bottom"] for e in DATA["events"]]
#: per event card: (card tile position, quarter turns clockwise) the solo AI applies
EVENT_SOLO: list[tuple[int, int]] = [
    (e["solo"]["tile"], 1 if e["solo"]["dir"] == "cw" else 3) for e in DATA["events"]
]
BOTTOM_EFFECTS = (
    "change_route",
    "swap_tiles",
    "push_back_d4",
    "gain_1vp",
    "swap_with_closest",
    "forward_d4",
)


def _faces(rows: list[str]) -> list[str]:
    """The tile face at each orientation 0..3, as 9 characters in tile-local row-major order."""
    flat = "".join(rows)
    out = []
    for turns in range(4):
        chars = []
        for local in range(9):
            ch = flat[local_before_turns(local, turns)]
            if ch in ARROWS:
                ch = ARROWS[(ARROWS.index(ch) + turns) % 4]
            chars.append(ch)
        out.append("".join(chars))
    return out


#: FACES[tile][turns][local] -> square character shown
FACES: list[list[str]] = [_faces(DATA["tiles"][t]) for t in TILE_IDS]

#: ROUTE_CELLS[route][view] -> the 81 board cells in travel order
ROUTE_CELLS: list[list[tuple[int, ...]]] = []
#: ROUTE_INDEX[route][view][cell] -> progress of that cell on the route (0..80)
ROUTE_INDEX: list[list[tuple[int, ...]]] = []
for _route in DATA["routes"]:
    _cells_by_view = []
    _index_by_view = []
    for _view in range(4):
        cells = tuple(card_cell_to_board(r * N + c, _view) for r, c in _route["cells"])
        index = [0] * (N * N)
        for i, cell in enumerate(cells):
            index[cell] = i
        _cells_by_view.append(cells)
        _index_by_view.append(tuple(index))
    ROUTE_CELLS.append(_cells_by_view)
    ROUTE_INDEX.append(_index_by_view)

#: EVENT_TILES[card][view] -> the highlighted board tile positions
EVENT_TILES: list[list[tuple[int, ...]]] = [
    [tuple(card_tile_to_board(p, v) for p in hl) for v in range(4)] for hl in EVENT_HIGHLIGHT
]


def validate(data: dict[str, Any]) -> list[str]:
    """Every problem with a component set (empty when it is sound): 9 tiles of 3x3 legal squares,
    12 routes that each visit all 81 cells through orthogonal steps, 12 event cards whose
    highlights cover every tile position exactly 4 times, 2 cards per bottom effect."""
    problems: list[str] = []
    tiles = data.get("tiles", {})
    if len(tiles) != 9:
        problems.append(f"expected 9 tiles, got {len(tiles)}")
    for name, rows in tiles.items():
        if len(rows) != 3 or any(len(r) != 3 for r in rows):
            problems.append(f"tile {name} is not 3x3")
        elif any(ch not in ".EP^>v<" for ch in "".join(rows)):
            problems.append(f"tile {name} has an unknown square")
    routes = data.get("routes", [])
    if len(routes) != 12:
        problems.append(f"expected 12 routes, got {len(routes)}")
    for route in routes:
        cells = [tuple(c) for c in route["cells"]]
        if len(cells) != 81 or len(set(cells)) != 81:
            problems.append(f"route {route['id']} does not visit all 81 cells once")
        if any(not (0 <= r < N and 0 <= c < N) for r, c in cells):
            problems.append(f"route {route['id']} leaves the board")
        for a, b in itertools.pairwise(cells):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                problems.append(f"route {route['id']} jumps from {a} to {b}")
                break
    events = data.get("events", [])
    if len(events) != 12:
        problems.append(f"expected 12 event cards, got {len(events)}")
    uses = [0] * 9
    effects: dict[str, int] = {}
    for e in events:
        hl = e["highlight"]
        if len(set(hl)) != 3 or any(not 0 <= p < 9 for p in hl):
            problems.append(f"event {e['id']} must highlight 3 distinct tiles")
        if e["solo"]["tile"] not in hl or e["solo"]["dir"] not in ("cw", "ccw"):
            problems.append(f"event {e['id']} has a bad solo mark")
        if e["bottom"] not in BOTTOM_EFFECTS:
            problems.append(f"event {e['id']} has an unknown bottom effect {e['bottom']!r}")
        for p in hl:
            if 0 <= p < 9:
                uses[p] += 1
        effects[e["bottom"]] = effects.get(e["bottom"], 0) + 1
    if uses != [4] * 9:
        problems.append(f"tile positions must each be highlighted 4 times, got {uses}")
    if sorted(effects.values()) != [2] * 6:
        problems.append(f"each bottom effect must be on 2 cards, got {effects}")
    return problems
