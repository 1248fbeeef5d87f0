"""The crosstable: entrant against entrant, each pairing's matches (linked to their replays)
and what they add up to. At two seats a cell is the pairing's results (1, ½, 0 per match);
at three or more it is the head-to-head placings at the tables both sat at (ahead, level,
behind: ``arena.formats.tiebreaks``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import Any

from arena.formats.results.published import Entrant, PlayedMatch, Results
from arena.formats.tiebreaks import Meeting

#: A cell links each of its matches up to this many; past it, the matches are in the JSON
#: export and the match list (a four-seat round robin's pair shares dozens of tables).
LINKED_PER_CELL = 4


@dataclass(slots=True)
class Game:
    """One match of a pairing, from the row entrant's side (slots: a 63-entrant crosstable
    makes 4,000 of them)."""

    match_id: int
    href: str
    mark: str  # "1", "½", "0"; "…" still to play; "✕" failed on the platform's side
    round: int
    status: str

    @property
    def title(self) -> str:
        return f"Match {self.match_id}, round {self.round + 1}: {self.status}"


@dataclass(slots=True)
class Cell:
    meeting: Meeting | None
    games: tuple[Game, ...]
    two_seats: bool

    @property
    def linked(self) -> tuple[Game, ...]:
        return self.games if len(self.games) <= LINKED_PER_CELL else ()

    @property
    def summary(self) -> str:
        """The pairing in a few characters: points at two seats, placings at more."""
        m = self.meeting
        if m is None or not m.played:
            return ""
        if self.two_seats:
            return points_text(m.points)
        return f"{m.ahead}–{m.level}–{m.behind}"

    def html(self) -> str:
        """The cell as a ``<td>``: its matches linked (up to :data:`LINKED_PER_CELL`), at
        three or more seats the placings after them. Drawn here, not by the template
        language: a 63-entrant table has 3,906 cells (a second of template tags)."""
        links = " ".join(
            f'<a href="{escape(g.href)}" title="{escape(g.title)}" data-match="{g.match_id}">'
            f"{g.mark}</a>"
            for g in self.linked
        )
        rest = (
            "" if self.linked and self.two_seats else f'<span class="muted">{self.summary}</span>'
        )
        return f'<td class="cell">{links}{" " if links and rest else ""}{rest}</td>'


@dataclass(frozen=True)
class CrossRow:
    entrant: Entrant
    cells: list[Cell | None]  # one per entrant in the table's order; None: itself
    sonneborn_berger: float

    @property
    def cells_html(self) -> str:
        """The row's cells, every value in them escaped or made here from numbers (safe to
        inline: the template marks it so)."""
        return "".join(
            '<td class="self" aria-label="itself"></td>' if c is None else c.html()
            for c in self.cells
        )


def points_text(value: float) -> str:
    """1.5 -> "1½", 0.5 -> "½", 2.0 -> "2" (thirds and other shares as decimals)."""
    whole, rest = divmod(round(value * 100), 100)
    if rest == 0:
        return str(whole)
    if rest == 50:
        return f"{whole or ''}½"
    return f"{value:.2f}".rstrip("0")


def _mark(m: PlayedMatch, a: str, b: str) -> str:
    if m.ranks is None:
        return "✕" if m.status == "error" else "…"
    ra, rb = m.ranks[m.bots.index(a)], m.ranks[m.bots.index(b)]
    return "1" if ra < rb else "½" if ra == rb else "0"


def _pairs(results: Results) -> dict[frozenset[str], list[PlayedMatch]]:
    """Every pair of entrants who sat at one table, with those matches (by id)."""
    out: dict[frozenset[str], list[PlayedMatch]] = {}
    for m in results.matches:
        for i, a in enumerate(m.bots):
            for b in m.bots[i + 1 :]:
                out.setdefault(frozenset((a, b)), []).append(m)
    return out


def crosstable(results: Results, match_url: Callable[[int], str]) -> list[CrossRow]:
    """The full table, rows and columns in the standings' order; ``match_url(id)`` is the
    address of a match's page."""
    pairs = _pairs(results)
    keys = [e.key for e in results.entrants]
    rows = []
    for e in results.entrants:
        cells: list[Cell | None] = []
        for other in keys:
            if other == e.key:
                cells.append(None)
                continue
            played = pairs.get(frozenset((e.key, other)), [])
            games = tuple(
                Game(m.match_id, match_url(m.match_id), _mark(m, e.key, other), m.round, m.status)
                for m in played
            )
            two = all(len(m.bots) == 2 for m in played)
            cells.append(Cell(results.meeting(e.key, other), games, two))
        rows.append(CrossRow(e, cells, results.sonneborn_berger.get(e.key, 0.0)))
    return rows


def crosstable_json(results: Results) -> list[dict[str, Any]]:
    """The crosstable for the exports: for each entrant (in the standings' order) the
    entrants it met, with the head-to-head record and the matches' ids (only pairs that
    met: a Swiss field stays small, and so does the work)."""
    met: dict[str, dict[str, list[int]]] = {}
    for m in results.matches:
        for a in m.bots:
            mine = met.setdefault(a, {})
            for b in m.bots:
                if b != a:
                    mine.setdefault(b, []).append(m.match_id)
    order = {e.key: i for i, e in enumerate(results.entrants)}
    out = []
    for e in results.entrants:
        opponents = []
        for other, ids in sorted(met.get(e.key, {}).items(), key=lambda kv: order.get(kv[0], 0)):
            record = results.meeting(e.key, other) or Meeting()
            opponents.append({"opponent": int(other), **record.to_json(), "matches": ids})
        out.append({"bot_version": e.version_id, "opponents": opponents})
    return out
