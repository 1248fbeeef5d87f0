"""REST API of the ladder: a game's ladder, a bot's ladder state and
head-to-head, pinning a version, and challenges (a bot's rating history is the ratings'
API)."""

from __future__ import annotations

from typing import Any, cast

from bots.models import Bot
from catalog.models import Game
from django.conf import settings
from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, extend_schema
from foundation.errors import refused_as
from foundation.fields import StrictIntegerField
from foundation.pagination import StrictPageNumberPagination
from foundation.throttles import ChallengeThrottle
from matches.models import MatchKind
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ladder import selectors
from ladder.challenges import create_challenge
from ladder.models import LadderEntry, LadderMatch
from ladder.pinning import pin


class LadderEntrySerializer(serializers.ModelSerializer):
    bot = serializers.IntegerField(source="bot_id")
    name = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    in_placement = serializers.BooleanField()
    suspended = serializers.BooleanField(source="is_suspended")
    rating = serializers.SerializerMethodField()

    class Meta:
        model = LadderEntry
        fields = [
            "bot",
            "name",
            "owner",
            "in_placement",
            "placement_owed",
            "suspended",
            "suspended_at",
            "fault_streak",
            "ladder_matches",
            "last_match_at",
            "rating",
        ]

    def get_rating(self, entry: LadderEntry) -> dict[str, float] | None:
        r = self.context.get("ratings", {}).get(entry.bot_id)
        if r is None:
            return None
        return {"elo": r.elo, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal}


class OwnLadderEntrySerializer(LadderEntrySerializer):
    class Meta(LadderEntrySerializer.Meta):
        fields = [*LadderEntrySerializer.Meta.fields, "suspended_reason"]


class LadderPagination(StrictPageNumberPagination):
    page_size = 50


class GameLadderSerializer(serializers.Serializer):
    game = serializers.CharField()
    budget = serializers.IntegerField(help_text="ladder matches queued or running at most")
    in_flight = serializers.IntegerField()
    count = serializers.IntegerField(min_value=0, help_text="bots on the ladder (all pages)")
    next = serializers.URLField(allow_null=True, help_text="the next page (null: the last)")
    previous = serializers.URLField(allow_null=True, help_text="the page before (null: first)")
    entries = LadderEntrySerializer(
        many=True, help_text=f"one page of the ladder, {LadderPagination.page_size} at most"
    )


