from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from ladder.models import LadderEntry, LadderMatch, LadderState


@admin.register(LadderEntry)
class LadderEntryAdmin(BoundedAdmin):
    list_display = [
        "bot",
        "game",
        "placement_owed",
        "fault_streak",
        "suspended_at",
        "last_match_at",
    ]
    list_filter = ["game"]
    list_select_related = ["bot__game", "game"]
    raw_id_fields = ["bot", "suspended_version"]
    search_fields = ["bot__name"]


@admin.register(LadderMatch)
class LadderMatchAdmin(BoundedAdmin):
    list_display = ["match", "game", "kind", "version", "challenger", "created_at"]
    list_filter = ["game", "kind"]
    list_select_related = ["match__game", "game", "version__bot", "challenger"]
    raw_id_fields = ["match", "version", "challenger"]


admin.site.register(LadderState, BoundedAdmin)
