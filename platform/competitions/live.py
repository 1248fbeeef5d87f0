"""A tournament whose start was asked for but that a worker has not started yet: the page
shows "Starting" (not the Start button) and follows it. Kept in the shared cache, since the
start itself runs in a worker and the page must say so across reloads and tabs."""

from __future__ import annotations

from django.core.cache import cache

from competitions.models import Tournament, TournamentStatus

#: How long a start asked for counts as on its way: far longer than a worker takes to pick
#: up the task, so that a lost task does not keep the Start button hidden for ever.
STARTING_SECONDS = 15 * 60


def starting_key(tournament_id: int) -> str:
    return f"tournament-starting:{tournament_id}"


def _key(t: Tournament) -> str:
    return starting_key(t.pk)


def mark_starting(t: Tournament) -> None:
    """Record that the organiser asked for ``t`` to start (the task is queued)."""
    cache.set(_key(t), 1, STARTING_SECONDS)


def start_pending(t: Tournament) -> bool:
    """True while ``t`` is still a draft and a start asked for has not happened yet."""
    return t.status == TournamentStatus.DRAFT and cache.get(_key(t)) is not None


def clear_starting(t: Tournament) -> None:
    """The start was refused by the worker (the draft changed): show the Start button again."""
    cache.delete(_key(t))
