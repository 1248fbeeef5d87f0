"""The broker crashes (SIGKILL) and comes back, with its queue on disk (appendonly) and
without, while matches are queued and running, and matches are dispatched while it is down:
every match ends finished or error exactly once, none is left queued or running after the
sweeper has run, and the ratings equal a serial replay."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.resilience.arena_matches import (
    dispatch,
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
    pytest.mark.timeout(900),
]

OUTAGE_S = 5.0  # how long the broker stays down (not a timing margin: any length would do)


@pytest.mark.parametrize("appendonly", [True, False], ids=["persistent", "volatile"])
def test_broker_restart_loses_no_match(
    appendonly: bool, redis_server: Any, workers: Any, arena: Any
) -> None:
    import redis as redis_client
    from matches.models import Match

    redis = redis_server(appendonly=appendonly)
    w1 = workers(redis.url, name="w1")
    w2 = workers(redis.url, name="w2", host="otherhost")
    slow = arena.upload("slow", slow_bot_source(0.05))
    first = [arena.match([slow, arena.builtins[i % 2]], seed=i) for i in range(6)]
    ids = [m.pk for m in first]
    dispatch(redis.url, *first)
    wait_for(
        "two matches to be running",
        lambda: list(statuses(ids).values()).count("running") == 2,
        logs=lambda: w1.logs() + w2.logs(),
    )

    redis.crash()
    # Dispatching while the broker is down fails fast and leaves the match queued.
    late = [arena.match([arena.builtins[0], arena.builtins[1]], seed=10 + i) for i in range(2)]
    started = time.monotonic()
    dispatch(redis.url, *late)
    dispatch_s = time.monotonic() - started
    ids += [m.pk for m in late]
    assert set(statuses([m.pk for m in late]).values()) == {"queued"}
    time.sleep(OUTAGE_S)
    # With the broker down nothing new is taken: this is what the crash left.
    at_crash = statuses(ids)
    redis.start()

    # The workers reconnect and play what the broker still holds; the running matches are
    # recorded in the database, which needs no broker. Then the sweeper takes back what was lost.
    client = redis_client.Redis(port=redis.port)

    def settled() -> bool:
        now = statuses(ids).values()
        return client.llen("celery") == 0 and not {"running", "recording"} & set(now)

    for _ in range(4):  # each round: wait for quiet, then sweep what is left
        wait_for("the workers to settle", settled, logs=lambda: w1.logs() + w2.logs())
        if set(statuses(ids).values()) <= {"finished", "error"}:
            break
        sweep_past_deadlines(redis.url)
        wait_for(
            "the swept matches to be taken",
            lambda: "queued" not in statuses(ids).values() or client.llen("celery") > 0,
            logs=lambda: w1.logs() + w2.logs(),
        )
    wait_status(ids, {"finished", "error"}, w1, w2)

    assert_recorded_once(ids)
    rated = assert_ratings_serial(arena.game)
    finished = Match.objects.filter(pk__in=ids, status="finished").count()
    assert rated == finished
    # Nothing a worker could play was given up on: every match finished.
    errors = list(Match.objects.filter(pk__in=ids, status="error").values_list("pk", "error"))
    assert finished == len(ids), errors
    attempts = dict(Match.objects.filter(pk__in=ids).values_list("pk", "attempts"))
    queued = [pk for pk, status in at_crash.items() if status == "queued"]
    played = [pk for pk, status in at_crash.items() if status != "queued"]
    assert len(queued) >= 3 and played, at_crash  # both kinds were there when it crashed
    # Matches a worker held were recorded without the broker: the first attempt counted.
    assert {attempts[pk] for pk in played} == {1}, (at_crash, attempts)
    # A queued match's message survives on disk, or is lost and sent again by the sweeper
    # (and so is every match dispatched while the broker was down).
    assert {attempts[m.pk] for m in late} == {2}
    assert {attempts[pk] for pk in queued if pk not in {m.pk for m in late}} == (
        {1} if appendonly else {2}
    ), (at_crash, attempts)
    assert dispatch_s < 30, f"dispatching {len(late)} matches to a dead broker took {dispatch_s}s"
