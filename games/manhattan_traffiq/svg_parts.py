"""What the parts of the Manhattan TraffIQ picture share: colours, layout, coordinates and the
vehicles (on the map and in the legend)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from games.svg import SEAT_COLOURS

BG, INK, MUTED, ACCENT = "#f6f4ef", "#1f2430", "#6b7080", "#c2410c"
#: edge colours: beige and red are streets, green is park, blue is water
EDGE = {"B": "#d9c7a0", "R": "#e76f51", "G": "#6fbf73", "U": "#5aa9e6"}
EDGE_NAMES = {"B": "beige street", "R": "red street", "G": "park", "U": "water"}
BLOCK = "#efeadf"
STREET = "#3f3f46"

MAP_X, MAP_Y, MAP = 20, 20, 540
PANEL_X = MAP_X + MAP + 28
WIDTH = PANEL_X + 300
MIN_HEIGHT = MAP_Y + MAP + 20
MAX_TILE = 72
PHASES = {
    "action": "chooses an action",
    "place_where": "places a tile",
    "taxi_to": "rides a taxi",
    "vehicle": "may add a vehicle",
    "compete": "may compete",
}


def coord(v: float) -> str:
    """A coordinate with at most one decimal (keeps the SVG small)."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


def vehicle(cx: float, cy: float, size: float, seat: int, kind: str, where: str) -> str:
    """A taxi (disc) or truck (square) in its seat colour, with its seat number; ``where``
    names its crossing in a tooltip (none in the legend)."""
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    stroke = coord(max(1.2, size * 0.045))
    title = f"<title>seat {seat} {escape(kind)} at {where}</title>" if where else ""
    if kind == "truck":
        half = size * 0.27
        shape = (
            f'<rect x="{coord(cx - half)}" y="{coord(cy - half)}" width="{coord(2 * half)}" '
            f'height="{coord(2 * half)}" rx="{coord(half * 0.3)}" fill="{colour}" stroke="#fff" '
            f'stroke-width="{stroke}">{title}</rect>'
        )
        font = half * 1.2
    else:
        radius = size * 0.22
        shape = (
            f'<circle cx="{coord(cx)}" cy="{coord(cy)}" r="{coord(radius)}" fill="{colour}" '
            f'stroke="#fff" stroke-width="{stroke}">{title}</circle>'
        )
        font = radius * 1.2
    return shape + (
        f'<text x="{coord(cx)}" y="{coord(cy + font * 0.36)}" font-size="{coord(font)}" '
        f'font-weight="700" fill="#fff" text-anchor="middle">{seat}</text>'
    )
