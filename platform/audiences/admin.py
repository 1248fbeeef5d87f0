"""Audiences in the admin: members are their own list (searchable by user, filtered by
audience from a tournament's link), not an inline, so no page grows with an audience's size."""

from django.contrib import admin
from foundation.admin_pages import BoundedAdmin

from audiences.models import Audience, AudienceMember


@admin.register(Audience)
class AudienceAdmin(BoundedAdmin):
    list_display = ("id", "label", "created_at")
    search_fields = ("label",)
    readonly_fields = ("created_at",)


@admin.register(AudienceMember)
class AudienceMemberAdmin(BoundedAdmin):
    list_display = ("audience", "user", "role", "joined_at")
    list_filter = ("role",)
    list_select_related = ("audience", "user")
    search_fields = ("user__username", "audience__label")
    raw_id_fields = ("audience", "user")
    readonly_fields = ("joined_at",)
