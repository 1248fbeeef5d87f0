"""The published table as data: one row per entrant (position, bot, owner, points, the
format's tie-breaks and Sonneborn-Berger), as CSV and as JSON with the crosstable and every
match (each with its replay's address). Shared by the pages' exports and the API."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from arena.formats import get_format
from arena.formats.results.crosstable import crosstable_json
from arena.formats.results.published import Results
from competitions.models import Tournament

#: The CSV's columns, in order (``ranked_by`` in the JSON says which ones decide the order).
CSV_COLUMNS = (
    "position",
    "bot_version",
    "bot",
    "version",
    "owner",
    "points",
    "buchholz",
    "sonneborn_berger",
    "wins",
    "matches",
    "byes",
    "eliminated_in_round",
    "seed",
)


def standings_rows(results: Results) -> list[dict[str, Any]]:
    """The table, best first: what the CSV, the JSON export and the API list."""
    out = []
    for e in results.entrants:
        row = e.row
        out.append(
            {
                "position": e.position,
                "bot_version": e.version_id,
                "bot": e.bot,
                "version": e.version,
                "owner": e.owner,
                "points": row.points,
                "buchholz": row.buchholz,
                "sonneborn_berger": round(results.sonneborn_berger.get(e.key, 0.0), 6),
                "wins": row.wins,
                "matches": row.matches,
                "byes": row.byes,
                # Knockout rounds counted from 1 here, as the pages show them.
                "eliminated_in_round": None if row.eliminated_in is None else row.eliminated_in + 1,
                "seed": row.seed,
                "eliminated": row.eliminated,
            }
        )
    return out


def _cell(value: Any) -> Any:
    """A spreadsheet must not run a name as a formula (CSV injection): text that starts
    like one gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:g}"
    return value


def standings_csv(results: Results) -> str:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\r\n")
    out.writerow(CSV_COLUMNS)
    for row in standings_rows(results):
        out.writerow([_cell(row[c]) for c in CSV_COLUMNS])
    return buf.getvalue()


def results_json(
    t: Tournament, results: Results, match_url: Callable[[int], str]
) -> dict[str, Any]:
    """The whole published result: the tournament, the table with its tie-breaks, the
    crosstable, the winner and every match with the address of its replay."""
    winner = results.winner
    final = results.winner_matches()
    return {
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "game": t.game.slug,
            "format": t.format,
            "status": t.status,
            "players_per_match": t.players_per_match,
            # The order's keys, first to last (StandingRow fields).
            "ranked_by": list(get_format(t.format).ranked_by),
        },
        "winner": None
        if winner is None
        else {
            "bot_version": winner.version_id,
            "bot": winner.bot,
            "owner": winner.owner,
            "last_match": final[0].match_id if final else None,
            "replay": match_url(final[0].match_id) if final else None,
        },
        "standings": standings_rows(results),
        "crosstable": crosstable_json(results),
        "matches": [
            {
                "id": m.match_id,
                "round": m.round + 1,
                "status": m.status,
                "bot_versions": [int(b) for b in m.bots],
                "ranks": list(m.ranks) if m.ranks is not None else None,
                "replay": match_url(m.match_id),
            }
            for m in results.matches
        ],
    }
