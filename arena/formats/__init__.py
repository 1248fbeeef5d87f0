"""Tournament formats as pure strategies: round robin, Swiss and knockout (docs/formats.md).

A tournament is played round by round. Between rounds the caller keeps one
:class:`StandingRow` per entrant (points, wins, matches, byes, opponents met, seats used,
Buchholz, eliminated); that row set is everything a format needs, so the next round never
replays past ones::

    from arena.formats import FormatOptions, new_standings, next_round, record_round

    opts = FormatOptions(players=2, seed=7)
    rows = new_standings(["alpha", "beta", "gamma", "delta", "eps"])  # list order = seeding
    number = 0
    while (rnd := next_round("swiss", rows, number, opts)) is not None:
        results = [play(m) for m in rnd.matches]      # Result(bots=m.bots, ranks=(...))
        rows = record_round("swiss", rows, number, results, opts)
        number += 1
    best = ranking("swiss", rows)[0]

Every function here is pure and deterministic: the same rows, round number and options give
the same round, seats and match seeds on any machine. ``record_round`` re-derives the round it
records from the rows as they were before it (so the caller stores only the rows and the
matches' results, never the round's plan) and refuses results that do not belong to it.

Points (all formats): a finished match gives each seat ``(seats it beat + half the seats it
tied with) / (seats - 1)``: with two seats a win is 1, a draw 0.5, a loss 0; at a four-seat
table the places are worth 1, 2/3, 1/3, 0. A match that ended in ``error`` (a system failure)
gives nothing to anyone. A Swiss bye is worth an average result, 0.5 per game of the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from arena.formats.base import (
    BYE_POINTS,
    Format,
    FormatError,
    FormatOptions,
    Result,
    Round,
    StandingRow,
    Standings,
    Table,
    checked_rows,
    match_points,
    new_standings,
    standings_from_json,
    standings_to_json,
)
from arena.formats.knockout import Knockout
from arena.formats.parts import OPTION_BOUNDS, Column, tiebreaks_of
from arena.formats.round_robin import RoundRobin
from arena.formats.swiss import SEARCH_BUDGET, Swiss

__all__ = [
    "BYE_POINTS",
    "FORMATS",
    "FORMAT_CHOICES",
    "FORMAT_NAMES",
    "OPTION_BOUNDS",
    "SEARCH_BUDGET",
    "Column",
    "Format",
    "FormatError",
    "FormatOptions",
    "Knockout",
    "Result",
    "Round",
    "RoundRobin",
    "StandingRow",
    "Standings",
    "Swiss",
    "Table",
    "check_format",
    "check_shape",
    "cut_refusal",
    "finished",
    "format_choices",
    "get_format",
    "match_points",
    "new_standings",
    "next_round",
    "option_help",
    "ranking",
    "record_round",
    "standings_from_json",
    "standings_to_json",
    "tiebreak_names",
    "total_matches",
    "total_rounds",
]

#: The formats by name, as the CLI and the platform spell them: the choices of the CLI, the
#: platform's form, API and column, and the docs. A new format is a module of this package
#: and one entry here (docs/formats.md; ``tests/arena/test_format_parts.py`` checks its parts).
FORMATS: dict[str, Format] = {f.name: f for f in (RoundRobin(), Swiss(), Knockout())}
FORMAT_NAMES = tuple(FORMATS)
#: (name, label) of each format, for a choice field.
FORMAT_CHOICES = tuple((f.name, f.label) for f in FORMATS.values())


def format_choices() -> list[tuple[str, str]]:
    """The choices of the platform's format column, read when asked: a migration names this
    function, not the list, so that a new format needs none."""
    return list(FORMAT_CHOICES)


def get_format(name: str) -> Format:
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(
            f"unknown format {name!r}; choose one of {', '.join(FORMAT_NAMES)}"
        ) from None


def tiebreak_names(name: str) -> tuple[str, ...]:
    """The tie-breaks of format ``name``: what its ranking orders by after the points."""
    return tiebreaks_of(get_format(name).ranked_by)


def cut_refusal() -> str:
    """Why a format that cannot be cut refuses ``max_matches``: the formats that can."""
    can = " or a ".join(f.label.lower() for f in FORMATS.values() if f.can_cut)
    return f"Only a {can} can be cut at a number of matches."


def option_help(option: str) -> str:
    """What ``option`` means in each format that takes it (``Format.takes``), and which take
    none: a form's help text in the formats' own words."""
    takes = [f"{f.label}: {f.takes[option]}." for f in FORMATS.values() if option in f.takes]
    without = [f.label.lower() for f in FORMATS.values() if option not in f.takes]
    return " ".join([*takes, *([f"Not for: {', '.join(without)}."] if without else [])])


def check_shape(name: str, options: FormatOptions, cut: int | None = None) -> None:
    """Raise :class:`FormatError` if format ``name`` refuses these options (or a cut at
    ``cut`` matches) whatever the field: what the platform's form, API and service ask before
    the entrants are known. The format's own ``check`` is the one owner of its rules."""
    fmt = get_format(name)
    if cut is not None and not fmt.can_cut:
        raise FormatError(cut_refusal())
    fmt.check(max(options.players, options.smallest), options)


