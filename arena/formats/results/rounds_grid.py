"""A Swiss's table round by round, as chess clubs print one: for each entrant and round, whom
it met and how it went, linked to the replay. At two seats a match reads ``+5`` (beat the
entrant in 5th place), ``=5`` (drew), ``−5`` (lost); at three or more ``2/4`` (placed 2nd at
a table of 4); ``bye`` for a round without a table. Entrants x rounds cells: bounded by the
field and the rounds, whatever the field's size."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from arena.formats.results.published import Entrant, PlayedMatch, Results


@dataclass(frozen=True)
class RoundsRow:
    entrant: Entrant
    #: One <td> per round, every value escaped or made here (the template marks it safe).
    cells_html: str


def _mark(m: PlayedMatch, key: str, place: dict[str, int]) -> str:
    """One match from ``key``'s side, as the grid shows it."""
    if m.ranks is None:
        return "✕" if m.status == "error" else "…"
    seat = m.bots.index(key)
    if len(m.bots) != 2:
        return f"{m.ranks[seat]}/{len(m.bots)}"
    mine, theirs = m.ranks[seat], m.ranks[1 - seat]
    sign = "+" if mine < theirs else "=" if mine == theirs else "−"
    return f"{sign}{place.get(m.bots[1 - seat], '?')}"


def rounds_grid(results: Results, match_url: Callable[[int], str]) -> tuple[int, list[RoundsRow]]:
    """How many rounds have matches, and each entrant's row (in the standings' order)."""
    rounds = 1 + max((m.round for m in results.matches), default=-1)
    place = {e.key: i for i, e in enumerate(results.entrants, start=1)}
    by_cell: dict[tuple[str, int], list[PlayedMatch]] = {}
    for m in results.matches:
        for b in m.bots:
            by_cell.setdefault((b, m.round), []).append(m)
    rows = []
    for e in results.entrants:
        cells = []
        for r in range(rounds):
            played = by_cell.get((e.key, r), [])
            if not played:
                cells.append('<td class="cell muted">bye</td>')
                continue
            links = " ".join(
                f'<a href="{escape(match_url(m.match_id))}" data-match="{m.match_id}" '
                f'title="Match {m.match_id}: {escape(m.status)}">{_mark(m, e.key, place)}</a>'
                for m in played
            )
            cells.append(f'<td class="cell">{links}</td>')
        rows.append(RoundsRow(e, "".join(cells)))
    return rounds, rows
