"""The admin's users and API tokens. Deleting a user here is the same deletion as on the
settings page (accounts.deletion: bots and matches kept under "deleted user"), and its
confirmation page counts what goes instead of listing every row, so it costs the same for a
user with no bots and one with hundreds."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from foundation.admin_pages import LIST_PER_PAGE, EstimatedCountPaginator
from rest_framework.authtoken.admin import TokenAdmin
from rest_framework.authtoken.models import TokenProxy

from accounts.deletion import DeletionSummary, deletable, delete_account

User = get_user_model()


def _account_summary(users: list[Any]) -> tuple[list[Any], dict[str, int], list[str]]:
    """What the confirmation page shows for these accounts: per account, what it keeps and
    removes (a fixed number of queries each; the admin deletes one account at a time, or a
    page of them)."""
    listed: list[Any] = []
    totals = {"accounts": 0, "bots kept as deleted user's": 0, "versions' code removed": 0}
    for user in users:
        s = DeletionSummary.of(user)
        listed += [
            f"Account: {user.get_username()}",
            [
                f"{s.bots} bots kept (owner shown as deleted user, renamed bot-<id>)",
                f"{s.code_files} stored code files removed",
                f"{s.seat_logs} match seats' private logs removed",
                f"{s.tournaments} tournaments kept (organiser shown as deleted user)",
                "API tokens, sessions and log-in records removed",
            ],
        ]
        totals["accounts"] += 1
        totals["bots kept as deleted user's"] += s.bots
        totals["versions' code removed"] += s.code_files
    refused = [f"{u.get_username()} belongs to the site" for u in users if not deletable(u)]
    return listed, totals, refused


admin.site.unregister(User)


@admin.register(User)
class AccountAdmin(UserAdmin):
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    list_per_page = LIST_PER_PAGE

    def get_deleted_objects(
        self, objs: Any, request: HttpRequest
    ) -> tuple[list[Any], dict[str, int], set[str], list[str]]:
        users = list(objs[:100]) if isinstance(objs, QuerySet) else list(objs)
        listed, totals, refused = _account_summary(users)
        perms = set() if self.has_delete_permission(request) else {"user"}
        return listed, totals, perms, refused

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        delete_account(obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        for user in queryset:
            if deletable(user):  # the site's own accounts stay (the page listed them refused)
                delete_account(user)


admin.site.unregister(TokenProxy)


@admin.register(TokenProxy)
class AccountTokenAdmin(TokenAdmin):
    """DRF's token admin with the user as an id (its drop-down listed every user)."""

    raw_id_fields = ("user",)
    list_select_related = ("user",)
    show_full_result_count = False
    list_per_page = LIST_PER_PAGE
