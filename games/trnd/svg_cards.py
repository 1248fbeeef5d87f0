"""TRND cards in the picture: the faces (colour and chair shape) and the legend of both."""

from __future__ import annotations

from games.svg import INK, MUTED
from games.svg import attrs as _attrs
from games.svg import num as _num
from games.svg import rect as _rect
from games.svg import text as _text
from games.trnd import cards as C

# Card faces per colour (white, red, black): fill, border, and the ink of the chair shape.
CARD_FILL = ("#fdfcf8", "#dc2626", "#27272a")
CARD_EDGE = ("#a8a29e", "#991b1b", "#000000")
CARD_INK = ("#374151", "#ffffff", "#f5f5f4")


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


def draw_card(x: float, y: float, t: int, w: float, h: float, label: bool = False) -> list[str]:
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


def legend(x0: float, y: float) -> list[str]:
    """Colours and chair styles, with the shapes used on the cards."""
    out = [_text(x0, y, "Cards", size=13, fill=MUTED, font_weight="700")]
    x = x0 + 52
    for c, name in enumerate(C.COLOURS):
        out.append(_rect(x, y - 12, 14, 14, rx=3, fill=CARD_FILL[c], stroke=CARD_EDGE[c]))
        out.append(_text(x + 19, y, name, size=12, fill=INK))
        x += 70
    x = x0 + 52
    for st, name in enumerate(C.STYLES):
        t = st  # a white card of that style
        out.extend(draw_card(x, y + 10, t, 26, 36))
        out.append(_text(x + 32, y + 33, name, size=12.5, fill=INK))
        x += 92
    return out
