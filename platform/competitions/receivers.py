"""Tournaments and leagues listen to the end of their matches; matches know nothing of them
(a match's tournament or league is this app's :class:`CompetitionMatch` row)."""

from __future__ import annotations

from typing import Any

from matches.signals import match_failed, match_finished

from competitions.leagues.services import league_match_ended
from competitions.scheduling import link_of
from competitions.tournaments.services import tournament_match_ended

#: After ratings, before the ladder: see ``matches.signals`` for the order and why.
TABLES_ORDER = 200


@match_finished.listen(order=TABLES_ORDER, uid="competitions.match_finished")
def _match_finished(sender: Any, match: Any, seats: Any, **_: Any) -> None:
    link = link_of(match)
    if link is None:
        return
    if link.tournament_id:
        tournament_match_ended(link, seats)
    else:
        league_match_ended(link, seats)


@match_failed.listen(order=TABLES_ORDER, uid="competitions.match_failed")
def _match_failed(sender: Any, match: Any, **_: Any) -> None:
    link = link_of(match)
    if link is not None and link.tournament_id:
        tournament_match_ended(link, None)
