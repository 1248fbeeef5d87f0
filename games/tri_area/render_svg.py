"""A picture of a whole Tri*Area state as one standalone SVG (for the replay page).

``render_svg(state_json)`` draws everything a replay may show after the match: the 4x4 board
with its four tinted T-shaped areas, printed points and building stacks (blocks in seat
colours, NPC seats too), every seat's score, blocks and hand, the current trick, round and
phase. Pure: no I/O, standard library only; ids are never used so that several pictures can
share one HTML page.
"""

from __future__ import annotations

import math

from games.base import JSON
from games.svg import ACCENT, BG, INK, LINE, MUTED, SEAT_COLOURS
from games.svg import attrs as _attrs
from games.svg import num as _num
from games.svg import rect as _rect
from games.svg import text as _text
from games.tri_area.board import ADJACENT, AREA_OF, AREA_POINTS, AREAS, BONUS, SUITS
from games.tri_area.rounds import BLOCKS, SEATS, TRICKS
from games.tri_area.scoring import area_places, tallest_awards
from games.tri_area.state import TriAreaState

SUIT_NAMES = {"I": "Intelligent", "M": "Modern", "E": "Ecology", "H": "Happiness"}
# Area tints on the board (light, so seat-coloured blocks stand out) and card colours.
AREA_TINT = {"I": "#dde8fb", "M": "#fbf1c4", "E": "#dcf1de", "H": "#fbdede"}
CARD_FILL = {"I": "#bfd5fb", "M": "#fde68a", "E": "#bbe8c4", "H": "#fbc4c4"}
CARD_INK = {"I": "#1e40af", "M": "#854d0e", "E": "#166534", "H": "#991b1b"}

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
CELL = 100
BOARD_X, BOARD_Y = 20, 64
PANEL_X, PANEL_W, PANEL_H = 444, 496, 98


def _polygon(points: list[tuple[float, float]], **attrs: object) -> str:
    pts = " ".join(f"{_num(round(px, 1))},{_num(round(py, 1))}" for px, py in points)
    return f'<polygon points="{pts}"{_attrs(attrs)}/>'


def _seat_name(seat: int, players: int) -> str:
    return f"Seat {seat}" if seat < players else f"NPC {seat}"


def _card(x: float, y: float, card: str, w: float = 26, h: float = 36, note: str = "") -> list[str]:
    """A plan card: suit-coloured, rank big, suit letter small; ``note`` under the rank."""
    suit, rank = card[0], card[1:]
    ink = CARD_INK.get(suit, INK)
    out = [
        f"<g{_attrs({'data-card': card})}>",
        _rect(x, y, w, h, rx=4, fill=CARD_FILL.get(suit, "#eee"), stroke=ink, stroke_width=1.2),
        _text(
            x + w / 2,
            y + h * 0.58,
            rank,
            size=h * 0.45,
            fill=ink,
            font_weight="700",
            text_anchor="middle",
        ),
        _text(x + w / 2, y + h - 4, suit, size=h * 0.22, fill=ink, text_anchor="middle"),
    ]
    if note:
        out.append(
            _text(
                x + w / 2,
                y + h + 13,
                note,
                size=12.5,
                fill=INK,
                text_anchor="middle",
                font_weight="600",
            )
        )
    out.append("</g>")
    return out


def _chip(x: float, y: float, label: str, fill: str, ink: str = "#fff") -> tuple[list[str], float]:
    """A small rounded label; returns its elements and its width."""
    w = 10 + 7.4 * len(label)
    return [
        _rect(x, y - 13, w, 18, rx=9, fill=fill),
        _text(x + w / 2, y, label, size=12.5, fill=ink, font_weight="700", text_anchor="middle"),
    ], w


