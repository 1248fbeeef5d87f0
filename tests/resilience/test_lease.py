"""A claim's lease (``matches.lease``): a match whose worker is gone (killed, or cut off from
the database while recording) is played again once the lease lapses, long before its deadline;
a redelivery after the lapse takes it over as the next attempt; a match whose send failed while
the broker was down is sent at the first sweep after. Before, all of them waited: a held match
for its deadline (over 15 minutes under the default limit), an unsent one for the queue's
patience (30 minutes)."""

from __future__ import annotations

import signal
from datetime import timedelta
from typing import Any

import pytest

from tests.conftest import celery_on
from tests.resilience.arena_matches import dispatch, slow_bot_source, statuses, wait_status
from tests.resilience.database import database_url, proxied_database_url, sessions_waiting_on_locks
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True), pytest.mark.timeout(400)]

#: The workers' lease: short, against the default match limit of 900 s (a deadline 16 min away).
LEASE_S = 5


def sweep(broker_url: str, now: Any = None) -> dict[str, int]:
    from matches.sweeper import sweep_matches

    from tests.resilience.arena_matches import _configured

    _configured()
    with celery_on(broker_url):
        return sweep_matches(now=now)


def wait_lease_lapsed(match_id: int, *workers: Any) -> None:
    from django.utils import timezone
    from matches.models import Match

    def lapsed() -> bool:
        lease = Match.objects.values_list("lease_until", flat=True).get(pk=match_id)
        return lease is not None and lease < timezone.now()

    wait_for(
        f"match {match_id}'s lease to lapse",
        lapsed,
        logs=lambda: "\n".join(w.logs() for w in workers),
    )


@pytest.mark.redis
def test_a_killed_workers_match_is_played_again_once_its_lease_lapses(
    redis_server: Any, workers: Any, arena: Any
) -> None:
    from django.utils import timezone
    from matches.models import Match

    redis = redis_server()
    doomed = workers(redis.url, name="doomed", ARENA_MATCH_LEASE_S=str(LEASE_S))
    slow = arena.upload("slow", slow_bot_source(0.25))
    match = arena.match([slow, arena.builtins[0]])
    dispatch(redis.url, match)
    wait_status([match.pk], {"running"}, doomed)
    doomed.kill(signal.SIGKILL)
    held = Match.objects.get(pk=match.pk)
    assert (held.status, held.attempts) == ("running", 1)
    deadline = held.deadline_at
    assert deadline - timezone.now() > timedelta(minutes=10)

    fresh = workers(redis.url, name="fresh", ARENA_MATCH_LEASE_S=str(LEASE_S))
    # While the lease holds, its worker may be alive: the sweeper leaves the match alone.
    assert sweep(redis.url, now=held.lease_until - timedelta(seconds=1))["requeued"] == 0
    wait_lease_lapsed(match.pk, doomed, fresh)
    assert sweep(redis.url) == {"requeued": 1, "failed": 0}
    wait_status([match.pk], {"finished", "error"}, fresh)

    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 2), match.error
    assert match.finished_at < deadline - timedelta(minutes=10)
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1
    assert sweep(redis.url)["requeued"] == 0


@pytest.mark.redis
def test_a_recording_cut_off_for_good_is_played_again_once_its_lease_lapses(
    redis_server: Any, workers: Any, arena: Any, db_proxy: Any
) -> None:
    import psycopg
    from ratings.models import Rating

    redis = redis_server()
    worker = workers(
        redis.url,
        DATABASE_URL=proxied_database_url(db_proxy),
        ARENA_MATCH_LEASE_S=str(LEASE_S),
        ARENA_RECORD_RETRIES="2",  # the worker gives up on recording within a second
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
            db_proxy.cut()  # the recording's session reset; every retry refused
            wait_for(
                "the worker to give up recording",
                lambda: "raised unexpected" in worker.log.read_text(),
                logs=worker.logs,
            )
    finally:
        blocker.rollback()
        blocker.close()
    assert statuses([match.pk]) == {match.pk: "recording"}
    wait_lease_lapsed(match.pk, worker)
    db_proxy.restore()

    assert sweep(redis.url) == {"requeued": 1, "failed": 0}
    wait_status([match.pk], {"finished", "error"}, worker)
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 2), match.error
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1


def test_a_redelivery_after_the_lease_lapsed_takes_the_match_over(arena: Any) -> None:
    """The same attempt's message delivered again (a pool child killed, a message handed back)
    after the lease lapsed: it plays the match as the next attempt; the lost worker, back,
    records nothing. Before the lapse a redelivery leaves the match alone."""
    from django.conf import settings
    from django.utils import timezone
    from matches.models import Match
    from matches.playing import claim, record_with_retry

    match = arena.match([arena.builtins[0], arena.builtins[1]])
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        status="running",
        attempts=1,
        worker="gone:1",
        deadline_at=now + timedelta(hours=1),
        lease_until=now + timedelta(minutes=1),
    )
    assert claim(match.pk, 1, node="w2") is None  # its worker may be alive

    Match.objects.filter(pk=match.pk).update(lease_until=now - timedelta(seconds=1))
    taken = claim(match.pk, 1, node="w2")
    assert taken is not None
    assert (taken.status, taken.attempts) == ("running", 2)
    assert taken.worker.startswith("w2:") and taken.lease_until > now

    lost = {"status": "finished", "seats": [{"score": 1, "rank": 1}, {"score": 0, "rank": 2}]}
    assert record_with_retry(match.pk, 1, lost).status == "running"  # superseded: nothing
    # The attempts' bound holds for takeovers too: the sweeper fails it after the last one.
    Match.objects.filter(pk=match.pk).update(
        attempts=settings.ARENA_MATCH_ATTEMPTS, lease_until=now - timedelta(seconds=1)
    )
    assert claim(match.pk, settings.ARENA_MATCH_ATTEMPTS, node="w3") is None


@pytest.mark.redis
def test_a_match_not_sent_while_the_broker_was_down_is_sent_at_the_next_sweep(
    redis_server: Any, workers: Any, arena: Any
) -> None:
    from matches.models import Match
    from matches.sweeper import UNSENT_GRACE_S

    redis = redis_server()
    redis.crash()
    match = arena.match([arena.builtins[0], arena.builtins[1]])
    dispatch(redis.url, match)  # fails after the send's retries: the broker is down
    match.refresh_from_db()
    assert (match.status, match.attempts, match.dispatched_at) == ("queued", 1, None)

    redis.start()  # the broker answers again (same port)
    worker = workers(redis.url)
    just_after = match.created_at + timedelta(seconds=UNSENT_GRACE_S + 1)
    assert sweep(redis.url, now=just_after) == {"requeued": 1, "failed": 0}
    wait_status([match.pk], {"finished", "error"}, worker)
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 2), match.error
    assert Match.objects.get(pk=match.pk).dispatched_at is not None
    assert_recorded_once([match.pk])
