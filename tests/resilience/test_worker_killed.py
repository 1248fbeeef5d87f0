"""A worker SIGKILLed in the middle of a match (the solo worker, the prefork main process, or
only its pool child): a fresh worker and the sweeper finish the match, exactly once."""

from __future__ import annotations

import os
import signal
from typing import Any

import pytest

from tests.resilience.arena_matches import (
    dispatch,
    done_tasks,
    slow_bot_source,
    statuses,
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


@pytest.mark.parametrize("victim", ["solo", "prefork-main", "prefork-child"])
def test_killed_mid_match_is_finished_once(
    victim: str, redis_server: Any, workers: Any, arena: Any
) -> None:
    from matches.models import Match

    redis = redis_server()
    pool = "solo" if victim == "solo" else "prefork"
    first = workers(redis.url, name="doomed", pool=pool)
    slow = arena.upload("slow", slow_bot_source(0.25))
    match = arena.match([slow, arena.builtins[0]])
    dispatch(redis.url, match)
    wait_status([match.pk], {"running"}, first)

    if victim == "prefork-child":
        children = first.pool_children()
        assert len(children) == 1, children
        os.kill(children[0], signal.SIGKILL)
        # The main process sees the child die and, rejecting the message, gets it again: that
        # delivery finds the match held by attempt 1 and leaves it alone.
        wait_for(
            "the redelivery to be refused",
            lambda: "WorkerLostError" in first.logs() and "None" in done_tasks(first).values(),
            timeout=60,
            logs=first.logs,
        )
    else:
        children = first.pool_children() if victim == "prefork-main" else []
        first.kill(signal.SIGKILL)
        # Billiard's pool child notices its parent is gone and exits with the match unplayed.
        wait_for(
            "the orphaned pool child to exit",
            lambda: not any(os.path.exists(f"/proc/{c}") for c in children),
            timeout=60,
        )
    held = Match.objects.get(pk=match.pk)
    assert held.status == "running", f"the match ended before the kill: {held.status}"
    assert held.attempts == 1

    if victim != "prefork-child":
        fresh = workers(redis.url, name="fresh", pool=pool)
    else:
        fresh = first
    assert sweep_past_deadlines(redis.url) == {"requeued": 1, "failed": 0}
    wait_status([match.pk], {"finished", "error"}, first, fresh)

    match.refresh_from_db()
    assert match.status == "finished", match.error
    assert match.attempts == 2
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
    # Nothing more comes of the lost attempt: the sweeper finds nothing to do.
    assert sweep_past_deadlines(redis.url) == {"requeued": 0, "failed": 0}
    assert statuses([match.pk]) == {match.pk: "finished"}
