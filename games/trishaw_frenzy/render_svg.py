"""An SVG picture of a whole Trishaw Frenzy state (for the replay page).

``render_svg(state_json)`` is pure (no I/O) and returns one standalone ``<svg>`` element that
scales to its container: the 9x9 map with every square's type (arrows point where they send a
trishaw), the tile borders, the route as a faint line from its start to its finish, the
trishaws in seat colours, each rider's side of the table, and a panel with the round, the
phase, whose turn it is, the VP per rider, the decks and the event card being resolved. The
map is drawn here, the panel in ``svg_panel.py``; ``svg_parts.py`` holds colours and layout.

No hidden information is drawn: everything on the table is public and the picture shows the
decks as counts only (their order and the future dice are the only secrets), so
``render_svg(state_json, viewer=k)`` is the same picture for every seat and for no seat.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from games.svg import SEAT_COLOURS
from games.trishaw_frenzy import board
from games.trishaw_frenzy.components import EVENT_TILES, ROUTE_CELLS, ROUTE_INDEX, TILE_IDS
from games.trishaw_frenzy.geometry import ARROWS, N
from games.trishaw_frenzy.moves import view_of
from games.trishaw_frenzy.svg_panel import panel
from games.trishaw_frenzy.svg_parts import (
    ACCENT,
    ARROW_FILL,
    BG,
    BOARD,
    BOARD_X,
    BOARD_Y,
    CELL,
    FILL,
    HEIGHT,
    INK,
    MUTED,
    SIDE_NAMES,
    WIDTH,
    progress,
    rider_colour,
    who,
)

# Shapes reused with <use>: ids carry a prefix so they cannot clash with the page's own.
_DEFS = (
    "<defs>"
    '<path id="tf-arrow" d="M0,-16 L12,-2 L5,-2 L5,15 L-5,15 L-5,-2 L-12,-2 Z"/>'
    '<g id="tf-event"><path d="M0,-14 L4,-5 L14,-4 L6,3 L9,13 L0,8 L-9,13 L-6,3 L-14,-4 '
    'L-4,-5 Z" fill="#d97706" stroke="#92400e" stroke-width="1"/></g>'
    '<g id="tf-portal" fill="none" stroke="#0f766e" stroke-width="2.5">'
    '<circle r="14"/><circle r="8.5"/><circle r="3" fill="#0f766e"/></g>'
    "</defs>"
)


def render_svg(state_json: dict[str, Any], viewer: int | None = None) -> str:
    """The whole state; ``viewer`` changes nothing (nothing drawn is hidden from a seat)."""
    del viewer
    s = state_json
    r, v = s["route"]
    cells, index = ROUTE_CELLS[r][v], ROUTE_INDEX[r][v]
    event = s.get("event")
    highlight = set(EVENT_TILES[event[0]][event[1]]) if event is not None else set()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        'width="100%" role="img" font-family="system-ui, -apple-system, Segoe UI, sans-serif" '
        f'aria-label="Trishaw Frenzy, round {s["round"]} of {s["rounds"]}">',
        _DEFS,
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="12" fill="{BG}"/>',
    ]
    out += _squares(s["tiles"], index)
    out += _route(cells)
    out += _tiles(s["tiles"], highlight)
    out += _coordinates()
    out += _sides(s)
    out += _trishaws(s)
    out += panel(s)
    out.append("</svg>")
    return "".join(out)


# ------------------------------------------------------------------------- the board
def _xy(cell: int) -> tuple[int, int]:
    """The top-left corner of a board cell in picture coordinates."""
    row, col = divmod(cell, N)
    return BOARD_X + col * CELL, BOARD_Y + row * CELL


def _squares(tiles: list[list[int]], index: tuple[int, ...]) -> list[str]:
    out = []
    for cell in range(N * N):
        x, y = _xy(cell)
        face = board.face(tiles, cell)
        d = ARROWS.find(face)
        out.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" '
            f'fill="{ARROW_FILL if d >= 0 else FILL[face]}" stroke="#d6cbb0" stroke-width="1"/>'
        )
        cx, cy = x + CELL // 2, y + CELL // 2
        if d >= 0:
            out.append(
                f'<use href="#tf-arrow" transform="translate({cx},{cy}) rotate({90 * d})" '
                'fill="#57534e"/>'
            )
        elif face == "E":
            out.append(f'<use href="#tf-event" x="{cx}" y="{cy}"/>')
        elif face == "P":
            out.append(f'<use href="#tf-portal" x="{cx}" y="{cy}"/>')
        # the square's progress on the current route, so the race can be read off the map
        out.append(
            f'<text x="{x + 3}" y="{y + 11}" font-size="10" fill="#8a8170">{index[cell]}</text>'
        )
    return out


def _route(cells: tuple[int, ...]) -> list[str]:
    """The route as a faint line through the square centres, with start and finish marks."""
    half = CELL // 2
    points = " ".join(f"{x + half},{y + half}" for x, y in map(_xy, cells))
    chevrons = []
    for i in range(4, len(cells) - 1, 8):
        (ax, ay), (bx, by) = _xy(cells[i]), _xy(cells[i + 1])
        angle = {(1, 0): 90, (-1, 0): 270, (0, 1): 180, (0, -1): 0}[
            ((bx > ax) - (bx < ax), (by > ay) - (by < ay))
        ]
        chevrons.append(
            f'<path d="M-5,3 L0,-3 L5,3" transform="translate({(ax + bx) // 2 + half},'
            f'{(ay + by) // 2 + half}) rotate({angle})" fill="none" stroke="{ACCENT}" '
            'stroke-width="2.5" stroke-linecap="round" stroke-linejoin="round"/>'
        )
    sx, sy = _xy(cells[0])
    fx, fy = _xy(cells[-1])
    return [
        f'<polyline points="{points}" fill="none" stroke="{ACCENT}" stroke-opacity=".35" '
        'stroke-width="3" stroke-linejoin="round"/>',
        *chevrons,
        _flag(sx, sy, "#15803d", "START"),
        _flag(fx, fy, INK, "FINISH"),
    ]


def _flag(x: int, y: int, colour: str, label: str) -> str:
    """A label bar at the square's foot and an outline that stays visible under trishaws."""
    return (
        f'<rect x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" fill="none" '
        f'stroke="{colour}" stroke-width="3"/>'
        f'<rect x="{x + 1}" y="{y + CELL - 13}" width="{CELL - 2}" height="12" fill="{colour}"/>'
        f'<text x="{x + CELL // 2}" y="{y + CELL - 4}" font-size="8.5" font-weight="700" '
        f'fill="#fff" text-anchor="middle" letter-spacing=".5">{label}</text>'
    )


