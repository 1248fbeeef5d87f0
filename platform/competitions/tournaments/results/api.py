"""REST API of a tournament's published results: the table with its tie-breaks
(``standings/``) and the crosstable with every match (``crosstable/``), the same data as the
pages' JSON export. A private tournament answers 404 to whoever may not see it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from competitions.models import Tournament
from competitions.permissions import may_see_tournament
from competitions.tournaments.results.data import tournament_results
from competitions.tournaments.results.export import results_json
from competitions.tournaments.results.section import match_url_builder


class StandingLineSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    bot_version = serializers.IntegerField()
    bot = serializers.CharField()
    version = serializers.IntegerField()
    owner = serializers.CharField(help_text='"deleted user" once its owner deleted the account')
    points = serializers.FloatField()
    buchholz = serializers.FloatField(help_text="the opponents' points, once per meeting")
    sonneborn_berger = serializers.FloatField(
        help_text="points won against each opponent times its points (shown, not ranked by)"
    )
    wins = serializers.IntegerField()
    matches = serializers.IntegerField()
    byes = serializers.IntegerField()
    eliminated_in_round = serializers.IntegerField(allow_null=True, help_text="knockout, from 1")
    seed = serializers.IntegerField()
    eliminated = serializers.BooleanField()


class WinnerSerializer(serializers.Serializer):
    bot_version = serializers.IntegerField()
    bot = serializers.CharField()
    owner = serializers.CharField()
    last_match = serializers.IntegerField(allow_null=True)
    replay = serializers.URLField(allow_null=True)


class LinksSerializer(serializers.Serializer):
    csv = serializers.URLField(help_text="the table as CSV")
    json = serializers.URLField(help_text="table, crosstable and matches as one JSON file")
    embed = serializers.URLField(help_text="the standings page other sites may frame")


class StandingsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    format = serializers.CharField()
    status = serializers.CharField()
    ranked_by = serializers.ListField(
        child=serializers.CharField(), help_text="the order's keys, first to last"
    )
    winner = WinnerSerializer(allow_null=True, help_text="a finished tournament's first")
    standings = StandingLineSerializer(many=True)
    links = LinksSerializer()


class MeetingSerializer(serializers.Serializer):
    opponent = serializers.IntegerField(help_text="the opponent's bot version")
    ahead = serializers.IntegerField(help_text="matches where it placed ahead of the opponent")
    level = serializers.IntegerField()
    behind = serializers.IntegerField()
    points = serializers.FloatField(help_text="its match points won in these meetings")
    matches = serializers.ListField(child=serializers.IntegerField())


class CrossLineSerializer(serializers.Serializer):
    bot_version = serializers.IntegerField()
    opponents = MeetingSerializer(many=True)


class ResultMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(help_text="from 1")
    status = serializers.CharField()
    bot_versions = serializers.ListField(child=serializers.IntegerField(), help_text="by seat")
    ranks = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text="null until finished"
    )
    replay = serializers.URLField()


class CrosstableSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    crosstable = CrossLineSerializer(many=True)
    matches = ResultMatchSerializer(many=True)


def _published(request: Request, pk: int) -> tuple[Tournament, dict[str, Any]]:
    t = generics.get_object_or_404(Tournament.objects.select_related("game"), pk=pk)
    if not may_see_tournament(request.user, t):
        raise NotFound("No such tournament.")
    url = match_url_builder(request.build_absolute_uri)
    return t, results_json(t, tournament_results(t), url)


class TournamentStandingsApi(APIView):
    """The tournament's table, best first, with the format's tie-breaks and
    Sonneborn-Berger, and its winner with the replay of its last match."""

    @extend_schema(responses=StandingsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        t, data = _published(request, pk)
        return Response(
            {
                "tournament": t.pk,
                "format": t.format,
                "status": t.status,
                "ranked_by": data["tournament"]["ranked_by"],
                "winner": data["winner"],
                "standings": data["standings"],
                "links": _links(request, t),
            }
        )


class TournamentCrosstableApi(APIView):
    """Each entrant's record against every entrant it met (ahead, level, behind, points, the
    matches) and every match of the tournament with its replay's address."""

    @extend_schema(responses=CrosstableSerializer)
    def get(self, request: Request, pk: int) -> Response:
        t, data = _published(request, pk)
        return Response(
            {"tournament": t.pk, "crosstable": data["crosstable"], "matches": data["matches"]}
        )


def _links(request: Request, t: Tournament) -> dict[str, str]:
    """The exports' addresses on the site, for clients that publish elsewhere."""
    names = {"csv": "standings_csv", "json": "standings_json", "embed": "embed"}
    return {
        k: request.build_absolute_uri(reverse(f"competitions:tournament_{v}", args=[t.pk]))
        for k, v in names.items()
    }
