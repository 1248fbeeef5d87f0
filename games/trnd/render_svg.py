"""A picture of a whole TRND state as one standalone SVG (for the replay page).

``render_svg(state_json)`` draws everything a replay may show after the match: the 3x3 market
ring around the draw pile, the discard pile, every seat's hand grouped by card type (hidden hands
included), cleared-out sets, round points and totals against the target, the start marker and
whose turn it is, plus past rounds. Pure: no I/O, standard library only; ids are never used so
that several pictures can share one HTML page.
"""

from __future__ import annotations

from games.base import JSON
from games.svg import ACCENT, BG, INK, LINE, MUTED, SEAT_COLOURS
from games.svg import attrs as _attrs
from games.svg import num as _num
from games.svg import rect as _rect
from games.svg import text as _text
from games.trnd import cards as C
from games.trnd.state import TrndState

CLEARED_TINT = "#eaf6ec"

# Card faces per colour (white, red, black): fill, border, and the ink of the chair shape.
CARD_FILL = ("#fdfcf8", "#dc2626", "#27272a")
CARD_EDGE = ("#a8a29e", "#991b1b", "#000000")
CARD_INK = ("#374151", "#ffffff", "#f5f5f4")

WIDTH = 960
MARKET_X, MARKET_Y = 24, 78
CARD_W, CARD_H, GAP = 88, 118, 12
PANEL_X, PANEL_W, PANEL_H = 452, 488, 94
HISTORY_ROWS = 6
# Market slot -> (column, row) in the 3x3 grid: clockwise from the top-left corner.
SLOT_CELL = ((0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1))


def _path(d: str, **attrs: object) -> str:
    return f'<path d="{d}"{_attrs(attrs)}/>'


def _chair(t: int, cx: float, cy: float, s: float) -> list[str]:
    """The chair style's shape, ``s`` wide, centred on (cx, cy), in the card's ink."""
    ink = CARD_INK[C.colour(t)]
    h = s / 2
    w = max(1.2, s / 9)
    style = C.STYLES[C.style(t)]
    if style == "shell":
        # A moulded bowl seat on a short pedestal.
        bowl = (
            f"M{_num(cx - h)},{_num(cy - s / 6)} "
            f"A{_num(h)},{_num(h)} 0 0 0 {_num(cx + h)},{_num(cy - s / 6)} Z"
        )
        leg = (
            f"M{_num(cx)},{_num(cy + s / 3)} V{_num(cy + h)} "
            f"M{_num(cx - s / 4)},{_num(cy + h)} H{_num(cx + s / 4)}"
        )
        return [_path(bowl, fill=ink), _path(leg, stroke=ink, stroke_width=w, fill="none")]
    if style == "ant":
        # The Ant chair's back: two lobes with a narrow waist.
        r1, r2 = s * 0.2, s * 0.24
        return [
            f'<circle cx="{_num(cx)}" cy="{_num(cy - s * 0.22)}" r="{_num(r1)}" fill="{ink}"/>',
            f'<circle cx="{_num(cx)}" cy="{_num(cy + s * 0.2)}" r="{_num(r2)}" fill="{ink}"/>',
            _rect(cx - s * 0.07, cy - s * 0.1, s * 0.14, s * 0.24, fill=ink),
        ]
    # Sling: a cloth seat hanging between two frame posts.
    frame = (
        f"M{_num(cx - h)},{_num(cy - h)} L{_num(cx - s / 4)},{_num(cy + h)} "
        f"M{_num(cx + h)},{_num(cy - h)} L{_num(cx + s / 4)},{_num(cy + h)}"
    )
    cloth = (
        f"M{_num(cx - h)},{_num(cy - h)} "
        f"Q{_num(cx)},{_num(cy + s * 0.55)} {_num(cx + h)},{_num(cy - h)}"
    )
    return [
        _path(frame, stroke=ink, stroke_width=w, fill="none", stroke_linecap="round"),
        _path(cloth, stroke=ink, stroke_width=w * 1.6, fill="none", stroke_linecap="round"),
    ]


def _card(x: float, y: float, t: int, w: float, h: float, label: bool = False) -> list[str]:
    """One card of type ``t``; big cards also print their name."""
    c = C.colour(t)
    out = [
        f"<g{_attrs({'data-card': C.NAMES[t]})}>",
        _rect(
            x, y, w, h, rx=max(3, w / 12), fill=CARD_FILL[c], stroke=CARD_EDGE[c], stroke_width=1.2
        ),
    ]
    if label:
        out.extend(_chair(t, x + w / 2, y + h * 0.38, w * 0.5))
        colour, style = C.NAMES[t].split("-")
        out.append(
            _text(x + w / 2, y + h - 24, colour, size=12, fill=CARD_INK[c], text_anchor="middle")
        )
        out.append(
            _text(
                x + w / 2,
                y + h - 9,
                style,
                size=12,
                fill=CARD_INK[c],
                font_weight="700",
                text_anchor="middle",
            )
        )
    else:
        out.extend(_chair(t, x + w / 2, y + h / 2, w * 0.62))
    out.append("</g>")
    return out


