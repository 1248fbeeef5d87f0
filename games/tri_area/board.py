"""The board: 16 squares in a 4x4 grid, four T-shaped areas (one per suit), printed bonuses.

The rulebook does not show the board; this layout is **[INVENTED]** (see RULES.md): four
T-tetrominoes in a pinwheel, the only tiling of a 4x4 square by four T shapes. Square ``s`` is
row ``s // 4``, column ``s % 4``.
"""

from __future__ import annotations

SUITS: tuple[str, ...] = ("I", "M", "E", "H")
SUIT_NAMES: dict[str, str] = {
    "I": "Intelligent (blue)",
    "M": "Modern (yellow)",
    "E": "Ecology (green)",
    "H": "Happiness (red)",
}

#: Area squares per suit.
AREAS: dict[str, tuple[int, ...]] = {
    "I": (0, 1, 2, 5),
    "M": (3, 6, 7, 11),
    "E": (4, 8, 9, 12),
    "H": (10, 13, 14, 15),
}
#: The area (suit) of each square.
AREA_OF: tuple[str, ...] = tuple(next(s for s, sq in AREAS.items() if i in sq) for i in range(16))
#: Points printed on a square, scored when a block lands on it while it is empty.
BONUS: tuple[int, ...] = (1, 0, 2, 1, 2, 3, 3, 0, 0, 3, 3, 2, 1, 2, 0, 1)
#: Area exclusivity points (1st, 2nd) per suit; Happiness 4/6 is from a review, the rest invented.
AREA_POINTS: dict[str, tuple[int, int]] = {"I": (8, 2), "M": (7, 3), "E": (5, 5), "H": (4, 6)}


def _neighbours(s: int) -> tuple[int, ...]:
    r, c = divmod(s, 4)
    out = []
    for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < 4 and 0 <= cc < 4:
            out.append(rr * 4 + cc)
    return tuple(out)


#: Orthogonal neighbours of each square, in square order.
ADJACENT: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in range(16))


def layout() -> dict[str, object]:
    """The static board facts as JSON (for observations, docs and renderers)."""
    return {
        "area_of": list(AREA_OF),
        "bonus": list(BONUS),
        "area_points": {s: list(p) for s, p in AREA_POINTS.items()},
        "adjacent": [list(a) for a in ADJACENT],
    }
