"""REST API of matches: list (filters), detail, replay."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.models import Match, MatchSeat, MatchStatus
from matches.selectors import filter_matches


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

    @extend_schema_field(OpenApiTypes.FLOAT)
    def get_elo_before(self, seat: MatchSeat) -> float | None:
        change = seat.rating_change
        return None if change is None else change.elo_before

    @extend_schema_field(OpenApiTypes.FLOAT)
    def get_elo_after(self, seat: MatchSeat) -> float | None:
        change = seat.rating_change
        return None if change is None else change.elo_after


class MatchSerializer(serializers.ModelSerializer):
    game = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seats = MatchSeatSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
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
            "seats",
        ]


class MatchListApi(generics.ListAPIView):
    """Matches, newest first; filter with ``?game=slug``, ``?bot=id``, ``?status=``."""

    serializer_class = MatchSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        params = self.request.query_params
        bot = params.get("bot", "")
        status = params.get("status") or None
        if status and status not in MatchStatus.values:
            from rest_framework.exceptions import ValidationError

            raise ValidationError({"status": f"must be one of {', '.join(MatchStatus.values)}"})
        return filter_matches(
            game=params.get("game") or None, bot=int(bot) if bot.isdigit() else None, status=status
        )


class MatchDetailApi(generics.RetrieveAPIView):
    serializer_class = MatchSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return filter_matches()


class MatchReplayApi(APIView):
    """The versioned replay document of a match (``format: meeple-arena-replay``)."""

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        match = generics.get_object_or_404(Match.objects.only("replay"), pk=pk)
        if match.replay is None:
            return Response({"detail": "This match has no replay."}, status=404)
        return Response(match.replay)
