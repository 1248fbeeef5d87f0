"""REST API of tournaments: list, create (staff or organisers), detail with standings, start."""

from __future__ import annotations

from typing import Any, cast

from bots.models import BotVersion, VersionStatus
from catalog.models import Game
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_field
from foundation.fields import MAX_INT, SafeSlugRelatedField, StrictIntegerField
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.formats import FORMAT_CHOICES, FORMAT_NAMES, OPTION_BOUNDS
from competitions.models import EntryPolicy, Tournament, Visibility
from competitions.permissions import may_organise, may_start, visible_tournaments
from competitions.tournaments.selectors import tournament_standings
from competitions.tournaments.services import (
    MAX_TOURNAMENT_MATCHES,
    create_tournament,
    enqueue_start,
)
from competitions.tournaments.settings import (
    MAX_ENTRIES,
    MAX_ENTRIES_PER_USER,
    MAX_MOVE_MS,
    MAX_ROUND_SPACING_HOURS,
    MAX_START_MS,
)
from games.base import GameError
from games.registry import get_game

#: Match ids listed in the answer to "start" (the first round's, at most).
MAX_LISTED = 500


def bounds(option: str) -> dict[str, int]:
    """A format option's least and most, as the formats bound it (``arena.formats.parts``)."""
    least, most = OPTION_BOUNDS[option]
    return {"min_value": least, "max_value": most}


class TournamentSerializer(serializers.ModelSerializer):
    game: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    organiser = serializers.CharField(source="organiser.username", read_only=True)
    entrants: serializers.PrimaryKeyRelatedField = serializers.PrimaryKeyRelatedField(
        many=True, read_only=True
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "game",
            "organiser",
            "status",
            "format",
            "players_per_match",
            "games_per_pairing",
            "rounds",
            "advance",
            "max_matches",
            "current_round",
            "planned_matches",
            "seed",
            "options",
            "entrants",
            "created_at",
            "started_at",
            "finished_at",
            # Issue 22: after the fields clients already knew, which keep their places.
            "visibility",
            "entry_policy",
            "entries_open_at",
            "entries_close_at",
            "max_entries",
            "entries_per_user",
            "start_at",
            "round_spacing_hours",
            "time_control",
            "rated_on_ladder",
            "next_round_at",
            "start_problem",
        ]


class TimeControlSerializer(serializers.Serializer):
    """A match's time control (``arena.contract.TimeControl``); a key left out keeps the
    site's default, and the site's limits are checked by the service."""

    start_ms = StrictIntegerField(min_value=0, max_value=MAX_START_MS, required=False)
    move_ms = StrictIntegerField(min_value=0, max_value=MAX_MOVE_MS, required=False)
    bank_ms = StrictIntegerField(min_value=0, max_value=MAX_INT, required=False)