def _chip(x: float, y: float, label: str, fill: str) -> tuple[list[str], float]:
    w = 10 + 7.4 * len(label)
    return [
        _rect(x, y - 13, w, 18, rx=9, fill=fill),
        _text(
            x + w / 2, y, label, size=12.5, fill="#ffffff", font_weight="700", text_anchor="middle"
        ),
    ], w


def _market(s: TrndState) -> list[str]:
    out: list[str] = [
        _text(MARKET_X, MARKET_Y - 10, "Market", size=13, fill=MUTED, font_weight="700")
    ]
    for slot, (col, row) in enumerate(SLOT_CELL):
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
            out.extend(_card(x, y, t, CARD_W, CARD_H, label=True))
        out.append(
            _text(
                x + 5, y + 13, str(slot), size=11.5, fill=MUTED if t < 0 else CARD_INK[C.colour(t)]
            )
        )
        out.append("</g>")
    # The draw pile in the middle: a face-down stack with its count.
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


def _discard(s: TrndState) -> list[str]:
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
    out.extend(_card(x, y, s.pile[-1], CARD_W, CARD_H, label=True))
    out.append("</g>")
    n = len(s.pile)
    out.append(_text(x, y + CARD_H + 18, f"{n} card{'s' if n != 1 else ''}", size=12, fill=INK))
    out.append(_text(x, y + CARD_H + 34, "play on: same", size=12.5, fill=MUTED))
    out.append(_text(x, y + CARD_H + 48, "colour or style", size=12.5, fill=MUTED))
    out.append(_rect(x, y + CARD_H + 60, 22, 3.5, rx=1.5, fill=ACCENT))
    out.append(_text(x + 28, y + CARD_H + 64, "matches", size=12.5, fill=MUTED))
    return out


def _seat_panel(s: TrndState, seat: int, y: float) -> list[str]:
    x, w = PANEL_X, PANEL_W
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    over = s.is_over()
    to_act = not over and not s.between_rounds() and s.seat == seat
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
        _text(x + 16, y + 21, f"Seat {seat}", size=15, fill=colour, font_weight="700"),
    ]
    cx: float = x + 80
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
    out.append(
        _text(
            x + w - 12,
            y + 26,
            str(s.totals[seat]),
            size=24,
            fill=INK,
            font_weight="700",
            text_anchor="end",
        )
    )
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
    if out_set:
        t, count = out_set
        out.extend(_card(x + 16, y + 32, t, 38, 52))
        out.append(_text(x + 62, y + 56, f"\u00d7{count}", size=18, fill=INK, font_weight="700"))
        out.append(_text(x + 62, y + 76, "revealed set, out of this round", size=12.5, fill=MUTED))
        return out
    hand = s.hands[seat]
    total = sum(hand)
    gx: float = x + 16
    # For the seat to act, underline the types that match the discard top (Action A needs one;
    # a discard must be one of them).
    matching = C.MATCHES[s.pile[-1]] if to_act else ()
    # Card size shrinks only when many types must share the row left of the score column.
    step = min(54.0, 372.0 / max(1, sum(1 for k in hand if k)))
    cw = min(38.0, step - 10)
    ch = cw * 1.38
    for t in C.TYPES:
        if hand[t]:
            out.append(f'<g data-count="{hand[t]}">')
            out.extend(_card(gx, y + 30, t, cw, ch))
            if t in matching:
                out.append(_rect(gx, y + 34 + ch, cw, 3.5, rx=1.5, fill=ACCENT))
            out.append(_count_badge(gx + cw, y + 32, hand[t]))
            out.append("</g>")
            gx += step
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


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _count_badge(cx: float, cy: float, n: int) -> str:
    return (
        f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="9.5" fill="{INK}" stroke="#ffffff"/>'
        + _text(
            cx, cy + 4, str(n), size=12.5, fill="#ffffff", font_weight="700", text_anchor="middle"
        )
    )


def _history(s: TrndState, y: float) -> list[str]:
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


def _legend(y: float) -> list[str]:
    """Colours and chair styles, with the shapes used on the cards."""
    out = [_text(MARKET_X, y, "Cards", size=13, fill=MUTED, font_weight="700")]
    x = MARKET_X + 52
    for c, name in enumerate(C.COLOURS):
        out.append(_rect(x, y - 12, 14, 14, rx=3, fill=CARD_FILL[c], stroke=CARD_EDGE[c]))
        out.append(_text(x + 19, y, name, size=12, fill=INK))
        x += 70
    x = MARKET_X + 52
    for st, name in enumerate(C.STYLES):
        t = st  # a white card of that style
        out.extend(_card(x, y + 10, t, 26, 36))
        out.append(_text(x + 32, y + 33, name, size=12.5, fill=INK))
        x += 92
    return out


def render_svg(state_json: dict[str, JSON]) -> str:
    """The whole state as a standalone ``<svg>`` (width 100%, scales by its viewBox)."""
    s = TrndState.from_json(state_json)  # validates, with a clear error for bad input
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
    out.extend(_market(s))
    out.extend(_discard(s))
    out.extend(_legend(MARKET_Y + 3 * CARD_H + 2 * GAP + 40))
    for seat in range(s.n):
        out.append(f'<g data-seat="{seat}">')
        out.extend(_seat_panel(s, seat, 64 + seat * (PANEL_H + 6)))
        out.append("</g>")
    out.extend(_history(s, panels_end + 8))
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
