"""Entry caps hold when two users enter at once, in two sessions (PostgreSQL): the first
entry is held open inside its lock of the tournament's row, just after it checked the room
left; the second must wait for that lock (seen from a third session) and then find the
tournament full. The interleaving is driven by events, never by sleeps; without the lock the
second would count before the first commits and the cap would be passed."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from bots.models import Bot, BotVersion
from catalog.models import Game
from competitions.entries import services as entries
from competitions.models import EntryPolicy, Tournament
from competitions.tournaments.services import create_tournament
from django.core.exceptions import ValidationError
from django.db import connection, connections

from tests.conftest import missing_service

pytestmark = pytest.mark.django_db(transaction=True)
WAIT_S = 60  # a bound on a hang, not a timing margin: each wait ends on an event


def _version(owner: Any, game: Game, name: str) -> BotVersion:
    bot = Bot.objects.create(owner=owner, game=game, name=name)
    return bot.versions.create(number=1, builtin_name="random")


def _someone_waits_for_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return bool(cursor.fetchone()[0])


def test_the_entry_cap_holds_when_two_enter_at_once(
    organiser: Any,
    trnd: Game,
    user: Any,
    other_user: Any,
    builtin_versions: list[BotVersion],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if connection.vendor != "postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    t = create_tournament(
        organiser=organiser,
        game=trnd,
        name="Two at once",
        players_per_match=3,
        entry_policy=EntryPolicy.ANYONE,
        max_entries=3,
        entrants=builtin_versions[:2],
    )
    mine, theirs = _version(user, trnd, "mine"), _version(other_user, trnd, "theirs")
    checked, release = threading.Event(), threading.Event()
    check_room = entries._check_room

    def held_after_the_check(locked: Tournament) -> None:
        check_room(locked)
        if threading.current_thread().name == "first":
            checked.set()
            assert release.wait(WAIT_S)

    monkeypatch.setattr(entries, "_check_room", held_after_the_check)
    results: dict[str, str] = {}

    def run(who: Any, version: BotVersion) -> None:
        name = threading.current_thread().name
        try:
            entries.enter(who, t, version)
            results[name] = "entered"
        except ValidationError as exc:
            results[name] = exc.messages[0]
        finally:
            connections.close_all()

    first = threading.Thread(target=run, args=(user, mine), name="first")
    second = threading.Thread(target=run, args=(other_user, theirs), name="second")
    first.start()
    assert checked.wait(WAIT_S)
    second.start()
    deadline = time.monotonic() + WAIT_S
    while second.is_alive() and not _someone_waits_for_a_lock():
        assert time.monotonic() < deadline, "the second entry neither waited nor ended"
        time.sleep(0.01)
    release.set()
    first.join(WAIT_S)
    second.join(WAIT_S)
    assert results == {"first": "entered", "second": "The tournament is full (3 entries)."}
    assert set(t.entrants.values_list("pk", flat=True)) == {
        builtin_versions[0].pk,
        builtin_versions[1].pk,
        mine.pk,
    }
