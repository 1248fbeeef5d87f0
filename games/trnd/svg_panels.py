"""The TRND panels in the picture: one per seat (hand grouped by type, cleared-out set, points
against the target, start marker, turn) and the points of past rounds. Drawn for a viewer seat,
another seat's hand shows only what the viewer knows: the cards it took from the market (public,
``known``) face up, the rest face down with their count."""

from __future__ import annotations

from games.svg import ACCENT, INK, LINE, MUTED, SEAT_COLOURS, card_back, you
from games.svg import num as _num
from games.svg import rect as _rect
from games.svg import text as _text
from games.trnd import cards as C
from games.trnd.state import TrndState
from games.trnd.svg_cards import draw_card

CLEARED_TINT = "#eaf6ec"
PANEL_X, PANEL_W, PANEL_H = 452, 488, 94
HISTORY_ROWS = 6


def seat_panel(s: TrndState, seat: int, y: float, viewer: int | None = None) -> list[str]:
    to_act = not s.is_over() and not s.between_rounds() and s.seat == seat
    out = _seat_header(s, seat, y, to_act, viewer) + _seat_points(s, seat, y)
    out_set = s.out[seat]
    if out_set:
        return out + _cleared_set(out_set, y)
    if viewer is not None and seat != viewer:
        # another seat's hand: only its publicly taken cards are known to the viewer
        return out + _seat_hand(s, seat, y, to_act, shown=s.known[seat])
    return out + _seat_hand(s, seat, y, to_act)


def _seat_header(
    s: TrndState, seat: int, y: float, to_act: bool, viewer: int | None = None
) -> list[str]:
    """The panel's frame (tinted once the seat cleared out, accented for the seat to act), the
    seat's name and its chips: to act, start, cleared out, final place."""
    x, w = PANEL_X, PANEL_W
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    over = s.is_over()
    out_set = s.out[seat]
    out = [
        _rect(
            x,
            y,
            w,
            PANEL_H,
            rx=8,
            fill=CLEARED_TINT if out_set else "#ffffff",
            stroke=ACCENT if to_act else LINE,
            stroke_width=3 if to_act else 1,
        ),
        _rect(x, y, 7, PANEL_H, rx=3, fill=colour),
        _text(
            x + 16,
            y + 21,
            f"Seat {seat}{you(seat, viewer)}",
            size=15,
            fill=colour,
            font_weight="700",
        ),
    ]
    cx: float = x + (124 if you(seat, viewer) else 80)
    chips: list[tuple[str, str]] = []
    if to_act:
        chips.append(("to act" if s.phase == "choose_action" else "discarding", ACCENT))
    if seat == s.start_seat:
        chips.append(("start", INK))
    if out_set:
        chips.append(("cleared out", "#15803d"))
    if over:
        rank = s.result().ranks[seat]
        chips.append((f"{rank}{_ordinal(rank)} place", "#d4a017" if rank == 1 else MUTED))
    for label, fill in chips:
        parts, cw = _chip(cx, y + 20, label, fill)
        out.extend(parts)
        cx += cw + 5
    return out


def _seat_points(s: TrndState, seat: int, y: float) -> list[str]:
    """The seat's total against the target, and what it gained this round."""
    x, w = PANEL_X, PANEL_W
    out = [
        _text(
            x + w - 12,
            y + 26,
            str(s.totals[seat]),
            size=24,
            fill=INK,
            font_weight="700",
            text_anchor="end",
        )
    ]
    out.append(
        _text(x + w - 12, y + 42, f"of {s.target} points", size=11.5, fill=MUTED, text_anchor="end")
    )
    gained = s.round_points[seat]
    out.append(
        _text(
            x + w - 12,
            y + 58,
            f"+{gained} this round",
            size=12.5,
            fill="#15803d" if gained else MUTED,
            font_weight="700" if gained else None,
            text_anchor="end",
        )
    )
    return out


def _cleared_set(out_set: list[int], y: float) -> list[str]:
    """The set a seat cleared out with, shown face up: it is out of this round."""
    x = PANEL_X
    t, count = out_set
    out = draw_card(x + 16, y + 32, t, 38, 52)
    out.append(_text(x + 62, y + 56, f"\u00d7{count}", size=18, fill=INK, font_weight="700"))
    out.append(_text(x + 62, y + 76, "revealed set, out of this round", size=12.5, fill=MUTED))
    return out


