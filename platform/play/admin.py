from django.contrib import admin

from play.models import PlaySeat


@admin.register(PlaySeat)
class PlaySeatAdmin(admin.ModelAdmin):
    list_display = ("match", "seat", "user", "created_at")
    raw_id_fields = ("match", "user")
    search_fields = ("user__username", "match__id")
