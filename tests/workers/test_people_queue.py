"""People's matches have their own queue and workers (deploy/SCALING.md, "People's matches"):
a person's game that waits for its person never holds the worker of bots' matches, and the
people's time limit still ends it. Real worker processes (prefork, as in production), Redis and
the same PostgreSQL database."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, celery_on, missing_service, platform_env

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

#: the people's time limit in this test: long enough for a bot match (under a second idle; its
#: set-up and play outlasted 10 s on a loaded machine, CI) to be played while the person's game
#: waits, short enough to watch the limit end that game
PEOPLE_LIMIT_S = 30


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def start_worker(
    redis_url: str, tmp_path: Path
) -> Iterator[Callable[..., subprocess.Popen[bytes]]]:
    """``start(name, *args, **env)``: ``celery -A meeple worker`` as deploy/ runs it (prefork,
    concurrency 1) plus ``args``, on Redis and this test's database."""
    procs: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str, **env: str) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "celery", "-A", "meeple", "worker"),
                *("--concurrency=1", "--loglevel=WARNING", "--without-heartbeat"),
                *("--without-gossip", "--without-mingle", "-n", f"{name}@%h", *args),
            ],
            cwd=REPO,
            env=platform_env(
                CELERY_BROKER_URL=redis_url,
                DATABASE_URL=_database_url(),
                ARENA_SANDBOX="process",
                ARENA_DATA_DIR=str(tmp_path),
                **env,
            ),
            stdout=subprocess.DEVNULL,
            stderr=open(tmp_path / f"{name}.log", "wb"),  # noqa: SIM115  closed with the process
        )
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        if proc.stderr:
            proc.stderr.close()


def _wait(what: str, done: Callable[[], bool], logs: Path, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.2)
    tails = {p.name: p.read_text(errors="replace")[-1500:] for p in logs.glob("*.log")}
    raise AssertionError(f"{what} within {timeout} s; workers' logs: {tails}")


def test_a_bot_match_is_played_while_a_person_keeps_a_game_waiting(
    start_worker: Callable[..., subprocess.Popen[bytes]],
    redis_url: str,
    settings: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bots.services import ensure_builtin_bots
    from catalog.services import sync_games
    from django.contrib.auth import get_user_model
    from matches.models import Match, MatchStatus
    from matches.services import create_match, dispatch_match
    from matches.tasks import play_person_match
    from play import channel
    from play.services import start_match

    # A site configured with the same people's time limit as its workers: Celery puts the
    # sender's task limits into the message (deploy/SCALING.md, "People's matches").
    settings.ARENA_HUMAN_MATCH_TIME_LIMIT_S = PEOPLE_LIMIT_S
    monkeypatch.setattr(play_person_match, "soft_time_limit", PEOPLE_LIMIT_S)
    monkeypatch.setattr(play_person_match, "time_limit", PEOPLE_LIMIT_S + 30)
    monkeypatch.setattr(play_person_match, "_exec_options", None)  # read again from the above
    settings.DATA_DIR = tmp_path  # the play cache's file fallback, shared with the workers
    channel._file_cache.cache_clear()
    game = {g.slug: g for g in sync_games()}["tri-area"]
    bots = [v for b in ensure_builtin_bots(game) if (v := b.latest_version())][:2]
    person = get_user_model().objects.create_user("pat", password="pw-pat-123")
    suffix = uuid.uuid4().hex[:6]
    bots_worker = f"bots-{suffix}"
    people_worker = f"people-{suffix}"
    # The production layout: plain workers for bots, `-Q people` workers for people. A person
    # who never answers: only the people's time limit ends the game (the clock and the page's
    # leave timeout are far longer).
    start_worker(bots_worker)
    start_worker(
        people_worker,
        "-Q",
        settings.PEOPLE_QUEUE,
        ARENA_HUMAN_MATCH_TIME_LIMIT_S=str(PEOPLE_LIMIT_S),
        ARENA_HUMAN_MOVE_S="600",
        ARENA_HUMAN_LEAVE_S="600",
    )

    with celery_on(redis_url):
        game_of_person = start_match(user=person, game=game, seats=[None, bots[0]])

        def asked() -> bool:
            return channel.play_cache().get(channel.key(game_of_person.pk, 0, "req")) is not None

        _wait("the person was not asked for a move", asked, tmp_path)
        game_of_person.refresh_from_db()
        assert game_of_person.status == MatchStatus.RUNNING
        assert game_of_person.worker.startswith(people_worker), game_of_person.worker

        # The bots' worker (one process) is free: the bot match is played while the person
        # thinks. Before the people's queue, that worker held the person's game instead.
        bot_match = dispatch_match(create_match(game=game, versions=bots, seed=5))

        def played() -> bool:
            bot_match.refresh_from_db()
            return bot_match.status in (MatchStatus.FINISHED, MatchStatus.ERROR)

        _wait("the bot match was not played", played, tmp_path)
        assert bot_match.status == MatchStatus.FINISHED, bot_match.error
        assert bot_match.worker.startswith(bots_worker), bot_match.worker
        # The bots' worker took it while the person's game still waited. (Not "the person's
        # game is still running now": on a loaded machine the bot match's set-up and play
        # outlasted a 10 s limit, CI. One worker for both took the bot match only
        # once the person's game had ended.)
        game_of_person.refresh_from_db()
        assert bot_match.started_at is not None
        assert game_of_person.finished_at is None or (
            bot_match.started_at < game_of_person.finished_at
        ), (bot_match.started_at, game_of_person.finished_at)

        # The people's worker enforces the people's time limit on its task.
        def ended() -> bool:
            game_of_person.refresh_from_db()
            # Recorded, not only being recorded (``recording`` comes between).
            return game_of_person.status in (MatchStatus.FINISHED, MatchStatus.ERROR)

        _wait("the person's game did not end at its time limit", ended, tmp_path)
    assert game_of_person.status == MatchStatus.ERROR
    assert game_of_person.error == f"the match took over {PEOPLE_LIMIT_S} s"
    assert Match.objects.filter(status=MatchStatus.FINISHED).count() == 1
    channel._file_cache.cache_clear()
