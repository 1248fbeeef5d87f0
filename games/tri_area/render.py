"""A compact text picture of a whole Tri*Area state (for the CLI and the replay page)."""

from __future__ import annotations

from games.base import JSON, GameError
from games.tri_area.board import AREA_OF, BONUS

_SEAT_MARK = "abcd"


def _cell(stack: list[int], square: int) -> str:
    """``I+3`` for an empty square (area and printed points), else its stack bottom-up."""
    if not stack:
        return f"{AREA_OF[square]}+{BONUS[square]}".ljust(6)
    return "".join(_SEAT_MARK[s] for s in stack)[:6].ljust(6)


def render_text(state_json: dict[str, JSON], viewer: int | None = None) -> str:
    """Board (4x4, stacks as seat letters a-d bottom-up), scores, supplies, hands, trick; for
    ``viewer``, as that seat knows it: the other hands and unrevealed lead declarations as
    counts only."""
    s = state_json
    board = s["board"]
    players = s["players"]
    if viewer is not None and not 0 <= viewer < players:
        raise GameError(f"tri-area: no seat {viewer} in a {players}-player game")
    lines = [
        f"Tri*Area  round {s['round']}  trick {s['trick']}  phase {s['phase']}  "
        f"start {_SEAT_MARK[s['start']]}  leader {_SEAT_MARK[s['leader']]}"
    ]
    for r in range(4):
        lines.append("  " + " ".join(_cell(board[r * 4 + c], r * 4 + c) for c in range(4)))
    for seat in range(4):
        kind = "npc" if seat >= players else "player"
        extra = f" sold {s['sold'][seat]}" if s["sold"][seat] else ""
        hidden = viewer is not None and seat != viewer
        decl = s["lead_decl"][seat]
        if decl:
            extra += " lead (hidden)" if hidden and not s["revealed"] else f" lead {decl}"
        played = s["table"][seat]
        extra += f" played {played}" if played else ""
        hand = s["hands"][seat]
        held = f"{len(hand)} hidden" if hidden and hand else " ".join(hand) or "-"
        kind += ", you" if seat == viewer else ""
        lines.append(
            f"  {_SEAT_MARK[seat]} ({kind}) score {s['scores'][seat]:3d} blocks "
            f"{s['supply'][seat]} hand {held}{extra}"
        )
    if s["adopted"]:
        rh1, rh2 = s["rh"]
        second = _SEAT_MARK[rh2] if rh2 is not None else "-"
        lines.append(f"  adopted {s['adopted']}: rightholders {_SEAT_MARK[rh1]}, {second}")
    if s["phase"] != "over" and s["turn"] is not None:
        lines.append(f"  to act: {_SEAT_MARK[s['turn']]}")
    return "\n".join(lines)
