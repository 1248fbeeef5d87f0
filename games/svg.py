"""Shared pieces of the games' SVG pictures (``games/<game>/render_svg.py``): the site's
palette and a few escaped element builders. Pure string work, no I/O."""

from __future__ import annotations

from xml.sax.saxutils import escape

#: Seat colours 0..4, the same on every picture and in the site's seat tables.
SEAT_COLOURS = ("#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c")
ACCENT = "#c2410c"
BG = "#f6f4ef"
INK = "#1f2430"
MUTED = "#6b7080"
LINE = "#d6d1c4"


def num(v: float) -> str:
    """A coordinate as short as it can be written (keeps the SVG small)."""
    return str(int(v)) if v == int(v) else f"{v:.1f}"


def attrs(values: dict[str, object]) -> str:
    """``fill_opacity=0.5`` -> ` fill-opacity="0.5"` (a trailing ``_`` allows ``class_``);
    None values are left out; values are escaped for a double-quoted attribute."""
    return "".join(
        f' {k.rstrip("_").replace("_", "-")}="{escape(str(v), {chr(34): "&quot;"})}"'
        for k, v in values.items()
        if v is not None
    )


def rect(x: float, y: float, w: float, h: float, **more: object) -> str:
    return f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"{attrs(more)}/>'


def text(x: float, y: float, body: str, size: float = 13, **more: object) -> str:
    head = f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}"{attrs(more)}>'
    return f"{head}{escape(body)}</text>"


#: Card backs: what a seat cannot see is drawn face down, the same on every game's picture.
BACK_FILL = "#475569"
BACK_EDGE = "#1e293b"
BACK_INK = "#e2e8f0"


def card_back(x: float, y: float, w: float, h: float, count: int, zone: str = "hand") -> str:
    """``count`` hidden cards as one face-down stack with the count on it, in a group
    ``data-hidden=zone data-count=count`` (for tests and scripts). Nothing about the faces is
    drawn: a picture for a seat must not depend on what that seat cannot know."""
    parts = [f"<g{attrs({'data-hidden': zone, 'data-count': count})}>"]
    if count > 1:  # a second card peeking out: a stack, not one card
        parts.append(rect(x + 3, y - 3, w, h, rx=max(3, w / 12), fill=BACK_EDGE))
    parts.append(
        rect(x, y, w, h, rx=max(3, w / 12), fill=BACK_FILL, stroke=BACK_EDGE, stroke_width=1.2)
    )
    inset = max(2.0, w / 10)
    parts.append(
        rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, rx=2, fill="none", stroke=BACK_INK)
    )
    parts.append(
        text(
            x + w / 2,
            y + h / 2 + min(w, h) * 0.16,
            str(count),
            size=min(w, h) * 0.45,
            fill="#ffffff",
            font_weight="800",
            text_anchor="middle",
        )
    )
    parts.append("</g>")
    return "".join(parts)


def you(seat: int, viewer: int | None) -> str:
    """`` (you)`` after the name of the seat the picture is drawn for, else nothing."""
    return " (you)" if viewer is not None and seat == viewer else ""
