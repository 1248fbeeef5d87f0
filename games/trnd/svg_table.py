"""The middle of the TRND table in the picture: the market ring, the draw pile inside it and
the discard pile beside it."""

from __future__ import annotations

from games.svg import ACCENT, INK, LINE, MUTED
from games.svg import rect as _rect
from games.svg import text as _text
from games.trnd import cards as C
from games.trnd.state import TrndState
from games.trnd.svg_cards import CARD_EDGE, CARD_FILL, CARD_INK, draw_card

MARKET_X, MARKET_Y = 24, 78
CARD_W, CARD_H, GAP = 88, 118, 12
# Market slot -> (column, row) in the 3x3 grid: clockwise from the top-left corner.
SLOT_CELL = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1))


def market(s: TrndState) -> list[str]:
    out: list[str] = [
        _text(MARKET_X, MARKET_Y - 10, "Market", size=13, fill=MUTED, font_weight="700")
    ]
    for slot, (col, row) in enumerate(SLOT_CELL):
        out.extend(_slot(s, slot, col, row))
    out.extend(_draw_pile(s))
    return out


def _slot(s: TrndState, slot: int, col: int, row: int) -> list[str]:
    """One market slot: its card, or the gap a take left until the refill."""
    out: list[str] = []
    x = MARKET_X + col * (CARD_W + GAP)
    y = MARKET_Y + row * (CARD_H + GAP)
    t = s.market[slot]
    # Data attributes name what a group shows (for tests and for scripts on the page).
    out.append(f'<g data-slot="{slot}">')
    if t < 0:
        out.append(
            _rect(
                x,
                y,
                CARD_W,
                CARD_H,
                rx=7,
                fill="none",
                stroke=ACCENT,
                stroke_width=2,
                stroke_dasharray="6 4",
            )
        )
        out.append(
            _text(
                x + CARD_W / 2,
                y + CARD_H / 2 + 4,
                "taken",
                size=13,
                fill=ACCENT,
                text_anchor="middle",
            )
        )
    else:
        out.extend(draw_card(x, y, t, CARD_W, CARD_H, label=True))
    out.append(
        _text(x + 5, y + 13, str(slot), size=11.5, fill=MUTED if t < 0 else CARD_INK[C.colour(t)])
    )
    out.append("</g>")
    return out


def _draw_pile(s: TrndState) -> list[str]:
    """The draw pile in the middle: a face-down stack with its count."""
    out: list[str] = []
    x, y = MARKET_X + CARD_W + GAP, MARKET_Y + CARD_H + GAP
    left = len(s.deck)
    out.append(f'<g data-zone="draw" data-count="{left}">')
    if left:
        for k in (2, 1):
            out.append(
                _rect(x + 2 * k, y - 2 * k, CARD_W, CARD_H, rx=7, fill="#9a3412", stroke="#7c2d12")
            )
        out.append(_rect(x, y, CARD_W, CARD_H, rx=7, fill=ACCENT, stroke="#7c2d12"))
        out.append(
            _rect(x + 6, y + 6, CARD_W - 12, CARD_H - 12, rx=5, fill="none", stroke="#fde7d9")
        )
    else:
        out.append(
            _rect(x, y, CARD_W, CARD_H, rx=7, fill="none", stroke=LINE, stroke_dasharray="6 4")
        )
    ink = "#ffffff" if left else MUTED
    out.append(
        _text(
            x + CARD_W / 2,
            y + CARD_H / 2 + 6,
            str(left),
            size=30,
            fill=ink,
            font_weight="800",
            text_anchor="middle",
        )
    )
    out.append(
        _text(
            x + CARD_W / 2,
            y + CARD_H / 2 + 26,
            "to draw",
            size=12.5,
            fill=ink,
            text_anchor="middle",
        )
    )
    out.append("</g>")
    return out


def discard(s: TrndState) -> list[str]:
    x = MARKET_X + 3 * (CARD_W + GAP) + 14
    y = MARKET_Y + CARD_H + GAP
    out = [
        _text(x, y - 18, "Discard pile", size=13, fill=MUTED, font_weight="700"),
        f'<g data-zone="discard" data-count="{len(s.pile)}">',
    ]
    for k in range(min(2, len(s.pile) - 1), 0, -1):
        below = s.pile[-1 - k]
        out.append(
            _rect(
                x + 3 * k,
                y - 3 * k,
                CARD_W,
                CARD_H,
                rx=7,
                fill=CARD_FILL[C.colour(below)],
                stroke=CARD_EDGE[C.colour(below)],
            )
        )
    out.extend(draw_card(x, y, s.pile[-1], CARD_W, CARD_H, label=True))
    out.append("</g>")
    n = len(s.pile)
    out.append(_text(x, y + CARD_H + 18, f"{n} card{'s' if n != 1 else ''}", size=12, fill=INK))
    out.append(_text(x, y + CARD_H + 34, "play on: same", size=12.5, fill=MUTED))
    out.append(_text(x, y + CARD_H + 48, "colour or style", size=12.5, fill=MUTED))
    out.append(_rect(x, y + CARD_H + 60, 22, 3.5, rx=1.5, fill=ACCENT))
    out.append(_text(x + 28, y + CARD_H + 64, "matches", size=12.5, fill=MUTED))
    return out
