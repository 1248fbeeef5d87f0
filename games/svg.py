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