# ------------------------------------------------------------------------------- the rounds


def check_format(name: str, entrants: int, options: FormatOptions) -> None:
    """Raise :class:`FormatError` with a clear message if the field cannot play so."""
    get_format(name).check(entrants, options)


def total_rounds(name: str, entrants: int, options: FormatOptions) -> int:
    """How many rounds a field of ``entrants`` plays (knockout: unless a table is played
    again, because every match of it failed or, with ``tie_replays``, it ended level)."""
    fmt = get_format(name)
    fmt.check(entrants, options)
    return fmt.total_rounds(entrants, options)


def total_matches(name: str, entrants: int, options: FormatOptions) -> int:
    """How many matches a field of ``entrants`` plays (knockout: unless a table is played
    again, as for :func:`total_rounds`): for progress bars and limits."""
    fmt = get_format(name)
    fmt.check(entrants, options)
    return fmt.total_matches(entrants, options)


def next_round(name: str, rows: Standings, number: int, options: FormatOptions) -> Round | None:
    """Round ``number`` (0 is the first) given the rows after the rounds before it; None when
    the tournament is over."""
    fmt = get_format(name)
    rows = checked_rows(rows)
    fmt.check(len(rows), options)
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise FormatError(f"round number must be an integer of at least 0, got {number!r}")
    return fmt.plan(rows, number, options)


def record_round(
    name: str,
    rows: Standings,
    number: int,
    results: Sequence[Result],
    options: FormatOptions,
    planned: Round | None = None,
) -> dict[str, StandingRow]:
    """The rows after round ``number``, from the rows before it and its matches' results.

    Every result must be a match of that round (same bots in the same seats); missing
    matches count as not played. Points, wins, matches, opponents and seats move for finished
    matches, byes for the round's byes; Buchholz is recomputed for everyone; a knockout
    table's losers are eliminated (a table none of whose matches finished eliminates nobody,
    and is played again in the next round).

    ``planned`` is the round as :func:`next_round` gave it for these rows, if the caller still
    holds it: it saves planning the round again (a two-seat Swiss round of 1,000 entrants
    takes about 0.1 s of CPU, see docs/benchmarks.md)."""
    fmt = get_format(name)
    before = checked_rows(rows)
    if planned is not None and planned.number != number:
        raise FormatError(f"the planned round is round {planned.number}, not {number}")
    rnd = planned if planned is not None else next_round(name, before, number, options)
    if rnd is None:
        raise FormatError(f"round {number} of this {name} tournament does not exist")
    after = {
        b: replace(r, opponents=dict(r.opponents), seats=_pad(r.seats, options.players))
        for b, r in before.items()
    }
    _refuse_strangers(rnd, results, number)
    table_points, table_played = _count_matches(after, rnd, results)
    for bot in rnd.byes:
        after[bot].byes += 1
        if fmt.name == "swiss":
            after[bot].points += BYE_POINTS * options.games_per_table
    for table in rnd.tables:
        if not table_played[table]:
            continue
        for bot in fmt.advance(table, table_points[table], after, options):
            after[bot].eliminated = True
            after[bot].eliminated_in = number
    for row in after.values():
        row.buchholz = float(sum(after[o].points * k for o, k in row.opponents.items()))
    return after


def _refuse_strangers(rnd: Round, results: Sequence[Result], number: int) -> None:
    """Refuse results of matches that are not in the round (same bots in the same seats)."""
    extra = Counter(tuple(r.bots) for r in results) - Counter(m.bots for m in rnd.matches)
    if extra:
        raise FormatError(
            f"results for matches not in round {number}: " + ", ".join(" v ".join(k) for k in extra)
        )


def _count_matches(
    after: dict[str, StandingRow], rnd: Round, results: Sequence[Result]
) -> tuple[dict[Table, dict[str, float]], Counter[Table]]:
    """Count each finished match into ``after``; returns the points each table's bots earned
    there and how many of its matches finished."""
    table_of = {b: t for t in rnd.tables for b in t.bots}
    table_points: dict[Table, dict[str, float]] = {
        t: dict.fromkeys(t.bots, 0.0) for t in rnd.tables
    }
    table_played: Counter[Table] = Counter()
    for res in results:
        if res.ranks is None:
            continue
        table = table_of[res.bots[0]]
        table_played[table] += 1
        for seat, (bot, pts) in enumerate(zip(res.bots, match_points(res.ranks), strict=True)):
            after[bot].count_match(seat, res.bots, res.ranks, pts)
            table_points[table][bot] += pts
    return table_points, table_played


def _pad(seats: list[int], players: int) -> list[int]:
    return list(seats) + [0] * (players - len(seats))


def ranking(name: str, rows: Standings) -> list[StandingRow]:
    """The field in order, best first (knockout: the winner, then by the round each went out
    in; otherwise points, then Buchholz, wins and seeding)."""
    return get_format(name).ranking(checked_rows(rows))


def finished(name: str, rows: Standings, number: int, options: FormatOptions) -> bool:
    """True when no round ``number`` is left to play."""
    return next_round(name, rows, number, options) is None
