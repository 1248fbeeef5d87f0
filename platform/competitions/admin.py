from django.contrib import admin

from competitions.models import CompetitionMatch, League, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "organiser", "status", "players_per_match", "created_at")
    list_filter = ("status", "game")
    search_fields = ("name",)
    filter_horizontal = ("entrants",)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "every_hours", "is_active", "rounds_played", "last_run_at")
    list_filter = ("is_active", "game")


@admin.register(CompetitionMatch)
class CompetitionMatchAdmin(admin.ModelAdmin):
    """Which tournament or league each match was played for (``matches`` does not know)."""

    list_display = ("match", "tournament", "league", "round")
    list_select_related = ("match__game", "tournament", "league")
    search_fields = ("match__id",)
    raw_id_fields = ("match", "tournament", "league")
