"""The game's components, loaded from ``components.json`` (the rulebook gives none of them).

Tiles are 4-letter edge patterns read N, E, S, W. A rotation ``r`` turns a tile ``r`` quarter
turns clockwise, so the rotated edge facing direction ``d`` is ``pattern[(d - r) % 4]``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

_DATA: dict[str, Any] = json.loads((Path(__file__).with_name("components.json")).read_text())

COLOURS = "BRGU"
COLOUR_NAMES = {"B": "beige", "R": "red", "G": "green", "U": "blue"}
STREET_COLOURS: str = _DATA["street_colours"]
START_TILES: list[tuple[int, int, str, int]] = [
    (t["x"], t["y"], t["tile"], t["rot"]) for t in _DATA["start_tiles"]
]
CITY_TILES: dict[str, int] = dict(_DATA["city_tiles"])
OPENING_HAND: int = _DATA["opening_hand"]
VEHICLES: dict[int, tuple[int, int]] = {
    int(n): (v["taxi"], v["truck"]) for n, v in _DATA["vehicles"].items()
}
POINTS: dict[str, int] = dict(_DATA["vehicle_points"])
ACTIONS_PER_TURN: int = _DATA["actions_per_turn"]
MAX_PLACEMENTS: int = _DATA["max_placements_per_turn"]
MAX_DRAWS: int = _DATA["max_draws_per_turn"]
KINDS = ("taxi", "truck")  # index 0 / 1 in a seat's supply pair

ALL_PATTERNS: frozenset[str] = frozenset(CITY_TILES) | {t[2] for t in START_TILES}


def rotate(pattern: str, rot: int) -> str:
    """The N,E,S,W edges of ``pattern`` turned ``rot`` quarter turns clockwise."""
    rot %= 4
    return pattern[-rot:] + pattern[:-rot] if rot else pattern


@cache
def distinct_rotations(pattern: str) -> tuple[tuple[int, str], ...]:
    """(rot, edges) for each rotation giving a different edge string (BBBB has one)."""
    seen: dict[str, int] = {}
    for rot in range(4):
        seen.setdefault(rotate(pattern, rot), rot)
    return tuple((rot, edges) for edges, rot in seen.items())


def city_stack() -> list[str]:
    """The 44 city tiles, unshuffled, in a fixed order."""
    return [p for p, n in sorted(CITY_TILES.items()) for _ in range(n)]
