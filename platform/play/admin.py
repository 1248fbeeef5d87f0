from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from play.models import PlaySeat


@admin.register(PlaySeat)
class PlaySeatAdmin(BoundedAdmin):
    list_display = ("match", "seat", "user", "created_at")
    list_select_related = ("match__game", "user")
    raw_id_fields = ("match", "user")
    search_fields = ("user__username", "match__id")
