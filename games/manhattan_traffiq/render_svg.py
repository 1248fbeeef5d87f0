"""An SVG picture of a whole Manhattan TraffIQ state (for the replay page).

``render_svg(state_json)`` is pure (no I/O) and returns one standalone ``<svg>`` element that
scales to its container. The canvas has a fixed size, so a replay does not jump as the city
grows: the map is scaled into a square box. Each tile is a city block whose four edges show
their colour (beige, red, park, water); complete streets run along the shared borders as dark
lines; crossings are white dots; taxis (discs) and trucks (squares) stand on them in seat
colours. A panel beside the map holds the turn, who plays and what they decide, points,
vehicles on the map and in supply, hands (a replay may show everything) and the stack. The map
is drawn here, the panel in ``svg_panel.py``; ``svg_parts.py`` holds colours, layout and the
vehicles. ``render_svg(state_json, viewer=k)`` draws it as seat ``k`` knows it: the other seats'
hands face down with their count; the picture does not depend on what seat ``k`` cannot know.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from games.base import GameError
from games.manhattan_traffiq.board import Board, street_h, street_v
from games.manhattan_traffiq.svg_panel import panel as draw_panel
from games.manhattan_traffiq.svg_parts import (
    ACCENT,
    BG,
    BLOCK,
    EDGE,
    MAP,
    MAP_X,
    MAP_Y,
    MAX_TILE,
    MIN_HEIGHT,
    MUTED,
    PANEL_X,
    STREET,
    WIDTH,
    coord,
    vehicle,
)

__all__ = ["BLOCK", "PANEL_X", "WIDTH", "action_targets", "render_svg"]


def render_svg(state_json: dict[str, Any], viewer: int | None = None) -> str:
    """The whole state as a standalone ``<svg>``; for ``viewer``, as that seat knows it."""
    s = state_json
    if viewer is not None and not 0 <= viewer < int(s["players"]):
        raise GameError(f"manhattan-traffiq: no seat {viewer} in a {s['players']}-player game")
    placed = [(int(x), int(y), str(p), int(r)) for x, y, p, r in s["tiles"]]
    board = Board.from_placed(placed)
    tiles = board.tiles
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    x0, y0 = min(xs), min(ys)
    cols, rows = max(xs) - x0 + 1, max(ys) - y0 + 1
    # a ring of one tile around the city (where the next tile may go) and half a tile of
    # margin beyond it, on each side, then centred in the square box
    size = min(MAX_TILE, MAP / (max(cols, rows) + 3))
    ox = MAP_X + (MAP - cols * size) / 2 - x0 * size
    oy = MAP_Y + (MAP - rows * size) / 2 - y0 * size

    def at(i: float, j: float) -> tuple[str, str]:
        return coord(ox + i * size), coord(oy + j * size)

    panel, panel_end = draw_panel(s, viewer)
    height = max(MIN_HEIGHT, panel_end + 16)  # grows with the seats only, not during a match
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        'width="100%" role="img" font-family="system-ui, -apple-system, Segoe UI, sans-serif" '
        f'aria-label="Manhattan TraffIQ, turn {s["turn"]}">',
        f'<rect width="{WIDTH}" height="{height}" rx="12" fill="{BG}"/>',
        f'<rect x="{MAP_X}" y="{MAP_Y}" width="{MAP}" height="{MAP}" rx="10" fill="#e4ded0"/>',
    ]
    band = size * 0.17
    for x, y, _pattern, _rot in placed:
        out.append(_block(at(x, y), size, band, tiles[(x, y)]))
    if len(placed) > 4:  # outline the newest tile (the first four are the start square)
        x, y, pattern, _rot = placed[-1]
        px, py = at(x, y)
        out.append(
            f'<rect x="{px}" y="{py}" width="{coord(size)}" height="{coord(size)}" fill="none" '
            f'stroke="{ACCENT}" stroke-width="{coord(max(2, size * 0.06))}">'
            f"<title>last tile placed: {escape(pattern)} at ({x}, {y})</title></rect>"
        )
    if s["phase"] == "place_where":
        out += _free_cells(tiles, at, size)
    out += _streets(tiles, at, size)
    out += _nodes(s, board.spots, at, size)
    out += panel
    out.append("</svg>")
    return "".join(out)


# ----------------------------------------------------------------------------- the map
def _free_cells(tiles: dict[tuple[int, int], str], at: Any, size: float) -> list[str]:
    """While a tile is being placed: the empty cells next to the city, dashed (which of them
    and which turns are legal: the decision's actions; ``data-cell`` for the play page)."""
    free = {
        (x + dx, y + dy)
        for x, y in tiles
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
        if (x + dx, y + dy) not in tiles
    }
    out = []
    for x, y in sorted(free):
        px, py = at(x, y)
        out.append(
            f'<rect data-cell="{x},{y}" x="{px}" y="{py}" width="{coord(size)}" '
            f'height="{coord(size)}" fill="#fff" fill-opacity=".35" stroke="{MUTED}" '
            'stroke-width="1.2" stroke-dasharray="4 3"/>'
        )
    return out


def _block(corner: tuple[str, str], size: float, band: float, edges: str) -> str:
    """A tile: the block, then its N, E, S, W edge bands as trapezoids (they meet at the
    corners like picture-frame mitres) in the edge colours."""
    x, y = float(corner[0]), float(corner[1])
    a, b = x + size, y + size
    inner = [(x + band, y + band), (a - band, y + band), (a - band, b - band), (x + band, b - band)]
    outer = [(x, y), (a, y), (a, b), (x, b)]
    parts = [
        f'<rect x="{corner[0]}" y="{corner[1]}" width="{coord(size)}" height="{coord(size)}" '
        f'fill="{BLOCK}"/>'
    ]
    for d in range(4):
        p = (outer[d], outer[(d + 1) % 4], inner[(d + 1) % 4], inner[d])
        points = " ".join(f"{coord(px)},{coord(py)}" for px, py in p)
        parts.append(f'<polygon points="{points}" fill="{EDGE[edges[d]]}"/>')
    return "".join(parts)


def _streets(tiles: dict[tuple[int, int], str], at: Any, size: float) -> list[str]:
    """Complete streets (both tiles placed, shared border beige or red) as dark lines."""
    width = coord(max(1.5, size * 0.09))
    out = []
    for x, y in sorted(tiles):
        # the north border of (x, y) is the segment from node (x, y) to (x + 1, y); the west
        # border is the segment from node (x, y) to (x, y + 1)
        for horizontal, (i2, j2) in ((True, (x + 1, y)), (False, (x, y + 1))):
            if not (street_h(tiles, x, y) if horizontal else street_v(tiles, x, y)):
                continue
            (ax, ay), (bx, by) = at(x, y), at(i2, j2)
            out.append(
                f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="{STREET}" '
                f'stroke-width="{width}" stroke-linecap="round"/>'
            )
    return out


def _nodes(s: dict[str, Any], spots: set[tuple[int, int]], at: Any, size: float) -> list[str]:
    """Crossings as white dots, vehicles on them, and rings on the node being decided."""
    vehicles = {(int(i), int(j)): (int(seat), str(k)) for i, j, seat, k in s["vehicles"]}
    focus: set[tuple[int, int]] = set()
    for key in ("taxi_from", "compete_node"):
        if s.get(key):
            focus.add((s[key][0], s[key][1]))
    if s.get("queue"):
        focus.add((s["queue"][0][0], s["queue"][0][1]))
    dot = max(2.0, size * 0.1)
    out = []
    for node in sorted(spots):
        cx, cy = at(*node)
        if node in focus and s["phase"] != "over":
            out.append(
                f'<circle cx="{cx}" cy="{cy}" r="{coord(size * 0.36)}" fill="none" '
                f'stroke="{ACCENT}" stroke-width="{coord(max(2, size * 0.06))}" '
                'stroke-dasharray="5 3"/>'
            )
        if node not in vehicles:
            out.append(
                f'<circle data-node="{node[0]},{node[1]}" cx="{cx}" cy="{cy}" r="{coord(dot)}" '
                f'fill="#fff" stroke="{STREET}" stroke-width="{coord(max(1, size * 0.035))}"/>'
            )
    for (i, j), (seat, kind) in sorted(vehicles.items()):
        cx, cy = at(i, j)
        out.append(f'<g data-node="{i},{j}">')
        out.append(vehicle(float(cx), float(cy), size, seat, kind, f"({i}, {j})"))
        out.append("</g>")
    return out


def action_targets(state_json: dict[str, Any], actions: list[Any]) -> list[str | None]:
    """For a person at the table: the part of this picture each legal action is about, as a
    CSS selector over the ``data-`` attributes drawn here (None: none), so that the play page
    can take a click on the board: a tile of the acting seat's hand picks it, a free cell
    next to the city places it there (which turn: the buttons), a crossing takes the taxi or
    truck standing there, or puts a vehicle on it, or is where a taxi rides to."""
    seat = state_json["current"]
    out: list[str | None] = []
    for a in actions:
        kind = a.get("type") if isinstance(a, dict) else None
        node = None
        if kind in ("taxi", "truck"):
            node = a["from"]
        elif kind == "taxi_to":
            node = a["to"]
        elif kind == "vehicle":
            node = a["node"]
        if node is not None:
            out.append(f'[data-node="{node[0]},{node[1]}"]')
        elif kind == "place":
            out.append(f'[data-seat="{seat}"] [data-hand="{a["tile"]}"]')
        elif kind == "place_at":
            out.append(f'[data-cell="{a["x"]},{a["y"]}"]')
        else:
            out.append(None)
    return out