def _board(s: TriAreaState) -> list[str]:
    out: list[str] = []
    bx, by = BOARD_X, BOARD_Y
    tallest = set(tallest_awards(s.board)[0])
    for sq in range(16):
        r, c = divmod(sq, 4)
        x, y = bx + c * CELL, by + r * CELL
        suit = AREA_OF[sq]
        # Data attributes name what a group shows (for tests and for scripts on the page).
        out.append(f'<g data-square="{sq}" data-height="{len(s.board[sq])}">')
        out.append(_rect(x, y, CELL, CELL, fill=AREA_TINT[suit]))
        stack = s.board[sq]
        ink = CARD_INK[suit]
        if not stack:
            # Printed points matter while the square is empty: the first block scores them.
            out.append(
                _text(
                    x + CELL / 2,
                    y + 64,
                    f"+{BONUS[sq]}",
                    size=30,
                    fill=ink,
                    opacity=0.35,
                    font_weight="700",
                    text_anchor="middle",
                )
            )
        else:
            out.append(_text(x + 6, y + 15, f"+{BONUS[sq]}", size=12.5, fill=ink, opacity=0.7))
            out.extend(_stack(x, y, stack, sq in tallest))
        out.append(
            _text(
                x + CELL - 5,
                y + CELL - 5,
                str(sq),
                size=11.5,
                fill=MUTED,
                text_anchor="end",
                opacity=0.8,
            )
        )
        out.append("</g>")
    # Thin grid lines, then thick borders where the area changes, then the outline.
    for sq in range(16):
        r, c = divmod(sq, 4)
        x, y = bx + c * CELL, by + r * CELL
        if c < 3:
            thick = AREA_OF[sq] != AREA_OF[sq + 1]
            out.append(_line(x + CELL, y, x + CELL, y + CELL, thick))
        if r < 3:
            thick = AREA_OF[sq] != AREA_OF[sq + 4]
            out.append(_line(x, y + CELL, x + CELL, y + CELL, thick))
    out.append(_rect(bx, by, 4 * CELL, 4 * CELL, fill="none", stroke=INK, stroke_width=3, rx=2))
    # Area names on their junction square (the one printing 0), above any stack.
    for suit, squares in AREAS.items():
        junction = next(q for q in squares if BONUS[q] == 0)
        r, c = divmod(junction, 4)
        out.append(
            _text(
                bx + c * CELL + 6,
                by + r * CELL + 15 + (0 if not s.board[junction] else 13),
                SUIT_NAMES[suit],
                size=12.5,
                fill=CARD_INK[suit],
                font_weight="700",
            )
        )
    # Where the seat to act may build: the adopted area, or the neighbours of the square just
    # built on (additional construction may cross area borders).
    targets: tuple[int, ...] = ()
    if s.phase == "build" and s.adopted is not None:
        targets = AREAS[s.adopted]
    elif s.phase == "extra" and s.built is not None:
        targets = ADJACENT[s.built]

    def outline(square: int, **stroke: object) -> str:
        """An accent frame just inside ``square`` (what the decision is about)."""
        r, c = divmod(square, 4)
        return _rect(
            bx + c * CELL + 3,
            by + r * CELL + 3,
            CELL - 6,
            CELL - 6,
            rx=3,
            fill="none",
            stroke=ACCENT,
            **stroke,
        )

    if targets:
        for q in targets:
            out.append(outline(q, stroke_width=2.5, stroke_dasharray="7 4"))
    if s.phase == "extra" and s.built is not None:
        out.append(outline(s.built, stroke_width=4))
    return out


def _line(x1: float, y1: float, x2: float, y2: float, thick: bool) -> str:
    stroke, width = (INK, 3) if thick else ("#ffffff", 1.5)
    return (
        f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" '
        f'stroke="{stroke}" stroke-width="{width}"/>'
    )


