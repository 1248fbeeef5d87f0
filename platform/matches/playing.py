"""A worker's side of a match: claim the delivery, build the match, play it, record it.

Every step that needs the database survives the database going away for a while:

- claiming waits (with backoff) for a database it cannot reach, holding its one delivery
  instead of acknowledging it, then hands it back to the queue (``DatabaseUnreachable``): a
  worker cut off from the database never eats the queue;
- building the match and recording it retry database errors with backoff; if the database
  never comes back the exception propagates and the sweeper takes the match back at its
  deadline. Neither ever turns a database hiccup into a permanent ``error``;
- the worker's soft time limit, when it fires while the match is being recorded (waiting on
  row locks), does not lose the played result: recording goes on until the hard limit.

Public match errors are fixed sentences (``matches.errors``); details go to the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.utils import timezone

from matches.errors import SETUP_FAILED, took_too_long
from matches.models import Match, MatchStatus
from matches.services import (
    match_deadline,
    match_spec,
    record_outcome,
    time_limit_s,
    worker_name,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


class DatabaseUnreachable(Exception):
    """The worker could not reach the database to claim a delivery for
    ``ARENA_CLAIM_PATIENCE_S``: the task hands the message back to the queue."""


def play(
    match_id: int, attempt: int, *, node: str = "", limit_s: float | None = None
) -> Match | None:
    """What a worker does with one delivery: claim, play, record. ``limit_s`` is the task's
    time limit, which the referee also enforces (so it holds in every pool, ``solo`` too).
    Returns the recorded match, or None for a stale or duplicate delivery."""
    from arena.tasks import play as arena_play

    started = time.monotonic()
    match = claim_when_reachable(match_id, attempt, node=node)
    if match is None:
        return None
    limit = limit_s or time_limit_s(match.kind)
    try:
        spec = with_db_retries(match_id, "building the match", lambda: match_spec(match))
    except DatabaseError:
        raise  # the database stayed away: the sweeper takes the match back at its deadline
    except SoftTimeLimitExceeded:
        outcome = _error_outcome(took_too_long(limit))
    except Exception:  # a version's row or file vanished: the platform's failure, not a bot's
        log.exception("match %s: cannot build the match", match_id)
        outcome = _error_outcome(SETUP_FAILED)
    else:
        try:
            outcome = arena_play(
                spec,
                sandbox=settings.ARENA_SANDBOX,
                allow_unsafe=settings.ARENA_ALLOW_UNSAFE_SANDBOX,
                deadline_s=max(1.0, limit - (time.monotonic() - started)),
            ).to_json(replay=True)
        except SoftTimeLimitExceeded:
            # The worker's own time limit stopped the referee (and its bots): record an error
            # now rather than leave it held until the sweeper plays the same long match again.
            outcome = _error_outcome(took_too_long(limit))
    return record_with_retry(match_id, attempt, outcome)


def _error_outcome(error: str) -> dict[str, Any]:
    return {"status": "error", "error": error, "seats": []}


# ------------------------------------------------------------------------------- claiming


def claim(match_id: int, attempt: int, *, node: str = "") -> Match | None:
    """Take a queued match for this delivery (status ``running``), or None when this delivery is
    stale or a duplicate (another attempt was sent, or the match is already taken or done)."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    now = timezone.now()
    deadline = now + match_deadline(match.time_control, match.seats.count(), match.kind)
    taken = Match.objects.filter(pk=match_id, attempts=attempt, status=MatchStatus.QUEUED).update(
        status=MatchStatus.RUNNING, started_at=now, deadline_at=deadline, worker=worker_name(node)
    )
    if not taken:
        return None
    match.refresh_from_db()
    return match


def claim_when_reachable(match_id: int, attempt: int, *, node: str = "") -> Match | None:
    """``claim``, waiting with backoff (0.5 s doubling to 10 s) while the database cannot be
    reached; ``DatabaseUnreachable`` after ``ARENA_CLAIM_PATIENCE_S``."""
    patience = time.monotonic() + settings.ARENA_CLAIM_PATIENCE_S
    delay = 0.5
    failed = False
    while True:
        try:
            if failed and _claimed_by_us(match_id, attempt, node):
                # the claim's write went through but its answer was lost with the connection
                return Match.objects.get(pk=match_id)
            return claim(match_id, attempt, node=node)
        except (OperationalError, InterfaceError) as exc:
            failed = True
            if time.monotonic() + delay > patience:
                raise DatabaseUnreachable(str(exc)) from exc
            log.warning(
                "match %s: cannot reach the database to claim it (%s); waiting %.1fs",
                match_id,
                exc,
                delay,
            )
            time.sleep(delay)
            _fresh_connection()
            delay = min(delay * 2, 10.0)


def _claimed_by_us(match_id: int, attempt: int, node: str) -> bool:
    # One worker process plays one match at a time, so its name tells its own claim apart.
    return Match.objects.filter(
        pk=match_id, attempts=attempt, status=MatchStatus.RUNNING, worker=worker_name(node)
    ).exists()


# ------------------------------------------------------------------------ with the database


def with_db_retries(match_id: int, what: str, step: Callable[[], T]) -> T:
    """``step()`` with backoff on database errors (``ARENA_RECORD_RETRIES`` tries, 0.5 s
    doubling to 30 s); the last error propagates."""
    delay = 0.5
    for attempt_no in range(settings.ARENA_RECORD_RETRIES):
        try:
            return step()
        except DatabaseError as exc:
            if attempt_no == settings.ARENA_RECORD_RETRIES - 1:
                raise
            log.warning("match %s: %s failed (%s), retrying in %.1fs", match_id, what, exc, delay)
            time.sleep(delay)
            _fresh_connection()
            delay = min(delay * 2, 30.0)
    raise AssertionError("unreachable")


def record_with_retry(match_id: int, attempt: int, outcome: dict[str, Any]) -> Match:
    """``record_outcome`` with backoff on database errors. If the database never comes back,
    the exception propagates: the message is not acknowledged as done and the sweeper runs the
    match again after its deadline.

    The soft time limit may fire while recording waits on row locks: the played result is
    still in hand, so recording goes on (the hard limit, 30 s later, is the last word)."""

    def record() -> Match:
        Match.objects.filter(pk=match_id, attempts=attempt, status=MatchStatus.RUNNING).update(
            status=MatchStatus.RECORDING
        )
        return record_outcome(match_id, outcome, attempt=attempt)

    def record_past_the_soft_limit() -> Match:
        try:
            return record()
        except SoftTimeLimitExceeded:
            # Raised inside a database call: the connection may be mid-protocol.
            log.warning("match %s: time limit reached while recording; recording goes on", match_id)
            _fresh_connection()
            return record()

    return with_db_retries(match_id, "recording", record_past_the_soft_limit)


def _fresh_connection() -> None:
    """A connection the server dropped (restart, failover, a session it ended) stays broken
    until it is thrown away: the next try opens a new one. A caller's transaction is left
    alone (a worker's task runs outside any)."""
    if not connection.in_atomic_block:
        connection.close()
