"""REST API of the catalog: the games (their leaderboards are the ratings' API)."""

from __future__ import annotations

from rest_framework import generics, serializers

from catalog.models import Game
from catalog.selectors import active_games


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


class GameListApi(generics.ListAPIView):
    serializer_class = GameSerializer
    pagination_class = None

    def get_queryset(self):
        return active_games()


class GameDetailApi(generics.RetrieveAPIView):
    serializer_class = GameSerializer
    lookup_field = "slug"

    def get_queryset(self):
        return Game.objects.all()
