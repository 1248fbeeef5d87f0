"""What the parts of the Tri*Area picture share: colours, layout, and small shapes (cards,
chips, the tallest building's star)."""

from __future__ import annotations

import math

from games.svg import INK
from games.svg import attrs as _attrs
from games.svg import num as _num
from games.svg import rect as _rect
from games.svg import text as _text

SUIT_NAMES = {"I": "Intelligent", "M": "Modern", "E": "Ecology", "H": "Happiness"}
# Area tints on the board (light, so seat-coloured blocks stand out) and card colours.
AREA_TINT = {"I": "#dde8fb", "M": "#fbf1c4", "E": "#dcf1de", "H": "#fbdede"}
CARD_FILL = {"I": "#bfd5fb", "M": "#fde68a", "E": "#bbe8c4", "H": "#fbc4c4"}
CARD_INK = {"I": "#1e40af", "M": "#854d0e", "E": "#166534", "H": "#991b1b"}

CELL = 100
BOARD_X, BOARD_Y = 20, 64
PANEL_X, PANEL_W, PANEL_H = 444, 496, 98


def polygon(points: list[tuple[float, float]], **attrs: object) -> str:
    pts = " ".join(f"{_num(round(px, 1))},{_num(round(py, 1))}" for px, py in points)
    return f'<polygon points="{pts}"{_attrs(attrs)}/>'


def seat_name(seat: int, players: int) -> str:
    return f"Seat {seat}" if seat < players else f"NPC {seat}"


def draw_card(
    x: float, y: float, card: str, w: float = 26, h: float = 36, note: str = ""
) -> list[str]:
    """A plan card: suit-coloured, rank big, suit letter small; ``note`` under the rank."""
    suit, rank = card[0], card[1:]
    ink = CARD_INK.get(suit, INK)
    out = [
        f"<g{_attrs({'data-card': card})}>",
        _rect(x, y, w, h, rx=4, fill=CARD_FILL.get(suit, "#eee"), stroke=ink, stroke_width=1.2),
        _text(
            x + w / 2,
            y + h * 0.58,
            rank,
            size=h * 0.45,
            fill=ink,
            font_weight="700",
            text_anchor="middle",
        ),
        _text(x + w / 2, y + h - 4, suit, size=h * 0.22, fill=ink, text_anchor="middle"),
    ]
    if note:
        out.append(
            _text(
                x + w / 2,
                y + h + 13,
                note,
                size=12.5,
                fill=INK,
                text_anchor="middle",
                font_weight="600",
            )
        )
    out.append("</g>")
    return out


def draw_chip(
    x: float, y: float, label: str, fill: str, ink: str = "#fff"
) -> tuple[list[str], float]:
    """A small rounded label; returns its elements and its width."""
    w = 10 + 7.4 * len(label)
    return [
        _rect(x, y - 13, w, 18, rx=9, fill=fill),
        _text(x + w / 2, y, label, size=12.5, fill=ink, font_weight="700", text_anchor="middle"),
    ], w


def draw_star(cx: float, cy: float, r: float) -> str:
    """A five-pointed star (marks the tallest building)."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        ang = math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(ang), cy - rad * math.sin(ang)))
    return polygon(pts, fill="#d4a017", stroke="#8a6a0a", stroke_width=0.8)
