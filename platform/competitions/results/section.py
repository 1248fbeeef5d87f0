"""What the results' templates draw, from a tournament's :class:`Results`: the round robin's
crosstable, the knockout's bracket picture, the table with its tie-breaks, the winner and the
replay of its last match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.safestring import mark_safe

from arena.formats.tiebreaks import tiebreaks
from competitions.models import Tournament, TournamentFormat
from competitions.results.bracket import build_bracket
from competitions.results.bracket_svg import bracket_svg
from competitions.results.crosstable import crosstable
from competitions.results.data import Results, tournament_results
from competitions.results.export import standings_rows
from competitions.results.rounds_grid import rounds_grid

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
        "tiebreaks": tiebreaks(t.format),
        "winner": results.winner,
        "winner_match": next(iter(results.winner_matches()), None),
    }
    if t.format == TournamentFormat.ROUND_ROBIN:
        out["crosstable"] = crosstable(results, match_url_builder())
        out["two_seats"] = t.players_per_match == 2
    elif t.format == TournamentFormat.SWISS:
        count, out["rounds_rows"] = rounds_grid(results, match_url_builder())
        out["rounds"] = range(1, count + 1)
    elif t.format == TournamentFormat.KNOCKOUT:
        by_key = results.by_key
        # Built here from escaped parts only (names through games.svg): safe to inline.
        out["bracket_svg"] = mark_safe(
            bracket_svg(build_bracket(results), by_key, match_url_builder())
        )
    return out


def table_rows(results: Results) -> list[dict[str, Any]]:
    """The standings as the templates show them (the exports' rows and each bot's page)."""
    by_version = {e.version_id: e for e in results.entrants}
    rows = standings_rows(results)
    for row in rows:
        row["bot_id"] = by_version[row["bot_version"]].bot_id
    return rows