class TournamentCreateSerializer(serializers.Serializer):
    """Everything checked here, at the edge: ASCII integers within the columns' ranges, and
    the options by the game's engine (unknown keys, types, bounds)."""

    game = SafeSlugRelatedField(slug_field="slug", queryset=Game.objects.filter(is_active=True))
    name = serializers.CharField(max_length=100)
    entrants = serializers.PrimaryKeyRelatedField(
        many=True,
        queryset=BotVersion.objects.exclude(status=VersionStatus.PERSON).select_related("bot"),
        required=False,
        default=list,
        help_text="bot version ids (optional when users enter their own bots)",
    )
    format = serializers.ChoiceField(choices=FORMAT_CHOICES, default=FORMAT_NAMES[0])
    players_per_match = StrictIntegerField(**bounds("players"), default=2)
    games_per_pairing = StrictIntegerField(**bounds("games_per_table"), default=1)
    rounds = StrictIntegerField(**bounds("rounds"), required=False, allow_null=True)
    advance = StrictIntegerField(**bounds("advance"), default=1)
    max_matches = StrictIntegerField(
        min_value=1, max_value=MAX_TOURNAMENT_MATCHES, required=False, allow_null=True
    )
    seed = StrictIntegerField(min_value=0, max_value=MAX_INT, default=0)
    options = serializers.DictField(required=False, default=dict)
    visibility = serializers.ChoiceField(choices=Visibility.choices, default=Visibility.PUBLIC)
    entry_policy = serializers.ChoiceField(
        choices=EntryPolicy.choices, default=EntryPolicy.ORGANISER
    )
    entries_open_at = serializers.DateTimeField(required=False, allow_null=True)
    entries_close_at = serializers.DateTimeField(required=False, allow_null=True)
    max_entries = StrictIntegerField(
        min_value=1, max_value=MAX_ENTRIES, required=False, allow_null=True
    )
    entries_per_user = StrictIntegerField(min_value=1, max_value=MAX_ENTRIES_PER_USER, default=1)
    start_at = serializers.DateTimeField(
        required=False, allow_null=True, help_text="null: entries_close_at, else Start by hand"
    )
    round_spacing_hours = StrictIntegerField(
        min_value=0, max_value=MAX_ROUND_SPACING_HOURS, default=0
    )
    time_control = TimeControlSerializer(required=False, allow_null=True)
    rated_on_ladder = serializers.BooleanField(
        required=False, allow_null=True, default=None, help_text="null: true if public"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            engine = get_game(attrs["game"].slug)
            attrs["options"] = engine.check_options(dict(attrs.get("options") or {}))
        except GameError as exc:
            raise ValidationError({"options": [str(exc)]}) from None
        return attrs


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    bot_version = serializers.IntegerField(source="version.pk")
    bot = serializers.CharField(source="version.bot.name")
    standing = serializers.SerializerMethodField()

    def get_standing(self, row) -> dict:
        data = row.standing.to_json()
        data.pop("bot", None)
        return data


class TournamentDetailSerializer(TournamentSerializer):
    """A tournament with its standings (``standings``: the rows, best first)."""

    standings = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "standings"]

    @extend_schema_field(StandingSerializer(many=True))
    def get_standings(self, t: Tournament) -> list[dict[str, Any]]:
        return list(StandingSerializer(tournament_standings(t), many=True).data)


class TournamentStartedSerializer(TournamentSerializer):
    """A tournament just started, with the matches already scheduled (none while the worker
    has not run yet; at most ``MAX_LISTED``)."""

    matches = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "matches"]

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_matches(self, t: Tournament) -> list[int]:
        return list(t.matches.order_by("pk").values_list("pk", flat=True)[:MAX_LISTED])


class TournamentListApi(generics.ListAPIView):
    """Tournaments; POST creates one (staff and organisers), with its own input serializer."""

    serializer_class = TournamentSerializer

    def get_queryset(self):
        # A private tournament is listed to its members only.
        return (
            visible_tournaments(self.request.user)
            .select_related("game", "organiser")
            .prefetch_related("entrants")
        )

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def post(self, request: Request) -> Response:
        if not may_organise(request.user):
            raise PermissionDenied("Only staff and organisers may create tournaments.")
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # IsAuthenticated and may_organise above: a signed-in user.
        t = create_tournament(organiser=cast(User, request.user), **data.validated_data)
        return Response(TournamentSerializer(t).data, status=status.HTTP_201_CREATED)


def _seen(request: Request) -> QuerySet[Tournament]:
    return visible_tournaments(request.user)


class TournamentDetailApi(APIView):
    """The tournament and its standings."""

    @extend_schema(responses=TournamentDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        t = generics.get_object_or_404(_seen(request), pk=pk)
        return Response(TournamentDetailSerializer(t).data)


class TournamentStartApi(APIView):
    """Start the tournament (its organiser or staff): checked now, scheduled by a worker;
    ``matches`` lists those already scheduled when the answer is sent (none while the worker
    has not run yet). 202: follow ``GET tournaments/<id>/`` for the progress."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: TournamentStartedSerializer})
    def post(self, request: Request, pk: int) -> Response:
        t = generics.get_object_or_404(_seen(request), pk=pk)
        if not may_start(request.user, t):
            raise PermissionDenied("Only the tournament's organiser may start it.")
        with transaction.atomic():
            enqueue_start(t)
        t.refresh_from_db()
        return Response(TournamentStartedSerializer(t).data, status=status.HTTP_202_ACCEPTED)
