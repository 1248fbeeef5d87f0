"""An SVG picture of a whole Manhattan TraffIQ state (for the replay page).

``render_svg(state_json)`` is pure (no I/O) and returns one standalone ``<svg>`` element that
scales to its container. The canvas has a fixed size, so a replay does not jump as the city
grows: the map is scaled into a square box. Each tile is a city block whose four edges show
their colour (beige, red, park, water); complete streets run along the shared borders as dark
lines; crossings are white dots; taxis (discs) and trucks (squares) stand on them in seat
colours. A panel beside the map holds the turn, who plays and what they decide, points,
vehicles on the map and in supply, hands (a replay may show everything) and the stack.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from games.manhattan_traffiq.board import Board, street_h, street_v
from games.manhattan_traffiq.components import POINTS
from games.svg import SEAT_COLOURS

#: seat colours shared by every game's picture (seats 0..4)
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


def render_svg(state_json: dict[str, Any]) -> str:
    s = state_json
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
        return _n(ox + i * size), _n(oy + j * size)

    panel, panel_end = _panel(s)
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
            f'<rect x="{px}" y="{py}" width="{_n(size)}" height="{_n(size)}" fill="none" '
            f'stroke="{ACCENT}" stroke-width="{_n(max(2, size * 0.06))}">'
            f"<title>last tile placed: {escape(pattern)} at ({x}, {y})</title></rect>"
        )
    if s["phase"] == "place_where":
        out += _free_cells(tiles, at, size)
    out += _streets(tiles, at, size)
    out += _nodes(s, board.spots, at, size)
    out += panel
    out.append("</svg>")
    return "".join(out)


def _n(v: float) -> str:
    """A coordinate with at most one decimal (keeps the SVG small)."""
    return f"{v:.1f}".rstrip("0").rstrip(".")


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
            f'<rect data-cell="{x},{y}" x="{px}" y="{py}" width="{_n(size)}" '
            f'height="{_n(size)}" fill="#fff" fill-opacity=".35" stroke="{MUTED}" '
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
        f'<rect x="{corner[0]}" y="{corner[1]}" width="{_n(size)}" height="{_n(size)}" '
        f'fill="{BLOCK}"/>'
    ]
    for d in range(4):
        p = (outer[d], outer[(d + 1) % 4], inner[(d + 1) % 4], inner[d])
        points = " ".join(f"{_n(px)},{_n(py)}" for px, py in p)
        parts.append(f'<polygon points="{points}" fill="{EDGE[edges[d]]}"/>')
    return "".join(parts)


def _streets(tiles: dict[tuple[int, int], str], at: Any, size: float) -> list[str]:
    """Complete streets (both tiles placed, shared border beige or red) as dark lines."""
    width = _n(max(1.5, size * 0.09))
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
                f'<circle cx="{cx}" cy="{cy}" r="{_n(size * 0.36)}" fill="none" '
                f'stroke="{ACCENT}" stroke-width="{_n(max(2, size * 0.06))}" '
                'stroke-dasharray="5 3"/>'
            )
        if node not in vehicles:
            out.append(
                f'<circle data-node="{node[0]},{node[1]}" cx="{cx}" cy="{cy}" r="{_n(dot)}" '
                f'fill="#fff" stroke="{STREET}" stroke-width="{_n(max(1, size * 0.035))}"/>'
            )
    for (i, j), (seat, kind) in sorted(vehicles.items()):
        cx, cy = at(i, j)
        out.append(f'<g data-node="{i},{j}">')
        out.append(_vehicle(float(cx), float(cy), size, seat, kind, f"({i}, {j})"))
        out.append("</g>")
    return out


def _vehicle(cx: float, cy: float, size: float, seat: int, kind: str, where: str) -> str:
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    stroke = _n(max(1.2, size * 0.045))
    title = f"<title>seat {seat} {escape(kind)} at {where}</title>" if where else ""
    if kind == "truck":
        half = size * 0.27
        shape = (
            f'<rect x="{_n(cx - half)}" y="{_n(cy - half)}" width="{_n(2 * half)}" '
            f'height="{_n(2 * half)}" rx="{_n(half * 0.3)}" fill="{colour}" stroke="#fff" '
            f'stroke-width="{stroke}">{title}</rect>'
        )
        font = half * 1.2
    else:
        radius = size * 0.22
        shape = (
            f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(radius)}" fill="{colour}" '
            f'stroke="#fff" stroke-width="{stroke}">{title}</circle>'
        )
        font = radius * 1.2
    return shape + (
        f'<text x="{_n(cx)}" y="{_n(cy + font * 0.36)}" font-size="{_n(font)}" '
        f'font-weight="700" fill="#fff" text-anchor="middle">{seat}</text>'
    )


# ----------------------------------------------------------------------------- the panel
def _panel(s: dict[str, Any]) -> tuple[list[str], int]:
    """The panel's elements and the y where it ends."""
    x = PANEL_X
    players = int(s["players"])
    points = [0] * players
    on_map = [[0, 0] for _ in range(players)]
    for _i, _j, seat, kind in s["vehicles"]:
        points[seat] += POINTS[kind]
        on_map[seat][kind == "truck"] += 1
    out = [
        f'<text x="{x}" y="{MAP_Y + 22}" font-size="20" font-weight="700" fill="{INK}">'
        "Manhattan TraffIQ</text>",
        f'<text x="{x}" y="{MAP_Y + 46}" font-size="14" fill="{INK}">Turn '
        f'<tspan font-weight="700">{s["turn"]}</tspan> \u00b7 {len(s["stack"])} tiles in the '
        "stack</text>",
        f'<text x="{x}" y="{MAP_Y + 68}" font-size="14" font-weight="700" fill="{ACCENT}">'
        f"{escape(_status(s, points, on_map))}</text>",
    ]
    y = MAP_Y + 88
    if s["phase"] == "over":
        out.append(_small(x, y, _ending(s)))
    else:
        used = s["used"]
        # short enough for the 300 px column in every combination
        note = f"{used['actions']}/2 actions"
        if s.get("tile"):
            note = f"{used['actions']}/2 \u00b7 placing {s['tile']}"
        if s["final_left"] is not None:
            note += f" \u00b7 last round, {s['final_left']} left"
        out.append(_small(x, y, note))
    y += 14
    for seat in range(players):
        y += 20
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        taxis, trucks = on_map[seat]
        supply_taxis, supply_trucks = s["supply"][seat]
        if seat == s["current"] and s["phase"] != "over":
            out.append(
                f'<rect x="{x - 6}" y="{y - 16}" width="294" height="76" rx="6" '
                f'fill="{colour}" fill-opacity=".1"/>'
            )
        out.append(
            f'<circle cx="{x + 7}" cy="{y - 4}" r="7" fill="{colour}"/>'
            f'<text x="{x + 20}" y="{y}" font-size="15" font-weight="700" fill="{INK}">'
            f"Seat {seat}</text>"
            f'<text x="{x + 282}" y="{y}" font-size="15" font-weight="700" fill="{INK}" '
            f'text-anchor="end">{points[seat]} pts</text>'
        )
        y += 18
        out.append(
            _small(x + 20, y, f"on the map: {_count(taxis, 'taxi')}, {_count(trucks, 'truck')}")
        )
        y += 16
        out.append(
            _small(
                x + 20,
                y,
                f"supply: {_count(supply_taxis, 'taxi')}, {_count(supply_trucks, 'truck')}",
            )
        )
        y += 6
        hand = s["hands"][seat]
        out.append(_small(x + 20, y + 13, "hand:" if hand else "hand: empty"))
        out.append(f'<g data-seat="{seat}">')
        for k, pattern in enumerate(hand[:9]):
            out.append(f'<g data-hand="{escape(pattern)}">')
            out.append(_mini_tile(x + 62 + k * 22, y + 1, 16, pattern))
            out.append("</g>")
        out.append("</g>")
        if len(hand) > 9:
            out.append(_small(x + 62 + 9 * 22, y + 13, f"+{len(hand) - 9}"))
        y += 24
    legend_y = max(y + 22, MIN_HEIGHT - 112)
    out += _legend(x, legend_y)
    return out, legend_y + 96


