"""Writing matches: a match's whole life, from creation to its recorded outcome.

    create_match (queued) -> dispatch_match (a ``matches.play_match`` task, attempt n)
      -> play_match on a worker: claim (running) -> arena.tasks.play -> recording
      -> record_outcome: one transaction, the match row locked; finished + ``match_finished``
         (ratings, tournaments, leagues listen), or error + ``match_failed``
    sweep_matches (periodic, ``matches.sweeper``): a match running past its deadline, or queued
      with its message lost, is sent again (attempt n+1) or, a held one after
      ``ARENA_MATCH_ATTEMPTS``, marked error.

The worker's side (claim, play, record with retries) is ``matches.playing``; creating matches
(one, or a competition's round in bulk) is ``matches.creation``.

Exactly once: each send carries its attempt number and only the delivery of the current attempt
may claim a queued match, so a duplicate or stale delivery does nothing; recording finds the
match done and does nothing the second time. Ratings therefore move at most once per match.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Sequence
from datetime import timedelta
from functools import partial
from typing import Any

from bots.models import Bot, BotVersion
from bots.services import trusted_owner
from catalog.services import count_finished_match, set_counters
from django.conf import settings
from django.db import transaction
from django.db.models import Count, F
from django.utils import timezone
from foundation.task_sending import send_named

from arena.botspec import HUMAN
from arena.contract import (
    DEFAULT_TIME_CONTROL,
    VERSION_PREFIX,
    ContractError,
    ErrorKind,
    MatchSpec,
    SeatSpec,
    TimeControl,
    builtin_bot,
)
from arena.outcome import MatchOutcome
from matches import seat_logs

# Creation lives in its own module; callers keep importing it from here.
from matches.creation import check_time_control as check_time_control
from matches.creation import clamp_seed as clamp_seed
from matches.creation import create_match as create_match
from matches.creation import create_matches as create_matches
from matches.creation import time_limit_s
from matches.errors import PLAY_FAILED, public_error
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from matches.replays import store_replay
from matches.signals import match_failed, match_finished

log = logging.getLogger(__name__)


def match_spec(match: Match) -> MatchSpec:
    """What the worker needs: code by id and hash (never a path), no sandbox choice."""
    seats = list(match.seats.select_related("bot_version__bot__owner").order_by("seat"))
    return MatchSpec(
        match_id=str(match.pk),
        game=match.game.slug,
        seats=tuple(_seat_spec(s.bot_version) for s in seats),
        seed=match.seed,
        options=dict(match.options),
        time=TimeControl.from_json(match.time_control or DEFAULT_TIME_CONTROL.to_json()),
    )


def _seat_spec(version: BotVersion) -> SeatSpec:
    if version.builtin_name == HUMAN:  # a person's seat (the play app's matches)
        return SeatSpec(bot=HUMAN)
    if version.builtin_name:
        return SeatSpec(bot=builtin_bot(version.builtin_name))
    return SeatSpec(
        bot=f"{VERSION_PREFIX}{version.pk}",
        sha256=version.sha256,
        # Uploads of users other than staff and the platform's own user are strangers' code.
        trusted=trusted_owner(version.bot.owner),
        # The worker runs it in this language, and the stored build by this hash: the row's
        # facts, never the files' (a build cannot say it is another language, nor built).
        language=version.language,
        artifact_sha256=version.artifact_sha256,
    )


# ------------------------------------------------------------------------------ sending


def dispatch_match(match: Match) -> Match:
    """Send ``match`` to the workers as attempt ``attempts + 1``. Returns it reloaded.

    Call it after the match's transaction commits (``transaction.on_commit``), so that a worker
    on another machine can see the row. If the broker cannot take the message, the match stays
    queued and the sweeper sends it again later: nothing is lost and nothing waits here.
    """
    now = timezone.now()
    sent = Match.objects.filter(pk=match.pk, status=MatchStatus.QUEUED).update(
        attempts=F("attempts") + 1, dispatched_at=now
    )
    if sent:
        attempt = Match.objects.values_list("attempts", flat=True).get(pk=match.pk)
        _send(match.pk, attempt, match.kind)
    match.refresh_from_db()
    return match


def dispatch_matches(matches: Sequence[Match]) -> None:
    """``dispatch_match`` for many matches (a competition's round, after its commit): two
    queries whatever their number, then one message each."""
    now = timezone.now()
    queued = Match.objects.filter(pk__in=[m.pk for m in matches], status=MatchStatus.QUEUED)
    queued.update(attempts=F("attempts") + 1, dispatched_at=now)
    sent = Match.objects.filter(pk__in=[m.pk for m in matches], dispatched_at=now)
    for pk, attempt, kind in sent.order_by("pk").values_list("pk", "attempts", "kind"):
        _send(pk, attempt, kind)


#: The tasks that play a match (``matches.tasks``), sent by name: people's matches have their
#: own queue and time limit (``matches.play_person_match``, routed by ``CELERY_TASK_ROUTES``).
PLAY_TASK = "matches.play_match"
PERSON_TASK = "matches.play_person_match"


def task_name_for(kind: str) -> str:
    """The name of the task that plays a match of ``kind``."""
    return PERSON_TASK if kind == MatchKind.HUMAN else PLAY_TASK


def _send(match_id: int, attempt: int, kind: str = MatchKind.STANDALONE) -> None:
    try:
        task_id = send_named(task_name_for(kind), [match_id, attempt])
    except Exception as exc:
        if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
            # Inline: the task raised while playing; the log says what failed, not the match.
            log.exception("match %s failed inline", match_id)
            mark_error(match_id, PLAY_FAILED, ErrorKind.WORKER)
        else:
            # Marked unsent: the next sweep sends it again, not one after the queue's patience.
            log.warning("match %s not sent (%s); the sweeper will send it again", match_id, exc)
            Match.objects.filter(pk=match_id, attempts=attempt, status=MatchStatus.QUEUED).update(
                dispatched_at=None
            )
        return
    Match.objects.filter(pk=match_id).update(task_id=task_id)


# ------------------------------------------------------------------------------ playing


def match_deadline(
    time_control: dict[str, int] | None, seats: int, kind: str = MatchKind.STANDALONE
) -> timedelta:
    """How long a worker may hold a match before the sweeper takes it back: the match time
    limit (``time_limit_s``, which the worker also enforces) plus the time the bots
    may take to start and their banks, plus a grace period for recording."""
    tc = TimeControl.from_json(time_control)
    bots_ms = tc.start_ms + seats * tc.bank_ms
    return timedelta(seconds=time_limit_s(kind) + 60, milliseconds=bots_ms)


def worker_name(node: str = "") -> str:
    """Who plays: the Celery node name (``-n w2@host``, what ``celery inspect`` shows) or the
    machine's name, and the process id."""
    return f"{node or socket.gethostname()}:{os.getpid()}"


# ---------------------------------------------------------------------------- recording


def record_outcome(match_id: int, outcome: Any, *, attempt: int | None = None) -> Match:
    """Store the referee's ``MatchOutcome.to_json(replay=True)`` for ``match_id`` and announce
    it (``match_finished`` or ``match_failed``), in one transaction that locks the match's row,
    then what the listeners change (in their explicit order, ``matches.signals``), then the
    game's counter, last, so that the row all of a game's recordings share is held only until
    the commit.

    Idempotent: a match already finished or errored, or re-sent as a newer attempt than
    ``attempt``, is left as it is. A malformed outcome marks the match ``error`` (unrated).
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.is_done or (attempt is not None and match.attempts != attempt):
            return match
        seats = list(match.seats.select_related("bot_version__bot").order_by("seat"))
        try:
            parsed = MatchOutcome.from_json(outcome, seats=len(seats))
        except ContractError as exc:
            log.error("match %s: the referee returned a malformed outcome: %s", match.pk, exc)
            return _fail(match, PLAY_FAILED, ErrorKind.OUTCOME)
        replay, logs, marks = _public_replay(parsed.replay, seats)
        if replay:
            store_replay(match.pk, replay)
        match.result = parsed.result or None
        _set_finished_at(match)
        if parsed.status != MatchStatus.FINISHED:
            kind = parsed.error_kind or ErrorKind.ENGINE
            return _fail(match, public_error(parsed.error, kind, match_id=match.pk), kind)
        for seat, data in zip(seats, parsed.seats, strict=True):
            seat.score = data.score
            seat.rank = data.rank
            seat.status = data.status
            seat.faults = data.faults
            seat.time_ms = round(data.time_ms)
            seat.stderr = logs[seat.seat] if seat.seat < len(logs) else ""
            seat.stderr_marks = marks[seat.seat] if seat.seat < len(marks) else []
        MatchSeat.objects.bulk_update(
            seats, ["score", "rank", "status", "faults", "time_ms", "stderr", "stderr_marks"]
        )
        match.status = MatchStatus.FINISHED
        match.error = ""
        match.error_kind = ""
        match.deadline_at = None
        match.lease_until = None
        match.save()
        match_finished.send(sender=Match, match=match, seats=seats)
        # Last: the game's row is shared by every recording of the game, so it is locked only
        # from here to the commit (listeners lock what they change: ratings, competitions).
        # The game's public count: a private competition's matches are not in it.
        if match.audience_id is None:
            count_finished_match(match.game_id)
    return match


def _set_finished_at(match: Match) -> None:
    now = timezone.now()
    match.finished_at = now
    if match.started_at:
        match.duration_ms = int((now - match.started_at) / timedelta(milliseconds=1))


def _fail(match: Match, error: str, kind: ErrorKind) -> Match:
    """Inside the recording transaction: mark error (what failed, and its kind) and announce it."""
    match.status = MatchStatus.ERROR
    match.error = error or "unknown error"
    match.error_kind = kind
    match.deadline_at = None
    match.lease_until = None
    if match.finished_at is None:
        _set_finished_at(match)
    match.save()
    match_failed.send(sender=Match, match=match)
    return match


def mark_error(match_id: int, error: str, kind: ErrorKind) -> None:
    """A system failure of ``kind``: the match is ``error`` and never rated (safe to call twice)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.is_done:
            return
        _fail(match, error, kind)


def _public_replay(
    replay: dict[str, Any] | None, seats: list[MatchSeat]
) -> tuple[dict[str, Any] | None, list[str], list[list[list[int]]]]:
    """The replay as everyone may see it, and the per-seat stderr and its per-decision marks
    (``log_marks``) taken out of it.

    Bots' stderr is private to their owners; uploaded bots' names in the public document are
    ``version:<id>``, never a file path."""
    if not isinstance(replay, dict) or not replay:
        return None, [], []
    public = dict(replay)
    logs = public.pop("logs", None)
    logs = [str(x or "") for x in logs] if isinstance(logs, list) else []
    marks = seat_logs.checked_marks(public.pop("log_marks", None), logs)
    if isinstance(public.get("seats"), list):
        by_seat = {s.seat: s for s in seats}
        cleaned = []
        for i, s in enumerate(public["seats"]):
            s = dict(s) if isinstance(s, dict) else s
            row = by_seat.get(i)
            if isinstance(s, dict) and row is not None and not row.bot_version.builtin_name:
                path, s["bot"] = s.get("bot"), f"{VERSION_PREFIX}{row.bot_version_id}"
                if s.get("name") == path:  # no name of its own: do not leak the path
                    s["name"] = s["bot"]
            cleaned.append(s)
        public["seats"] = cleaned
    return public, logs, marks


# ------------------------------------------------------------------------ taking back


def requeue_match(match: Match, *, why: str = "") -> bool:
    """Send a match again as a new attempt (an ``error`` match, or one a worker lost). Seat
    results are cleared; an older delivery that still arrives finds its attempt superseded.
    Returns False for a finished match (never played twice)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == MatchStatus.FINISHED:
            return False
        requeue_locked(locked, why=why)
    return True


def requeue_locked(locked: Match, *, why: str = "") -> None:
    """``requeue_match`` inside the caller's transaction, ``locked`` being the match's row as
    read under its lock (the sweeper re-checks what made it stale first)."""
    # The new attempt number is taken in the same write that puts the match back in the
    # queue: no delivery of an older attempt can claim it in between.
    locked.status = MatchStatus.QUEUED
    locked.attempts += 1
    locked.dispatched_at = timezone.now()
    locked.error = why
    locked.error_kind = ""
    locked.deadline_at = None
    locked.lease_until = None
    locked.started_at = None
    locked.finished_at = None
    locked.worker = ""
    locked.save()
    MatchSeat.objects.filter(match=locked).update(
        score=None, rank=None, status="", faults=[], time_ms=None, stderr="", stderr_marks=[]
    )
    transaction.on_commit(partial(_send, locked.pk, locked.attempts, locked.kind))


def recount_game_counters() -> None:
    """Every game's bot and finished public-match counters, recounted from scratch (after bulk
    loads; the tests check that the kept counters equal this)."""

    bots = dict(Bot.objects.order_by().values_list("game").annotate(n=Count("pk")))
    finished = dict(
        Match.objects.filter(status=MatchStatus.FINISHED, audience=None)
        .order_by()
        .values_list("game")
        .annotate(n=Count("pk"))
    )
    set_counters({g: (bots.get(g, 0), finished.get(g, 0)) for g in {*bots, *finished}})
