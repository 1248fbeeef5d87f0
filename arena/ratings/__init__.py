"""Ratings and standings as pure functions over match results.

Three layers, each usable alone:

* **Elo** for one match: :func:`elo_match` takes the seats' ratings and ranks and returns the new
  ratings. Two seats is classic Elo. With more seats every pair of seats plays a virtual game
  decided by the finishing order (equal ranks are a draw) with K divided by the number of
  opponents, so one match moves a seat by at most K whatever the table size, and the updates sum
  to zero. :func:`elo_period` is the textbook update over several games at once.
* **OpenSkill** for one match: :func:`openskill_match` (the ``openskill`` library's
  Bradley-Terry "full pairing" model with its defaults) takes :class:`Skill` values and ranks,
  ties allowed. Not Plackett-Luce: in openskill 6.2 its tie handling is wrong with more than one
  group (ranks [1, 1, 3, 4] give third place the winners' mu; openskill.py issues #155 and #201),
  while Bradley-Terry full compares every pair, treats a tie as a draw (like our Elo), and is
  identical to Plackett-Luce for two seats.
* **Standings**: :func:`standings` folds a chronological list of :class:`MatchRecord` into one
  :class:`Standing` row per bot (matches, wins, average rank and score, faults, Elo, OpenSkill
  mu/sigma/ordinal, provisional flag). :func:`update_standings` does one match, for callers that
  keep the table between matches (the web leaderboard).

What moves ratings: a match whose ``status`` is ``"error"`` (the platform failed: worker died,
sandbox could not start, engine bug) is ignored entirely, it counts nowhere. Seat faults
(``timeout``, ``crashed``, ``illegal``, ``retired``) are the player's doing: the match counts and
the seat's rank (which the referee already put below every non-retired seat) is rated as is.
A match in which one bot holds several seats, or with a single seat, counts in the table's
statistics but does not move ratings (there is no opponent to be rated against).

The package: ``elo``, ``skill`` (OpenSkill), ``records`` (:class:`MatchRecord`), ``table``
(the standings) and ``checks``; import everything from ``arena.ratings``.

Example::

    from arena.ratings import MatchRecord, standings
    table = standings([
        MatchRecord(bots=("alpha", "beta", "gamma"), ranks=(1, 2, 2), scores=(30, 12, 12)),
        MatchRecord(bots=("beta", "alpha"), ranks=(1, 2), scores=(5, 3),
                    seat_status=("ok", "timeout")),
        {"bots": ["alpha", "beta"], "ranks": [1, 2], "status": "error"},  # ignored
    ])
    for row in table.rows:        # best first (conservative OpenSkill ordinal)
        print(row.bot, row.elo, row.ordinal, row.provisional)
"""

from __future__ import annotations

from arena.ratings.checks import RatingError
from arena.ratings.elo import DEFAULT_ELO, DEFAULT_K, elo_match, elo_period, expected_score
from arena.ratings.records import (
    MATCH_ERROR,
    MATCH_OK,
    MATCH_STATUSES,
    PLAYER_FAULTS,
    SEAT_OK,
    SEAT_STATUSES,
    MatchRecord,
    as_record,
)
from arena.ratings.skill import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    OPENSKILL_MODEL,
    Skill,
    openskill_match,
)
from arena.ratings.table import (
    PROVISIONAL_MATCHES,
    Standing,
    Standings,
    rank_table,
    standings,
    update_standings,
)

__all__ = [
    "DEFAULT_ELO",
    "DEFAULT_K",
    "DEFAULT_MU",
    "DEFAULT_SIGMA",
    "MATCH_ERROR",
    "MATCH_OK",
    "MATCH_STATUSES",
    "OPENSKILL_MODEL",
    "PLAYER_FAULTS",
    "PROVISIONAL_MATCHES",
    "SEAT_OK",
    "SEAT_STATUSES",
    "MatchRecord",
    "RatingError",
    "Skill",
    "Standing",
    "Standings",
    "as_record",
    "elo_match",
    "elo_period",
    "expected_score",
    "openskill_match",
    "rank_table",
    "standings",
    "update_standings",
]
