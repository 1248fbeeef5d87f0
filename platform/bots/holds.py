"""Versions held for staff review: ``ladder.error_streaks`` holds them after
``ARENA_VERSION_ERROR_LIMIT`` matches in a row that ended in a platform error, and a check holds
one whose stored code is damaged (``hold_for_storage_fault``); staff release them in the admin."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import QuerySet
from django.utils import timezone

from bots.models import BotVersion, VersionStatus

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


#: What the owner reads while a check is held for a storage fault.
STORAGE_FAULT_NOTE = (
    "Held for staff: the site's copy of this upload is damaged (a fault of the site's storage, "
    "not of your code). Staff have been told; it is checked again once they have mended it."
)


def hold_for_storage_fault(version_id: int, problem: str) -> None:
    """End the check of ``checking`` version ``version_id`` on a storage fault that no retry
    mends (``problem``: what is wrong with its stored code): staff are told (an error in the
    log) and find it held in the admin; its owner reads ``STORAGE_FAULT_NOTE``. It stays
    ``checking``, unsent: once released, the next sweep sends its check again."""
    log.error("bot version %s held for staff: %s (a storage fault)", version_id, problem)
    BotVersion.objects.filter(pk=version_id, status=VersionStatus.CHECKING).update(
        held_at=timezone.now(),
        held_reason=f"Storage fault: {problem}. Mend or replace the stored file, then release.",
        status_reason=STORAGE_FAULT_NOTE,
        check_sent_at=None,
    )
