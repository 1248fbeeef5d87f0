"""The match time limit in both pools the docs use, and the soft limit firing while a played
match is being recorded.

- solo (the docs' benchmarks, these tests): Celery enforces no time limit in it; the referee
  does, from the task's limit. Before, a match went on past its limit and finished.
- prefork: the soft limit fires while recording waits on a row lock. Before, it escaped the
  worker's play, rolled the recording back and acknowledged the message: the match was left
  ``recording`` for the sweeper, to be played again.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import descendants
from tests.resilience.arena_matches import dispatch, slow_bot_source, wait_status
from tests.resilience.database import database_url
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

LIMIT_S = 3


@pytest.fixture
def short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sender stamps the task's limits on the message (Celery's way): this process plays
    a site configured with ARENA_MATCH_TIME_LIMIT_S=LIMIT_S, as is the worker."""
    from matches.tasks import play_match

    monkeypatch.setattr(play_match, "soft_time_limit", LIMIT_S)
    monkeypatch.setattr(play_match, "time_limit", LIMIT_S + 30)
    monkeypatch.setattr(play_match, "_exec_options", None)  # Celery caches them per task


def test_the_time_limit_holds_in_the_solo_pool(
    redis_server: Any, workers: Any, arena: Any, short_limit: None
) -> None:
    redis = redis_server()
    worker = workers(redis.url, pool="solo", ARENA_MATCH_TIME_LIMIT_S=str(LIMIT_S))
    slow = arena.upload("slow", slow_bot_source(0.25))  # about 10 s of thinking in all
    match = arena.match([slow, arena.builtins[0]])
    dispatch(redis.url, match)
    wait_status([match.pk], {"finished", "error"}, worker, timeout=120)
    match.refresh_from_db()
    # About 10 s of thinking against a 3 s limit: played to its end, it would be "finished".
    # (How soon after the limit it stops is the referee's tests', with a driven clock: a busy
    # machine's set-up and bots' start say nothing of it.) Its bot stopped: the solo worker
    # has no pool child, nothing is left below it.
    assert match.status == "error", "the match went on past its time limit"
    assert match.error == f"the match took over {LIMIT_S} s"
    wait_for("the bot to be gone", lambda: not descendants(worker.pid), timeout=30)
    assert_recorded_once([match.pk])


def test_the_soft_limit_while_recording_keeps_the_played_result(
    redis_server: Any, workers: Any, arena: Any, short_limit: None
) -> None:
    import psycopg
    from ratings.models import Rating

    redis = redis_server()
    worker = workers(redis.url, pool="prefork", ARENA_MATCH_TIME_LIMIT_S=str(LIMIT_S))
    versions = [arena.builtins[0], arena.builtins[1]]
    bots = [v.bot_id for v in versions]
    Rating.objects.bulk_create([Rating(bot_id=b, game=arena.game) for b in bots])
    match = arena.match(versions)  # built-in bots: played in well under a second

    # The rating rows are locked for longer than the limit: recording waits on them (below
    # the worker's lock_timeout) when the soft limit fires.
    blocker = psycopg.connect(database_url())
    try:
        with blocker.cursor() as cur:
            cur.execute(
                "SELECT id FROM competitions_rating WHERE bot_id = ANY(%s) FOR UPDATE", [bots]
            )
            dispatch(redis.url, match)
            wait_for(
                "the soft limit to fire while recording",
                lambda: "Soft time limit" in worker.logs(),
                timeout=60,
                logs=worker.logs,
            )
            wait_status([match.pk], {"recording"}, worker, timeout=10)
    finally:
        blocker.rollback()
        blocker.close()

    wait_status([match.pk], {"finished", "error"}, worker, timeout=25)
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 1), match.error
    assert "time limit reached while recording" in worker.logs()
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
