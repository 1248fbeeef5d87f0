"""REST API of the catalog: games and their leaderboards."""

from __future__ import annotations

from ratings.models import Rating
from ratings.selectors import leaderboard
from rest_framework import generics, serializers

from catalog.models import Game
from catalog.selectors import active_games, game_by_slug


class GameSerializer(serializers.ModelSerializer):
    class Meta:
        model = Game
        fields = [
            "slug",
            "name",
            "summary",
            "min_players",
            "max_players",
            "options",
            "builtin_bots",
        ]


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


class GameListApi(generics.ListAPIView):
    serializer_class = GameSerializer
    pagination_class = None

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return active_games()


class GameDetailApi(generics.RetrieveAPIView):
    serializer_class = GameSerializer
    lookup_field = "slug"

    def get_queryset(self):  # type: ignore[no-untyped-def]
        return Game.objects.all()


class LeaderboardApi(generics.ListAPIView):
    """Ratings of a game, best first (conservative OpenSkill ordinal, then Elo)."""

    serializer_class = LeaderboardRowSerializer

    def get_queryset(self):  # type: ignore[no-untyped-def]
        if getattr(self, "swagger_fake_view", False):  # schema generation: no slug to look up
            return Rating.objects.none()
        return leaderboard(game_by_slug(self.kwargs["slug"]))
