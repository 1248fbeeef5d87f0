"""The panel beside the Manhattan TraffIQ map: the turn, who plays and what they decide, each
seat's points, vehicles and hand, and the legend. Drawn for a viewer seat, the other seats'
hands are face down with their count (the stack is only ever a count)."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from games.manhattan_traffiq.components import POINTS
from games.manhattan_traffiq.svg_parts import (
    ACCENT,
    EDGE,
    EDGE_NAMES,
    INK,
    MAP_Y,
    MIN_HEIGHT,
    MUTED,
    PANEL_X,
    PHASES,
    STREET,
    coord,
    vehicle,
)
from games.svg import SEAT_COLOURS, card_back, you


def panel(s: dict[str, Any], viewer: int | None = None) -> tuple[list[str], int]:
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
    out.append(_small(x, y, _ending(s) if s["phase"] == "over" else _turn_note(s)))
    y += 14
    for seat in range(players):
        rows, y = _seat_rows(s, seat, y + 20, points[seat], on_map[seat], viewer)
        out += rows
    legend_y = max(y + 22, MIN_HEIGHT - 112)
    out += _legend(x, legend_y)
    return out, legend_y + 96


def _turn_note(s: dict[str, Any]) -> str:
    """The actions used this turn, the tile being placed, and the last round's turns left."""
    used = s["used"]
    # short enough for the 300 px column in every combination
    note = f"{used['actions']}/2 actions"
    if s.get("tile"):
        note = f"{used['actions']}/2 \u00b7 placing {s['tile']}"
    if s["final_left"] is not None:
        note += f" \u00b7 last round, {s['final_left']} left"
    return note


def _seat_rows(
    s: dict[str, Any], seat: int, y: int, points: int, on_map: list[int], viewer: int | None
) -> tuple[list[str], int]:
    """One seat's rows (name and points, vehicles on the map and in supply, hand) from ``y``;
    returns them and the y below them."""
    x = PANEL_X
    out: list[str] = []
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    taxis, trucks = on_map
    supply_taxis, supply_trucks = s["supply"][seat]
    if seat == s["current"] and s["phase"] != "over":
        out.append(
            f'<rect x="{x - 6}" y="{y - 16}" width="294" height="76" rx="6" '
            f'fill="{colour}" fill-opacity=".1"/>'
        )
    out.append(
        f'<circle cx="{x + 7}" cy="{y - 4}" r="7" fill="{colour}"/>'
        f'<text x="{x + 20}" y="{y}" font-size="15" font-weight="700" fill="{INK}">'
        f"Seat {seat}{you(seat, viewer)}</text>"
        f'<text x="{x + 282}" y="{y}" font-size="15" font-weight="700" fill="{INK}" '
        f'text-anchor="end">{points} pts</text>'
    )
    y += 18
    out.append(_small(x + 20, y, f"on the map: {_count(taxis, 'taxi')}, {_count(trucks, 'truck')}"))
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
    if hand and viewer is not None and seat != viewer:  # private tiles: their count only
        out.append(card_back(x + 62, y + 1, 16, 16, len(hand)))
        out.append(_small(x + 86, y + 13, _count(len(hand), "tile")))
        hand = []
    for k, pattern in enumerate(hand[:9]):
        out.append(f'<g data-hand="{escape(pattern)}">')
        out.append(_mini_tile(x + 62 + k * 22, y + 1, 16, pattern))
        out.append("</g>")
    out.append("</g>")
    if len(hand) > 9:
        out.append(_small(x + 62 + 9 * 22, y + 13, f"+{len(hand) - 9}"))
    y += 24
    return out, y


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
            f'<polygon points="{coord(a[0])},{coord(a[1])} {coord(b[0])},{coord(b[1])} '
            f'{coord(c[0])},{coord(c[1])}" fill="{EDGE[edges[d]]}"/>'
        )
    return (
        "<g>"
        + "".join(parts)
        + f'<rect x="{coord(x)}" y="{coord(y)}" width="{coord(size)}" height="{coord(size)}" '
        f'fill="none" stroke="{MUTED}" stroke-width="1"/><title>{escape(pattern)}</title></g>'
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
        vehicle(x + 9, by + 9, 34, 0, "taxi", "")
        + _small(x + 26, by + 14, "taxi (1 pt)")
        + vehicle(x + 149, by + 9, 34, 0, "truck", "")
        + _small(x + 166, by + 14, "truck (2 pts)")
        + "</g>"
    )
    return out


def _small(x: float, y: float, text: str) -> str:
    return (
        f'<text x="{coord(x)}" y="{coord(y)}" font-size="13" fill="{MUTED}">{escape(text)}</text>'
    )


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
