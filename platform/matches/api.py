"""REST API of matches: list (filters), detail, replay."""

from __future__ import annotations

import gzip
import re
from typing import Any

import django_filters
from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseBase, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from foundation.fields import IdFilter, LookupFilter, StrictBooleanFilter
from rest_framework import generics, serializers
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import replays, seat_logs
from matches.access import seen
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from matches.selectors import (
    COMPETITION_LINK,
    api_matches,
    bounded_count,
    of_owner,
    of_tournament,
)

_GZIP = re.compile(r"\bgzip\b")
#: A stored replay never changes: caches may keep it for a year.
REPLAY_CACHE_CONTROL = "public, max-age=31536000, immutable"
PRIVATE_REPLAY = "private, max-age=31536000, immutable"


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
        change = seat.rating_change
        return None if change is None else change.elo_before

    @extend_schema_field({"type": "number", "format": "float", "nullable": True})
    def get_elo_after(self, seat: MatchSeat) -> float | None:
        change = seat.rating_change
        return None if change is None else change.elo_after


#: What the API shows of a match, in order: the columns ``api_matches`` reads (it reads no
#: other), then the seats.
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


def _link(match: Match) -> Any:
    """The match's competition link (``matches.selectors.COMPETITION_LINK``), or None."""
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
        return of_tournament(queryset, value)

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
        return api_matches(MATCH_FIELDS, viewer=self.request.user)


class MatchDetailApi(generics.RetrieveAPIView):
    """One match (404 for a private competition's match to whoever is not in it)."""

    serializer_class = MatchSerializer

    def get_queryset(self):
        return api_matches(MATCH_FIELDS, viewer=self.request.user)


class MatchReplayApi(APIView):
    """The versioned replay document of a match (``format: meeple-arena-replay``), served as
    stored: gzip-compressed (``Content-Encoding: gzip``) to clients that accept it, with an
    ETag and long cache lifetimes, since a stored replay never changes.

    To the owner of a bot that sat in the match (staff: every seat) the document also holds
    ``logs`` and ``log_marks`` (its bots' stderr, per decision; ``""`` and ``[]`` for the
    other seats), without an ETag, with ``Cache-Control: private, no-store``."""

    @extend_schema(
        responses=OpenApiTypes.OBJECT,
        description="The replay document (docs/replay-format.md); with the caller's own "
        "bots' logs and log_marks when the caller owns a seat's bot (staff: all seats).",
    )
    def get(self, request: Request, pk: int) -> HttpResponseBase:
        access = seen(request.user, pk)
        if access is None:
            raise Http404(f"No match {pk}")
        stored = replays.stored_replay(pk)
        if stored is None:
            return Response({"detail": "This match has no replay."}, status=404)
        data, sha = stored
        readable = seat_logs.readable_seats(request.user, pk)
        if readable:
            public = replays.decoded(sha, match_id=pk) or {}
            return seat_logs.private_json(seat_logs.with_logs(public, readable))
        etag = f'"{sha}"'
        if etag in request.headers.get("If-None-Match", ""):
            response: HttpResponse = HttpResponseNotModified()
        elif _GZIP.search(request.headers.get("Accept-Encoding", "")):
            response = HttpResponse(data, content_type="application/json")
            response["Content-Encoding"] = "gzip"
        else:
            response = HttpResponse(gzip.decompress(data), content_type="application/json")
        response["ETag"] = etag
        # A private competition's replay: kept by the member's own browser only.
        private = access.private
        response["Cache-Control"] = PRIVATE_REPLAY if private else REPLAY_CACHE_CONTROL
        # Who asks decides whether logs are in it: a cache keeps one copy per credential.
        response["Vary"] = "Accept-Encoding, Authorization, Cookie"
        return response
