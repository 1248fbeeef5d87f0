"""The viewer's markup: one ``<div id="replay">`` for the site's match page and for the offline
file, so that ``replay.js`` finds the same controls in both. Every value that comes from a
replay is escaped here; the SVG pictures are the games' own renderers' output (their text is
XML-escaped, they hold no script), inserted as markup as on the site.

What differs is passed in: the site gives the URL of its step JSON (``step_url``) and, for a
caller who may read some seats' logs, the URL of ``logs.json``; the offline page gives
neither and embeds the steps and logs instead (:mod:`arena.viewer.offline`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from string import Template
from typing import Any

_VIEWER = Template((Path(__file__).parent / "viewer.html").read_text(encoding="utf-8"))

#: The speed control's choices: milliseconds between steps, and their labels.
SPEEDS: tuple[tuple[int, str], ...] = (
    (1000, "1 step/s"),
    (500, "2 steps/s"),
    (200, "5 steps/s"),
    (100, "10 steps/s"),
    (25, "40 steps/s"),
)
DEFAULT_SPEED = 500


def viewer_markup(
    first: dict[str, Any],
    *,
    seats: Sequence[tuple[int, str]],
    has_svg: bool,
    has_text: bool,
    step_url: str | None = None,
    logs_url: str | None = None,
    download_url: str | None = None,
) -> str:
    """The viewer, showing step 0 (``first``, a step's JSON) until its script takes over."""
    attrs = "".join(
        f' data-{name}="{escape(value)}"'
        for name, value in (("url-template", step_url), ("logs-url", logs_url))
        if value
    )
    download = (
        f'<a class="small" href="{escape(download_url)}" download>Download the replay (JSON)</a>'
        if download_url
        else ""
    )
    return _VIEWER.substitute(
        attrs=attrs,
        total=int(first["total"]),
        speeds="".join(
            f'<option value="{ms}"{" selected" if ms == DEFAULT_SPEED else ""}>{label}</option>'
            for ms, label in SPEEDS
        ),
        seat_options="".join(
            f'<option value="{int(seat)}">seat {int(seat)} · {escape(name)}</option>'
            for seat, name in seats
        ),
        download=download,
        picture=_picture(first, has_svg=has_svg, has_text=has_text),
    )


def _picture(first: dict[str, Any], *, has_svg: bool, has_text: bool) -> str:
    parts = []
    if has_svg:
        svg = first.get("svg") or '<p class="muted small">No picture for this step.</p>'
        parts.append(f'<figure class="state-svg" data-field="svg">{svg}</figure>')
    if has_text:
        pre = f'<pre class="state" data-field="state">{escape(first.get("state_text") or "")}</pre>'
        if has_svg:
            pre = (
                '<details class="state-text"><summary class="small">The position as text'
                f"</summary>{pre}</details>"
            )
        parts.append(pre)
    if not parts:
        parts.append(
            '<p class="muted small">This game has no state picture; the public events of each '
            "decision are shown instead.</p>"
        )
    return "\n".join(parts)


def notable_markup(seat: int, name: str, notable: dict[str, Any]) -> str:
    """One seat's decisions worth a look (:func:`arena.viewer.notable.notable_decisions`), each
    a link to its step in the viewer (``#step=N``: the decision, its log and the position
    after it)."""

    def link(row: dict[str, Any]) -> str:
        href = f"#step={int(row['step'])}"
        return f'<a href="{href}">decision #{escape(str(row["turn"]))}</a>'

    faults = "".join(
        f'<li>{link(r)}: <span class="fault">{escape(str(r["kind"]))}</span>'
        f"{': ' + escape(str(r['detail'])) if r.get('detail') else ''}</li>"
        for r in notable["faults"]
    )
    slowest = "".join(
        f"<li>{link(r)}: {_ms(r['ms'])}"
        f"{' · <span class=fault>' + escape(str(r['fault'])) + '</span>' if r.get('fault') else ''}"
        "</li>"
        for r in notable["slowest"]
    )
    more = notable.get("more_faults", 0)
    return (
        f'<section class="card notable" data-notable-seat="{int(seat)}">'
        f'<h3><span class="seat-dot seat-{int(seat)}"></span>Seat {int(seat)} · {escape(name)}'
        "</h3>"
        + (f'<p class="small muted">Faults</p><ol>{faults}</ol>' if faults else "")
        + (f'<p class="small muted">{int(more)} more fault(s) not listed.</p>' if more else "")
        + (f'<p class="small muted">Slowest decisions</p><ol>{slowest}</ol>' if slowest else "")
        + ("" if faults or slowest else '<p class="small muted">No decision of this seat.</p>')
        + "</section>"
    )


def _ms(ms: Any) -> str:
    """Three significant digits, as the viewer shows a decision's time: 1234.5 -> 1230 ms."""
    return f"{float(f'{ms:.3g}'):g} ms" if isinstance(ms, int | float) else "–"


def json_block(element_id: str, value: Any) -> str:
    """A ``<script type="application/json">`` holding ``value``, safe inside HTML (as Django's
    ``json_script``: ``<``, ``>`` and ``&`` escaped, so no text can close the element)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    for char, code in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(char, code)
    return f'<script type="application/json" id="{escape(element_id)}">{text}</script>'
