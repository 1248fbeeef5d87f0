"""The rows a result needs are locked by another connection for longer than the worker's
transactions wait (``lock_timeout`` on the worker's connection): the worker backs off, retries,
and records the match once when the lock goes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.resilience.arena_matches import dispatch, slow_bot_source, wait_status
from tests.resilience.database import database_url
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(600),
]

LOCK_TIMEOUT_MS = 500


@pytest.mark.parametrize("lock", ["match-table", "rating-rows", "connection-cut"])
def test_locked_rows_are_waited_out(lock: str, redis_server: Any, workers: Any, arena: Any) -> None:
    import psycopg
    from django.db import connection
    from ratings.models import Rating

    redis = redis_server()
    worker = workers(
        redis.url,
        DATABASE_URL=database_url(options=f"-c lock_timeout={LOCK_TIMEOUT_MS}"),
    )
    slow = arena.upload("slow", slow_bot_source(0.1))
    match = arena.match([slow, arena.builtins[1]])
    bots = [slow.bot_id, arena.builtins[1].bot_id]
    # The ratings exist already (as after earlier matches), so there are rows to lock.
    Rating.objects.bulk_create([Rating(bot_id=b, game=arena.game) for b in bots])
    dispatch(redis.url, match)
    wait_status([match.pk], {"running"}, worker)
    # Claimed is not yet played: the set-up reads the match's rows too, and a lock taken before
    # it ends is waited out there (a busy machine's slow set-up), never reaching the recording.
    wait_for(
        "the referee to start",
        lambda: "the referee starts" in worker.log.read_text(errors="replace"),
        logs=worker.logs,
    )

    # Another connection takes the lock while the match is being played and holds it until
    # the worker has failed to record twice (it would wait forever without a lock timeout).
    blocker = psycopg.connect(database_url())
    try:
        with blocker.cursor() as cur:
            if lock == "connection-cut":
                # The database drops the worker's connection (a failover, a restart) and then
                # refuses the result's writes for a while.
                cur.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    " AND pid <> %s",
                    [connection.connection.info.backend_pid],
                )
                assert any(ok for (ok,) in cur.fetchall())
            if lock in ("match-table", "connection-cut"):
                cur.execute("LOCK TABLE matches_match IN ACCESS EXCLUSIVE MODE")
            else:
                cur.execute(
                    "SELECT id FROM competitions_rating WHERE bot_id = ANY(%s) FOR UPDATE", [bots]
                )
                assert len(cur.fetchall()) == 2
            wait_for(
                "the worker to fail recording twice",
                lambda: worker.logs().count("recording failed") >= 2,
                logs=worker.logs,
            )
    finally:
        blocker.rollback()
        blocker.close()

    wait_status([match.pk], {"finished", "error"}, worker)
    match.refresh_from_db()
    assert match.status == "finished", match.error
    assert "lock timeout" in worker.logs()
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
