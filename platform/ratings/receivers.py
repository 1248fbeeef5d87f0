"""Ratings listen to the end of matches; matches know nothing of ratings."""

from __future__ import annotations

from typing import Any

from matches.signals import match_finished

from ratings.services import rate_match

#: First of the match's listeners: see ``matches.signals`` for the order and why.
RATE_ORDER = 100


@match_finished.listen(order=RATE_ORDER, uid="ratings.rate_match")
def _rate(sender: Any, match: Any, seats: Any, **_: Any) -> None:
    rate_match(match, seats)
