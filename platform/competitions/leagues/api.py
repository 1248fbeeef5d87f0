"""REST API of leagues: what the league pages show and let an organiser do, under the same
rules (``competitions.permissions``): the list (create: staff and organisers), one league
with its seasons, its latest round's progress and the top of a standings table, the whole
table page by page, and "play a round now" (its organiser or staff)."""

from __future__ import annotations

from typing import Any, cast

import django_filters
from catalog.models import Game
from django.contrib.auth.models import User
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from foundation.fields import MAX_INT, LookupFilter, SafeSlugRelatedField, StrictIntegerField
from foundation.params import int_param
from rest_framework import generics, permissions, serializers, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.form_defaults import default_players, random_seed
from competitions.leagues.selectors import LeagueRow, next_round_at, seasons_of
from competitions.leagues.services import (
    LEAGUE_MAX_EVERY_HOURS,
    create_league,
    enqueue_league_round,
)
from competitions.match_counts import match_progress
from competitions.models import League, LeagueStanding, Season
from competitions.permissions import may_organise, may_run_league

#: Standings rows in a league's detail (as on its page); ``standings/`` pages through all.
DETAIL_ROWS = 100
#: Seasons listed in a league's detail, newest first (a season lasts weeks: years of them).
SEASONS_SHOWN = 100
SEASON_PARAM = OpenApiParameter(
    "season",
    int,
    description="a season's number: its table (default: the table of all time)",
)


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = [
            "number",
            "rounds",
            "first_round",
            "rounds_played",
            "starts_at",
            "ends_at",
            "finished_at",
        ]


class LeagueSerializer(serializers.ModelSerializer):
    game: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True
    )
    organiser = serializers.CharField(
        source="organiser.username", read_only=True, allow_null=True, default=None
    )
    next_round_at = serializers.SerializerMethodField(
        help_text="when the next round is due (null while paused)"
    )

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "game",
            "organiser",
            "is_active",
            "every_hours",
            "players_per_match",
            "rounds_per_season",
            "rounds_played",
            "last_run_at",
            "next_round_at",
            "seed",
            "starts_at",
        ]

    @extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
    def get_next_round_at(self, league: League) -> Any:
        due = next_round_at(league)
        return None if due is None else serializers.DateTimeField().to_representation(due)


class LeagueStandingSerializer(serializers.Serializer):
    """One bot's line of a league table (a league follows bots, whatever version played)."""

    position = serializers.IntegerField()
    bot_id = serializers.IntegerField(source="bot.pk")
    bot = serializers.CharField(source="bot.name")
    owner = serializers.CharField(source="bot.owner.username")
    points = serializers.FloatField(help_text="match points: what orders the table first")
    matches = serializers.IntegerField(source="standing.matches")
    wins = serializers.IntegerField(source="standing.wins")
    faults = serializers.IntegerField(source="standing.faults")
    avg_rank = serializers.FloatField(source="standing.avg_rank", allow_null=True)
    avg_score = serializers.FloatField(source="standing.avg_score", allow_null=True)
    elo = serializers.FloatField(source="standing.elo")
    ordinal = serializers.FloatField(
        source="standing.ordinal",
        help_text="conservative skill μ − 3σ over this league's matches: orders equal points",
    )


class RoundProgressSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="the latest round (0: none played yet)")
    total = serializers.IntegerField()
    finished = serializers.IntegerField()
    failed = serializers.IntegerField(help_text="ended in a platform error (not rated)")
    pending = serializers.IntegerField()


class LeagueDetailSerializer(LeagueSerializer):
    """The league, its seasons (newest first), its latest round and the top of a table."""

    current_season = serializers.IntegerField(allow_null=True)
    seasons = SeasonSerializer(many=True)
    latest_round = RoundProgressSerializer()
    standings_season = serializers.IntegerField(
        allow_null=True, help_text="the season of the table below; null: all time"
    )
    standings = LeagueStandingSerializer(
        many=True, help_text=f"the best {DETAIL_ROWS} rows; standings/ pages through all"
    )

    class Meta(LeagueSerializer.Meta):
        fields = [
            *LeagueSerializer.Meta.fields,
            "current_season",
            "seasons",
            "latest_round",
            "standings_season",
            "standings",
        ]