def _stack(x: float, y: float, stack: list[int], tallest: bool) -> list[str]:
    """A building: blocks bottom-up in seat colours, its height printed above it."""
    n = len(stack)
    bh = min(12.0, 56.0 / n)  # tall buildings squeeze their blocks to stay in the square
    bw, depth = 46.0, 7.0
    x0 = x + 16
    bottom = y + CELL - 8
    out: list[str] = []
    for i, seat in enumerate(stack):
        top = bottom - (i + 1) * bh
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        out.append(_rect(x0, top, bw, bh, fill=colour, stroke="#ffffff", stroke_width=0.8))
        # The right side face gives the block some depth.
        side = [
            (x0 + bw, top),
            (x0 + bw + depth, top - depth / 2),
            (x0 + bw + depth, top + bh - depth / 2),
            (x0 + bw, top + bh),
        ]
        out.append(_polygon(side, fill=colour, opacity=0.6))
        if bh >= 9:
            out.append(
                _text(
                    x0 + bw / 2,
                    top + bh - 2,
                    str(seat),
                    size=bh - 2.5,
                    fill="#ffffff",
                    font_weight="700",
                    text_anchor="middle",
                )
            )
    top = bottom - n * bh
    top_colour = SEAT_COLOURS[stack[-1] % len(SEAT_COLOURS)]
    roof = [
        (x0, top),
        (x0 + depth, top - depth / 2),
        (x0 + bw + depth, top - depth / 2),
        (x0 + bw, top),
    ]
    out.append(_polygon(roof, fill=top_colour, opacity=0.8))
    out.append(_text(x0 + bw + depth + 4, top + 4, str(n), size=15, fill=INK, font_weight="700"))
    if tallest:
        out.append(_star(x0 + bw + depth + 10, top - 16, 8))
    return out


def _star(cx: float, cy: float, r: float) -> str:
    """A five-pointed star (marks the tallest building)."""
    pts = []
    for k in range(10):
        rad = r if k % 2 == 0 else r * 0.45
        ang = math.pi / 2 + k * math.pi / 5
        pts.append((cx + rad * math.cos(ang), cy - rad * math.sin(ang)))
    return _polygon(pts, fill="#d4a017", stroke="#8a6a0a", stroke_width=0.8)


def _seat_panel(s: TriAreaState, seat: int, y: float) -> list[str]:
    colour = SEAT_COLOURS[seat]
    x, w = PANEL_X, PANEL_W
    to_act = s.phase != "over" and s.turn == seat
    out = [
        _rect(
            x,
            y,
            w,
            PANEL_H,
            rx=8,
            fill="#ffffff",
            stroke=ACCENT if to_act else LINE,
            stroke_width=3 if to_act else 1,
        ),
        _rect(x, y, 7, PANEL_H, rx=3, fill=colour),
        _text(x + 16, y + 21, _seat_name(seat, s.players), size=15, fill=colour, font_weight="700"),
    ]
    cx = x + 16 + 9.5 * len(_seat_name(seat, s.players)) + 8
    chips: list[tuple[str, str]] = []
    if to_act:
        chips.append(("to act", ACCENT))
    if seat == s.start:
        chips.append(("start", INK))
    if s.phase not in ("lead_declaration", "sell", "over") and seat == s.leader:
        chips.append(("leader", MUTED))
    for k, holder in enumerate(s.rh):
        if (
            holder == seat
            and s.adopted is not None
            and s.phase in ("build", "extra", "meeting", "five")
        ):
            chips.append((f"RH{k + 1}", CARD_INK[s.adopted]))
    for label, fill in chips:
        parts, cw = _chip(cx, y + 20, label, fill)
        out.extend(parts)
        cx += cw + 5
    out.append(
        _text(
            x + w - 12,
            y + 25,
            f"{s.scores[seat]}",
            size=24,
            fill=INK,
            font_weight="700",
            text_anchor="end",
        )
    )
    out.append(_text(x + w - 12, y + 40, "points", size=11.5, fill=MUTED, text_anchor="end"))
    if s.history:
        # Totals after each finished round.
        for i, h in enumerate(s.history):
            out.append(
                _text(
                    x + w - 12,
                    y + 56 + i * 13,
                    f"after R{h['round']}: {h['scores'][seat]}",
                    size=11.5,
                    fill=MUTED,
                    text_anchor="end",
                )
            )
    # Blocks in front of the seat, one small square each.
    out.append(_text(x + 16, y + 42, "blocks", size=12.5, fill=MUTED))
    left = s.supply[seat]
    for i in range(left):
        out.append(_rect(x + 64 + i * 13, y + 32, 10, 10, rx=1.5, fill=colour))
    note = f"{left} left"
    if s.sold[seat]:
        note += f" · {s.sold[seat]} sold"
    out.append(_text(x + 68 + left * 13, y + 42, note, size=12.5, fill=INK))
    # The whole hand (a replay shows everything), then a pending lead declaration.
    hand = s.hands[seat]
    out.append(_text(x + 16, y + 74, "hand", size=12.5, fill=MUTED))
    for i, card in enumerate(hand):
        out.extend(_card(x + 54 + i * 29, y + 52, card, w=26, h=38))
    if not hand:
        out.append(_text(x + 56, y + 74, "empty", size=12.5, fill=MUTED, font_style="italic"))
    decl = s.lead_decl[seat]
    if decl is not None:
        dx = x + 352
        label = "lead" if s.revealed else "lead (hidden)"
        out.append(_text(dx - 6, y + 74, label, size=11.5, fill=MUTED, text_anchor="end"))
        out.extend(_card(dx, y + 52, decl, w=26, h=38))
    elif s.round == 2 and len(hand) == 1 and s.phase != "over":
        out.append(_text(x + 82, y + 74, "declaration of intent", size=11.5, fill=MUTED))
    return out


