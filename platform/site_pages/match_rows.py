"""Tables of matches as the pages draw them: matches' own rows (``matches.selectors``), each
seat with the person who played it (play's ``PlaySeat``), joined here at the top, so matches
never reads play's table."""

from __future__ import annotations

from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery
from matches import selectors
from matches.models import Match, MatchSeat
from play.models import PlaySeat


def with_people(seats: QuerySet[MatchSeat]) -> QuerySet[MatchSeat]:
    """Each seat's ``person_name``: the username of the person who played it, else None. A
    subquery on play's unique (match, seat) index, in the seats' own query: no query more."""
    person = PlaySeat.objects.filter(match=OuterRef("match"), seat=OuterRef("seat"))
    return seats.annotate(person_name=Subquery(person.values("user__username")[:1]))


def match_rows(
    *,
    viewer: Any = None,
    game: str | None = None,
    bot: int | None = None,
    status: str | None = None,
    owner: str | None = None,
) -> QuerySet[Match]:
    """``matches.selectors.match_rows`` (the same filters), with who played each seat."""
    seats = with_people(selectors.row_seats())
    return selectors.match_rows(
        viewer=viewer, game=game, bot=bot, status=status, owner=owner, seats=seats
    )


def latest_matches(limit: int = 10, *, viewer: Any = None) -> QuerySet[Match]:
    """The newest matches ``viewer`` may see, with who played each seat."""
    return selectors.latest_matches(limit, viewer=viewer, seats=with_people(selectors.row_seats()))
