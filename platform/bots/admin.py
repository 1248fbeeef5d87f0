from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from foundation.admin_pages import BoundedAdmin

from bots.holds import release
from bots.models import Bot, BotVersion


@admin.register(Bot)
class BotAdmin(BoundedAdmin):
    list_display = ("name", "game", "owner", "is_builtin", "created_at")
    list_filter = ("game", "is_builtin")
    list_select_related = ("game", "owner")
    search_fields = ("name", "owner__username")
    # Ids, not drop-downs of every user and version; its versions are a link to their own
    # list (an inline would draw every version a bot ever had).
    raw_id_fields = ("owner", "pinned_version")
    readonly_fields = ("version_list",)

    @admin.display(description="versions")
    def version_list(self, bot: Bot) -> str:
        if bot.pk is None:
            return "-"
        url = reverse("admin:bots_botversion_changelist") + f"?bot__id__exact={bot.pk}"
        return format_html('<a href="{}">Its versions</a>', url)


class HeldFilter(admin.SimpleListFilter):
    """Versions held for staff review after repeated platform errors (``ladder.error_streaks``)."""

    title = "held"
    parameter_name = "held"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Held"), ("no", "Not held")]

    def queryset(
        self, request: HttpRequest, queryset: QuerySet[BotVersion]
    ) -> QuerySet[BotVersion]:
        if self.value() == "yes":
            return queryset.filter(held_at__isnull=False)
        if self.value() == "no":
            return queryset.filter(held_at__isnull=True)
        return queryset


@admin.register(BotVersion)
class BotVersionAdmin(BoundedAdmin):
    list_display = (
        "bot",
        "number",
        "builtin_name",
        "language",
        "status",
        "error_streak",
        "held_at",
        "size_bytes",
        "created_at",
    )
    list_filter = (HeldFilter, "status", "language", "bot__game")
    list_select_related = ("bot__game",)
    raw_id_fields = ("bot",)
    search_fields = ("bot__name", "sha256")
    readonly_fields = (
        "sha256",
        "language",
        "artifact",
        "artifact_sha256",
        "size_bytes",
        "created_at",
        "error_streak",
        "held_at",
        "held_reason",
        # Its check: when sent and started, and its duration (its owner's build time).
        "check_sent_at",
        "check_started_at",
        "check_seconds",
    )
    actions = ["release_held"]

    @admin.action(description="Release the selected held versions (they may play again)")
    def release_held(self, request: HttpRequest, queryset: QuerySet[BotVersion]) -> None:
        count = release(queryset, by=request.user)
        self.message_user(
            request,
            f"Released {count} held version{'s' if count != 1 else ''}."
            if count
            else "None of the selected versions is held.",
            messages.SUCCESS if count else messages.WARNING,
        )
