"""What a format says about itself beyond playing its rounds, and the shared vocabulary it says
it in: the options a person may set and their bounds, the fields a ranking orders by, the
columns the CLI adds to its table and the results sections the pages draw.

Every consumer (the platform's form, API and service, the CLI, the docs, the results pages)
reads these from the format in :data:`arena.formats.FORMATS`, so that a new format is one
module of this package (``tests/arena/test_format_parts.py`` fails when a format lacks a
part)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from arena.formats.base import StandingRow
from arena.schedule import MAX_SEATS

#: The options every format takes (``FormatOptions`` fields): beyond them a format names what
#: it takes, with what the option means for it (``Format.takes``).
COMMON_OPTIONS = ("players", "games_per_table", "seed")

#: The options a format may take beyond the common ones.
EXTRA_OPTIONS = ("rounds", "min_players", "advance", "tie_replays")

#: The bounds of the options a person sets, (least, most). Every format checks the least (a
#: ``FormatError``); the most is the site's cap (its form and API), the CLI takes any.
OPTION_BOUNDS: dict[str, tuple[int, int]] = {
    "players": (1, MAX_SEATS),
    "games_per_table": (1, 100),
    "rounds": (1, 100),
    "advance": (1, 5),
}

#: What a published result can draw under the table (``arena.formats.results``): a round
#: robin's crosstable, a Swiss's table round by round, a knockout's bracket.
RESULTS_SECTIONS = ("crosstable", "rounds_grid", "bracket")


@dataclass(frozen=True)
class Column:
    """A column a format adds to the CLI's standings table: its title and its cell."""

    title: str
    value: Callable[[StandingRow], Any]
    left: bool = False


# Each field a ranking may order by, as a sort key best first (StandingRow fields; a knockout's
# ``eliminated_in``: the winner, still in, ahead of all, then the latest out).
_KEYS: dict[str, Callable[[StandingRow], Any]] = {
    "points": lambda r: -r.points,
    "buchholz": lambda r: -r.buchholz,
    "wins": lambda r: -r.wins,
    "seed": lambda r: r.seed,
    "eliminated_in": lambda r: (r.eliminated, -(r.eliminated_in or 0)),
}
RANKING_FIELDS = tuple(_KEYS)


def ranking_key(ranked_by: Sequence[str]) -> Callable[[StandingRow], tuple[Any, ...]]:
    """The sort key (best first) of a ranking by ``ranked_by``, first to last."""
    parts = [_KEYS[name] for name in ranked_by]
    return lambda row: tuple(p(row) for p in parts)


def tiebreaks_of(ranked_by: Sequence[str]) -> tuple[str, ...]:
    """What a ranking orders by after the points: its tie-breaks."""
    return tuple(name for name in ranked_by if name != "points")