def _status(s: dict[str, Any], points: list[int], on_map: list[list[int]]) -> str:
    """One short line (the panel is 300 px wide); why the game ended goes below it."""
    if s["phase"] != "over":
        return f"Seat {s['current']} {PHASES.get(s['phase'], s['phase'])}"
    if s.get("winner") is not None:
        return f"Game over: Seat {s['winner']} wins"
    by_count = (s.get("options") or {}).get("scoring", "vehicles") == "vehicles"
    keys = [(sum(c), p) if by_count else (p, sum(c)) for p, c in zip(points, on_map, strict=True)]
    best = [seat for seat, k in enumerate(keys) if k == max(keys)]
    who = (
        f"Seat {best[0]} wins" if len(best) == 1 else "seats " + ", ".join(map(str, best)) + " tie"
    )
    return f"Game over: {who}"


def _ending(s: dict[str, Any]) -> str:
    if s.get("winner") is not None:
        return "placed every vehicle: an immediate win"
    if (s.get("options") or {}).get("scoring", "vehicles") == "vehicles":
        return "most vehicles on the map, then points"
    return "most points (truck 2, taxi 1)"


def _mini_tile(x: float, y: float, size: float, pattern: str) -> str:
    """A hand tile at rotation 0: four edge triangles in the edge colours."""
    edges = pattern  # as printed (rotation 0)
    c = (x + size / 2, y + size / 2)
    corners = [(x, y), (x + size, y), (x + size, y + size), (x, y + size)]
    parts = []
    for d in range(4):
        a, b = corners[d], corners[(d + 1) % 4]
        parts.append(
            f'<polygon points="{_n(a[0])},{_n(a[1])} {_n(b[0])},{_n(b[1])} '
            f'{_n(c[0])},{_n(c[1])}" fill="{EDGE[edges[d]]}"/>'
        )
    return (
        "<g>"
        + "".join(parts)
        + f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" fill="none" '
        f'stroke="{MUTED}" stroke-width="1"/><title>{escape(pattern)}</title></g>'
    )


