"""The words under a tournament's table: what orders it and what its points are. One text for
``arena tournament``, ``manage.py demo`` and the site, so that they never disagree."""

from __future__ import annotations

from arena.formats import get_format

#: A match's points (``arena.formats.match_points``).
POINTS_NOTE = (
    "Points per match: a win 1, a draw 1/2; at a table of 3 or more, the share of the other "
    "seats beaten, a tie counting half."
)
RATINGS_NOTE = "Elo and OpenSkill (ordinal = mu - 3 sigma) are over these matches, for information."


def ordering_note(fmt: str) -> str:
    """The legend of a tournament's table in format ``fmt``: what orders it (the format's own
    ``order_note``, never the ratings: a bot with more points is never ranked below one with
    fewer) and what points are."""
    return f"{get_format(fmt).order_note} {POINTS_NOTE} {RATINGS_NOTE}"
