"""Writing matches: creating them, sending them to the referee, recording what came back.

The path of a match: :func:`create_match` (status ``queued``) -> :func:`dispatch_match` sends
the Celery chain ``arena.run_match(spec) | matches.record_match(outcome, match_id)`` ->
the worker marks it ``running`` (``matches.signals``) -> :func:`record_outcome` stores seats,
replay and ratings in one transaction (``finished``) or marks it ``error`` (never rated).
With no broker configured the chain runs inline (Celery eager mode).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from bots.models import BotVersion
from catalog.models import Game
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games.base import GameError
from games.registry import get_game
from matches.models import Match, MatchSeat, MatchStatus, SeatStatus

log = logging.getLogger(__name__)

#: The referee's default time control (arena.referee.TimeControl).
DEFAULT_TIME = {"start_ms": 5000, "move_ms": 1000, "bank_ms": 10000}
_SEED_MASK = (1 << 63) - 1


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
) -> Match:
    """A queued match with one seat per version (in seat order). Checks player count and options
    with the engine, so a bad setup is a ValidationError here and never a failed task."""
    options = dict(options or {})
    try:
        engine = get_game(game.slug)
        engine.check_options(options)
    except GameError as exc:
        raise ValidationError(str(exc)) from exc
    if not game.min_players <= len(versions) <= game.max_players:
        raise ValidationError(
            f"{game.name} is played by {game.players_label} players, not {len(versions)}."
        )
    for v in versions:
        if v.bot.game_id != game.pk:
            raise ValidationError(f"{v.label} is a bot for {v.bot.game.name}, not {game.name}.")
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            seed=clamp_seed(seed),
            options=options,
            time_control={**DEFAULT_TIME, **(time_control or {})},
            tournament=tournament,
            league=league,
            round=round,
        )
        MatchSeat.objects.bulk_create(
            [MatchSeat(match=match, seat=i, bot_version=v) for i, v in enumerate(versions)]
        )
    return match


def match_spec(match: Match) -> dict[str, Any]:
    """The spec dict that the ``arena.run_match`` task takes."""
    seats = list(match.seats.select_related("bot_version__bot__owner").order_by("seat"))
    return {
        "game": match.game.slug,
        "bots": [s.bot_version.runner_spec() for s in seats],
        "seed": match.seed,
        "options": match.options,
        "match_id": str(match.pk),
        "time": {**DEFAULT_TIME, **match.time_control},
        "sandbox": settings.ARENA_SANDBOX,
        # Uploads of users other than staff and the platform's own "arena" user are strangers'
        # code (see sandbox.require_boundary).
        "untrusted": any(
            not s.bot_version.builtin_name and not _trusted(s.bot_version.bot.owner) for s in seats
        ),
        "allow_unsafe": settings.ARENA_ALLOW_UNSAFE_SANDBOX,
    }


def _trusted(owner: Any) -> bool:
    from bots.services import SYSTEM_USERNAME

    return bool(owner.is_staff or owner.get_username() == SYSTEM_USERNAME)


def dispatch_match(match: Match) -> Match:
    """Send ``match`` to the workers (inline in eager mode). Returns it reloaded.

    Call it after the match's transaction commits (``transaction.on_commit``), so that a
    worker on another machine can see the row.
    """
    from celery import chain

    from matches.tasks import app, mark_match_error, record_match

    flow = chain(
        app.signature("arena.run_match", args=[match_spec(match)]),
        record_match.s(match.pk),
    ).on_error(mark_match_error.si(match.pk, "the match task failed"))
    try:
        async_result = flow.apply_async()
    except Exception as exc:
        # Eager mode propagates the referee's exceptions; with a broker, a send failure.
        log.exception("match %s failed", match.pk)
        mark_error(match.pk, f"{type(exc).__name__}: {exc}")
    else:
        Match.objects.filter(pk=match.pk, task_id="").update(task_id=async_result.id or "")
    match.refresh_from_db()
    return match


def mark_running(match_id: int) -> None:
    Match.objects.filter(pk=match_id, status=MatchStatus.QUEUED).update(
        status=MatchStatus.RUNNING, started_at=timezone.now()
    )


def mark_error(match_id: int, error: str) -> None:
    """A system failure: the match is ``error`` and never rated (safe to call twice)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status == MatchStatus.FINISHED:
            return
        match.status = MatchStatus.ERROR
        match.error = error or "unknown error"
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "error", "finished_at"])
        _after_match(match)


def record_outcome(match_id: int, outcome: dict[str, Any]) -> Match:
    """Store the referee's ``MatchOutcome.to_json()`` for ``match_id``; rate it if finished.

    Idempotent: a match already finished or errored is left as it is (a retried task).
    """
    from competitions.services import rate_match

    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("game").get(pk=match_id)
        if match.is_done:
            return match
        seats = list(match.seats.select_related("bot_version__bot").order_by("seat"))
        replay, logs = _public_replay(outcome.get("replay"), seats)
        match.replay = replay or match.replay
        match.result = outcome.get("result") or None
        now = timezone.now()
        match.finished_at = now
        if match.started_at:
            match.duration_ms = int((now - match.started_at) / timedelta(milliseconds=1))
        problem = _outcome_problem(outcome, len(seats))
        if problem:
            match.status = MatchStatus.ERROR
            match.error = problem
            match.save()
            _after_match(match)
            return match
        for seat, data in zip(seats, outcome["seats"], strict=True):
            seat.score = data.get("score")
            seat.rank = data.get("rank")
            seat.status = data.get("status") or SeatStatus.OK
            seat.faults = list(data.get("faults") or [])
            seat.time_ms = round(data.get("time_ms") or 0)
            seat.stderr = logs[seat.seat] if seat.seat < len(logs) else ""
        MatchSeat.objects.bulk_update(
            seats, ["score", "rank", "status", "faults", "time_ms", "stderr"]
        )
        match.status = MatchStatus.FINISHED
        match.error = ""
        match.save()
        rate_match(match, seats)
        _after_match(match)
    return match


def _public_replay(
    replay: dict[str, Any] | None, seats: list[MatchSeat]
) -> tuple[dict[str, Any] | None, list[str]]:
    """The replay as everyone may see it, and the per-seat stderr taken out of it.

    Bots' stderr is private to their owners; uploaded bots' server paths become
    ``version:<id>`` so the public document does not reveal the storage layout."""
    if not isinstance(replay, dict):
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
                path, s["bot"] = s.get("bot"), f"version:{row.bot_version_id}"
                if s.get("name") == path:  # no name of its own: do not leak the path
                    s["name"] = s["bot"]
            cleaned.append(s)
        public["seats"] = cleaned
    return public, logs


def _outcome_problem(outcome: dict[str, Any], seats: int) -> str:
    """Why an outcome cannot be recorded as finished ('' when it can)."""
    if outcome.get("status") != "finished":
        return outcome.get("error") or f"the referee returned status {outcome.get('status')!r}"
    got = outcome.get("seats") or []
    if len(got) != seats:
        return f"the referee returned {len(got)} seats for {seats}"
    valid = {c.value for c in SeatStatus}
    for i, s in enumerate(got):
        if not isinstance(s.get("rank"), int) or s.get("status", "ok") not in valid:
            return f"the referee returned a malformed seat {i}: {s!r}"
    return ""


def _after_match(match: Match) -> None:
    """Bookkeeping once a match is done: close its tournament when it was the last one."""
    if match.tournament_id:
        from competitions.services import finish_tournament_if_done

        finish_tournament_if_done(match.tournament_id)
