"""The Tri*Area board in the picture: the 4x4 squares with their areas, printed points and
buildings, where the seat to act may build, and the legends under it."""

from __future__ import annotations

from games.svg import ACCENT, INK, MUTED, SEAT_COLOURS
from games.svg import num as _num
from games.svg import rect as _rect
from games.svg import text as _text
from games.tri_area.board import ADJACENT, AREA_OF, AREA_POINTS, AREAS, BONUS, SUITS
from games.tri_area.scoring import area_places, tallest_awards
from games.tri_area.state import TriAreaState
from games.tri_area.svg_parts import (
    AREA_TINT,
    BOARD_X,
    BOARD_Y,
    CARD_INK,
    CELL,
    SUIT_NAMES,
    draw_star,
    polygon,
    seat_name,
)


def board(s: TriAreaState) -> list[str]:
    out: list[str] = []
    tallest = set(tallest_awards(s.board)[0])
    for sq in range(16):
        out.extend(_square(s, sq, sq in tallest))
    out.extend(_borders())
    out.extend(_area_names(s))
    out.extend(_build_targets(s))
    return out


def _square(s: TriAreaState, sq: int, tallest: bool) -> list[str]:
    """One square: its area's tint, its printed points, its building and its number."""
    r, c = divmod(sq, 4)
    x, y = BOARD_X + c * CELL, BOARD_Y + r * CELL
    suit = AREA_OF[sq]
    # Data attributes name what a group shows (for tests and for scripts on the page).
    out = [f'<g data-square="{sq}" data-height="{len(s.board[sq])}">']
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
        out.extend(_stack(x, y, stack, tallest))
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
    return out


def _borders() -> list[str]:
    """Thin grid lines, then thick borders where the area changes, then the outline."""
    out: list[str] = []
    bx, by = BOARD_X, BOARD_Y
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
    return out


def _area_names(s: TriAreaState) -> list[str]:
    """Area names on their junction square (the one printing 0), above any stack."""
    out: list[str] = []
    for suit, squares in AREAS.items():
        junction = next(q for q in squares if BONUS[q] == 0)
        r, c = divmod(junction, 4)
        out.append(
            _text(
                BOARD_X + c * CELL + 6,
                BOARD_Y + r * CELL + 15 + (0 if not s.board[junction] else 13),
                SUIT_NAMES[suit],
                size=12.5,
                fill=CARD_INK[suit],
                font_weight="700",
            )
        )
    return out


def _build_targets(s: TriAreaState) -> list[str]:
    """Where the seat to act may build: the adopted area, or the neighbours of the square just
    built on (additional construction may cross area borders)."""
    out: list[str] = []
    targets: tuple[int, ...] = ()
    if s.phase == "build" and s.adopted is not None:
        targets = AREAS[s.adopted]
    elif s.phase == "extra" and s.built is not None:
        targets = ADJACENT[s.built]

    def outline(square: int, **stroke: object) -> str:
        """An accent frame just inside ``square`` (what the decision is about)."""
        r, c = divmod(square, 4)
        return _rect(
            BOARD_X + c * CELL + 3,
            BOARD_Y + r * CELL + 3,
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
        out.append(polygon(side, fill=colour, opacity=0.6))
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
    out.append(polygon(roof, fill=top_colour, opacity=0.8))
    out.append(_text(x0 + bw + depth + 4, top + 4, str(n), size=15, fill=INK, font_weight="700"))
    if tallest:
        out.append(draw_star(x0 + bw + depth + 10, top - 16, 8))
    return out


def areas_legend(s: TriAreaState, y: float) -> list[str]:
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
            "now 1st: " + ", ".join(seat_name(q, s.players) for q in firsts)
            if firsts
            else "no building yet"
        )
        out.append(_text(x + 22, yy + 29, now, size=12.5, fill=MUTED))
    return out


def legend(y: float) -> list[str]:
    """One line explaining the board's symbols: (symbol, label) pairs laid out left to right."""
    x: float = BOARD_X
    block = [
        _rect(0, -11, 22, 11, fill=SEAT_COLOURS[1], stroke="#ffffff", stroke_width=0.8),
        _text(11, -2.5, "1", size=9, fill="#ffffff", font_weight="700", text_anchor="middle"),
    ]
    items: list[tuple[list[str], float, str]] = [
        (block, 22, "a block: seat colour, seat number"),
        ([_text(0, 0, "4", size=15, fill=INK, font_weight="700")], 10, "height"),
        ([draw_star(7, -5, 7)], 14, "tallest"),
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
