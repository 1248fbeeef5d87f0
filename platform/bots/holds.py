"""Releasing versions held for staff review (``ladder.error_streaks`` holds them after
``ARENA_VERSION_ERROR_LIMIT`` matches in a row that ended in a platform error)."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet

from bots.models import BotVersion

log = logging.getLogger(__name__)


def release(versions: QuerySet[BotVersion], *, by: AbstractBaseUser | AnonymousUser) -> int:
    """Release the held versions among ``versions``: they may be scheduled again, their streak
    starting from 0 (a qualifying one qualifies at the next tick). The number released."""
    ids = list(versions.filter(held_at__isnull=False).values_list("pk", flat=True))
    count = BotVersion.objects.filter(pk__in=ids).update(
        held_at=None, held_reason="", error_streak=0
    )
    if count:
        log.warning("bot versions %s released from hold by %s", ids, by.get_username())
    return count
