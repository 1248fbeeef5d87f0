"""Writing matches: a match's whole life, from creation to its recorded outcome.

    create_match (queued) -> dispatch_match (a ``matches.play_match`` task, attempt n)
      -> play_match on a worker: claim (running) -> arena.tasks.play -> recording
      -> record_outcome: one transaction, the match row locked; finished + ``match_finished``
         (ratings, tournaments, leagues listen), or error + ``match_failed``
    sweep_matches (periodic): a match running past its deadline, or queued with its message
      lost, is sent again (attempt n+1) or, a held one after ``ARENA_MATCH_ATTEMPTS``, marked
      error.

Exactly once: each send carries its attempt number and only the delivery of the current attempt
may claim a queued match, so a duplicate or stale delivery does nothing; recording finds the
match done and does nothing the second time. Ratings therefore move at most once per match.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bots.models import BotVersion, VersionStatus
from catalog.models import Game
from catalog.services import count_finished_match, set_counters
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DatabaseError, close_old_connections, transaction
from django.db.models import Count, F, Q
from django.utils import timezone

from arena.botspec import HUMAN
from arena.contract import (
    DEFAULT_TIME_CONTROL,
    VERSION_PREFIX,
    ContractError,
    MatchSpec,
    SeatSpec,
    TimeControl,
)
from arena.outcome import MatchOutcome
from games.base import GameError
from games.registry import get_game
from matches.models import Match, MatchKind, MatchSeat, MatchStatus
from matches.replays import store_replay
from matches.signals import match_failed, match_finished

log = logging.getLogger(__name__)

_SEED_MASK = (1 << 63) - 1
#: Statuses in which a worker holds the match.
_HELD = (MatchStatus.RUNNING, MatchStatus.RECORDING)


def clamp_seed(seed: int) -> int:
    """Seeds from ``games.rng.derive_seed`` are 64-bit unsigned; columns are signed 64-bit."""
    return int(seed) & _SEED_MASK


def create_match(
    *,
    game: Game,
    versions: Sequence[BotVersion],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    time_control: dict[str, int] | None = None,
    tournament: Any = None,
    league: Any = None,
    round: int = 0,
    kind: str | None = None,
    rated: bool = True,
) -> Match:
    """A queued match with one seat per version (in seat order). Checks player count, options
    and time control here, so a bad setup is a ValidationError and never a failed task."""
    options = dict(options or {})
    try:
        engine = get_game(game.slug)
        engine.check_options(options)
        time = TimeControl.from_json(time_control)
    except (GameError, ContractError) as exc:
        raise ValidationError(str(exc)) from exc
    if not game.min_players <= len(versions) <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players, not {len(versions)}."
        )
    for v in versions:
        if v.bot.game_id != game.pk:
            raise ValidationError(f"{v.label} is a bot for {v.bot.game.name}, not {game.name}.")
    if kind is None:
        kind = (
            MatchKind.TOURNAMENT
            if tournament
            else MatchKind.LEAGUE
            if league
            else MatchKind.STANDALONE
        )
    if kind != MatchKind.HUMAN and any(v.status == VersionStatus.PERSON for v in versions):
        # a seat that waits for a person nobody sent: only the play page seats people
        raise ValidationError("A person's seat can only be taken on the play page, not by a bot.")
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            seed=clamp_seed(seed),
            options=options,
            time_control=time.to_json(),
            tournament=tournament,
            league=league,
            round=round,
            kind=kind,
            rated=rated,
        )
        MatchSeat.objects.bulk_create(
            [MatchSeat(match=match, seat=i, bot_version=v) for i, v in enumerate(versions)]
        )
    return match


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
        return SeatSpec(bot=f"builtin:{version.builtin_name}")
    return SeatSpec(
        bot=f"{VERSION_PREFIX}{version.pk}",
        sha256=version.sha256,
        # Uploads of users other than staff and the platform's own user are strangers' code.
        trusted=_trusted(version.bot.owner),
    )


def _trusted(owner: Any) -> bool:
    from bots.services import SYSTEM_USERNAME

    return bool(owner.is_staff or owner.get_username() == SYSTEM_USERNAME)


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
        # people's matches get their own, longer, limit (the task's default is the bots')
        human = match.kind == MatchKind.HUMAN
        _send(match.pk, attempt, time_limit_s(match.kind) if human else None)
    match.refresh_from_db()
    return match


def time_limit_s(kind: str) -> int:
    """How long a worker may play a match: people think longer than bots."""
    if kind == MatchKind.HUMAN:
        return int(getattr(settings, "ARENA_HUMAN_MATCH_TIME_LIMIT_S", 3 * 3600))
    return int(settings.ARENA_MATCH_TIME_LIMIT_S)


def _send(match_id: int, attempt: int, limit_s: int | None = None) -> None:
    from matches.tasks import play_match

    limits = {} if limit_s is None else {"soft_time_limit": limit_s, "time_limit": limit_s + 30}
    try:
        result = play_match.apply_async(args=[match_id, attempt], **limits)
    except Exception as exc:
        if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
            # Inline: the task raised while playing; the match says what failed.
            log.exception("match %s failed inline", match_id)
            mark_error(match_id, f"{type(exc).__name__}: {exc}")
        else:
            log.warning("match %s not sent (%s); the sweeper will send it again", match_id, exc)
        return
    Match.objects.filter(pk=match_id).update(task_id=result.id or "")


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


def play(match_id: int, attempt: int, *, node: str = "") -> Match | None:
    """What a worker does with one delivery: claim, play, record (retrying the database with
    backoff before giving up, so a result survives a database that refuses writes for a while).
    Returns the recorded match, or None for a stale or duplicate delivery."""
    from arena.tasks import play as arena_play

    match = claim(match_id, attempt, node=node)
    if match is None:
        return None
    try:
        spec = match_spec(match)
    except Exception as exc:  # a version's row or file vanished: the platform's failure
        log.exception("match %s: cannot build its spec", match_id)
        outcome = {"status": "error", "error": f"cannot build the match: {exc}", "seats": []}
    else:
        try:
            outcome = arena_play(
                spec,
                sandbox=settings.ARENA_SANDBOX,
                allow_unsafe=settings.ARENA_ALLOW_UNSAFE_SANDBOX,
            ).to_json(replay=True)
        except SoftTimeLimitExceeded:
            # The worker's own time limit stopped the referee (and its bots): record an error
            # now rather than leave it held until the sweeper plays the same long match again.
            limit = time_limit_s(match.kind)
            outcome = {"status": "error", "error": f"the match took over {limit} s", "seats": []}
    return record_with_retry(match_id, attempt, outcome)


def record_with_retry(match_id: int, attempt: int, outcome: dict[str, Any]) -> Match:
    """``record_outcome`` with backoff on database errors (``ARENA_RECORD_RETRIES`` tries).
    If the database never comes back, the exception propagates: the message is not
    acknowledged as done and the sweeper runs the match again after its deadline."""
    delay = 0.5
    for attempt_no in range(settings.ARENA_RECORD_RETRIES):
        try:
            Match.objects.filter(pk=match_id, attempts=attempt, status=MatchStatus.RUNNING).update(
                status=MatchStatus.RECORDING
            )
            return record_outcome(match_id, outcome, attempt=attempt)
        except DatabaseError as exc:
            if attempt_no == settings.ARENA_RECORD_RETRIES - 1:
                raise
            log.warning("match %s: recording failed (%s), retrying in %.1fs", match_id, exc, delay)
            time.sleep(delay)
            # A connection the server dropped (restart, failover) stays closed for good unless
            # it is thrown away here: the next try then opens a new one (a worker's task runs
            # outside any transaction; a caller's transaction is left alone).
            if not transaction.get_connection().in_atomic_block:
                close_old_connections()
            delay = min(delay * 2, 30.0)
    raise AssertionError("unreachable")


# ---------------------------------------------------------------------------- recording


def record_outcome(match_id: int, outcome: Any, *, attempt: int | None = None) -> Match:
    """Store the referee's ``MatchOutcome.to_json(replay=True)`` for ``match_id`` and announce
    it (``match_finished`` or ``match_failed``), in one transaction that locks only the match's
    row (listeners lock what they change, in a fixed order: ratings, then competitions).

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
            return _fail(match, f"the referee returned a malformed outcome: {exc}")
        replay, logs = _public_replay(parsed.replay, seats)
        if replay:
            store_replay(match.pk, replay)
        match.result = parsed.result or None
        _set_finished_at(match)
        if parsed.status != MatchStatus.FINISHED:
            return _fail(match, parsed.error or "the match could not be played")
        for seat, data in zip(seats, parsed.seats, strict=True):
            seat.score = data.score
            seat.rank = data.rank
            seat.status = data.status
            seat.faults = data.faults
            seat.time_ms = round(data.time_ms)
            seat.stderr = logs[seat.seat] if seat.seat < len(logs) else ""
        MatchSeat.objects.bulk_update(
            seats, ["score", "rank", "status", "faults", "time_ms", "stderr"]
        )
        match.status = MatchStatus.FINISHED
        match.error = ""
        match.deadline_at = None
        match.save()
        count_finished_match(match.game_id)
        match_finished.send(sender=Match, match=match, seats=seats)
    return match