def _legend(x: int, y: int) -> list[str]:
    out = [
        '<g class="legend">'
        f'<text x="{x}" y="{y}" font-size="12" font-weight="700" fill="{MUTED}" '
        'letter-spacing=".6">LEGEND</text>'
    ]
    for k, colour in enumerate("BRGU"):
        bx, by = x + (k % 2) * 140, y + 10 + (k // 2) * 24
        out.append(
            f'<rect x="{bx}" y="{by}" width="18" height="18" rx="3" fill="{EDGE[colour]}"/>'
            + _small(bx + 26, by + 14, EDGE_NAMES[colour])
        )
    by = y + 10 + 2 * 24
    out.append(
        f'<line x1="{x}" y1="{by + 9}" x2="{x + 18}" y2="{by + 9}" stroke="{STREET}" '
        'stroke-width="4" stroke-linecap="round"/>'
        + _small(x + 26, by + 14, "street")
        + f'<circle cx="{x + 149}" cy="{by + 9}" r="5" fill="#fff" stroke="{STREET}"/>'
        + _small(x + 166, by + 14, "crossing")
    )
    by += 24
    out.append(
        _vehicle(x + 9, by + 9, 34, 0, "taxi", "")
        + _small(x + 26, by + 14, "taxi (1 pt)")
        + _vehicle(x + 149, by + 9, 34, 0, "truck", "")
        + _small(x + 166, by + 14, "truck (2 pts)")
        + "</g>"
    )
    return out


def _small(x: float, y: float, text: str) -> str:
    return f'<text x="{_n(x)}" y="{_n(y)}" font-size="13" fill="{MUTED}">{escape(text)}</text>'


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


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
