"""The platform's Celery tasks: a worker plays and records a match itself (so a result is
stored before its message is acknowledged), and a periodic sweeper takes back lost matches.
Settings and why: deploy/SCALING.md, "Exactly once"."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from celery.exceptions import Reject
from django.conf import settings

import arena.tasks  # noqa: F401  registers "arena.run_match" (the contract's task) with the app
from matches import playing, sweeper
from matches.models import MatchKind
from matches.services import PERSON_TASK, PLAY_TASK


@shared_task(
    bind=True,
    name=PLAY_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    # The match's limit starts when its referee does: the task's leaves room for the waits
    # before (claim, set-up), each bounded by its patience (matches.playing).
    soft_time_limit=settings.ARENA_MATCH_TIME_LIMIT_S + settings.ARENA_MATCH_PREP_S,
    time_limit=settings.ARENA_MATCH_TIME_LIMIT_S + settings.ARENA_MATCH_PREP_S + 30,
)
def play_match(self: Any, match_id: int, attempt: int) -> dict[str, Any] | None:
    """Claim, play and record attempt ``attempt`` of match ``match_id`` (a stale or duplicate
    delivery does nothing)."""
    return _play(self, match_id, attempt)


@shared_task(
    bind=True,
    name=PERSON_TASK,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    soft_time_limit=settings.ARENA_HUMAN_MATCH_TIME_LIMIT_S + settings.ARENA_MATCH_PREP_S,
    time_limit=settings.ARENA_HUMAN_MATCH_TIME_LIMIT_S + settings.ARENA_MATCH_PREP_S + 30,
)
def play_person_match(self: Any, match_id: int, attempt: int) -> dict[str, Any] | None:
    """``play_match`` for a match with a person's seat. It waits minutes for each decision
    and may last hours, so it has a queue of its own (``settings.PEOPLE_QUEUE``, routed in
    ``CELERY_TASK_ROUTES``) whose workers never play bots' matches, and the people's time
    limit (``ARENA_HUMAN_MATCH_TIME_LIMIT_S``). deploy/SCALING.md, "People's matches"."""
    return _play(self, match_id, attempt)


def _play(task: Any, match_id: int, attempt: int) -> dict[str, Any] | None:
    # The referee enforces the match's own limit (this worker's ARENA_MATCH_TIME_LIMIT_S, from
    # when it starts), so it holds in the solo pool too, which has no timer.
    try:
        match = playing.play(match_id, attempt, node=task.request.hostname or "")
    except playing.DatabaseUnreachable as exc:
        # Back into the queue, for this worker when the database answers again or for another:
        # acknowledged, the match would wait ARENA_QUEUE_PATIENCE_S for the sweeper.
        raise Reject(f"cannot reach the database: {exc}", requeue=True) from exc
    return None if match is None else {"match_id": match.pk, "status": match.status}


def task_for(kind: str) -> Any:
    """The task that plays a match of ``kind``: people's matches have their own queue."""
    return play_person_match if kind == MatchKind.HUMAN else play_match


@shared_task(
    name="matches.sweep",
    ignore_result=True,
    soft_time_limit=sweeper.SWEEP_TIME_LIMIT_S,
    time_limit=sweeper.SWEEP_TIME_LIMIT_S + 30,
)
def sweep() -> dict[str, int]:
    """Periodic (Celery beat): send again, or fail, the matches no worker will finish (one
    sweep at a time, however many beats send it)."""
    return sweeper.sweep_matches()
