"""What the parts of the Trishaw Frenzy picture share: colours, layout, and who each trishaw is."""

from __future__ import annotations

from typing import Any

from games.svg import SEAT_COLOURS
from games.trishaw_frenzy.components import ROUTE_INDEX
from games.trishaw_frenzy.geometry import N

#: the AI trishaw of a solo game (seats take the colours shared by every game's picture)
AI_COLOUR = "#44403c"
BG, INK, MUTED, ACCENT = "#f6f4ef", "#1f2430", "#6b7080", "#c2410c"
#: square fills: beige, event, portal, arrow
FILL = {".": "#efe3c4", "E": "#fde68a", "P": "#ccfbf1"}
ARROW_FILL = "#e7e5e4"

CELL = 52
BOARD_X, BOARD_Y = 44, 44
BOARD = CELL * N
PANEL_X = BOARD_X + BOARD + 44
WIDTH = PANEL_X + 280
HEIGHT = BOARD_Y + BOARD + 44
SIDE_NAMES = ("south", "west", "north", "east")
EFFECTS = {
    "change_route": "change the route",
    "swap_tiles": "swap two free tiles",
    "push_back_d4": "push a trishaw back D4",
    "gain_1vp": "gain 1 VP",
    "swap_with_closest": "swap with the closest trishaw",
    "forward_d4": "ride forward D4",
}


def who(s: dict[str, Any], t: int) -> str:
    """Who rides trishaw ``t``: a seat, or the AI trishaw of a solo game."""
    return "AI trishaw" if s["solo"] and t == 1 else f"Seat {t}"


def rider_colour(s: dict[str, Any], t: int) -> str:
    """Trishaw ``t``'s colour: its seat's, or the AI trishaw's."""
    return AI_COLOUR if s["solo"] and t == 1 else SEAT_COLOURS[t]


def progress(s: dict[str, Any], t: int) -> int:
    """How far trishaw ``t`` is along the current route."""
    r, v = s["route"]
    return ROUTE_INDEX[r][v][s["pos"][t]]
