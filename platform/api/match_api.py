"""The API's list of matches and a match's detail (``/api/matches/``, ``/api/matches/<id>/``):
each match with its seats, the ratings' per-seat changes (``elo_before``, ``elo_after``) and
the tournament and round competitions link it to. They compose matches, ratings and
competitions, so they live at the top (the api app); matches keeps its replay endpoint."""

from __future__ import annotations

from typing import Any

import django_filters
from competitions.models import CompetitionMatch
from django.conf import settings
from django.db.models import Prefetch, QuerySet
from drf_spectacular.utils import extend_schema_field
from foundation.fields import IdFilter, LookupFilter, StrictBooleanFilter
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from matches.selectors import bounded_count, match_seats, of_owner, visible_matches
from ratings.models import RatingChange
from rest_framework import generics, serializers
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

#: ``CompetitionMatch``'s link to its match, read backwards: one join in the match's query.
COMPETITION_LINK = "competition_link"
#: Fields of the API's match that the link holds, not the match.
LINK_FIELDS = ("tournament", "round")


class MatchSeatSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(source="bot_version.bot_id")
    bot = serializers.CharField(source="bot_version.bot.name")
    version = serializers.IntegerField(source="bot_version.number")
    #: From the ratings app's per-seat change (null when the match was not rated).
    elo_before = serializers.SerializerMethodField()
    elo_after = serializers.SerializerMethodField()

    class Meta:
        model = MatchSeat
        fields = [
            "seat",
            "bot_id",
            "bot",
            "version",
            "score",
            "rank",
            "status",
            "faults",
            "time_ms",
            "elo_before",
            "elo_after",
        ]

    @extend_schema_field({"type": "number", "format": "float", "nullable": True})
    def get_elo_before(self, seat: MatchSeat) -> float | None:
        change = _rating_change(seat)
        return None if change is None else change.elo_before

    @extend_schema_field({"type": "number", "format": "float", "nullable": True})
    def get_elo_after(self, seat: MatchSeat) -> float | None:
        change = _rating_change(seat)
        return None if change is None else change.elo_after


def _rating_change(seat: MatchSeat) -> RatingChange | None:
    """What this seat's rating did in its match, or None (not rated): from the match's
    prefetched ``rating_changes`` (``matches_for_api``), no query."""
    for change in seat.match.rating_changes.all():
        if change.seat == seat.seat:
            return change
    return None


#: What the API shows of a match, in order: the columns ``matches_for_api`` reads (it reads
#: no other), then the seats.
MATCH_FIELDS = (
    "id",
    "game",
    "seed",
    "options",
    "status",
    "error",
    "result",
    "tournament",
    "round",
    "created_at",
    "started_at",
    "finished_at",
    "duration_ms",
    # added later: after the fields clients already knew, which keep their places
    "kind",
    "rated",
)


class MatchSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)  # type: ignore[var-annotated]
    seats = MatchSeatSerializer(many=True, read_only=True)
    #: The tournament's id and the round, from the competition's link row (null and 0 for a
    #: match of no tournament; a league's match shows its round number).
    tournament = serializers.SerializerMethodField()
    round = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [*MATCH_FIELDS, "seats"]

    @extend_schema_field({"type": "integer", "nullable": True})
    def get_tournament(self, match: Match) -> int | None:
        link = _link(match)
        return None if link is None else link.tournament_id

    @extend_schema_field({"type": "integer", "minimum": 0, "format": "int64"})
    def get_round(self, match: Match) -> int:
        link = _link(match)
        return 0 if link is None else int(link.round)


def _link(match: Match) -> CompetitionMatch | None:
    """The match's competition link (joined by ``matches_for_api``), or None."""
    return getattr(match, COMPETITION_LINK, None)


#: ``?ordering=``: the keyset pages' order (``MatchCursorPagination.get_ordering``).
ORDERINGS = [("-id", "newest first (the default)"), ("id", "oldest first")]


