"""Two sweeps at once (two beats by mistake, or a slow sweep overtaken by the next): every stale
match is sent again once. Before, both sweeps selected the same stale matches outside any lock
and both sent each one again (attempts jumped by two; held matches were given up on "in 3
attempts" after two real tries)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest

from tests.resilience.arena_matches import _configured, dispatch

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]


def _in_threads(*jobs: Callable[[], Any]) -> list[Any]:
    """Run each job in a thread of its own (each with its own database connection)."""
    from django.db import connection

    results: list[Any] = [None] * len(jobs)

    def run(i: int) -> None:
        try:
            results[i] = jobs[i]()
        except BaseException as exc:
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(isinstance(r, BaseException) for r in results), results
    return results


def _stale(arena: Any, redis: Any, n: int) -> tuple[list[int], Any]:
    """``n`` matches sent once to a broker no worker reads, and a time when the sweeper sees
    all of them as lost (queued past the queue's patience)."""
    from django.conf import settings
    from django.utils import timezone

    matches = [arena.match([arena.builtins[0], arena.builtins[1]], seed=i) for i in range(n)]
    dispatch(redis.url, *matches)
    later = timezone.now() + timedelta(seconds=settings.ARENA_QUEUE_PATIENCE_S + 1)
    return [m.pk for m in matches], later


def test_each_match_is_judged_again_under_its_lock(
    redis_server: Any, arena: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both sweeps select the same stale matches (the single-flight lock set aside): each match
    is still sent again once, by whichever sweep locks its row first."""
    from django.db import connection

    from tests.conftest import missing_service

    if connection.vendor != "postgresql":  # row locks (SQLite locks the whole table)
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    from matches import sweeper
    from matches.models import Match

    from tests.conftest import celery_on

    redis = redis_server()
    ids, later = _stale(arena, redis, 12)
    selected = threading.Barrier(2, timeout=60)
    take_back = sweeper.take_back
    seen: set[int] = set()

    def after_both_selected(match_id: int, now: Any, attempts: int) -> str | None:
        if threading.get_ident() not in seen:
            seen.add(threading.get_ident())
            selected.wait()  # both sweeps hold the same list of candidates now
        return take_back(match_id, now, attempts)

    monkeypatch.setattr(sweeper, "take_back", after_both_selected)
    _configured()
    with celery_on(redis.url):
        first, second = _in_threads(lambda: sweeper._sweep(later), lambda: sweeper._sweep(later))
    assert first["requeued"] + second["requeued"] == len(ids)
    assert set(Match.objects.filter(pk__in=ids).values_list("attempts", flat=True)) == {2}
    assert redis.queued_messages() == 2 * len(ids)  # the first send and one more, each


def test_a_sweep_while_another_runs_leaves_the_matches_to_it(
    redis_server: Any, arena: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matches import sweeper
    from matches.models import Match

    from tests.conftest import celery_on

    redis = redis_server()
    ids, later = _stale(arena, redis, 3)
    inside = threading.Event()
    second_done = threading.Event()
    take_back = sweeper.take_back

    def slow(match_id: int, now: Any, attempts: int) -> str | None:
        inside.set()
        second_done.wait(timeout=60)
        return take_back(match_id, now, attempts)

    monkeypatch.setattr(sweeper, "take_back", slow)

    def second() -> dict[str, int]:
        inside.wait(timeout=60)
        try:
            return sweeper.sweep_matches(now=later)
        finally:
            second_done.set()

    _configured()
    with celery_on(redis.url):
        first, other = _in_threads(lambda: sweeper.sweep_matches(now=later), second)
    assert first == {"requeued": len(ids), "failed": 0}
    assert other == {"requeued": 0, "failed": 0, "skipped": 1}
    assert set(Match.objects.filter(pk__in=ids).values_list("attempts", flat=True)) == {2}