def _trick_panel(s: TriAreaState, y: float) -> list[str]:
    x, w, h = PANEL_X, PANEL_W, 116
    out = [_rect(x, y, w, h, rx=8, fill="#ffffff", stroke=LINE)]
    if s.phase in ("lead_declaration", "sell"):
        # The table still holds round 2's last trick; it is not part of this picture.
        lines = (
            [
                "Lead area declaration",
                "Each seat puts one card aside for an area it means to",
                "lead; the cards are revealed together once all have chosen.",
            ]
            if s.phase == "lead_declaration"
            else [
                "Selling blocks",
                "Each seat sells 0 to 9 blocks for 3 points each, from the",
                "start player's right, counterclockwise; the start player sells last.",
            ]
        )
        out.append(_text(x + 14, y + 22, lines[0], size=14, fill=INK, font_weight="700"))
        for i, line in enumerate(lines[1:]):
            out.append(_text(x + 14, y + 48 + i * 18, line, size=12, fill=INK))
        return out
    if s.phase == "over":
        title = f"Last trick ({TRICKS} of {TRICKS})"
    else:
        title = f"Trick {s.trick} of {TRICKS}"
    out.append(_text(x + 14, y + 22, title, size=14, fill=INK, font_weight="700"))
    if s.adopted is not None:
        suit = s.adopted
        out.append(
            _text(
                x + w - 14,
                y + 22,
                f"adopted: {SUIT_NAMES[suit]}",
                size=13,
                fill=CARD_INK[suit],
                font_weight="700",
                text_anchor="end",
            )
        )
    for seat in range(SEATS):
        cx = x + 20 + seat * 118
        card = s.table[seat]
        colour = SEAT_COLOURS[seat]
        out.append(
            _text(cx, y + 46, _seat_name(seat, s.players), size=12, fill=colour, font_weight="700")
        )
        if card is None:
            out.append(
                _rect(cx, y + 54, 32, 44, rx=4, fill="none", stroke=LINE, stroke_dasharray="4 3")
            )
        else:
            value = s.values[seat]
            note = ""
            if card[1] == "5" and value is None and s.round > 1:
                note = "as ?"
            elif card[1] == "5" and value not in (None, 5):
                note = f"as {value}"
            out.extend(_card(cx, y + 54, card, w=32, h=44))
            if note:
                out.append(_text(cx + 38, y + 70, note, size=12.5, fill=INK, font_weight="600"))
        tags = []
        if s.phase not in ("lead_declaration", "sell") and seat == s.leader and card is not None:
            tags.append("leader")
        for k, holder in enumerate(s.rh):
            if holder == seat and s.adopted is not None:
                tags.append(f"RH{k + 1}")
        if tags:
            out.append(
                _text(cx + 38, y + 92, " ".join(tags), size=12.5, fill=ACCENT, font_weight="700")
            )
    return out


