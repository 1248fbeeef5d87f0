"""The panels beside and under the Tri*Area board: one per seat (score, blocks, hand, lead
declaration) and the current trick. Drawn for a viewer seat, other seats' hands (NPC seats' too)
and their lead declarations before the reveal are face down with their count."""

from __future__ import annotations

from games.svg import ACCENT, INK, LINE, MUTED, SEAT_COLOURS, card_back, you
from games.svg import rect as _rect
from games.svg import text as _text
from games.tri_area.rounds import SEATS, TRICKS
from games.tri_area.state import TriAreaState
from games.tri_area.svg_parts import (
    CARD_INK,
    PANEL_H,
    PANEL_W,
    PANEL_X,
    SUIT_NAMES,
    draw_card,
    draw_chip,
    seat_name,
)


def seat_panel(s: TriAreaState, seat: int, y: float, viewer: int | None = None) -> list[str]:
    return [
        *_seat_header(s, seat, y, viewer),
        *_seat_score(s, seat, y),
        *_seat_blocks(s, seat, y),
        *_seat_hand(s, seat, y, hidden=viewer is not None and seat != viewer),
    ]


def _seat_header(s: TriAreaState, seat: int, y: float, viewer: int | None = None) -> list[str]:
    """The panel's frame (accented for the seat to act), the seat's name and its roles."""
    colour = SEAT_COLOURS[seat]
    x, w = PANEL_X, PANEL_W
    to_act = s.phase != "over" and s.turn == seat
    name = seat_name(seat, s.players) + you(seat, viewer)
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
        _text(x + 16, y + 21, name, size=15, fill=colour, font_weight="700"),
    ]
    cx = x + 16 + 9.5 * len(name) + 8
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
        parts, cw = draw_chip(cx, y + 20, label, fill)
        out.extend(parts)
        cx += cw + 5
    return out


def _seat_score(s: TriAreaState, seat: int, y: float) -> list[str]:
    """The seat's points, and its totals after each finished round."""
    x, w = PANEL_X, PANEL_W
    out = [
        _text(
            x + w - 12,
            y + 25,
            f"{s.scores[seat]}",
            size=24,
            fill=INK,
            font_weight="700",
            text_anchor="end",
        )
    ]
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
    return out


def _seat_blocks(s: TriAreaState, seat: int, y: float) -> list[str]:
    """Blocks in front of the seat, one small square each, and how many it sold."""
    x = PANEL_X
    out = [_text(x + 16, y + 42, "blocks", size=12.5, fill=MUTED)]
    left = s.supply[seat]
    for i in range(left):
        out.append(_rect(x + 64 + i * 13, y + 32, 10, 10, rx=1.5, fill=SEAT_COLOURS[seat]))
    note = f"{left} left"
    if s.sold[seat]:
        note += f" · {s.sold[seat]} sold"
    out.append(_text(x + 68 + left * 13, y + 42, note, size=12.5, fill=INK))
    return out


def _seat_hand(s: TriAreaState, seat: int, y: float, hidden: bool = False) -> list[str]:
    """The whole hand (a replay shows everything), then a pending lead declaration; when the
    picture's viewer cannot see them (``hidden``), the hand and an unrevealed declaration are
    face down with their count."""
    x = PANEL_X
    hand = s.hands[seat]
    out = [_text(x + 16, y + 74, "hand", size=12.5, fill=MUTED)]
    if hidden and hand:
        out.append(card_back(x + 54, y + 52, 26, 38, len(hand)))
        out.append(_text(x + 88, y + 74, f"{len(hand)} cards", size=12.5, fill=MUTED))
    else:
        for i, card in enumerate(hand):
            out.extend(draw_card(x + 54 + i * 29, y + 52, card, w=26, h=38))
    if not hand:
        out.append(_text(x + 56, y + 74, "empty", size=12.5, fill=MUTED, font_style="italic"))
    decl = s.lead_decl[seat]
    if decl is not None:
        dx = x + 352
        label = "lead" if s.revealed else "lead (hidden)"
        out.append(_text(dx - 6, y + 74, label, size=11.5, fill=MUTED, text_anchor="end"))
        if hidden and not s.revealed:
            out.append(card_back(dx, y + 52, 26, 38, 1, zone="lead"))
        else:
            out.extend(draw_card(dx, y + 52, decl, w=26, h=38))
    elif s.round == 2 and len(hand) == 1 and s.phase != "over":
        out.append(_text(x + 82, y + 74, "declaration of intent", size=11.5, fill=MUTED))
    return out


def trick_panel(s: TriAreaState, y: float) -> list[str]:
    x, w, h = PANEL_X, PANEL_W, 116
    out = [_rect(x, y, w, h, rx=8, fill="#ffffff", stroke=LINE)]
    if s.phase in ("lead_declaration", "sell"):
        return out + _phase_note(s, y)
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
        out.extend(_played_card(s, seat, x + 20 + seat * 118, y))
    return out


def _phase_note(s: TriAreaState, y: float) -> list[str]:
    """Before round 3's tricks: what the declaration or the sale is. The table still holds
    round 2's last trick; it is not part of this picture."""
    x = PANEL_X
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
    out = [_text(x + 14, y + 22, lines[0], size=14, fill=INK, font_weight="700")]
    for i, line in enumerate(lines[1:]):
        out.append(_text(x + 14, y + 48 + i * 18, line, size=12, fill=INK))
    return out


def _played_card(s: TriAreaState, seat: int, cx: float, y: float) -> list[str]:
    """One seat's place at the trick: its card (a 5 with its chosen value) and its roles."""
    card = s.table[seat]
    colour = SEAT_COLOURS[seat]
    out = [_text(cx, y + 46, seat_name(seat, s.players), size=12, fill=colour, font_weight="700")]
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
        out.extend(draw_card(cx, y + 54, card, w=32, h=44))
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
