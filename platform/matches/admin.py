from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from matches.models import Match, MatchSeat


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    raw_id_fields = ("bot_version",)


@admin.register(Match)
class MatchAdmin(BoundedAdmin):
    # Kind, not tournament: a match's tournament or league is that app's row
    # (competitions' "competition matches" in this admin).
    list_display = ("id", "game", "status", "kind", "seed", "created_at", "duration_ms")
    list_filter = ("status", "game")
    list_select_related = ("game",)
    search_fields = ("id", "error")
    readonly_fields = ("created_at", "started_at", "finished_at", "task_id")
    inlines = [MatchSeatInline]


@admin.register(MatchSeat)
class MatchSeatAdmin(BoundedAdmin):
    list_display = ("match", "seat", "bot_version", "score", "rank", "status", "time_ms")
    list_filter = ("status",)
    list_select_related = ("match__game", "bot_version__bot")
    raw_id_fields = ("match", "bot_version")
