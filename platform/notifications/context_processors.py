"""The menu's unread count: asked only when a template shows it, and only for a signed-in
user (one count on an index)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from notifications.services import unread_count


def unread(request: HttpRequest) -> dict[str, Any]:
    def count() -> int:
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return 0
        return unread_count(user)

    return {"unread_notifications": SimpleLazyObject(count)}
