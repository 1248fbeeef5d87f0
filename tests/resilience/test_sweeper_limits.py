"""The sweeper's and the worker's limits: a match that outlives the worker's time limit is
recorded as an error by that worker at once (no bot left running), and a match whose message
only waits behind a long queue is never given up on, however often the sweeper sends it again;
the messages it superseded do nothing when they finally arrive."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import descendants
from tests.resilience.arena_matches import (
    dispatch,
    done_tasks,
    slow_bot_source,
    sweep_past_deadlines,
    wait_status,
)
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]


def test_time_limit_records_an_error_at_once(
    redis_server: Any, workers: Any, arena: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matches.models import Match
    from matches.tasks import play_match

    redis = redis_server()
    # The sender stamps the task's limits on the message (Celery's way): this process plays
    # a site configured with ARENA_MATCH_TIME_LIMIT_S=3, as is the worker. Time limits need the
    # prefork pool, as in production. The match would take about 10 s.
    monkeypatch.setattr(play_match, "soft_time_limit", 3)
    monkeypatch.setattr(play_match, "time_limit", 33)
    monkeypatch.setattr(play_match, "_exec_options", None)  # Celery caches them per task
    worker = workers(redis.url, pool="prefork", ARENA_MATCH_TIME_LIMIT_S="3")
    slow = arena.upload("slow", slow_bot_source(0.25))
    match = arena.match([slow, arena.builtins[0]])
    dispatch(redis.url, match)
    wait_status([match.pk], {"finished", "error"}, worker)
    match.refresh_from_db()
    assert match.status == "error"
    # Stopped by the limit inside the referee, or around it: either way the platform's error.
    assert "SoftTimeLimitExceeded" in match.error or "took over 3 s" in match.error, match.error
    assert match.attempts == 1
    # The referee stopped the bots: nothing is left below the worker but its pool child.
    wait_for(
        "the bots to be gone",
        lambda: len(descendants(worker.pid)) == 1,
        timeout=30,
        logs=worker.logs,
    )
    assert sweep_past_deadlines(redis.url) == {"requeued": 0, "failed": 0}
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 0
    assert Match.objects.get(pk=match.pk).status == "error"


def test_a_long_queue_is_not_a_lost_message(redis_server: Any, workers: Any, arena: Any) -> None:
    from django.conf import settings

    redis = redis_server()
    match = arena.match([arena.builtins[0], arena.builtins[1]])
    dispatch(redis.url, match)  # no worker yet: the message waits in the queue
    sweeps = settings.ARENA_MATCH_ATTEMPTS + 1
    for _ in range(sweeps):
        assert sweep_past_deadlines(redis.url) == {"requeued": 1, "failed": 0}
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("queued", 1 + sweeps)
    assert redis.queued_messages() == 1 + sweeps

    worker = workers(redis.url)
    wait_status([match.pk], {"finished", "error"}, worker)
    wait_for(
        "every message to be taken", lambda: len(done_tasks(worker)) == 1 + sweeps, logs=worker.logs
    )
    # One of them played it (the latest attempt); the superseded ones returned None.
    assert sorted(done_tasks(worker).values()).count("None") == sweeps
    match.refresh_from_db()
    assert match.status == "finished" and match.attempts == 1 + sweeps
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
