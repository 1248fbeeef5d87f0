"""A compact text picture of a whole Trishaw Frenzy state (for the CLI and the replay page)."""

from __future__ import annotations

from typing import Any

from games.trishaw_frenzy import board, scoring
from games.trishaw_frenzy.components import (
    EVENT_BOTTOM,
    EVENT_IDS,
    EVENT_TILES,
    ROUTE_CELLS,
    ROUTE_IDS,
    ROUTE_INDEX,
    ROUTE_NAMES,
)
from games.trishaw_frenzy.geometry import N

SIDES = "SWNE"


def render_text(state_json: dict[str, Any], viewer: int | None = None) -> str:
    """The map (each square: its face, then the trishaw on it: a seat digit, ``A`` for the solo
    AI, ``*`` for several), the route's start ``[`` and finish ``]``, riders, VP and decks (as
    counts). ``viewer`` changes nothing: nothing drawn is hidden from a seat."""
    del viewer
    s = state_json
    solo = s["solo"]
    r, v = s["route"]
    cells, index = ROUTE_CELLS[r][v], ROUTE_INDEX[r][v]
    marks: dict[int, str] = {}
    for t, c in enumerate(s["pos"]):
        mark = "A" if solo and t == 1 else str(t)
        marks[c] = "*" if c in marks else mark
    lines = [
        f"Trishaw Frenzy  round {s['round']}/{s['rounds']}  phase {s['phase']}  "
        f"turn {_who(s, s['turn'])}  first {_who(s, s['first'])}",
        f"route {ROUTE_IDS[r]} ({ROUTE_NAMES[r]}) read from {SIDES[v]}: "
        f"start [ {_rc(cells[0])}, finish ] {_rc(cells[-1])}",
        "     " + "  ".join(" ".join(f"{c} " for c in range(k, k + 3)) for k in (0, 3, 6)),
    ]
    for row in range(N):
        if row and row % 3 == 0:
            lines.append("")
        out = []
        for col in range(N):
            cell = row * N + col
            extra = marks.get(cell, "[" if cell == cells[0] else "]" if cell == cells[-1] else " ")
            out.append(board.face(s["tiles"], cell) + extra)
            if col in (2, 5):
                out.append(" ")
        lines.append(f"  {row}  " + " ".join(out))
    tot = scoring.totals(s["tokens"], s["bonus"])
    for t, c in enumerate(s["pos"]):
        lines.append(
            f"{_who(s, t):>8}: at {_rc(c)} progress {index[c]:2d}  round VP {s['tokens'][t]} "
            f"bonus {s['bonus'][t]} total {tot[t]}"
        )
    lines.append(f"decks: {len(s['event_deck'])} events, {len(s['route_deck'])} routes left")
    if s["event"] is not None:
        card, ev_view = s["event"]
        lines.append(
            f"event {EVENT_IDS[card]}: rotate one of tiles {sorted(EVENT_TILES[card][ev_view])}"
            f" or {EVENT_BOTTOM[card]}"
        )
    return "\n".join(lines)


def _who(s: dict[str, Any], t: int) -> str:
    return "AI" if s["solo"] and t == 1 else f"rider {t}"


def _rc(cell: int) -> str:
    return "({},{})".format(*divmod(cell, N))
