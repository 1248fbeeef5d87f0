"""A compact text picture of a whole TRND state (for the CLI and the replay page)."""

from __future__ import annotations

from games.base import JSON
from games.trnd import cards as C
from games.trnd.state import TrndState

# e.g. "BSl" = black sling: colour initial + style
_SHORT = tuple(c[0].upper() + s[:2].capitalize() for c in C.COLOURS for s in C.STYLES)


def _hand(counts: list[int]) -> str:
    return " ".join(f"{k}x{_SHORT[t]}" for t, k in enumerate(counts) if k) or "-"


def render_text(state_json: dict[str, JSON]) -> str:
    """Every zone of the state, including hidden ones (hands, draw pile), in a few lines."""
    s = TrndState.from_json(state_json)  # validates, with a clear error for bad input
    m = [_SHORT[t] if t >= 0 else "---" for t in s.market]
    if s.is_over():
        status = f"over ({s.reason})"
    elif s.between_rounds():
        status = f"round {s.round} over, the next deal is coming"
    else:
        status = f"seat {s.seat} to play, {s.phase}"
    lines = [
        f"TRND  round {s.round}/{s.max_rounds}  target {s.target}  start seat {s.start_seat}"
        f"  {status}",
        f"  market  {m[0]} {m[1]} {m[2]}   discard top {_SHORT[s.pile[-1]]}"
        f" ({len(s.pile)} in pile)",
        f"          {m[7]} [{len(s.deck):2d}] {m[3]}   draw pile top {_SHORT[s.deck[-1]]}"
        if s.deck
        else f"          {m[7]} [ 0] {m[3]}",
        f"          {m[6]} {m[5]} {m[4]}",
    ]
    for seat in range(s.n):
        mark = ">" if seat == s.current_seat() and not s.between_rounds() else " "
        out = s.out[seat]
        held = f"cleared {out[1]}x{_SHORT[out[0]]}" if out else _hand(s.hands[seat])
        lines.append(
            f"{mark} seat {seat}: {s.totals[seat]:3d} pts (+{s.round_points[seat]} this round)"
            f"  {held}"
        )
    return "\n".join(lines)
