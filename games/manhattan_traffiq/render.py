"""A compact text picture of a whole Manhattan TraffIQ state (CLI and replay page).

Nodes sit every 4 columns and 2 rows. Borders: ``---``/``|`` beige, ``===``/``I`` red,
``ggg``/``g`` park, ``~~~``/``~`` water. Nodes: ``o`` empty crossing, ``+`` other corner,
``a``-``d`` a taxi of seat 0-3, ``A``-``D`` a truck of seat 0-3.
"""

from __future__ import annotations

from games.base import JSON, GameError
from games.manhattan_traffiq.board import Board
from games.manhattan_traffiq.components import rotate

_H = {"B": "---", "R": "===", "G": "ggg", "U": "~~~"}
_V = {"B": "|", "R": "I", "G": "g", "U": "~"}


def render_text(state_json: dict[str, JSON], viewer: int | None = None) -> str:
    """Draw the map, then one line per seat and the turn's facts; for ``viewer``, as that seat
    knows it: the other seats' hands as counts only."""
    if viewer is not None and not 0 <= viewer < int(state_json["players"]):
        raise GameError(f"manhattan-traffiq: no seat {viewer} in this game")
    tiles = {(x, y): rotate(p, r) for x, y, p, r in state_json["tiles"]}
    xs = [x for x, _ in tiles]
    ys = [y for _, y in tiles]
    x0, y0 = min(xs), min(ys)
    width, height = 4 * (max(xs) - x0 + 1) + 1, 2 * (max(ys) - y0 + 1) + 1
    canvas = [[" "] * width for _ in range(height)]
    for (x, y), edges in tiles.items():
        cx, cy = 4 * (x - x0), 2 * (y - y0)
        for k, ch in enumerate(_H[edges[0]]):
            canvas[cy][cx + 1 + k] = ch
        for k, ch in enumerate(_H[edges[2]]):
            canvas[cy + 2][cx + 1 + k] = ch
        canvas[cy + 1][cx] = _V[edges[3]]
        canvas[cy + 1][cx + 4] = _V[edges[1]]
        for nx, ny in ((cx, cy), (cx + 4, cy), (cx, cy + 2), (cx + 4, cy + 2)):
            canvas[ny][nx] = "+"
    board = Board.from_placed([tuple(t) for t in state_json["tiles"]])
    for i, j in board.spots:
        canvas[2 * (j - y0)][4 * (i - x0)] = "o"
    for i, j, seat, kind in state_json["vehicles"]:
        letter = "abcd"[seat]
        canvas[2 * (j - y0)][4 * (i - x0)] = letter.upper() if kind == "truck" else letter
    lines = [f"origin x={x0} y={y0}"] + ["".join(row).rstrip() for row in canvas]
    points = {"taxi": 1, "truck": 2}
    for seat, (hand, (taxis, trucks)) in enumerate(
        zip(state_json["hands"], state_json["supply"], strict=True)
    ):
        score = sum(points[k] for _, _, s, k in state_json["vehicles"] if s == seat)
        held = " ".join(hand) or "-"
        if hand and viewer is not None and seat != viewer:
            held = f"{len(hand)} hidden"
        lines.append(
            f"seat {seat}{' (you)' if seat == viewer else ''} ({'abcd'[seat]}/{'ABCD'[seat]}): "
            f"{score} pts, supply {taxis} taxi {trucks} truck, hand {held}"
        )
    over = state_json["phase"] == "over"
    lines.append(
        f"turn {state_json['turn']}, "
        + (
            f"over ({state_json['end_reason']})"
            if over
            else f"seat {state_json['current']} to play, phase {state_json['phase']}"
        )
        + f", stack {len(state_json['stack'])}"
        + (
            ""
            if state_json["final_left"] is None
            else f", final round: {state_json['final_left']} turn(s) left"
        )
    )
    return "\n".join(lines)
