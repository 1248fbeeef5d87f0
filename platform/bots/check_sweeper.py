"""The checks' sweeper: sends again the code checks no worker will finish (``bots.sweep_checks``,
every minute from beat, whether or not the version's game has its ladder on).

A ``checking`` version's check is lost when:

- its send failed (the broker down: ``check_sent_at`` empty), or it waited for its owner's build
  time (``bots.build_quota``) that is free again: sent at the next sweep;
- a worker started it (``check_started_at``) longer ago than ``CHECK_PATIENCE`` and it is still
  ``checking``: the worker died mid-check (a check ends, or is retried, within its time limit);
- it was sent but no worker started it in ``ARENA_QUEUE_PATIENCE_S``: the broker lost the
  message (a long builds queue only delays it; a copy sent meanwhile finds it checked, and skips).

Two sweeps at once send a check once: each takes a version by one conditional ``UPDATE`` of its
``check_sent_at`` (still lost as the sweep saw it), and only the sweep that changed the row
sends. A held version (``bots.holds``) is never sent: staff release it first.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from bots import build_quota, check_sending
from bots.models import BotVersion, VersionStatus

log = logging.getLogger(__name__)

#: The check task's time limits (``bots.tasks.check_version``): the compiler or the build runs
#: in a child or a build container with limits of its own; these bound the fetch and the rest.
CHECK_SOFT_LIMIT_S = 180
CHECK_TIME_LIMIT_S = 240
#: The longest a check that failed on a platform fault waits for its next try (Celery's
#: ``retry_backoff_max``): its start is then noted again.
CHECK_RETRY_BACKOFF_MAX_S = 120
#: A check started this long ago and still ``checking`` lost its worker: the hard time limit,
#: the wait for a retry, and a minute's margin.
CHECK_PATIENCE = timedelta(seconds=CHECK_TIME_LIMIT_S + CHECK_RETRY_BACKOFF_MAX_S + 60)
#: The sweep task's own time limit (soft; the hard one is 30 s more).
SWEEP_TIME_LIMIT_S = 120


def lost_checks(now: datetime) -> QuerySet[BotVersion]:
    """The ``checking`` versions, not held, whose check is lost at ``now`` (module docstring)."""
    queue_patience = timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S)
    not_sent = Q(check_sent_at__isnull=True)
    started = Q(check_started_at__isnull=False, check_started_at__gte=F("check_sent_at"))
    died = started & Q(check_started_at__lt=now - CHECK_PATIENCE)
    never_taken = ~started & Q(check_sent_at__lt=now - queue_patience)
    return BotVersion.objects.filter(status=VersionStatus.CHECKING, held_at__isnull=True).filter(
        not_sent | died | never_taken
    )


def sweep_checks(now: datetime | None = None) -> dict[str, int]:
    """Send each lost check again, unless its owner is over the build quota (then its reason
    says for how long, and a later sweep sends it). Counts: ``resent``, ``waiting`` (over the
    quota), ``unsent`` (the broker refused again: the next sweep tries)."""
    now = now or timezone.now()
    counts = {"resent": 0, "waiting": 0, "unsent": 0}
    lost = lost_checks(now).order_by("pk").values_list("pk", "bot__owner_id")
    waits: dict[int, float] = {}
    for pk, owner_id in list(lost[: settings.ARENA_SWEEP_BATCH]):
        if owner_id not in waits:
            waits[owner_id] = build_quota.wait_seconds(owner_id, now)
        if waits[owner_id] > 0:
            build_quota.keep_waiting(pk, build_quota.waiting_reason(owner_id, now))
            counts["waiting"] += 1
            continue
        sent = resend(pk, now)
        if sent is not None:
            counts["resent" if sent else "unsent"] += 1
    return counts


def resend(version_id: int, now: datetime) -> bool | None:
    """Send version ``version_id``'s check again if it is still lost at ``now``: True when sent,
    False when the broker refused (left unsent for the next sweep), None when it was not lost
    any more (another sweep took it, or it was checked meanwhile)."""
    taken = lost_checks(now).filter(pk=version_id).update(check_sent_at=now)
    if not taken:
        return None
    log.warning("check of version %s was lost: sending it again", version_id)
    if check_sending.deliver_check(version_id):
        return True
    BotVersion.objects.filter(pk=version_id, check_sent_at=now).update(check_sent_at=None)
    return False
