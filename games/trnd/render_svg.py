"""A picture of a whole TRND state as one standalone SVG (for the replay page).

``render_svg(state_json)`` draws everything a replay may show after the match: the 3x3 market
ring around the draw pile, the discard pile, every seat's hand grouped by card type (hidden hands
included), cleared-out sets, round points and totals against the target, the start marker and
whose turn it is, plus past rounds. ``render_svg(state_json, viewer=k)`` draws it as seat ``k``
knows it: another seat's hand shows its publicly taken cards and the rest face down with their
count (the draw pile is only ever drawn face down); the picture does not depend on what seat
``k`` cannot know. Pure: no I/O, standard library only; ids are never used so
that several pictures can share one HTML page. The parts: ``svg_table.py`` (market, draw and
discard piles), ``svg_panels.py`` (seats and past rounds), ``svg_cards.py`` (card faces, legend).
"""

from __future__ import annotations

from games.base import JSON, GameError
from games.svg import ACCENT, BG, INK, SEAT_COLOURS
from games.svg import rect as _rect
from games.svg import text as _text
from games.trnd.state import TrndState
from games.trnd.svg_cards import legend
from games.trnd.svg_panels import HISTORY_ROWS, PANEL_H, history, seat_panel
from games.trnd.svg_table import CARD_H, GAP, MARKET_X, MARKET_Y, SLOT_CELL, discard, market

__all__ = ["MARKET_X", "SEAT_COLOURS", "SLOT_CELL", "action_targets", "render_svg"]

WIDTH = 960


def render_svg(state_json: dict[str, JSON], viewer: int | None = None) -> str:
    """The whole state as a standalone ``<svg>`` (width 100%, scales by its viewBox); for
    ``viewer``, as that seat knows it (see the module docstring)."""
    s = TrndState.from_json(state_json)  # validates, with a clear error for bad input
    if viewer is not None and not 0 <= viewer < s.n:
        raise GameError(f"trnd: no seat {viewer} in a {s.n}-player game")
    panels_end = 64 + s.n * (PANEL_H + 6)
    height = max(600, panels_end + 24 + 18 * (HISTORY_ROWS + 1) + 24)
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="100%" '
        'font-family="system-ui, -apple-system, \'Segoe UI\', Roboto, sans-serif" role="img" '
        f'aria-label="TRND table, round {s.round}">',
        _rect(0, 0, WIDTH, height, fill=BG, rx=12),
        _text(24, 38, "TRND", size=24, fill=ACCENT, font_weight="800"),
        _text(
            104,
            37,
            f"Round {s.round} of at most {s.max_rounds} · target {s.target} · "
            f"{'n² points' if s.square else 'n points'} for clearing out with n cards",
            size=14,
            fill=INK,
        ),
    ]
    if s.is_over():
        res = s.result()
        winner = res.ranks.index(1)
        why = "" if s.reason == "normal" else " (round limit)"
        status = f"game over{why}: Seat {winner} wins"
    elif s.between_rounds():
        status = f"end of round {s.round}: points settled"
    elif s.phase == "discard":
        status = f"Seat {s.seat} discards"
    else:
        status = f"to act: Seat {s.seat}"
    out.append(
        _text(WIDTH - 20, 37, status, size=15, fill=ACCENT, font_weight="700", text_anchor="end")
    )
    out.extend(market(s))
    out.extend(discard(s))
    out.extend(legend(MARKET_X, MARKET_Y + 3 * CARD_H + 2 * GAP + 40))
    for seat in range(s.n):
        out.append(f'<g data-seat="{seat}">')
        out.extend(seat_panel(s, seat, 64 + seat * (PANEL_H + 6), viewer))
        out.append("</g>")
    out.extend(history(s, panels_end + 8))
    out.append("</svg>")
    return "".join(out)


def action_targets(state_json: dict[str, JSON], actions: list[JSON]) -> list[str | None]:
    """For a person at the table: the part of this picture each legal action is about, as a
    CSS selector over the ``data-`` attributes drawn here (None: no such part), so that the
    play page can take a click on the board: a market slot takes that card, the draw pile
    draws, a card type in the acting seat's hand discards it (how many: the buttons)."""
    seat = TrndState.from_json(state_json).seat
    out: list[str | None] = []
    for a in actions:
        kind = a.get("type") if isinstance(a, dict) else None
        if kind == "draw":
            out.append('[data-zone="draw"]')
        elif kind == "take":
            out.append(f'[data-slot="{a["slot"]}"]')
        elif kind == "discard":
            out.append(f'[data-seat="{seat}"] [data-card="{a["card"]}"]')
        else:
            out.append(None)
    return out
