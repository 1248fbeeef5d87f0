from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from catalog.models import Game


@admin.register(Game)
class GameAdmin(BoundedAdmin):
    list_display = ("slug", "name", "min_players", "max_players", "is_active", "synced_at")
    list_filter = ("is_active",)
    search_fields = ("slug", "name")
    readonly_fields = ("synced_at",)
