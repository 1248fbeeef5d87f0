"""A task delivered twice (the same attempt, while the match is played and after it is
recorded) or late (a stale attempt): one recording, ratings moved once. Two workers compete for
the deliveries, so a duplicate really meets the first delivery in flight."""

from __future__ import annotations

from typing import Any

import pytest

from tests.resilience.arena_matches import (
    dispatch,
    done_tasks,
    send_task,
    slow_bot_source,
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


def test_duplicate_and_stale_deliveries_record_once(
    redis_server: Any, workers: Any, arena: Any
) -> None:
    from matches.models import Match
    from ratings.models import Rating, RatingChange

    redis = redis_server()
    w1 = workers(redis.url, name="w1")
    w2 = workers(redis.url, name="w2")
    slow = arena.upload("slow", slow_bot_source(0.05))
    matches = [arena.match([slow, arena.builtins[i % 2]], seed=i) for i in range(3)]
    ids = [m.pk for m in matches]
    dispatch(redis.url, *matches)
    extra = []
    for m in matches:
        extra.append(send_task(redis.url, m.pk, 1))  # the same attempt again
        extra.append(send_task(redis.url, m.pk, 0))  # an older attempt, arriving late
        extra.append(send_task(redis.url, m.pk, 2))  # an attempt never sent (a forged one)
    wait_status(ids, {"finished", "error"}, w1, w2)
    for m in matches:  # and once more after the match is recorded
        extra.append(send_task(redis.url, m.pk, 1))

    # Every extra delivery was taken by a worker and did nothing (returned None).
    def all_handled() -> dict[str, str] | None:
        done = done_tasks(w1, w2)
        return done if set(extra) <= set(done) else None

    done = wait_for(
        "every extra delivery to be handled", all_handled, logs=lambda: w1.logs() + w2.logs()
    )
    assert {done[t] for t in extra} == {"None"}
    played = [t for t, result in done.items() if t not in extra]
    assert len(played) == len(matches), done  # one real play per match

    for m in Match.objects.filter(pk__in=ids):
        assert m.status == "finished", m.error
        assert m.attempts == 1
    assert_recorded_once(ids)
    assert assert_ratings_serial(arena.game) == len(matches)
    assert RatingChange.objects.count() == 2 * len(matches)
    assert sum(r.matches_played for r in Rating.objects.all()) == 2 * len(matches)
