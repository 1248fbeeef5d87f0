from django.contrib import admin

from bots.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    readonly_fields = ("number", "sha256", "size_bytes", "created_at")


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "is_builtin", "created_at")
    list_filter = ("game", "is_builtin")
    search_fields = ("name", "owner__username")
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ("bot", "number", "builtin_name", "size_bytes", "created_at")
    list_filter = ("bot__game",)
    search_fields = ("bot__name", "sha256")
    readonly_fields = ("sha256", "size_bytes", "created_at")