class GameLadderApi(APIView):
    """A game's ladder, a page of 50 at a time (``?page=n``): the bots on it, best rated first
    (unrated last, then by name), with placement and suspension."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=GameLadderSerializer,
        parameters=[OpenApiParameter("page", int, description="page number, from 1")],
    )
    def get(self, request: Request, slug: str) -> Response:
        game = generics.get_object_or_404(Game, slug=slug)
        pages = LadderPagination()
        entries = pages.paginate_queryset(selectors.ladder_board(game), request, view=self) or []
        ratings = selectors.ratings_of(game, [e.bot_id for e in entries])
        return Response(
            {
                "game": game.slug,
                "budget": settings.ARENA_LADDER_BUDGET,
                "in_flight": selectors.inflight_ladder_matches(game),
                "count": pages.page.paginator.count if pages.page else 0,
                "next": pages.get_next_link(),
                "previous": pages.get_previous_link(),
                "entries": LadderEntrySerializer(
                    entries, many=True, context={"ratings": ratings}
                ).data,
            }
        )


class BotLadderApi(APIView):
    """One bot's place on its ladder (404 when it is not on it: no version qualified yet);
    its owner also sees why it was suspended."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=OwnLadderEntrySerializer)
    def get(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        entry = generics.get_object_or_404(
            LadderEntry.objects.select_related("bot__owner"), bot=bot
        )
        ratings = selectors.ratings_of(bot.game, [bot.pk])
        cls = OwnLadderEntrySerializer if bot.owner_id == request.user.pk else LadderEntrySerializer
        return Response(cls(entry, context={"ratings": ratings}).data)


class HeadToHeadSerializer(serializers.Serializer):
    opponent = serializers.IntegerField(source="opponent.pk")
    name = serializers.CharField(source="opponent.name")
    met = serializers.IntegerField()
    ahead = serializers.IntegerField()
    level = serializers.IntegerField()
    behind = serializers.IntegerField()


class HeadToHeadApi(APIView):
    """Records against the bots met most in the last 200 finished matches."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=HeadToHeadSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        rows = selectors.head_to_head(bot, top=10)
        return Response(HeadToHeadSerializer(rows, many=True).data)


class PinSerializer(serializers.Serializer):
    version = StrictIntegerField(
        min_value=1,
        allow_null=True,
        help_text="version number to play with; null: the latest active one",
    )


class PinResultSerializer(serializers.Serializer):
    version = serializers.IntegerField(allow_null=True, help_text="the version pinned, or null")
    playing = serializers.IntegerField(
        allow_null=True, help_text="the version it plays with now (null: none qualified)"
    )
    reinstated = serializers.BooleanField(
        help_text="the pin lifted a suspension (another qualified version than the one whose "
        "faults suspended the bot): it owes its placement matches again"
    )
    suspended = serializers.BooleanField(help_text="still suspended from the ladder")


class PinApi(APIView):
    """Choose the version a bot plays with (owner only; a qualified version, or null). Pinning
    a qualified version other than the one whose faults suspended the bot lifts the
    suspension, as a new qualified upload does."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=PinSerializer, responses=PinResultSerializer)
    def post(self, request: Request, pk: int) -> Response:
        bot = generics.get_object_or_404(Bot, pk=pk)
        data = PinSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        number = data.validated_data["version"]
        version = None
        if number is not None:
            version = bot.versions.filter(number=number).first()
            if version is None:
                raise ValidationError({"version": [f"{bot.name} has no version {number}."]})
        with refused_as("version"):
            result = pin(bot=bot, by=cast(User, request.user), version=version)
        return Response(
            {
                "version": number,
                "playing": result.playing.number if result.playing else None,
                "reinstated": result.reinstated,
                "suspended": result.still_suspended,
            }
        )


class ChallengeCreateSerializer(serializers.Serializer):
    bot = StrictIntegerField(min_value=1, help_text="your own bot")
    opponents = serializers.ListField(
        child=StrictIntegerField(min_value=1), min_length=1, max_length=10, help_text="bot ids"
    )


class ChallengeSerializer(serializers.ModelSerializer):
    match = serializers.IntegerField(source="match_id")
    game = serializers.CharField(source="game.slug")
    status = serializers.CharField(source="match.status")

    class Meta:
        model = LadderMatch
        fields = ["match", "game", "status", "created_at"]


class ChallengeListSerializer(serializers.Serializer):
    left_today = serializers.IntegerField()
    per_day = serializers.IntegerField()
    challenges = ChallengeSerializer(many=True)


class ChallengesApi(APIView):
    """GET: your recent challenges and how many are left in the next 24 hours. POST: challenge
    chosen bots of a game with one of your own (a friendly, unrated match; the result is the
    match at ``/api/matches/<id>/``)."""

    permission_classes = [permissions.IsAuthenticated]

    def get_throttles(self) -> list[Any]:
        # Sending challenges (POSTs) also counts against the ``challenge`` rate, with the page's.
        return [*super().get_throttles(), ChallengeThrottle()]

    @extend_schema(responses=ChallengeListSerializer)
    def get(self, request: Request) -> Response:
        rows = (
            LadderMatch.objects.filter(
                kind=MatchKind.CHALLENGE, challenger=cast(User, request.user)
            )
            .select_related("game", "match")
            .order_by("-created_at")[:50]
        )
        return Response(
            {
                "left_today": selectors.challenges_left(request.user),
                "per_day": settings.ARENA_CHALLENGES_PER_DAY,
                "challenges": ChallengeSerializer(rows, many=True).data,
            }
        )

    @extend_schema(request=ChallengeCreateSerializer, responses={201: ChallengeSerializer})
    def post(self, request: Request) -> Response:
        data = ChallengeCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bots: dict[int, Any] = Bot.objects.select_related("game").in_bulk(
            [data.validated_data["bot"], *data.validated_data["opponents"]]
        )
        own = bots.get(data.validated_data["bot"])
        if own is None:
            raise ValidationError({"bot": ["No such bot."]})
        unknown = [i for i in data.validated_data["opponents"] if i not in bots]
        if unknown:
            raise ValidationError({"opponents": [f"No such bot: {unknown[0]}."]})
        match = create_challenge(
            user=cast(User, request.user),
            bot=own,
            opponents=[bots[i] for i in data.validated_data["opponents"]],
        )
        return Response(ChallengeSerializer(match.ladder).data, status=status.HTTP_201_CREATED)