class LeagueCreateSerializer(serializers.Serializer):
    """The league form's fields, checked as the form checks them (the service checks again)."""

    game = SafeSlugRelatedField(slug_field="slug", queryset=Game.objects.filter(is_active=True))
    name = serializers.CharField(max_length=100)
    every_hours = StrictIntegerField(min_value=1, max_value=LEAGUE_MAX_EVERY_HOURS, default=24)
    rounds_per_season = StrictIntegerField(min_value=1, max_value=1000, default=30)
    players_per_match = StrictIntegerField(
        min_value=1,
        max_value=99,
        required=False,
        help_text="default: two, or the nearest the game allows",
    )
    seed = StrictIntegerField(min_value=0, max_value=MAX_INT, required=False)
    is_active = serializers.BooleanField(default=True, help_text="paused leagues play no rounds")
    starts_at = serializers.DateTimeField(
        allow_null=True,
        default=None,
        help_text="the calendar: rounds fall at this time and every every_hours after it "
        "(ISO 8601 with its offset; default: now, the first round at once)",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        game = attrs["game"]
        attrs.setdefault("players_per_match", default_players(game))
        if not game.min_players <= attrs["players_per_match"] <= game.max_players:
            raise ValidationError(
                {
                    "players_per_match": [
                        f"{game.name} is played by {game.players_label} players, "
                        f"not {attrs['players_per_match']}."
                    ]
                }
            )
        if attrs.get("seed") is None:
            attrs["seed"] = random_seed()
        return attrs


class LeagueFilter(django_filters.FilterSet):
    game = LookupFilter(field_name="game__slug", help_text="a game's slug")

    class Meta:
        model = League
        fields = ["game"]


def _league(pk: int) -> League:
    return generics.get_object_or_404(League.objects.select_related("game", "organiser"), pk=pk)


def _season(request: Request, league: League) -> Season | None:
    """The season ``?season=N`` names (None: all time); a 400 for a bad number, 404 for none."""
    raw = request.query_params.get("season", "")
    if not raw:
        return None
    number = int_param(raw, minimum=1)
    if number is None:
        raise ValidationError({"season": [f"a season's number, not {raw[:20]!r}"]})
    season = league.seasons.filter(number=number).first()
    if season is None:
        raise NotFound(f"{league.name} has no season {number}.")
    return season


def _table(league: League, season: Season | None) -> QuerySet[LeagueStanding]:
    """The stored table, best first (``selectors.league_standings``' order), read by index."""
    return (
        LeagueStanding.objects.filter(league=league, season=season)
        .select_related("bot__owner")
        .order_by("-points", "-ordinal", "bot_id")
    )


def _rows(standings: Any, first_position: int = 1) -> list[LeagueRow]:
    return [
        LeagueRow(position=i, bot=st.bot, standing=st.standing(str(st.bot_id)), points=st.points)
        for i, st in enumerate(standings, start=first_position)
    ]


class LeagueListApi(generics.ListAPIView):
    """Leagues (``?game=slug``); POST creates one (staff and members of the ``organisers``
    group), with the league form's fields and checks: its first round is due at once."""

    serializer_class = LeagueSerializer
    filterset_class = LeagueFilter
    queryset = League.objects.select_related("game", "organiser").order_by("pk")

    @extend_schema(request=LeagueCreateSerializer, responses={201: LeagueSerializer})
    def post(self, request: Request) -> Response:
        if not may_organise(request.user):
            raise PermissionDenied("Only staff and organisers may create leagues.")
        data = LeagueCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # IsAuthenticatedOrReadOnly and may_organise above: a signed-in user. A refusal of
        # create_league is answered by foundation.errors (400 {"detail": [...]}).
        league = create_league(organiser=cast(User, request.user), **data.validated_data)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class LeagueDetailApi(APIView):
    """A league: its seasons, its latest round's progress and the best rows of a table (all
    time, or ``?season=N``'s), as its page shows them."""

    @extend_schema(parameters=[SEASON_PARAM], responses=LeagueDetailSerializer)
    def get(self, request: Request, pk: int) -> Response:
        league = _league(pk)
        shown = _season(request, league)
        seasons = list(seasons_of(league)[:SEASONS_SHOWN])
        progress = match_progress(
            league.matches.filter(competition_link__round=league.rounds_played)
        )
        data = {
            **LeagueSerializer(league).data,
            "current_season": seasons[0].number if seasons else None,
            "seasons": SeasonSerializer(seasons, many=True).data,
            "latest_round": RoundProgressSerializer(
                {
                    "number": league.rounds_played,
                    "total": progress.total,
                    "finished": progress.finished,
                    "failed": progress.errors,
                    "pending": progress.pending,
                }
            ).data,
            "standings_season": shown.number if shown else None,
            "standings": LeagueStandingSerializer(
                _rows(_table(league, shown)[:DETAIL_ROWS]), many=True
            ).data,
        }
        return Response(data)


class LeagueStandingsApi(generics.ListAPIView):
    """A league's whole table (all time, or ``?season=N``'s), best first, page by page:
    ``position`` counts from the top of the table, not of the page."""

    serializer_class = LeagueStandingSerializer
    # the schema's model (the path's id); list() reads the league's table itself
    queryset = LeagueStanding.objects.none()

    @extend_schema(parameters=[SEASON_PARAM])
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        league = _league(self.kwargs["pk"])
        page = self.paginate_queryset(_table(league, _season(request, league)))
        paginator = cast(Any, self.paginator)
        first = paginator.page.start_index() if page else 1
        rows = _rows(page or [], first_position=first)
        return self.get_paginated_response(self.get_serializer(rows, many=True).data)


class RoundQueuedSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="the number of the round on its way")
    detail = serializers.CharField()


class LeaguePlayRoundApi(APIView):
    """Play the league's next round now, due or not (its organiser or staff), as the page's
    button does: a worker schedules it, so the answer comes at once (202); sent twice, it
    plays one round. Follow ``GET leagues/<id>/`` (``latest_round``)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={202: RoundQueuedSerializer})
    def post(self, request: Request, pk: int) -> Response:
        league = _league(pk)
        if not may_run_league(request.user, league):
            raise PermissionDenied("Only the league's organiser or staff may play its rounds.")
        enqueue_league_round(league)
        number = league.rounds_played + 1
        queued = {"round": number, "detail": f"Round {number} is on its way to the workers."}
        return Response(RoundQueuedSerializer(queued).data, status=status.HTTP_202_ACCEPTED)
