from django.contrib import admin

from catalog.models import Game


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "min_players", "max_players", "is_active", "synced_at")
    list_filter = ("is_active",)
    search_fields = ("slug", "name")
    readonly_fields = ("synced_at",)
