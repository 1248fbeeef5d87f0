from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from competitions.models import CompetitionMatch, League, Tournament


@admin.register(Tournament)
class TournamentAdmin(BoundedAdmin):
    list_display = ("name", "game", "organiser", "status", "players_per_match", "created_at")
    list_filter = ("status", "game")
    list_select_related = ("game", "organiser")
    search_fields = ("name",)
    # Ids: a picker of every version (or user) costs a query per version to draw.
    raw_id_fields = ("organiser", "entrants")


@admin.register(League)
class LeagueAdmin(BoundedAdmin):
    list_display = ("name", "game", "every_hours", "is_active", "rounds_played", "last_run_at")
    list_filter = ("is_active", "game")
    list_select_related = ("game",)
    raw_id_fields = ("organiser",)


@admin.register(CompetitionMatch)
class CompetitionMatchAdmin(BoundedAdmin):
    """Which tournament or league each match was played for (``matches`` does not know)."""

    list_display = ("match", "tournament", "league", "round")
    list_select_related = ("match__game", "tournament", "league")
    search_fields = ("match__id",)
    raw_id_fields = ("match", "tournament", "league")