def _areas_legend(s: TriAreaState, y: float) -> list[str]:
    out: list[str] = []
    for i, suit in enumerate(SUITS):
        x = BOARD_X + (i % 2) * 206
        yy = y + (i // 2) * 40
        first, second = AREA_POINTS[suit]
        out.append(_rect(x, yy, 16, 16, rx=3, fill=AREA_TINT[suit], stroke=CARD_INK[suit]))
        out.append(
            _text(
                x + 22, yy + 13, SUIT_NAMES[suit], size=13, fill=CARD_INK[suit], font_weight="700"
            )
        )
        out.append(
            _text(
                x + 198,
                yy + 13,
                f"1st {first} · 2nd {second}",
                size=12,
                fill=INK,
                text_anchor="end",
            )
        )
        places = area_places(s.board, suit)
        firsts = [q for q, p in sorted(places.items()) if p == 1]
        now = (
            "now 1st: " + ", ".join(_seat_name(q, s.players) for q in firsts)
            if firsts
            else "no building yet"
        )
        out.append(_text(x + 22, yy + 29, now, size=12.5, fill=MUTED))
    return out


def _legend(y: float) -> list[str]:
    """One line explaining the board's symbols: (symbol, label) pairs laid out left to right."""
    x: float = BOARD_X
    block = [
        _rect(0, -11, 22, 11, fill=SEAT_COLOURS[1], stroke="#ffffff", stroke_width=0.8),
        _text(11, -2.5, "1", size=9, fill="#ffffff", font_weight="700", text_anchor="middle"),
    ]
    items: list[tuple[list[str], float, str]] = [
        (block, 22, "a block: seat colour, seat number"),
        ([_text(0, 0, "4", size=15, fill=INK, font_weight="700")], 10, "height"),
        ([_star(7, -5, 7)], 14, "tallest"),
        (
            [_text(0, 0, "+3", size=15, fill=CARD_INK["I"], opacity=0.6, font_weight="700")],
            20,
            "printed points",
        ),
        (
            [
                _rect(
                    0,
                    -12,
                    22,
                    14,
                    rx=2,
                    fill="none",
                    stroke=ACCENT,
                    stroke_width=2,
                    stroke_dasharray="5 3",
                )
            ],
            22,
            "build here",
        ),
        ([_text(0, 0, "RH1 RH2", size=12.5, fill=ACCENT, font_weight="700")], 62, "rightholders"),
    ]
    out: list[str] = []
    for symbol, width, label in items:
        out.append(f'<g transform="translate({_num(x)},{_num(y)})">')
        out.extend(symbol)
        out.append("</g>")
        out.append(_text(x + width + 6, y, label, size=12.5, fill=INK))
        x += width + 6 + 6.6 * len(label) + 24  # about 6.6 units per character at this size
    return out


def render_svg(state_json: dict[str, JSON]) -> str:
    """The whole state as a standalone ``<svg>`` (width 100%, scales by its viewBox)."""
    s = TriAreaState.from_json(state_json)  # validates, with a clear error for bad input
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
        right = "winner: " + ", ".join(_seat_name(q, s.players) for q in winners)
    elif s.turn is not None:
        right = f"to act: {_seat_name(s.turn, s.players)}"
    else:
        right = ""
    out.append(
        _text(WIDTH - 20, 35, right, size=15, fill=ACCENT, font_weight="700", text_anchor="end")
    )
    out.extend(_board(s))
    for seat in range(SEATS):
        out.append(f'<g data-seat="{seat}">')
        out.extend(_seat_panel(s, seat, BOARD_Y + seat * (PANEL_H + 4)))
        out.append("</g>")
    out.extend(_areas_legend(s, BOARD_Y + 4 * CELL + 16))
    out.extend(_trick_panel(s, BOARD_Y + 4 * CELL + 12))
    blocks_note = f"{BLOCKS[s.round]} blocks per seat this round"
    out.append(_text(BOARD_X, BOARD_Y + 4 * CELL + 112, blocks_note, size=12.5, fill=MUTED))
    out.extend(_legend(height - 16))
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
