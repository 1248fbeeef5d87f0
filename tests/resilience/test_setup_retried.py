"""The database fails while a worker builds a match (after claiming it, before playing it): a
lock held past the worker's ``lock_timeout``, then its connection reset. The worker retries
like it does when recording, and plays the match on its first attempt; before, the match was
a permanent ``error`` whose public text was the database's error message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.resilience.arena_matches import dispatch, statuses, wait_status
from tests.resilience.database import database_url
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]


def test_a_database_failure_while_building_the_match_is_retried(
    redis_server: Any, workers: Any, arena: Any
) -> None:
    import psycopg
    from django.db import connection
    from matches.models import Match

    redis = redis_server()
    worker = workers(redis.url, DATABASE_URL=database_url(options="-c lock_timeout=500"))
    match = arena.match([arena.builtins[0], arena.builtins[1]])

    def failures() -> int:
        return worker.logs().count("building the match failed")

    def failed_or_given_up(n: int) -> bool:
        if statuses([match.pk])[match.pk] == "error":
            raise AssertionError(f"the match was given up: {Match.objects.get(pk=match.pk).error}")
        return failures() >= n

    blocker = psycopg.connect(database_url())
    try:
        with blocker.cursor() as cur:
            # Claiming reads the match and its seats; building it reads the versions too.
            cur.execute("LOCK TABLE bots_botversion IN ACCESS EXCLUSIVE MODE")
            dispatch(redis.url, match)
            wait_for("a failed build", lambda: failed_or_given_up(1), timeout=60, logs=worker.logs)
            # The connection reset (a failover, a restart) on top of it.
            cur.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> %s",
                [connection.connection.info.backend_pid],
            )
            wait_for(
                "another failed build", lambda: failed_or_given_up(2), timeout=60, logs=worker.logs
            )
    finally:
        blocker.rollback()
        blocker.close()

    wait_status([match.pk], {"finished", "error"}, worker, timeout=120)
    match.refresh_from_db()
    assert (match.status, match.attempts, match.error) == ("finished", 1, "")
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
