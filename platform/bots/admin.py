from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from bots.holds import release
from bots.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    readonly_fields = ("number", "sha256", "size_bytes", "created_at", "held_at")


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "is_builtin", "created_at")
    list_filter = ("game", "is_builtin")
    search_fields = ("name", "owner__username")
    inlines = [BotVersionInline]


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
class BotVersionAdmin(admin.ModelAdmin):
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
