"""A worker's side of a match: claim the delivery, build the match, play it, record it.

Every step that needs the database survives the database going away for a while:

- claiming waits (with backoff) for a database it cannot reach, holding its one delivery
  instead of acknowledging it, then hands it back to the queue (``DatabaseUnreachable``): a
  worker cut off from the database never eats the queue;
- setting the match up retries database errors with backoff for ``ARENA_SETUP_PATIENCE_S``
  at most (what is left of ``ARENA_MATCH_PREP_S`` after the claim), then hands the delivery
  back too. The match's time limit starts when its referee starts: a wait for the database is
  never charged to it, and the task's own limits are the match's plus ``ARENA_MATCH_PREP_S``;
- recording retries database errors with backoff; if the database never comes back the
  exception propagates. None of these ever turns a database hiccup into a permanent ``error``;
- the claim carries a lease the worker renews while it holds the match (``matches.lease``): a
  worker that is gone (killed, or cut off for good) loses the match to the sweeper, or to a
  redelivery, once the lease lapses, long before the match's deadline;
- the worker's soft time limit, when it fires while the match is being recorded (waiting on
  row locks), does not lose the played result: recording goes on until the hard limit.

Public match errors are fixed sentences (``matches.errors``); details go to the log.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.utils import timezone

from arena.codestore import CodeFetchError, resolve
from arena.contract import ErrorKind, MatchSpec, SeatSpec
from arena.tasks import play as arena_play
from matches.creation import time_limit_s
from matches.errors import SETUP_FAILED, took_too_long
from matches.lease import Heartbeat, lease_end
from matches.models import HELD, Match, MatchStatus
from matches.services import (
    match_deadline,
    match_spec,
    record_outcome,
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
    """What a worker does with one delivery: claim, set up, play, record. ``limit_s`` is the
    match's time limit (else ``time_limit_s``): it starts when the referee does, which enforces
    it (so it holds in every pool, ``solo`` too); the waits before it are bounded by
    ``ARENA_MATCH_PREP_S``, which the task's own limits leave room for. Returns the recorded
    match, or None for a stale or duplicate delivery."""
    prep_until = time.monotonic() + settings.ARENA_MATCH_PREP_S
    match = claim_when_reachable(match_id, attempt, node=node)
    if match is None:
        return None
    attempt = match.attempts  # a lapsed claim taken over is played as the next attempt
    with Heartbeat(match_id, attempt, worker_name(node)):
        try:
            spec = set_up_when_reachable(match, attempt, node, until=prep_until)
        except DatabaseUnreachable:
            raise
        except Exception:  # a version's row or file vanished: the platform's failure, not a bot's
            log.exception("match %s: cannot build the match", match_id)
            return record_with_retry(
                match_id, attempt, _error_outcome(SETUP_FAILED, ErrorKind.SETUP)
            )
        if spec is None:
            return None  # taken back while this worker waited for the database
        limit = limit_s or time_limit_s(match.kind)
        # What an operator reads to tell a wait for the database from a match being played.
        log.info(
            "match %s: set up, the referee starts (attempt %s, %.0f s)", match_id, attempt, limit
        )
        outcome = _referee(spec, limit)
        return record_with_retry(match_id, attempt, outcome)


def _referee(spec: MatchSpec, limit: float) -> dict[str, Any]:
    try:
        return arena_play(
            spec,
            sandbox=settings.ARENA_SANDBOX,
            allow_unsafe=settings.ARENA_ALLOW_UNSAFE_SANDBOX,
            deadline_s=limit,
        ).to_json(replay=True)
    except SoftTimeLimitExceeded:
        # The worker's own time limit stopped the referee (and its bots): record an error
        # now rather than leave it held until the sweeper plays the same long match again.
        return _error_outcome(took_too_long(limit), ErrorKind.TIME_LIMIT)


def _error_outcome(error: str, kind: ErrorKind) -> dict[str, Any]:
    return {"status": "error", "error": error, "error_kind": kind, "seats": []}


# ------------------------------------------------------------------------------- claiming


def claim(match_id: int, attempt: int, *, node: str = "") -> Match | None:
    """Take a queued match for this delivery (status ``running``), or None when this delivery is
    stale or a duplicate (another attempt was sent, or the match is already taken or done).

    A match held under a lapsed lease (its worker is gone: ``matches.lease``) is taken over as
    the next attempt, as the sweeper would send it, within ``ARENA_MATCH_ATTEMPTS``: the lost
    worker, should it come back, finds its attempt superseded and records nothing."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return None
    now = timezone.now()
    held = {
        "status": MatchStatus.RUNNING,
        "started_at": now,
        "deadline_at": now + match_deadline(match.time_control, match.seats.count(), match.kind),
        "lease_until": lease_end(now),
        "worker": worker_name(node),
    }
    mine = Match.objects.filter(pk=match_id, attempts=attempt)
    taken = mine.filter(status=MatchStatus.QUEUED).update(**held)
    if not taken and attempt < settings.ARENA_MATCH_ATTEMPTS:
        lapsed = mine.filter(status__in=HELD, lease_until__lt=now)
        taken = lapsed.update(attempts=attempt + 1, **held)
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
    # One worker process plays one match at a time, so its name tells its own claim apart (a
    # lapsed claim taken over is on the next attempt).
    return Match.objects.filter(
        pk=match_id,
        attempts__in=(attempt, attempt + 1),
        status=MatchStatus.RUNNING,
        worker=worker_name(node),
    ).exists()


