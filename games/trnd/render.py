"""A compact text picture of a whole TRND state (for the CLI and the replay page)."""

from __future__ import annotations

from games.base import JSON, GameError
from games.trnd import cards as C
from games.trnd.state import TrndState

# e.g. "BSl" = black sling: colour initial + style
_SHORT = tuple(c[0].upper() + s[:2].capitalize() for c in C.COLOURS for s in C.STYLES)


def _hand(counts: list[int]) -> str:
    return " ".join(f"{k}x{_SHORT[t]}" for t, k in enumerate(counts) if k) or "-"


def _held(s: TrndState, seat: int, viewer: int | None) -> str:
    """A hand as ``viewer`` knows it: its own, or another's publicly taken cards plus a count
    of the unknown rest (None: the whole hand, as a replay shows it)."""
    out = s.out[seat]
    if out:
        return f"cleared {out[1]}x{_SHORT[out[0]]}"
    if viewer is None or seat == viewer:
        return _hand(s.hands[seat])
    hidden = sum(s.hands[seat]) - sum(s.known[seat])
    known = _hand(s.known[seat]) if any(s.known[seat]) else ""
    return " + ".join(p for p in (known, f"{hidden} hidden" if hidden else "") if p) or "-"


def render_text(state_json: dict[str, JSON], viewer: int | None = None) -> str:
    """Every zone of the state, including hidden ones (hands, draw pile), in a few lines; for
    ``viewer``, as that seat knows it: others' hands as their publicly taken cards and a count
    of the rest, the draw pile as a count only."""
    s = TrndState.from_json(state_json)  # validates, with a clear error for bad input
    if viewer is not None and not 0 <= viewer < s.n:
        raise GameError(f"trnd: no seat {viewer} in a {s.n}-player game")
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
        f"          {m[7]} [{len(s.deck):2d}] {m[3]}"
        # the draw pile's top is hidden from every seat: a replay (no viewer) shows it
        + (f"   draw pile top {_SHORT[s.deck[-1]]}" if s.deck and viewer is None else ""),
        f"          {m[6]} {m[5]} {m[4]}",
    ]
    for seat in range(s.n):
        mark = ">" if seat == s.current_seat() and not s.between_rounds() else " "
        me = " (you)" if seat == viewer else ""
        lines.append(
            f"{mark} seat {seat}{me}: {s.totals[seat]:3d} pts (+{s.round_points[seat]} this round)"
            f"  {_held(s, seat, viewer)}"
        )
    return "\n".join(lines)
