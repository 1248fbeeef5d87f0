"""Reading matches."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from matches.models import Match, MatchSeat


def _with_seats(qs: QuerySet[Match]) -> QuerySet[Match]:
    seats = MatchSeat.objects.select_related("bot_version__bot").order_by("seat")
    # rating_changes: the ratings app's rows for this match, by reverse relation (no import).
    return qs.select_related("game", "tournament").prefetch_related(
        Prefetch("seats", seats), "rating_changes"
    )


def latest_matches(limit: int = 10) -> QuerySet[Match]:
    return _with_seats(Match.objects.defer("replay"))[:limit]


def filter_matches(
    *, game: str | None = None, bot: int | None = None, status: str | None = None
) -> QuerySet[Match]:
    """Matches, newest first, narrowed by game slug, bot id and status (each optional).
    The replay column is deferred: lists never need it."""
    qs = Match.objects.defer("replay")
    if game:
        qs = qs.filter(game__slug=game)
    if bot:
        qs = qs.filter(seats__bot_version__bot_id=bot).distinct()
    if status:
        qs = qs.filter(status=status)
    return _with_seats(qs)


def match_detail(pk: int) -> Match:
    return _with_seats(Match.objects.all()).get(pk=pk)
