"""REST API of the ratings: a game's leaderboard and a bot's rating history."""

from __future__ import annotations

from bots.models import Bot
from catalog.selectors import game_by_slug
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

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
    """The bot's rating after each of its last rated matches (at most 200), oldest first."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=RatingPointSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        points = rating_history(bot, limit=200)
        return Response(RatingPointSerializer([vars(p) for p in points], many=True).data)
