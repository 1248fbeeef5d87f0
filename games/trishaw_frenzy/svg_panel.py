"""The panel beside the Trishaw Frenzy map: round, status, each rider's progress and VP, the
route and decks, the event card being resolved, and the legend of the squares."""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from games.trishaw_frenzy import scoring
from games.trishaw_frenzy.components import (
    EVENT_BOTTOM,
    EVENT_IDS,
    EVENT_TILES,
    ROUTE_IDS,
    ROUTE_NAMES,
)
from games.trishaw_frenzy.svg_parts import (
    ACCENT,
    ARROW_FILL,
    BOARD_Y,
    EFFECTS,
    FILL,
    HEIGHT,
    INK,
    MUTED,
    PANEL_X,
    SIDE_NAMES,
    progress,
    rider_colour,
    who,
)


def panel(s: dict[str, Any]) -> list[str]:
    x = PANEL_X
    out = _status(s)
    y = _riders(s, out)
    y = _cards_in_play(s, y, out)
    out += legend(x, max(y + 36, HEIGHT - 150))
    return out


def _status(s: dict[str, Any]) -> list[str]:
    """The title, the round, and what happens now (or who won)."""
    x = PANEL_X
    over = s["phase"] == "over"
    out = [
        f'<text x="{x}" y="{BOARD_Y - 10}" font-size="20" font-weight="700" fill="{INK}">'
        "Trishaw Frenzy</text>",
        f'<text x="{x}" y="{BOARD_Y + 14}" font-size="14" fill="{INK}">Round '
        f'<tspan font-weight="700">{s["round"]}</tspan> of {s["rounds"]}</text>',
    ]
    if over:
        keys = scoring.final_keys(s["tokens"], s["bonus"])
        best = [t for t, k in enumerate(keys) if k == max(keys)]
        status = "Game over: " + (
            f"{who(s, best[0])} wins"
            if len(best) == 1
            else "seats " + ", ".join(map(str, best)) + " tie"
        )
    elif s["phase"] == "event":
        status = f"{who(s, s['turn'])}: event decision"
    else:
        status = f"{who(s, s['turn'])} to roll"
    out.append(
        f'<text x="{x}" y="{BOARD_Y + 36}" font-size="14" font-weight="700" '
        f'fill="{ACCENT}">{escape(status)}</text>'
    )
    return out


def _riders(s: dict[str, Any], out: list[str]) -> int:
    """One row per trishaw (progress, VP tokens, total) into ``out``; returns the next line's
    y."""
    x = PANEL_X
    over = s["phase"] == "over"
    y = BOARD_Y + 66
    out.append(_small(x, y, "RIDER", bold=True) + _small(x + 130, y, "PROGRESS", bold=True))
    out.append(_small(x + 268, y, "VP", bold=True, anchor="end"))
    tot = scoring.totals(s["tokens"], s["bonus"])
    for t in range(len(s["pos"])):
        y += 30
        ink = rider_colour(s, t)
        first = " \u2691" if t == s["first"] else ""
        tokens = "+".join(str(k) for k in s["tokens"][t])
        if s["bonus"][t]:
            tokens += ("+" if tokens else "") + f"{s['bonus'][t]} bonus"
        if t == s["turn"] and not over:
            out.append(
                f'<rect x="{x - 6}" y="{y - 17}" width="282" height="28" rx="6" '
                f'fill="{ink}" fill-opacity=".12"/>'
            )
        out.append(
            f'<circle cx="{x + 7}" cy="{y - 4}" r="7" fill="{ink}"/>'
            f'<text x="{x + 20}" y="{y}" font-size="14" font-weight="600" fill="{INK}">'
            f"{escape(who(s, t) + first)}</text>"
            f'<text x="{x + 130}" y="{y}" font-size="13" fill="{INK}">{progress(s, t)}/80</text>'
            f'<text x="{x + 268}" y="{y}" font-size="15" font-weight="700" fill="{INK}" '
            f'text-anchor="end">{tot[t]} VP</text>'
            f'<text x="{x + 180}" y="{y}" font-size="11" fill="{MUTED}">{escape(tokens)}</text>'
        )
    y += 22
    out.append(_small(x, y, "\u2691 first rider this round \u00b7 dashed ring: to move"))
    return y


def _cards_in_play(s: dict[str, Any], y: int, out: list[str]) -> int:
    """The route card, the decks and the event card being resolved, into ``out``; returns the
    last line's y."""
    x = PANEL_X
    r, v = s["route"]
    y += 28
    out.append(_line(x, y, "Route", f"{ROUTE_IDS[r]}, read from the {SIDE_NAMES[v]} side"))
    y += 18
    out.append(_small(x + 52, y, ROUTE_NAMES[r]))
    y += 24
    out.append(
        _line(
            x,
            y,
            "Decks",
            f"{len(s['event_deck'])} event cards, {len(s['route_deck'])} routes left",
        )
    )
    event = s.get("event")
    if event is not None:
        card, view = event
        tiles = ", ".join(str(p) for p in sorted(EVENT_TILES[card][view]))
        y += 30
        out.append(
            f'<rect x="{x - 6}" y="{y - 18}" width="282" height="48" rx="6" fill="#fff" '
            f'stroke="{ACCENT}" stroke-width="2"/>'
            + _line(x, y, "Event", f"{EVENT_IDS[card]}: rotate tile {tiles}")
            + _small(x + 52, y + 18, f"or {EFFECTS.get(EVENT_BOTTOM[card], EVENT_BOTTOM[card])}")
        )
        y += 12
    return y


def legend(x: int, y: int) -> list[str]:
    out = [_small(x, y, "LEGEND", bold=True)]
    items = [
        (FILL["."], "", "beige: nothing"),
        (ARROW_FILL, "tf-arrow", "arrow: one square that way (wraps)"),
        (FILL["E"], "tf-event", "event: draw an event card"),
        (FILL["P"], "tf-portal", "portal: on to the next portal"),
    ]
    for k, (fill, shape, label) in enumerate(items):
        bx, by = x, y + 10 + k * 28
        out.append(
            f'<rect x="{bx}" y="{by}" width="24" height="24" fill="{fill}" stroke="#d6cbb0"/>'
        )
        if shape:
            extra = ' fill="#57534e"' if shape == "tf-arrow" else ""
            out.append(
                f'<use href="#{shape}" transform="translate({bx + 12},{by + 12}) scale(.7)"'
                f"{extra}/>"
            )
        out.append(_small(bx + 30, by + 16, label))
    return out


def _line(x: int, y: int, key: str, value: str) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="12" fill="{MUTED}">{escape(key)}</text>'
        f'<text x="{x + 52}" y="{y}" font-size="13" fill="{INK}">{escape(value)}</text>'
    )


def _small(x: int, y: int, text: str, bold: bool = False, anchor: str = "start") -> str:
    weight = ' font-weight="700" letter-spacing=".6"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" font-size="12" fill="{MUTED}" text-anchor={quoteattr(anchor)}'
        f"{weight}>{escape(text)}</text>"
    )
