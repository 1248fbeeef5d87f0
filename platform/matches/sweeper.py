"""The sweeper: takes back the matches no worker will finish (``matches.sweep``, every minute
from beat): a held match once its claim's lease lapses, a queued one whose send failed at the
first sweep after, one whose message the broker lost after the queue's patience.

Two sweeps at once (two beats by mistake, a slow sweep overtaken by the next) must not send a
match twice: a sweep runs only when it holds the sweep's lock in the shared cache (one
``add``), and each match is taken back under its row lock, after checking again, under that
lock, that it is still stale and still on the attempt the sweep saw (another sweep that sent it
again meanwhile took the next one); a row another transaction holds (a worker recording it
right now, or another sweep) is skipped, never waited for.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from matches.models import HELD, ErrorKind, Match, MatchStatus
from matches.services import mark_error, requeue_locked

log = logging.getLogger(__name__)

#: A match's own send follows its creation's commit by milliseconds: one with none after this
#: long was never sent (its send failed while the broker was down, or its sender died).
UNSENT_GRACE_S = 10
#: The sweep task's soft time limit; its lock outlives a sweep killed at the hard one (+30 s).
SWEEP_TIME_LIMIT_S = 120
SWEEP_LOCK_KEY = "matches.sweep.lock"


def stale_matches(now: datetime) -> QuerySet[Match]:
    """Matches held under a lapsed lease (their worker is gone: ``matches.lease``) or past
    their deadline (a worker that renews but never finishes), queued matches whose message was
    not picked up in ``ARENA_QUEUE_PATIENCE_S`` (sent to a broker that lost it), and queued
    matches never sent (``dispatched_at`` empty: the send failed while the broker was down),
    sent again at the first sweep that reaches the broker."""
    patience = timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S)
    unsent = now - timedelta(seconds=UNSENT_GRACE_S)
    return Match.objects.filter(
        Q(status__in=HELD, lease_until__lt=now)
        | Q(status__in=HELD, deadline_at__lt=now)
        | Q(status=MatchStatus.QUEUED, dispatched_at__lt=now - patience)
        | Q(status=MatchStatus.QUEUED, dispatched_at__isnull=True, created_at__lt=unsent)
    )


def sweep_matches(now: datetime | None = None) -> dict[str, int]:
    """Send each stale match again; a held one is marked ``error`` once it has had
    ``ARENA_MATCH_ATTEMPTS`` attempts. A queued one never is: no worker has tried it, its
    message may only be waiting behind a long queue (an older message left there finds its
    attempt superseded). Returns counts (``skipped`` 1 when another sweep was running)."""
    token = uuid.uuid4().hex
    if not cache.add(SWEEP_LOCK_KEY, token, timeout=SWEEP_TIME_LIMIT_S + 30):
        log.info("another sweep is running: this one leaves the matches to it")
        return {"requeued": 0, "failed": 0, "skipped": 1}
    try:
        return _sweep(now or timezone.now())
    finally:
        if cache.get(SWEEP_LOCK_KEY) == token:
            cache.delete(SWEEP_LOCK_KEY)


def _sweep(now: datetime) -> dict[str, int]:
    counts = {"requeued": 0, "failed": 0}
    stale = stale_matches(now).order_by("pk").values_list("pk", "attempts")
    for pk, attempts in list(stale[: settings.ARENA_SWEEP_BATCH]):
        taken = take_back(pk, now, attempts)
        if taken:
            counts[taken] += 1
    return counts


def take_back(match_id: int, now: datetime, attempts: int) -> str | None:
    """Send match ``match_id`` again ("requeued") or give up on it ("failed") if it is still
    stale at ``now`` and on attempt ``attempts`` (as the sweep selected it), judged under its
    row lock; None when it is not (taken back meanwhile, recorded, or locked by whoever is
    changing it)."""
    with transaction.atomic():
        match = (
            stale_matches(now)
            .select_for_update(skip_locked=True)
            .filter(pk=match_id, attempts=attempts)
            .first()
        )
        if match is None:
            return None
        if match.status in HELD and match.attempts >= settings.ARENA_MATCH_ATTEMPTS:
            why = f"no worker finished this match in {match.attempts} attempts"
            mark_error(match.pk, why, ErrorKind.LOST)
            return "failed"
        requeue_locked(match)
        return "requeued"
