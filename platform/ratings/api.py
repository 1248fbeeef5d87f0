"""REST API of the ratings: a game's leaderboard, a bot's rating history, its results by table
size and seat, and two of its versions compared."""

from __future__ import annotations

from typing import Any

from bots.models import Bot
from catalog.selectors import game_by_slug
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, permissions, serializers
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings import stats
from ratings.comparison import Side, chosen_versions, compare_versions
from ratings.models import Rating
from ratings.selectors import leaderboard, rating_history


class LeaderboardRowSerializer(serializers.ModelSerializer):
    bot_id = serializers.IntegerField(source="bot.pk")
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    is_builtin = serializers.BooleanField(source="bot.is_builtin")

    class Meta:
        model = Rating
        fields = [
            "bot_id",
            "bot",
            "owner",
            "is_builtin",
            "elo",
            "mu",
            "sigma",
            "ordinal",
            "matches_played",
            "provisional",
        ]


class LeaderboardApi(generics.ListAPIView):
    """Ratings of a game, best first (conservative OpenSkill ordinal, then Elo)."""

    serializer_class = LeaderboardRowSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no slug to look up
            return Rating.objects.none()
        return leaderboard(game_by_slug(self.kwargs["slug"]))


class RatingPointSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    elo = serializers.FloatField()
    ordinal = serializers.FloatField(allow_null=True)
    at = serializers.DateTimeField(allow_null=True)


class RatingHistoryApi(APIView):
    """The bot's rating after each of its last rated matches (at most 200) that the caller may
    see (a private competition's: its members), oldest first."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=RatingPointSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        points = rating_history(bot, limit=200, viewer=request.user)
        return Response(RatingPointSerializer([vars(p) for p in points], many=True).data)


class SplitSerializer(serializers.Serializer):
    key = serializers.IntegerField(help_text="players at the table, or the seat (from 0)")
    played = serializers.IntegerField()
    firsts = serializers.IntegerField(help_text="matches finished first (shared or not)")
    average_place = serializers.FloatField(help_text="1 is first")
    elo_change = serializers.FloatField(help_text="what these matches moved the bot's Elo")


class SplitsSerializer(serializers.Serializer):
    by_size = SplitSerializer(many=True)
    by_seat = SplitSerializer(many=True)


class BotStatsApi(APIView):
    """The bot's rated results by table size and by seat (all its versions; counted as each
    match is recorded)."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=SplitsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        return Response(SplitsSerializer(stats.splits(bot)).data)


class PeriodSerializer(serializers.Serializer):
    matches = serializers.IntegerField()
    first_at = serializers.DateTimeField(allow_null=True)
    last_at = serializers.DateTimeField(allow_null=True)
    elo_start = serializers.FloatField()
    elo_end = serializers.FloatField()
    elo_high = serializers.FloatField()
    elo_low = serializers.FloatField()
    points = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField(), min_length=2, max_length=2),
        source="series",
        help_text="[rated matches since the version's first, Elo after it], from [0, start]",
    )


class SideSerializer(serializers.Serializer):
    version = serializers.IntegerField(source="version.number")
    period = serializers.SerializerMethodField()
    splits = SplitsSerializer()

    @extend_schema_field(PeriodSerializer(allow_null=True))
    def get_period(self, side: Side) -> dict[str, Any] | None:
        if side.period is None:
            return None
        p = side.period
        return PeriodSerializer(
            {
                "matches": p.matches,
                "first_at": p.first_at,
                "last_at": p.last_at,
                "elo_start": p.elo_start,
                "elo_end": p.elo_end,
                "elo_high": p.elo_high,
                "elo_low": p.elo_low,
                "series": [list(point) for point in side.series()],
            }
        ).data


class RecordSerializer(serializers.Serializer):
    met = serializers.IntegerField()
    ahead = serializers.IntegerField()
    level = serializers.IntegerField()
    behind = serializers.IntegerField()


class OpponentRowSerializer(serializers.Serializer):
    opponent = serializers.IntegerField(source="opponent.pk")
    name = serializers.CharField(source="opponent.name")
    a = RecordSerializer()
    b = RecordSerializer()


class ComparisonSerializer(serializers.Serializer):
    a = SideSerializer()
    b = SideSerializer()
    opponents = OpponentRowSerializer(many=True, help_text="both met first, most met first")
    more = serializers.IntegerField(help_text="opponents past the 30 listed")


class VersionCompareApi(APIView):
    """Two versions of one of your own bots side by side: results against each opponent, by
    table size and seat, and the bot's Elo over each version's period (owner only)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("a", int, description="a version number (default: the second newest)"),
            OpenApiParameter("b", int, description="another version number (default: the newest)"),
        ],
        responses=ComparisonSerializer,
    )
    def get(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        if bot.owner_id != request.user.pk:
            raise PermissionDenied("Only the bot's owner may compare its versions.")
        versions = list(bot.versions.order_by("-number"))
        chosen = chosen_versions(bot, versions, request.GET.get("a"), request.GET.get("b"))
        if isinstance(chosen, str):
            raise ValidationError({"detail": chosen})
        return Response(ComparisonSerializer(compare_versions(bot, *chosen)).data)