def _set_finished_at(match: Match) -> None:
    now = timezone.now()
    match.finished_at = now
    if match.started_at:
        match.duration_ms = int((now - match.started_at) / timedelta(milliseconds=1))


def _fail(match: Match, error: str) -> Match:
    """Inside the recording transaction: mark error and announce it."""
    match.status = MatchStatus.ERROR
    match.error = error or "unknown error"
    match.deadline_at = None
    if match.finished_at is None:
        _set_finished_at(match)
    match.save()
    match_failed.send(sender=Match, match=match)
    return match


def mark_error(match_id: int, error: str) -> None:
    """A system failure: the match is ``error`` and never rated (safe to call twice)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.is_done:
            return
        _fail(match, error)


def _public_replay(
    replay: dict[str, Any] | None, seats: list[MatchSeat]
) -> tuple[dict[str, Any] | None, list[str]]:
    """The replay as everyone may see it, and the per-seat stderr taken out of it.

    Bots' stderr is private to their owners; uploaded bots' names in the public document are
    ``version:<id>``, never a file path."""
    if not isinstance(replay, dict) or not replay:
        return None, []
    public = dict(replay)
    logs = public.pop("logs", None)
    logs = [str(x or "") for x in logs] if isinstance(logs, list) else []
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
    return public, logs


# ------------------------------------------------------------------------ taking back


def requeue_match(match: Match, *, why: str = "") -> bool:
    """Send a match again as a new attempt (an ``error`` match, or one a worker lost). Seat
    results are cleared; an older delivery that still arrives finds its attempt superseded.
    Returns False for a finished match (never played twice)."""
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == MatchStatus.FINISHED:
            return False
        # The new attempt number is taken in the same write that puts the match back in the
        # queue: no delivery of an older attempt can claim it in between.
        locked.status = MatchStatus.QUEUED
        locked.attempts += 1
        locked.dispatched_at = timezone.now()
        locked.error = why
        locked.deadline_at = None
        locked.started_at = None
        locked.finished_at = None
        locked.worker = ""
        locked.save()
        MatchSeat.objects.filter(match=locked).update(
            score=None, rank=None, status="", faults=[], time_ms=None, stderr=""
        )
        limit = time_limit_s(locked.kind) if locked.kind == MatchKind.HUMAN else None
        transaction.on_commit(partial(_send, locked.pk, locked.attempts, limit))
    return True


def sweep_matches(now: datetime | None = None) -> dict[str, int]:
    """Take back what no worker will finish: matches held past their deadline (the worker died
    or the database refused the result for too long) and queued matches whose message was not
    picked up in ``ARENA_QUEUE_PATIENCE_S`` (sent to a broker that lost it). Each is sent again;
    a held one is marked ``error`` once it has had ``ARENA_MATCH_ATTEMPTS`` attempts. A queued
    one never is: no worker has tried it, its message may only be waiting behind a long queue
    (an older message left there finds its attempt superseded). Returns counts."""
    now = now or timezone.now()
    patience = timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S)
    stale = Match.objects.filter(
        Q(status__in=_HELD, deadline_at__lt=now)
        | Q(status=MatchStatus.QUEUED, dispatched_at__lt=now - patience)
        | Q(status=MatchStatus.QUEUED, dispatched_at__isnull=True, created_at__lt=now - patience)
    ).order_by("pk")
    counts = {"requeued": 0, "failed": 0}
    for match in stale[: settings.ARENA_SWEEP_BATCH]:
        if match.status in _HELD and match.attempts >= settings.ARENA_MATCH_ATTEMPTS:
            mark_error(match.pk, f"no worker finished this match in {match.attempts} attempts")
            counts["failed"] += 1
        elif requeue_match(match, why=""):
            counts["requeued"] += 1
    return counts


def recount_game_counters() -> None:
    """Every game's bot and finished-match counters, recounted from scratch (after bulk
    loads; the tests check that the kept counters equal this)."""
    from bots.models import Bot

    bots = dict(Bot.objects.order_by().values_list("game").annotate(n=Count("pk")))
    finished = dict(
        Match.objects.filter(status=MatchStatus.FINISHED)
        .order_by()
        .values_list("game")
        .annotate(n=Count("pk"))
    )
    set_counters({g: (bots.get(g, 0), finished.get(g, 0)) for g in {*bots, *finished}})
