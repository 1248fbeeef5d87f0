"""The database goes away while a worker claims a match, or while it sets it up (claimed, not
yet played), for longer than the match's time limit. The match's limit starts when its referee
starts: the match is played in full on its first attempt. Before, the wait was charged to the
match: its referee was given 1 s and it ended ``error``, "the match took over 15 s", a limit
it never had."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.resilience.arena_matches import dispatch, slow_bot_source, wait_status
from tests.resilience.database import database_url, proxied_database_url
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(400),
]

#: The worker's match limit, and an outage longer than it (the time under test, not a margin).
LIMIT_S = 15
OUTAGE_S = LIMIT_S + 5


@pytest.mark.parametrize("where", ["claim", "setup"])
def test_an_outage_before_the_referee_is_not_charged_to_the_match(
    where: str,
    redis_server: Any,
    workers: Any,
    arena: Any,
    db_proxy: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import psycopg
    from django.conf import settings
    from matches.tasks import play_match

    # The sender stamps the task's limits on the message (Celery's way), as a site configured
    # with ARENA_MATCH_TIME_LIMIT_S=LIMIT_S, as is the worker, would: the match's limit plus
    # the room left for the claim's and set-up's waits.
    task_limit = LIMIT_S + getattr(settings, "ARENA_MATCH_PREP_S", 0)
    monkeypatch.setattr(play_match, "soft_time_limit", task_limit)
    monkeypatch.setattr(play_match, "time_limit", task_limit + 30)
    monkeypatch.setattr(play_match, "_exec_options", None)  # Celery caches them per task
    redis = redis_server()
    worker = workers(
        redis.url,
        # A short lock_timeout: a set-up waiting on a locked table fails (and retries) quickly.
        DATABASE_URL=proxied_database_url(db_proxy, options="-c lock_timeout=500"),
        ARENA_MATCH_TIME_LIMIT_S=str(LIMIT_S),
    )
    warm_up = arena.match([arena.builtins[0], arena.builtins[1]], seed=0)
    dispatch(redis.url, warm_up)  # the worker holds a connection from here on
    wait_status([warm_up.pk], {"finished"}, worker, timeout=90)
    wait_for(
        "the warm-up's task to end",
        lambda: "succeeded in" in worker.log.read_text(),
        timeout=60,
        logs=worker.logs,
    )
    # About 2 s of thinking: far less than the limit, far more than the 1 s it was left.
    slow = arena.upload("slow", slow_bot_source(0.05))
    match = arena.match([slow, arena.builtins[0]], seed=1)

    blocker = psycopg.connect(database_url())
    try:
        if where == "claim":
            db_proxy.cut()
            dispatch(redis.url, match)
            wait_for(
                "the claim to wait for the database",
                lambda: "cannot reach the database to claim" in worker.log.read_text(),
                timeout=60,
                logs=worker.logs,
            )
        else:
            with blocker.cursor() as cur:
                # Claiming reads the match and its seats; setting it up reads the versions too.
                cur.execute("LOCK TABLE bots_botversion IN ACCESS EXCLUSIVE MODE")
            dispatch(redis.url, match)
            wait_for(
                "the set-up to fail",
                lambda: "building the match failed" in worker.log.read_text(),
                timeout=60,
                logs=worker.logs,
            )
            db_proxy.cut()
        time.sleep(OUTAGE_S)
    finally:
        blocker.rollback()
        blocker.close()
        db_proxy.restore()

    wait_status([match.pk], {"finished", "error"}, worker, timeout=180)
    match.refresh_from_db()
    assert (match.status, match.attempts, match.error) == ("finished", 1, "")
    assert_recorded_once([warm_up.pk, match.pk])
    assert assert_ratings_serial(arena.game) == 2
