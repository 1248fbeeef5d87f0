"""A claim's lease: a worker holding a match keeps ``Match.lease_until`` in the future while it
sets the match up, plays and records it, from a thread of its own with a database connection of
its own. A worker that is gone (killed, its machine lost, cut off from the database) stops
renewing, and once its lease lapses the sweeper (or a redelivery of the same attempt) takes the
match back, about a minute after the loss instead of at the match's deadline, which stays as
the backstop for a worker that renews but never finishes.

The lease's length and renewal interval have one owner: ``ARENA_MATCH_LEASE_S`` and
``ARENA_MATCH_LEASE_RENEW_S`` (``meeple/arena_settings.py``).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta
from types import TracebackType

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from matches.models import HELD, Match

log = logging.getLogger(__name__)


def lease_end(now: datetime) -> datetime:
    """Until when a claim made or renewed at ``now`` holds."""
    return now + timedelta(seconds=settings.ARENA_MATCH_LEASE_S)


def renew(match_id: int, attempt: int, worker: str) -> bool:
    """Extend the lease of ``worker``'s claim on attempt ``attempt``; False when the claim is no
    longer its own (taken back, recorded). Every wait is bounded by the connection's own bounds
    (``meeple/database.py``): behind the worker's own recording it waits at most a lock_timeout."""
    return bool(
        Match.objects.filter(pk=match_id, attempts=attempt, status__in=HELD, worker=worker).update(
            lease_until=lease_end(timezone.now())
        )
    )


class Heartbeat:
    """``with Heartbeat(match_id, attempt, worker):`` renews the lease every
    ``ARENA_MATCH_LEASE_RENEW_S`` until the block ends. A failed renewal is logged and tried
    again at the next beat: only a worker that stays cut off loses its claim."""

    def __init__(self, match_id: int, attempt: int, worker: str) -> None:
        self.match_id, self.attempt, self.worker = match_id, attempt, worker
        self._stop = threading.Event()
        self._thread = threading.Thread(
            target=self._run,
            name=f"lease-{match_id}",
            daemon=True,  # never holds the exit
        )

    def __enter__(self) -> Heartbeat:
        # A claim made inside the caller's transaction (a test playing a match inline) is
        # invisible to another connection until the commit, and its row locked: a renewal
        # could only wait behind it. A worker's task runs outside any transaction.
        if not connection.in_atomic_block:
            self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # Not joined: a renewal stuck on a silent socket must not hold the worker; the thread
        # ends at its next beat.
        self._stop.set()

    def _run(self) -> None:
        try:
            while not self._stop.wait(settings.ARENA_MATCH_LEASE_RENEW_S):
                try:
                    if not renew(self.match_id, self.attempt, self.worker):
                        return  # recorded, or taken back: nothing left to hold
                except DatabaseError as exc:
                    log.warning("match %s: cannot renew the lease (%s)", self.match_id, exc)
                    connection.close()  # this thread's own; the next beat opens a new one
        finally:
            connection.close()
