from django.contrib import admin

from ratings.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ("bot", "game", "elo", "mu", "sigma", "ordinal", "matches_played", "provisional")
    list_filter = ("game", "provisional")
    search_fields = ("bot__name",)


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "bot", "elo_before", "elo_after", "created_at")
    list_filter = ("game",)
    raw_id_fields = ("match", "bot")
