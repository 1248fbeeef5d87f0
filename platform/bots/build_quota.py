"""Each user's build time: what one user's checks and builds may take of the builds workers.

A compile bomb costs a builds worker about 1 GB and up to its build limit per upload, and a user
may upload ``THROTTLE_UPLOADS`` an hour; the builds queue keeps that off the match workers, and
this quota keeps one user from holding the builds queue. Every finished check keeps its duration
on its version (``check_seconds``, counted in the hour after ``check_started_at``): rows every
process and host reads, so the limit holds across builds workers. A check whose owner's checks
took ``ARENA_BUILD_SECONDS_PER_HOUR`` or more in the last hour is not run: the version stays
``checking``, its owner reads why and for about how long, and the sweeper sends it again once
the hour has freed the time (``bots.check_sweeper``). The upload itself is never refused: the
owner need not upload again. Checks of one user running at once on several builds workers may
each start under the limit: it is overrun by at most one check per builds process.
"""

from __future__ import annotations

import logging
import math
import time
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from bots import upload_check
from bots.models import BotVersion, VersionStatus

log = logging.getLogger(__name__)

#: The quota's window: build seconds are counted over the last hour.
WINDOW = timedelta(hours=1)
#: What a check that ended (its status set) returns: only those count as build time (a platform
#: fault, retried, is never charged to the owner).
CONCLUDED = (str(VersionStatus.UPLOADED), str(VersionStatus.FAILED))


def limit_s() -> int:
    """Build seconds per user per hour; 0 turns the quota off."""
    return int(settings.ARENA_BUILD_SECONDS_PER_HOUR)


def used_seconds(owner_id: int, now: datetime) -> float:
    """Seconds the checks of ``owner_id``'s uploads that started in the hour before ``now``
    took."""
    return sum(seconds for _, seconds in _recent(owner_id, now))


def wait_seconds(owner_id: int, now: datetime) -> float:
    """0 while ``owner_id`` is under the quota at ``now``; else how long until enough of the
    hour's build time ages out of the window to bring them under it (at least 1 s)."""
    limit = limit_s()
    if limit <= 0:
        return 0.0
    rows = _recent(owner_id, now)
    used = sum(seconds for _, seconds in rows)
    if used < limit:
        return 0.0
    for started, seconds in rows:  # oldest first: the first to leave the window
        used -= seconds
        if used < limit:
            return max(1.0, (started + WINDOW - now).total_seconds())
    return WINDOW.total_seconds()  # not reached: with every row gone, 0 is under the limit


def _recent(owner_id: int, now: datetime) -> list[tuple[datetime, float]]:
    """(start, seconds) of the owner's checks in the window, oldest first."""
    rows = (
        BotVersion.objects.filter(
            bot__owner_id=owner_id, check_started_at__gt=now - WINDOW, check_seconds__gt=0
        )
        .order_by("check_started_at")
        .values_list("check_started_at", "check_seconds")
    )
    return [(started, seconds) for started, seconds in rows if started is not None]


def waiting_reason(owner_id: int, now: datetime) -> str:
    """What the owner of a check kept waiting reads (on the bot's page, in the API)."""
    minutes = max(1, math.ceil(wait_seconds(owner_id, now) / 60))
    return (
        f"Waiting for build time: your uploads' checks and builds took "
        f"{used_seconds(owner_id, now):.0f} s in the last hour (at most {limit_s()} s an hour). "
        f"This one is checked in about {minutes} minute{'s' if minutes != 1 else ''}, "
        "by itself: no need to upload it again."
    )


def run_counted(version_id: int, now: datetime | None = None) -> str:
    """One delivery of a version's check (``bots.tasks.check_version``): not run (``"waiting"``)
    while its owner is over the quota, else run (``upload_check.run_check``), its start noted (the
    sweeper's patience runs from it) and, once it ended, its duration kept as build time."""
    now = now or timezone.now()
    row = (
        BotVersion.objects.filter(pk=version_id, status=VersionStatus.CHECKING, held_at=None)
        .values_list("bot__owner_id", flat=True)
        .first()
    )
    if row is None:
        return "skipped"  # checked already (a second delivery), or held for staff
    if wait_seconds(row, now) > 0:
        keep_waiting(version_id, waiting_reason(row, now))
        return "waiting"
    # A reason shown while it waited is stale once it runs.
    BotVersion.objects.filter(pk=version_id).update(check_started_at=now, status_reason="")
    started = time.monotonic()
    status = upload_check.run_check(version_id)
    if status in CONCLUDED:
        BotVersion.objects.filter(pk=version_id).update(check_seconds=time.monotonic() - started)
    return status


def keep_waiting(version_id: int, reason: str) -> None:
    """The check waits for its owner's build time: unsent (the sweeper sends it once the time is
    free), with ``reason`` for its owner."""
    log.info("check of version %s waits for its owner's build time", version_id)
    BotVersion.objects.filter(pk=version_id, status=VersionStatus.CHECKING).update(
        check_sent_at=None, status_reason=reason
    )
