"""A solo worker's database socket freezes mid-recording: the proxy holds every byte both ways
and keeps the sockets open, and acknowledges what it receives (so neither TCP keepalives nor
``tcp_user_timeout`` notice anything). Nothing in the solo pool enforces a task's time limit;
the worker's watchdog (``arena.worker_watchdog``) ends the process at the task's hard limit,
and the match, its claim's lease lapsed, is played again by the worker that replaces it.
Before, the worker stayed blocked on the socket until someone restarted it by hand."""

from __future__ import annotations

from typing import Any

import pytest

from tests.resilience.arena_matches import dispatch, wait_status
from tests.resilience.database import database_url, proxied_database_url, sessions_waiting_on_locks
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.test_lease import sweep, wait_lease_lapsed
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(400),
]

#: The task's hard limit the sender stamps on the message (a site configured so, as Celery does).
HARD_LIMIT_S = 45


def test_a_frozen_database_socket_does_not_hold_the_solo_worker(
    redis_server: Any, workers: Any, arena: Any, db_proxy: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg
    from matches.tasks import play_match
    from ratings.models import Rating

    monkeypatch.setattr(play_match, "soft_time_limit", HARD_LIMIT_S - 30)
    monkeypatch.setattr(play_match, "time_limit", HARD_LIMIT_S)
    monkeypatch.setattr(play_match, "_exec_options", None)  # Celery caches them per task
    redis = redis_server()
    worker = workers(
        redis.url,
        name="frozen",
        DATABASE_URL=proxied_database_url(db_proxy),
        ARENA_MATCH_LEASE_S="5",
    )
    versions = [arena.builtins[0], arena.builtins[1]]
    Rating.objects.bulk_create([Rating(bot_id=v.bot_id, game=arena.game) for v in versions])
    match = arena.match(versions)

    blocker = psycopg.connect(database_url())
    try:
        with blocker.cursor() as cur:
            cur.execute(
                "SELECT id FROM competitions_rating WHERE bot_id = ANY(%s) FOR UPDATE",
                [[v.bot_id for v in versions]],
            )
            dispatch(redis.url, match)
            wait_for("the recording to wait for the rating rows", sessions_waiting_on_locks)
            db_proxy.silence()  # the worker's sockets hear nothing from here on
    finally:
        blocker.rollback()
        blocker.close()

    # The watchdog ends the process at the hard limit (counted from the task's start).
    wait_for("the frozen worker to end", lambda: worker.proc.poll() is not None, logs=worker.logs)
    assert "past its hard time limit" in worker.logs()

    # Its supervisor starts it again; the sweeper sends the match once the lease lapsed.
    fresh = workers(redis.url, name="fresh")
    wait_lease_lapsed(match.pk, worker, fresh)
    assert sweep(redis.url) == {"requeued": 1, "failed": 0}
    wait_status([match.pk], {"finished", "error"}, fresh)
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 2), match.error
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