# ------------------------------------------------------------------------------ setting up


def set_up(match: Match, attempt: int, node: str) -> MatchSpec | None:
    """The match's spec, and its clocks started: the deadline the sweeper reads counts from
    here, when the referee starts, not from the claim. None when the claim is no longer this
    worker's (taken back while it waited for the database)."""
    spec = match_spec(match)
    for seat in spec.seats:
        _fetch_code(seat)
    now = timezone.now()
    started = Match.objects.filter(
        pk=match.pk, attempts=attempt, status=MatchStatus.RUNNING, worker=worker_name(node)
    ).update(
        started_at=now,
        deadline_at=now + match_deadline(match.time_control, len(spec.seats), match.kind),
        lease_until=lease_end(now),
    )
    return spec if started else None


def _fetch_code(seat: SeatSpec) -> None:
    """Fetch an uploaded seat's code (and build) into this worker's cache now, where a database
    error is retried like the rest of the set-up; the referee then finds it cached. Before, the
    fetch's own database reads failed inside the referee: the match ended ``error``. Any other
    failure (storage) is left for the referee to report, as it does."""
    try:
        resolve(seat)
    except CodeFetchError as exc:
        if isinstance(exc.__cause__, DatabaseError):
            raise exc.__cause__ from exc


def set_up_when_reachable(
    match: Match, attempt: int, node: str, *, until: float
) -> MatchSpec | None:
    """``set_up`` with backoff on database errors until ``until`` (monotonic); then the claim
    is let go (its lease ended, if the database takes that) and ``DatabaseUnreachable`` hands
    the delivery back: a redelivery or the sweeper plays the match as a new attempt."""
    try:
        return with_db_retries(
            match.pk, "building the match", lambda: set_up(match, attempt, node), until=until
        )
    except (DatabaseError, SoftTimeLimitExceeded) as exc:
        with contextlib.suppress(DatabaseError):
            _fresh_connection()
            Match.objects.filter(
                pk=match.pk, attempts=attempt, status=MatchStatus.RUNNING, worker=worker_name(node)
            ).update(lease_until=timezone.now())
        raise DatabaseUnreachable(f"setting the match up: {exc}") from exc


# ------------------------------------------------------------------------ with the database


def with_db_retries(
    match_id: int, what: str, step: Callable[[], T], *, until: float | None = None
) -> T:
    """``step()`` with backoff on database errors (0.5 s doubling to 30 s): ``ARENA_RECORD_RETRIES``
    tries, or as many as fit before ``until`` (monotonic); the last error propagates."""
    delay = 0.5
    attempt_no = 0
    while True:
        try:
            return step()
        except DatabaseError as exc:
            attempt_no += 1
            if until is None and attempt_no >= settings.ARENA_RECORD_RETRIES:
                raise
            if until is not None:
                delay = min(delay, until - time.monotonic())
                if delay <= 0:
                    raise
            log.warning("match %s: %s failed (%s), retrying in %.1fs", match_id, what, exc, delay)
            time.sleep(delay)
            _fresh_connection()
            delay = min(max(delay, 0.5) * 2, 30.0)


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
