"""A worker that cannot reach the database while deliveries arrive: it keeps the one in hand
(trying to claim it, with backoff) instead of acknowledging it, and plays it as soon as the
database answers. Before, it took every delivery of a 30 s outage, failed to claim it and
acknowledged it, so those matches waited ARENA_QUEUE_PATIENCE_S (30 min) for the sweeper."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.resilience.arena_matches import dispatch, wait_status
from tests.resilience.database import proxied_database_url
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [
    pytest.mark.worker,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]


def test_deliveries_wait_for_the_database(
    redis_server: Any, workers: Any, arena: Any, db_proxy: Any
) -> None:
    redis = redis_server()
    # The worker reaches PostgreSQL only through the proxy; the test and the sweeper do not.
    worker = workers(redis.url, DATABASE_URL=proxied_database_url(db_proxy))
    warm_up = arena.match([arena.builtins[0], arena.builtins[1]], seed=0)
    dispatch(redis.url, warm_up)  # the worker holds a connection from here on (2 log lines)
    wait_status([warm_up.pk], {"finished"}, worker, timeout=60)
    # The commit is visible before its answer reaches the worker: cutting now could drop that
    # answer and leave the worker retrying the warm-up's recording through the whole outage.
    wait_for(
        "the warm-up's task to end",
        lambda: "succeeded in" in worker.log.read_text(),
        timeout=60,
        logs=worker.logs,
    )

    db_proxy.cut()  # its connection dropped, new ones refused
    matches = [arena.match([arena.builtins[0], arena.builtins[1]], seed=i) for i in (1, 2, 3)]
    ids = [m.pk for m in matches]
    dispatch(redis.url, *matches)
    wait_for(
        "a delivery during the outage",
        lambda: worker.log.read_text().count("Task matches.play_match[") >= 3,
        timeout=60,
        logs=worker.logs,
    )
    time.sleep(2)  # long enough for a worker that gives up on a delivery to take the others
    # It holds the delivery in hand (and at most one more prefetched): none is acknowledged.
    assert redis.queued_messages() == len(ids), worker.logs()
    assert "cannot reach the database" in worker.log.read_text()
    db_proxy.restore()

    # Played now, not after the queue's patience (nothing here runs the sweeper).
    wait_status(ids, {"finished", "error"}, worker, timeout=60)
    for m in matches:
        m.refresh_from_db()
        assert (m.status, m.attempts) == ("finished", 1), m.error
    assert_recorded_once([warm_up.pk, *ids])
    assert assert_ratings_serial(arena.game) == 4
