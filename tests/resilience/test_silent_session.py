"""A worker's database session goes silent while recording (a network partition: no reset, no
error, the socket open). Before, it held the match's row, its bots' rating rows and the game's
row until someone killed it by hand (15.5 minutes in the fault-injection run), and every other
recording of the game waited behind it. Now every connection bounds its waits (statement,
lock, idle in transaction, TCP keepalives: meeple/database.py) and recording locks only the
rows it changes, the game's counter last."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from tests.resilience.arena_matches import dispatch, slow_bot_source, wait_status
from tests.resilience.database import database_url, proxied_database_url, sessions_waiting_on_locks
from tests.resilience.invariants import assert_ratings_serial, assert_recorded_once
from tests.resilience.waits import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True), pytest.mark.timeout(300)]

IDLE_MS = 2000


def test_every_wait_of_a_connection_is_bounded(db: Any) -> None:
    from django.db import connection

    database_url()  # PostgreSQL only
    with connection.cursor() as cur:
        shown = {}
        for name in ("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout"):
            cur.execute(f"SHOW {name}")
            shown[name] = cur.fetchone()[0]
    assert shown == {
        "statement_timeout": "1min",
        "lock_timeout": "10s",
        "idle_in_transaction_session_timeout": "1min",
    }
    from foundation.database import without_statement_timeout

    with without_statement_timeout(), connection.cursor() as cur:  # recalculate_ratings' way
        cur.execute("SHOW statement_timeout")
        assert cur.fetchone()[0] == "0"
    with connection.cursor() as cur:
        cur.execute("SHOW statement_timeout")
        assert cur.fetchone()[0] == "1min"
    params = connection.connection.info.get_parameters()
    assert (params["keepalives"], params["keepalives_idle"]) == ("1", "30")
    assert (params["keepalives_interval"], params["keepalives_count"]) == ("10", "3")
    # Bytes sent and not acknowledged (a peer gone mid-request, where keepalives never start).
    assert params["tcp_user_timeout"] == "30000"


@pytest.mark.redis
def test_a_silent_recording_session_lets_go_of_its_rows(
    redis_server: Any, workers: Any, arena: Any, db_proxy: Any
) -> None:
    import psycopg
    from ratings.models import Rating

    redis = redis_server()
    worker = workers(
        redis.url,
        DATABASE_URL=proxied_database_url(db_proxy),
        ARENA_DB_IDLE_IN_TRANSACTION_TIMEOUT_MS=str(IDLE_MS),
    )
    versions = [arena.builtins[0], arena.builtins[1]]
    bots = [v.bot_id for v in versions]
    Rating.objects.bulk_create([Rating(bot_id=b, game=arena.game) for b in bots])
    match = arena.match(versions)
    lock_ratings = "SELECT id FROM competitions_rating WHERE bot_id = ANY(%s) FOR UPDATE"

    blocker = psycopg.connect(database_url())
    try:
        with blocker.cursor() as cur:
            cur.execute(lock_ratings, [bots])
            dispatch(redis.url, match)
            # The worker records: its match row is locked, it waits for the rating rows.
            wait_for("the worker to wait for the rating rows", sessions_waiting_on_locks)
            db_proxy.silence()  # from here its session hears nothing from it
    finally:
        blocker.rollback()  # the worker's session takes the rows, then goes silent
        blocker.close()

    # Someone else needs the same rows (the bots' next match): they are free again once the
    # server has ended the silent session, well within this wait's own lock_timeout.
    other = psycopg.connect(database_url(), autocommit=False)
    try:
        with other.cursor() as cur:
            cur.execute("SET lock_timeout = '20s'")
            started = time.monotonic()
            cur.execute(lock_ratings, [bots])
            assert len(cur.fetchall()) == 2
            waited = time.monotonic() - started
    finally:
        other.rollback()
        other.close()
    assert waited < 15, waited

    db_proxy.speak()  # the partition heals: the worker finds its session gone and records again
    wait_status([match.pk], {"finished", "error"}, worker, timeout=120)
    match.refresh_from_db()
    assert (match.status, match.attempts) == ("finished", 1), match.error
    assert_recorded_once([match.pk])
    assert assert_ratings_serial(arena.game) == 1


def test_a_held_tournament_recording_does_not_hold_the_game(arena: Any) -> None:
    """One recording of a tournament match stays open (its session silent, say): another
    match of the same game, between other bots, records meanwhile. Before, the tournament's
    receiver had locked the game's row (``select_related("game")`` under ``FOR UPDATE``) and
    the game's counter was updated before the listeners ran."""
    from competitions.tournaments.services import create_tournament, start_tournament
    from django.db import connection
    from matches.models import Match
    from matches.services import match_spec, record_outcome
    from matches.signals import match_finished

    from arena.tasks import play

    database_url()  # PostgreSQL only
    t = create_tournament(
        organiser=arena.owner, game=arena.game, name="Cup", entrants=arena.builtins
    )
    (in_cup,) = start_tournament(t, dispatch=False)
    uploads = [arena.upload(f"bot-{i}", slow_bot_source(0)) for i in range(2)]
    friendly = arena.match(uploads)
    outcome = play(match_spec(in_cup), sandbox="process").to_json(replay=True)
    outcome_2 = {**outcome, "replay": None}  # the same shape: two seats

    held, release = threading.Event(), threading.Event()

    def hold(sender: Any, match: Any, **_: Any) -> None:
        if match.pk == in_cup.pk:
            held.set()
            release.wait(timeout=60)

    errors: list[BaseException] = []

    def record_in_cup() -> None:
        try:
            record_outcome(in_cup.pk, outcome, attempt=0)
        except BaseException as exc:
            errors.append(exc)
        finally:
            connection.close()

    # After every real listener: the tournament's row and the ratings are held meanwhile.
    match_finished.connect(hold, order=10_000, uid="test.hold")
    recorder = threading.Thread(target=record_in_cup)
    try:
        recorder.start()
        assert held.wait(timeout=60)
        with connection.cursor() as cur:
            cur.execute("SET lock_timeout = '5s'")  # a wait on the held rows fails the test
        try:
            record_outcome(friendly.pk, outcome_2, attempt=0)
        finally:
            with connection.cursor() as cur:
                cur.execute("RESET lock_timeout")
    finally:
        release.set()
        recorder.join(timeout=60)
        match_finished.disconnect("test.hold")
    assert not errors, errors
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert statuses[in_cup.pk] == statuses[friendly.pk] == "finished"
    arena.game.refresh_from_db()
    assert arena.game.match_count == 2
