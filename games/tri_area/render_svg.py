"""A picture of a whole Tri*Area state as one standalone SVG (for the replay page).

``render_svg(state_json)`` draws everything a replay may show after the match: the 4x4 board
with its four tinted T-shaped areas, printed points and building stacks (blocks in seat
colours, NPC seats too), every seat's score, blocks and hand, the current trick, round and
phase. ``render_svg(state_json, viewer=k)`` draws it as seat ``k`` knows it: the other seats'
hands (NPC seats' too) and their lead declarations before the reveal face down with their
count; the picture does not depend on what seat ``k`` cannot know. Pure: no I/O, standard
library only; ids are never used so that several pictures can share one HTML page. The parts:
``svg_board.py`` (the board and the legends), ``svg_panels.py`` (seats and the trick),
``svg_parts.py`` (colours, layout, small shapes).
"""

from __future__ import annotations

from games.base import JSON, GameError
from games.svg import ACCENT, BG, INK, MUTED, SEAT_COLOURS
from games.svg import rect as _rect
from games.svg import text as _text
from games.tri_area.rounds import BLOCKS, SEATS, TRICKS
from games.tri_area.state import TriAreaState
from games.tri_area.svg_board import areas_legend, board, legend
from games.tri_area.svg_panels import seat_panel, trick_panel
from games.tri_area.svg_parts import BOARD_X, BOARD_Y, CELL, PANEL_H, seat_name

__all__ = ["SEAT_COLOURS", "action_targets", "render_svg"]

PHASES = {
    "meeting": "meeting: each seat plays a card",
    "five": "a played 5 chooses its value",
    "build": "construction",
    "extra": "additional construction",
    "lead_declaration": "lead area declaration",
    "sell": "selling blocks",
    "over": "game over",
    "round_end": "round scored, before the next deal",
}

WIDTH = 960


def render_svg(state_json: dict[str, JSON], viewer: int | None = None) -> str:
    """The whole state as a standalone ``<svg>`` (width 100%, scales by its viewBox); for
    ``viewer``, as that seat knows it (see the module docstring)."""
    s = TriAreaState.from_json(state_json)  # validates, with a clear error for bad input
    if viewer is not None and not 0 <= viewer < s.players:
        raise GameError(f"tri-area: no seat {viewer} in a {s.players}-player game")
    height = 636
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'font-family="system-ui, -apple-system, \'Segoe UI\', Roboto, sans-serif" role="img" '
        f'aria-label="Tri*Area board, round {s.round}">',
        _rect(0, 0, WIDTH, height, fill=BG, rx=12),
        _text(20, 36, "Tri*Area", size=22, fill=ACCENT, font_weight="800"),
    ]
    status = f"Round {s.round} of 3"
    if s.phase not in ("lead_declaration", "sell", "over"):
        status += f" · trick {s.trick} of {TRICKS}"
    status += f" · {PHASES.get(s.phase, s.phase)}"
    if s.phase in ("build", "extra"):
        status += f" (Rightholder {s.builder + 1})"
    out.append(_text(132, 35, status, size=15, fill=INK))
    if s.phase == "over":
        # The result ranks the real players only (NPC seats fill the table).
        best = max(s.scores[: s.players])
        winners = [q for q in range(s.players) if s.scores[q] == best]
        right = "winner: " + ", ".join(seat_name(q, s.players) for q in winners)
    elif s.turn is not None:
        right = f"to act: {seat_name(s.turn, s.players)}"
    else:
        right = ""
    out.append(
        _text(WIDTH - 20, 35, right, size=15, fill=ACCENT, font_weight="700", text_anchor="end")
    )
    out.extend(board(s))
    for seat in range(SEATS):
        out.append(f'<g data-seat="{seat}">')
        out.extend(seat_panel(s, seat, BOARD_Y + seat * (PANEL_H + 4), viewer))
        out.append("</g>")
    out.extend(areas_legend(s, BOARD_Y + 4 * CELL + 16))
    out.extend(trick_panel(s, BOARD_Y + 4 * CELL + 12))
    blocks_note = f"{BLOCKS[s.round]} blocks per seat this round"
    out.append(_text(BOARD_X, BOARD_Y + 4 * CELL + 112, blocks_note, size=12.5, fill=MUTED))
    out.extend(legend(height - 16))
    out.append("</svg>")
    return "".join(out)


def action_targets(state_json: dict[str, JSON], actions: list[JSON]) -> list[str | None]:
    """For a person at the table: the board square each legal action builds on, as a CSS
    selector over the ``data-square`` groups drawn here (None: not about a square), so that
    the play page can take a click on the board."""
    out: list[str | None] = []
    for a in actions:
        square = a.get("square") if isinstance(a, dict) else None
        out.append(None if not isinstance(square, int) else f'[data-square="{square}"]')
    return out
