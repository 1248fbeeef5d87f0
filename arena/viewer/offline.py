"""The offline viewer: one self-contained HTML file for a replay (``arena replay view``).

The page holds the site's viewer (``replay.js`` and ``replay.css`` inlined, the same markup)
and every step's JSON, the same as the site's ``/matches/<id>/steps/<n>.json``, computed in
one pass of the engine and embedded in gzip-compressed, base64-encoded parts
(:mod:`arena.viewer.packing`) that the browser unpacks with ``DecompressionStream`` as the
viewer reaches them. The replay's own logs, when it has some, feed the logs panel.

No network and no server: the page's Content-Security-Policy (``default-src 'none'``, the
inline script and style allowed by their SHA-256) forbids every request, so nothing in it
could reach out even by mistake.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterator
from html import escape
from typing import Any

from arena.viewer import ASSETS
from arena.viewer.markup import json_block, notable_markup, viewer_markup
from arena.viewer.notable import notable_decisions
from arena.viewer.packing import pack_steps
from arena.viewer.steps import all_steps, renderer_for, svg_renderer_for
from games.base import GameError
from games.registry import get_game


def viewer_page(replay: dict[str, Any], progress: Callable[[int], None] | None = None) -> str:
    """The whole page for ``replay`` (a replay document, docs/replay-format.md);
    ``progress(n)`` is told each step computed (of ``len(decisions) + 1``)."""
    first: list[dict[str, Any]] = []

    def rows() -> Iterator[tuple[dict[str, Any], list[Any]]]:
        for row in all_steps(replay):
            if not first:
                first.append(row[0])
            yield row

    packed = pack_steps(rows(), progress)
    names = seat_names(replay)
    slug = str(replay.get("game"))
    viewer = viewer_markup(
        first[0],
        seats=sorted(names.items()),
        has_svg=svg_renderer_for(slug) is not None,
        has_text=renderer_for(slug) is not None,
    )
    script = (ASSETS / "replay.js").read_text(encoding="utf-8")
    style = "\n".join((ASSETS / n).read_text(encoding="utf-8") for n in ("page.css", "replay.css"))
    logs = logs_of(replay)
    body = "\n".join(
        [
            _header(replay, names),
            viewer,
            _notable(replay, names),
            json_block("replay-seats", {"names": names, "faults": _faults(replay)}),
            json_block("replay-steps", packed),
            json_block("replay-logs", {"seats": logs}) if logs else "",
        ]
    )
    csp = (
        f"default-src 'none'; script-src '{_sha256(script)}'; style-src '{_sha256(style)}'; "
        "img-src data:; base-uri 'none'; form-action 'none'"
    )
    return (
        '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(_title(replay))}</title>\n"
        '<link rel="icon" href="data:,">\n'
        f"<style>{style}</style>\n</head>\n<body>\n<main>\n{body}\n</main>\n"
        f"<script>{script}</script>\n</body>\n</html>\n"
    )


def seat_names(replay: dict[str, Any]) -> dict[int, str]:
    """Each seat's name as the viewer shows it: the name the bot gave, else its spec."""
    names = {}
    for i, s in enumerate(replay.get("seats") or []):
        s = s if isinstance(s, dict) else {}
        names[i] = str(s.get("name") or s.get("bot") or f"seat {i}")
    return names


def logs_of(replay: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The replay's logs in the shape of the site's ``logs.json`` (``{"<seat>": {"text",
    "marks"}}``), for the seats that wrote something; a replay without ``log_marks`` (an
    older referee's) has the whole text and no marks."""
    texts, marks = _list(replay.get("logs")), _list(replay.get("log_marks"))
    found = {}
    for i, text in enumerate(texts):
        seat_marks = marks[i] if i < len(marks) and isinstance(marks[i], list) else []
        if (isinstance(text, str) and text) or seat_marks:
            found[str(i)] = {"text": text if isinstance(text, str) else "", "marks": seat_marks}
    return found


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _faults(replay: dict[str, Any]) -> dict[int, list[Any]]:
    return {
        i: [f for f in (s.get("faults") or []) if isinstance(f, dict)]
        for i, s in enumerate(replay.get("seats") or [])
        if isinstance(s, dict)
    }


def _title(replay: dict[str, Any]) -> str:
    return f"{_game_name(replay)} · seed {replay.get('seed')} · replay"


def _game_name(replay: dict[str, Any]) -> str:
    try:
        return get_game(str(replay.get("game"))).name
    except GameError:
        return str(replay.get("game"))


def _header(replay: dict[str, Any], names: dict[int, str]) -> str:
    result = _dict(replay.get("result"))
    chosen = _dict(replay.get("options"))
    options = ", ".join(f"{escape(str(k))}={escape(json.dumps(v))}" for k, v in chosen.items())
    facts = [
        ("Game", f"{escape(_game_name(replay))} (<code>{escape(str(replay.get('game')))}</code>)"),
        ("Seed", f"<code>{escape(str(replay.get('seed')))}</code>"),
        ("Options", f"<code>{options}</code>" if options else "none"),
        ("Ended by", escape(str(result.get("reason") or replay.get("status") or "–"))),
        ("Started", escape(str(replay.get("started_at") or "–"))),
    ]
    rows = "".join(_seat_row(i, s, names[i]) for i, s in enumerate(replay.get("seats") or []))
    return (
        f"<h1>{escape(_game_name(replay))} · replay</h1>\n"
        '<dl class="kv small">'
        + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts)
        + '</dl>\n<h2>Seats</h2>\n<table class="seats"><thead><tr><th>Seat</th><th>Bot</th>'
        '<th class="num">Rank</th><th class="num">Score</th><th>Status</th>'
        '<th class="num">Think time</th><th>Faults</th></tr></thead>'
        f"<tbody>{rows}</tbody></table>\n<h2>Replay</h2>"
    )


def _seat_row(i: int, seat: Any, name: str) -> str:
    s = seat if isinstance(seat, dict) else {}
    faults = "".join(
        f'<div class="fault">turn {escape(str(f.get("turn")))}: {escape(str(f.get("kind")))}'
        f"{' · ' + escape(str(f['detail'])[:80]) if f.get('detail') else ''}</div>"
        for f in s.get("faults") or []
        if isinstance(f, dict)
    )
    status = escape(str(s.get("status") or ""))
    badge = f'<span class="badge {status}">{status}</span>' if status else ""
    time_ms = s.get("time_ms")
    think = f"{time_ms:.0f} ms" if isinstance(time_ms, int | float) else ""
    winner = ' class="winner"' if s.get("rank") == 1 else ""
    return (
        f'<tr data-seat="{i}"{winner}>'
        f'<td><span class="seat-dot seat-{i}"></span>{i}</td><td>{escape(name)}</td>'
        f'<td class="num">{escape(str(s.get("rank", "–")))}</td>'
        f'<td class="num">{escape(str(s.get("score", "–")))}</td>'
        f'<td>{badge}</td><td class="num">{think}</td>'
        f'<td class="small">{faults or "<span class=muted>none</span>"}</td></tr>'
    )


def _notable(replay: dict[str, Any], names: dict[int, str]) -> str:
    """The decisions worth a look of every program seat (not a built-in bot, not a person)."""
    sections = [
        notable_markup(i, names[i], notable_decisions(replay, i))
        for i, s in enumerate(replay.get("seats") or [])
        if isinstance(s, dict) and not s.get("builtin") and not s.get("human")
    ]
    if not sections:
        return ""
    return "<h2>Decisions worth a look</h2>\n" + "\n".join(sections)


def _sha256(text: str) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
