"""A knockout's bracket as an SVG drawn on the server, inlined in the page: rounds as columns,
each box's entrants with their points at the table, who went through marked (bold, a ✓), and
each match of the box linked to its replay. No script and no style attribute (the site's CSP
allows neither): presentation attributes only, every name escaped (``games.svg``)."""

from __future__ import annotations

from collections.abc import Callable
from xml.sax.saxutils import escape

from arena.formats.results.bracket import (
    BOX_WIDTH,
    FOOTER,
    GAP_X,
    LINE_HEIGHT,
    TOP,
    Box,
    Bracket,
)
from arena.formats.results.crosstable import points_text
from arena.formats.results.published import Entrant
from games.svg import ACCENT, INK, LINE, MUTED, attrs, num, rect, text

#: Names longer than this are cut (the full name is in the box's tooltip).
NAME_CHARS = 22
#: Game links drawn in a box's footer; past it, "+n" (the crosstable JSON has them all).
LINKS_SHOWN = 6
THROUGH_FILL = "#fff7ed"


def round_label(r: int, columns: int) -> str:
    left = columns - r
    if left == 1:
        return "Final"
    if left == 2:
        return "Semi-finals"
    if left == 3:
        return "Quarter-finals"
    return f"Round {r + 1}"


def bracket_svg(
    bracket: Bracket, entrants: dict[str, Entrant], match_url: Callable[[int], str]
) -> str:
    """The picture; '' when no round is drawn yet. ``match_url(id)`` is a match's page."""
    if not bracket.columns:
        return ""
    n = len(bracket.columns) + (1 if bracket.champion else 0)
    width = n * BOX_WIDTH + (n - 1) * GAP_X + 2
    parts = [
        f'<svg class="bracket" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'viewBox="0 0 {width} {num(bracket.height)}" width="{width}" '
        f'height="{num(bracket.height)}" font-family="system-ui, sans-serif">',
        "<title>Knockout bracket</title>",
    ]
    for r, column in enumerate(bracket.columns):
        x = 1 + r * (BOX_WIDTH + GAP_X)
        parts.append(text(x, 16, round_label(r, len(bracket.columns)), 12, fill=MUTED))
        if r > 0:
            parts.extend(_connectors(bracket.columns[r - 1], column, x))
        for box in column:
            parts.append(_box(box, x, bracket, entrants, match_url))
    if bracket.champion:
        parts.append(_champion(bracket, entrants, match_url))
    parts.append("</svg>")
    return "".join(parts)


def _connectors(prev: list[Box], column: list[Box], x: float) -> list[str]:
    """An elbow from each box to the box of the next round its entrants went on to."""
    out = []
    for box in column:
        for feeder in prev:
            if set(feeder.bots) & set(box.bots):
                x1, xm = x - GAP_X, x - GAP_X / 2
                d = f"M{num(x1)} {num(feeder.y)}H{num(xm)}V{num(box.y)}H{num(x)}"
                out.append(f"<path{attrs({'d': d, 'fill': 'none', 'stroke': LINE})}/>")
    return out


def _box(
    box: Box,
    x: float,
    bracket: Bracket,
    entrants: dict[str, Entrant],
    match_url: Callable[[int], str],
) -> str:
    top = box.y - bracket.box_height / 2
    parts = [
        f"<g{attrs({'class': 'bracket-box', 'data-round': box.round})}>",
        rect(x, top, BOX_WIDTH, bracket.box_height, rx=6, fill="#ffffff", stroke=LINE),
    ]
    for i, key in enumerate(box.bots):
        e = entrants.get(key)
        name = e.label if e is not None else f"version {key}"
        y = top + LINE_HEIGHT * i
        through = key in box.through
        if through:
            parts.append(rect(x + 1, y + 1, BOX_WIDTH - 2, LINE_HEIGHT - 1, fill=THROUGH_FILL))
        mark = "✓ " if through else ""
        weight = "700" if through else None
        parts.append(
            f"<g{attrs({'data-entrant': key, 'data-through': 'yes' if through else None})}>"
            f"<title>{escape(name)}{escape(' (' + e.owner + ')') if e else ''}</title>"
            + text(x + 6, y + 13, mark + _cut(name), 12, fill=INK, font_weight=weight)
            + (
                text(
                    x + BOX_WIDTH - 6,
                    y + 13,
                    points_text(box.points[key]),
                    12,
                    fill=INK,
                    text_anchor="end",
                    font_weight=weight,
                )
                if key in box.points and box.played
                else ""
            )
            + "</g>"
        )
    foot = top + LINE_HEIGHT * bracket.seats + FOOTER - 5
    parts.append(_footer(box, x, foot, match_url))
    parts.append("</g>")
    return "".join(parts)


def _footer(box: Box, x: float, y: float, match_url: Callable[[int], str]) -> str:
    """ "bye", or the box's matches as links: "replay" for one, "1 2 3" for several."""
    if box.bye:
        return text(x + 6, y, "bye: goes through", 11, fill=MUTED)
    if not box.matches:
        return ""
    label = len(box.matches) > 1
    parts = [text(x + 6, y, "replays:" if label else "", 11, fill=MUTED)] if label else []
    step = 18
    for i, m in enumerate(box.matches[:LINKS_SHOWN]):
        body = str(i + 1) if label else ("replay" if m.ranks is not None else m.status)
        at = x + (62 + i * step if label else 6)
        fill = ACCENT if m.ranks is not None else MUTED
        parts.append(
            f"<a{attrs({'href': match_url(m.match_id), 'data-match': m.match_id})}>"
            f"<title>Match {m.match_id}: {escape(m.status)}</title>"
            + text(at, y, body, 11, fill=fill, text_decoration="underline")
            + "</a>"
        )
    if len(box.matches) > LINKS_SHOWN:
        more = f"+{len(box.matches) - LINKS_SHOWN}"
        parts.append(text(x + 62 + LINKS_SHOWN * step, y, more, 11, fill=MUTED))
    return "".join(parts)


def _champion(
    bracket: Bracket, entrants: dict[str, Entrant], match_url: Callable[[int], str]
) -> str:
    assert bracket.champion is not None
    x = 1 + len(bracket.columns) * (BOX_WIDTH + GAP_X)
    final = next((b for b in bracket.columns[-1] if bracket.champion in b.bots), None)
    y = final.y if final is not None else TOP + bracket.box_height / 2
    e = entrants.get(bracket.champion)
    name = e.label if e is not None else f"version {bracket.champion}"
    parts = [
        text(x, 16, "Winner", 12, fill=MUTED),
        f"<path{attrs({'d': f'M{num(x - GAP_X)} {num(y)}H{num(x)}', 'stroke': ACCENT})}/>",
        f"<g{attrs({'class': 'bracket-winner', 'data-entrant': bracket.champion})}>",
        rect(x, y - 20, BOX_WIDTH, 40, rx=6, fill=THROUGH_FILL, stroke=ACCENT, stroke_width=2),
        text(x + 8, y + 5, "★ " + _cut(name), 13, fill=INK, font_weight="700"),
        "</g>",
    ]
    if bracket.final_match is not None:
        href = match_url(bracket.final_match)
        parts.append(
            f"<a{attrs({'href': href, 'data-match': bracket.final_match})}>"
            + text(
                x + 8, y + 34, "the final's replay", 11, fill=ACCENT, text_decoration="underline"
            )
            + "</a>"
        )
    return "".join(parts)


def _cut(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"