def _tiles(tiles: list[list[int]], highlight: set[int]) -> list[str]:
    """Tile borders (thick), a tooltip naming each tile and its turn, and the highlighted tiles
    of the event card being resolved."""
    out = []
    size = 3 * CELL
    for p, (t, turns) in enumerate(tiles):
        x, y = _xy((p // 3) * 3 * N + (p % 3) * 3)
        out.append(
            f'<rect data-tile="{p}" x="{x}" y="{y}" width="{size}" height="{size}" fill="none" '
            f'stroke="{INK}" stroke-width="3"><title>tile {p}: {TILE_IDS[t]}, turned '
            f"{90 * turns}\u00b0 clockwise</title></rect>"
        )
    for p in sorted(highlight):
        x, y = _xy((p // 3) * 3 * N + (p % 3) * 3)
        out.append(
            f'<rect x="{x + 3}" y="{y + 3}" width="{size - 6}" height="{size - 6}" '
            f'fill="{ACCENT}" fill-opacity=".12" stroke="{ACCENT}" stroke-width="4" '
            # a frame only: a click goes through to the tile below (the play page's target)
            'stroke-dasharray="10 6" pointer-events="none"/>'
        )
    return out


def _coordinates() -> list[str]:
    out = []
    for k in range(N):
        c = BOARD_X + k * CELL + CELL // 2
        out.append(
            f'<text x="{c}" y="{BOARD_Y - 6}" font-size="11" fill="{MUTED}" '
            f'text-anchor="middle">{k}</text>'
            f'<text x="{BOARD_X - 6}" y="{BOARD_Y + k * CELL + CELL // 2 + 4}" font-size="11" '
            f'fill="{MUTED}" text-anchor="end">{k}</text>'
        )
    return out


def _sides(s: dict[str, Any]) -> list[str]:
    """Each rider's name on the side of the table they sit on (cards are read from there)."""
    by_side: dict[int, list[int]] = {}
    for t in range(len(s["pos"])):
        if not (s["solo"] and t == 1):
            by_side.setdefault(view_of(s, t), []).append(t)
    mid = BOARD // 2
    out = []
    for side, riders in sorted(by_side.items()):
        label = escape(" / ".join(who(s, t) for t in riders) + f" sits {SIDE_NAMES[side]}")
        colour = SEAT_COLOURS[riders[0]]
        if side == 0:
            x, y, rot = BOARD_X + mid, BOARD_Y + BOARD + 26, 0
        elif side == 1:
            x, y, rot = BOARD_X - 28, BOARD_Y + mid, -90
        elif side == 2:
            x, y, rot = BOARD_X + mid, BOARD_Y - 24, 0
        else:
            x, y, rot = BOARD_X + BOARD + 18, BOARD_Y + mid, 90
        out.append(
            f'<text transform="translate({x},{y}) rotate({rot})" font-size="12" '
            f'font-weight="600" fill="{colour}" text-anchor="middle">{label}</text>'
        )
    return out


def _trishaws(s: dict[str, Any]) -> list[str]:
    """A disc per trishaw; trishaws sharing a square sit side by side (2x2 from three)."""
    on: dict[int, list[int]] = {}
    for t, cell in enumerate(s["pos"]):
        on.setdefault(cell, []).append(t)
    moving = s["turn"] if s["phase"] != "over" else None
    out = []
    for cell, group in sorted(on.items()):
        x, y = _xy(cell)
        cx, cy = x + CELL // 2, y + CELL // 2
        n = len(group)
        radius: float
        if n == 1:
            spots, radius = [(0, 0)], 15
        elif n == 2:
            spots, radius = [(-12, 0), (12, 0)], 11.5
        else:
            spots, radius = [(-12, -12), (12, -12), (-12, 12), (12, 12)], 10.5
        for t, (dx, dy) in zip(group, spots, strict=False):
            colour = rider_colour(s, t)
            label = "AI" if s["solo"] and t == 1 else str(t)
            ring = (
                f'<circle cx="{cx + dx}" cy="{cy + dy}" r="{radius + 4}" fill="none" '
                f'stroke="{INK}" stroke-width="2.5" stroke-dasharray="4 2.5"/>'
                if t == moving
                else ""
            )
            out.append(
                f'{ring}<circle cx="{cx + dx}" cy="{cy + dy}" r="{radius}" fill="{colour}" '
                'stroke="#fff" stroke-width="2.5">'
                f"<title>{escape(who(s, t))}: progress {progress(s, t)}</title></circle>"
                f'<text x="{cx + dx}" y="{cy + dy + radius * 0.36:.1f}" '
                f'font-size="{radius * 1.05:.1f}" font-weight="700" fill="#fff" '
                f'text-anchor="middle">{label}</text>'
            )
    return out


def action_targets(state_json: dict[str, Any], actions: list[Any]) -> list[str | None]:
    """For a person at the table: the tile each legal rotation turns, as a CSS selector over
    the ``data-tile`` borders drawn here (None: not about one tile), so that the play page can
    take a click on the board (which way to turn it: the buttons)."""
    out: list[str | None] = []
    for a in actions:
        rotate = isinstance(a, dict) and a.get("type") == "rotate"
        out.append(f'[data-tile="{a["tile"]}"]' if rotate else None)
    return out