class MatchFilter(django_filters.FilterSet):
    """``?game=slug``, ``?bot=id``, ``?owner=username``, ``?tournament=id``, ``?status=``,
    ``?kind=``, ``?mine=true`` and ``?ordering=``: checked here (ASCII digits, no NUL, known
    statuses) so that a bad value is a 400 and the schema documents them."""

    game = LookupFilter(field_name="game__slug", help_text="a game's slug")
    bot = IdFilter(method="filter_bot", help_text="a bot's id: its matches, any version")
    status = django_filters.ChoiceFilter(choices=MatchStatus.choices)
    kind = django_filters.ChoiceFilter(choices=MatchKind.choices, help_text="why it was played")
    mine = StrictBooleanFilter(
        method="filter_mine",
        help_text="true: only matches where one of the caller's bots sat (none when anonymous)",
    )
    owner = LookupFilter(
        method="filter_owner", help_text="a user name: matches where one of their bots sat"
    )
    tournament = IdFilter(
        method="filter_tournament", help_text="a tournament's id: the matches played for it"
    )
    ordering = django_filters.ChoiceFilter(
        choices=ORDERINGS,
        method="filter_ordering",
        help_text="-id: newest first (the default); id: oldest first",
    )

    class Meta:
        model = Match
        fields = ["game", "bot", "owner", "tournament", "status", "kind", "mine", "ordering"]

    def filter_owner(self, queryset, name, value):
        return of_owner(queryset, value)

    def filter_tournament(self, queryset, name, value):
        return queryset.filter(**{f"{COMPETITION_LINK}__tournament_id": value})

    def filter_ordering(self, queryset, name, value):
        return queryset  # the pagination orders the keyset pages by it (get_ordering)

    def filter_bot(self, queryset, name, value):
        # Through the seats as a subquery, not a join: no DISTINCT, keyset pages stay cheap.
        seats = MatchSeat.objects.filter(bot_version__bot_id=value).values("match_id")
        return queryset.filter(pk__in=seats)

    def filter_mine(self, queryset, name, value):
        if not value:
            return queryset
        user = self.request.user if self.request is not None else None
        if user is None or not user.is_authenticated:
            return queryset.none()
        seats = MatchSeat.objects.filter(bot_version__bot__owner=user).values("match_id")
        return queryset.filter(pk__in=seats)


class MatchCursorPagination(CursorPagination):
    """Keyset pages by id, newest first: the same cost at any depth. With them, a bounded
    count of the matches that fit the filters (``count``, at most ``ARENA_MATCH_COUNT_LIMIT``;
    ``count_capped`` when more fit): never a COUNT over every match stored."""

    ordering = "-id"
    page_size = 50

    def get_ordering(self, request: Request, queryset: Any, view: Any) -> tuple[str, ...]:
        # ``?ordering=`` is checked by MatchFilter (a bad value is a 400 before this runs).
        return ("id",) if request.query_params.get("ordering") == "id" else ("-id",)

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> Any:
        self.count, self.count_capped = bounded_count(queryset, settings.ARENA_MATCH_COUNT_LIMIT)
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response(self, data: Any) -> Response:
        return Response(
            {
                "count": self.count,
                "count_capped": self.count_capped,
                "next": self.get_next_link(),
                "previous": self.get_previous_link(),
                "results": data,
            }
        )

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        paged = super().get_paginated_response_schema(schema)
        limit = settings.ARENA_MATCH_COUNT_LIMIT
        paged["properties"] = {
            "count": {
                "type": "integer",
                "minimum": 0,
                "maximum": limit,
                "example": 123,
                "description": "How many matches fit the filters (all pages, not only this "
                f"one), counted up to {limit}: when more fit, this is {limit} and "
                "count_capped is true.",
            },
            "count_capped": {
                "type": "boolean",
                "description": f"true: more than {limit} matches fit the filters (count "
                "stops there); false: count is exact.",
            },
            **paged["properties"],
        }
        paged["required"] = ["count", "count_capped", *paged.get("required", [])]
        return paged


class MatchListApi(generics.ListAPIView):
    """Matches, newest first (``?ordering=id``: oldest first); filter with ``?game=slug``,
    ``?bot=id``, ``?owner=username`` (their bots' matches), ``?tournament=id``, ``?status=``,
    ``?kind=`` and ``?mine=true`` (your bots' matches). Pages follow ``next``/``previous``
    (opaque cursors); ``count`` says how many matches fit the filters, up to a bound
    (``count_capped``: more than that)."""

    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    pagination_class = MatchCursorPagination

    def get_queryset(self):
        return matches_for_api(self.request.user)


class MatchDetailApi(generics.RetrieveAPIView):
    """One match (404 for a private competition's match to whoever is not in it)."""

    serializer_class = MatchSerializer

    def get_queryset(self):
        return matches_for_api(self.request.user)


def matches_for_api(viewer: Any) -> QuerySet[Match]:
    """The matches ``viewer`` may see, newest first, with only ``MATCH_FIELDS``' columns, the
    seats' columns the API shows, the rating changes and the competition link: a page of 50
    matches makes some 500 model objects, so each carries only its own columns."""
    seats = match_seats(
        "seat",
        "score",
        "rank",
        "status",
        "faults",
        "time_ms",
        "bot_version__number",
        "bot_version__bot__name",
    )
    changes = RatingChange.objects.only("match", "seat", "elo_before", "elo_after")
    columns = [f for f in MATCH_FIELDS if f not in LINK_FIELDS]
    link = [f"{COMPETITION_LINK}__{f}" for f in LINK_FIELDS]
    return (
        visible_matches(viewer)
        .order_by("-id")
        .select_related("game", COMPETITION_LINK)
        .only(*columns, "game__slug", *link)
        .prefetch_related(Prefetch("seats", seats), Prefetch("rating_changes", changes))
    )
