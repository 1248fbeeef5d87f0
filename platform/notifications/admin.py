from typing import Any

from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from notifications.models import Notification


@admin.register(Notification)
class NotificationAdmin(BoundedAdmin):
    """What users were told (read-only: notifications are written by the site)."""

    list_display = ["created_at", "user", "kind", "title", "read_at"]
    list_filter = ["kind"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    list_select_related = ["user"]
    ordering = ["-created_at", "-pk"]
    readonly_fields = ["user", "kind", "title", "body", "url", "created_at", "read_at"]

    def has_add_permission(self, request: Any) -> bool:
        return False
