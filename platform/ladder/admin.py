from django.contrib import admin

from ladder.models import LadderEntry, LadderMatch, LadderState


@admin.register(LadderEntry)
class LadderEntryAdmin(admin.ModelAdmin):
    list_display = [
        "bot",
        "game",
        "placement_owed",
        "fault_streak",
        "suspended_at",
        "last_match_at",
    ]
    list_filter = ["game"]
    raw_id_fields = ["bot"]
    search_fields = ["bot__name"]


@admin.register(LadderMatch)
class LadderMatchAdmin(admin.ModelAdmin):
    list_display = ["match", "game", "kind", "version", "challenger", "created_at"]
    list_filter = ["game", "kind"]
    raw_id_fields = ["match", "version", "challenger"]


admin.site.register(LadderState)