def _seat_hand(
    s: TrndState, seat: int, y: float, to_act: bool, shown: list[int] | None = None
) -> list[str]:
    """The hand grouped by card type, each with its count; with ``shown`` (per type, what the
    viewer knows of it), only those cards face up and the others as one face-down stack."""
    x, w = PANEL_X, PANEL_W
    out: list[str] = []
    total = sum(s.hands[seat])
    hand = s.hands[seat] if shown is None else shown
    hidden = total - sum(hand)
    gx: float = x + 16
    # For the seat to act, underline the types that match the discard top (Action A needs one;
    # a discard must be one of them): only the viewer's own hand, or every hand in a replay.
    matching = C.MATCHES[s.pile[-1]] if to_act and shown is None else ()
    # Card size shrinks only when many types must share the row left of the score column.
    step = min(54.0, 372.0 / max(1, sum(1 for k in hand if k) + (hidden > 0)))
    cw = min(38.0, step - 10)
    ch = cw * 1.38
    for t in C.TYPES:
        if hand[t]:
            out.append(f'<g data-count="{hand[t]}">')
            out.extend(draw_card(gx, y + 30, t, cw, ch))
            if t in matching:
                out.append(_rect(gx, y + 34 + ch, cw, 3.5, rx=1.5, fill=ACCENT))
            out.append(_count_badge(gx + cw, y + 32, hand[t]))
            out.append("</g>")
            gx += step
    if hidden:
        out.append(card_back(gx, y + 30, cw, ch, hidden))
    if not total:
        out.append(_text(gx, y + 58, "no cards", size=12.5, fill=MUTED, font_style="italic"))
    out.append(
        _text(
            x + w - 12,
            y + 74,
            f"{total} card{'s' if total != 1 else ''} in hand",
            size=11.5,
            fill=MUTED,
            text_anchor="end",
        )
    )
    return out


def _chip(x: float, y: float, label: str, fill: str) -> tuple[list[str], float]:
    w = 10 + 7.4 * len(label)
    return [
        _rect(x, y - 13, w, 18, rx=9, fill=fill),
        _text(
            x + w / 2, y, label, size=12.5, fill="#ffffff", font_weight="700", text_anchor="middle"
        ),
    ], w


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _count_badge(cx: float, cy: float, n: int) -> str:
    return (
        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="9.5" fill="{INK}" stroke="#ffffff"/>'
        + _text(
            cx, cy + 4, str(n), size=12.5, fill="#ffffff", font_weight="700", text_anchor="middle"
        )
    )


def history(s: TrndState, y: float) -> list[str]:
    """The last rounds' points per seat (all rounds' totals are in the panels)."""
    out = [_text(PANEL_X, y + 12, "Points per round", size=13, fill=MUTED, font_weight="700")]
    if not s.history:
        out.append(_text(PANEL_X + 130, y + 12, "none finished yet", size=12, fill=MUTED))
        return out
    col = (PANEL_W - 70) / s.n
    y += 32
    out.append(_text(PANEL_X, y, "round", size=12.5, fill=MUTED))
    for seat in range(s.n):
        out.append(
            _text(
                PANEL_X + 70 + col * (seat + 0.5),
                y,
                f"Seat {seat}",
                size=12.5,
                fill=SEAT_COLOURS[seat],
                font_weight="700",
                text_anchor="middle",
            )
        )
    rows = s.history[-HISTORY_ROWS:]
    first = len(s.history) - len(rows) + 1
    if first > 1:
        out.append(
            _text(PANEL_X + 40, y, f"(last {len(rows)} of {len(s.history)})", size=11.5, fill=MUTED)
        )
    for i, points in enumerate(rows):
        yy = y + 18 * (i + 1)
        out.append(_text(PANEL_X, yy, str(first + i), size=12, fill=INK))
        for seat, p in enumerate(points):
            out.append(
                _text(
                    PANEL_X + 70 + col * (seat + 0.5),
                    yy,
                    str(p) if p else "·",
                    size=12,
                    fill=INK if p else MUTED,
                    font_weight="700" if p else None,
                    text_anchor="middle",
                )
            )
    return out
