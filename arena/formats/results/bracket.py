"""A knockout's bracket from its results: rounds as columns of boxes (a table and its matches,
or a bye), who went through from each, and where each box sits in the picture
(``bracket_svg`` draws it).

The order down a column follows the bracket backwards from its last round: the boxes that fed
one box of the next column sit together, the one holding the better seed on top (at two seats
that is the standard seeding order, 1-8 4-5 2-7 3-6); a box sits level with the middle of
its feeders, as a printed bracket does."""

from __future__ import annotations

from dataclasses import dataclass, field

from arena.formats import StandingRow, match_points
from arena.formats.results.published import PlayedMatch, Results

#: Geometry of the picture, in SVG units.
BOX_WIDTH = 210
LINE_HEIGHT = 18
FOOTER = 18
GAP_X = 40
GAP_Y = 14
TOP = 28


@dataclass
class Box:
    round: int
    bots: tuple[str, ...]  # by seed, the best first
    matches: list[PlayedMatch]
    #: Points each bot earned at this table (finished matches).
    points: dict[str, float]
    #: Who went on to the next round from here.
    through: set[str]
    bye: bool = False
    y: float = 0.0  # the box's centre

    @property
    def played(self) -> bool:
        return any(m.finished for m in self.matches)


@dataclass
class Bracket:
    columns: list[list[Box]]
    seats: int  # the most entrants in one box
    champion: str | None = None
    final_match: int | None = None
    height: float = field(default=0.0)

    @property
    def box_height(self) -> float:
        return self.seats * LINE_HEIGHT + FOOTER


def build_bracket(results: Results) -> Bracket:
    """The bracket of a knockout, laid out; empty columns before the first round is drawn."""
    seed = {e.key: e.row.seed for e in results.entrants}
    rows = {e.key: e.row for e in results.entrants}
    rounds = sorted({m.round for m in results.matches})
    columns = [_column(results, r, seed, rows) for r in rounds]
    seats = max((len(b.bots) for col in columns for b in col), default=2)
    bracket = Bracket(columns=columns, seats=max(seats, 2))
    winner = results.winner
    if winner is not None and columns:
        bracket.champion = winner.key
        # The last match the winner finished: the final (its last game when it played several).
        finals = [m for box in columns[-1] if winner.key in box.bots for m in box.matches]
        done = [m for m in finals if m.finished]
        bracket.final_match = done[-1].match_id if done else None
    _order(columns, seed)
    _place(bracket)
    return bracket


def _column(
    results: Results, rnd: int, seed: dict[str, int], rows: dict[str, StandingRow]
) -> list[Box]:
    # Who went through is known once the round is recorded: a later round exists, or the end.
    recorded = results.status == "finished" or any(m.round > rnd for m in results.matches)
    tables: dict[frozenset[str], list[PlayedMatch]] = {}
    for m in results.matches:
        if m.round == rnd:
            tables.setdefault(frozenset(m.bots), []).append(m)
    boxes = []
    for bots, matches in tables.items():
        points = dict.fromkeys(bots, 0.0)
        for m in matches:
            if m.ranks is not None:
                for bot, p in zip(m.bots, match_points(m.ranks), strict=True):
                    points[bot] += p
        box = Box(rnd, tuple(sorted(bots, key=seed.__getitem__)), matches, points, set())
        if box.played and recorded:
            box.through = {b for b in bots if _alive_after(rows[b], rnd)}
        boxes.append(box)
    seated = {b for box in boxes for b in box.bots}
    for key, row in rows.items():
        # Alive when the round began but at no table: a bye, which goes through.
        if key not in seated and _alive_after(row, rnd - 1):
            boxes.append(Box(rnd, (key,), [], {}, {key}, bye=True))
    return boxes


def _alive_after(row: StandingRow, rnd: int) -> bool:
    return row.eliminated_in is None or row.eliminated_in > rnd


def _order(columns: list[list[Box]], seed: dict[str, int]) -> None:
    """Sort each column: the last by its best seed; each earlier one by the box it feeds in
    the column after it, then by its best seed."""
    if not columns:
        return
    columns[-1].sort(key=lambda b: seed[b.bots[0]])
    for r in range(len(columns) - 2, -1, -1):
        where = {bot: i for i, box in enumerate(columns[r + 1]) for bot in box.bots}

        def key(box: Box, where: dict[str, int] = where) -> tuple[int, int]:
            fed = [where[b] for b in box.bots if b in where]
            return (min(fed) if fed else len(where), seed[box.bots[0]])

        columns[r].sort(key=key)


def _place(bracket: Bracket) -> None:
    """Centres down each column: the first evenly spaced, each later box level with the middle
    of the boxes that fed it, never closer than a box and a gap to the one above."""
    pitch = bracket.box_height + GAP_Y
    bottom = 0.0
    for r, column in enumerate(bracket.columns):
        if r == 0:
            for i, box in enumerate(column):
                box.y = TOP + pitch * i + bracket.box_height / 2
        else:
            prev = {bot: b.y for b in bracket.columns[r - 1] for bot in b.bots}
            for box in column:
                fed = [prev[b] for b in box.bots if b in prev]
                box.y = sum(fed) / len(fed) if fed else 0.0
            last = None
            for box in sorted(column, key=lambda b: b.y):
                if last is not None and box.y < last + pitch:
                    box.y = last + pitch
                box.y = max(box.y, TOP + bracket.box_height / 2)
                last = box.y
        bottom = max([bottom, *(b.y + bracket.box_height / 2 for b in column)])
    bracket.height = bottom + GAP_Y
