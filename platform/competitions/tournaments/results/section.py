"""What the results' templates draw, from a tournament's :class:`Results`: the round robin's
crosstable, the knockout's bracket picture, the table with its tie-breaks, the winner and the
replay of its last match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.safestring import mark_safe

from arena.formats import get_format, tiebreak_names
from arena.formats.results.bracket import build_bracket
from arena.formats.results.bracket_svg import bracket_svg
from arena.formats.results.crosstable import crosstable
from arena.formats.results.published import Results
from arena.formats.results.rounds_grid import rounds_grid
from competitions.models import Tournament
from competitions.tournaments.results.data import tournament_results
from competitions.tournaments.results.export import standings_rows

#: A number that no match has, replaced by each match's id (one ``reverse`` for them all).
_SENTINEL = 987654321


def match_url_builder(absolute: Callable[[str], str] | None = None) -> Callable[[int], str]:
    """``id -> the match's page``, from one ``reverse`` (a table links up to 2,000 matches);
    ``absolute`` makes the address absolute (``request.build_absolute_uri``)."""
    path = reverse("matches:detail", args=[_SENTINEL])
    base = absolute(path) if absolute is not None else path
    head, tail = base.split(str(_SENTINEL), 1)
    return lambda pk: f"{head}{pk}{tail}"


def section_context(t: Tournament) -> dict[str, Any]:
    """The results section of the tournament's page; empty before the first match."""
    results = tournament_results(t)
    if not results.matches:
        return {}
    out: dict[str, Any] = {
        "results": results,
        "standings": table_rows(results),
        "tiebreaks": tiebreak_names(t.format),
        "winner": results.winner,
        "winner_match": next(iter(results.winner_matches()), None),
    }
    draw = SECTIONS[get_format(t.format).results_section]
    out.update(draw(t, results))
    return out


def _crosstable(t: Tournament, results: Results) -> dict[str, Any]:
    return {
        "crosstable": crosstable(results, match_url_builder()),
        "two_seats": t.players_per_match == 2,
    }


def _rounds_grid(t: Tournament, results: Results) -> dict[str, Any]:
    count, rows = rounds_grid(results, match_url_builder())
    return {"rounds_rows": rows, "rounds": range(1, count + 1)}


def _bracket(t: Tournament, results: Results) -> dict[str, Any]:
    # Built here from escaped parts only (names through games.svg): safe to inline.
    svg = bracket_svg(build_bracket(results), results.by_key, match_url_builder())
    return {"bracket_svg": mark_safe(svg)}


#: What the page draws for each of ``arena.formats.parts.RESULTS_SECTIONS`` (a format names
#: its own: ``Format.results_section``).
SECTIONS: dict[str, Callable[[Tournament, Results], dict[str, Any]]] = {
    "crosstable": _crosstable,
    "rounds_grid": _rounds_grid,
    "bracket": _bracket,
}


def table_rows(results: Results) -> list[dict[str, Any]]:
    """The standings as the templates show them (the exports' rows and each bot's page)."""
    by_version = {e.version_id: e for e in results.entrants}
    rows = standings_rows(results)
    for row in rows:
        row["bot_id"] = by_version[row["bot_version"]].bot_id
    return rows
