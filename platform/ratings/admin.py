from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(BoundedAdmin):
    list_display = ("bot", "game", "elo", "mu", "sigma", "ordinal", "matches_played", "provisional")
    list_filter = ("game", "provisional")
    list_select_related = ("bot__game", "game")
    search_fields = ("bot__name",)
    raw_id_fields = ("bot",)


@admin.register(RatingChange)
class RatingChangeAdmin(BoundedAdmin):
    list_display = ("match", "seat", "bot", "elo_before", "elo_after", "created_at")
    list_filter = ("game",)
    list_select_related = ("match__game", "bot__game")
    raw_id_fields = ("match", "bot")
