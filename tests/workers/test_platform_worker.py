"""The whole production path: the site dispatches a match, Redis carries it, a separate
Celery worker process runs the referee and records the result in the
same PostgreSQL database, and the ratings move."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.conftest import REPO, WorkerProcess, celery_on, missing_service

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def worker(request: pytest.FixtureRequest, tmp_path: Any) -> WorkerProcess:
    request.node.worker_env = {
        "DATABASE_URL": _database_url(),
        "ARENA_SANDBOX": "process",
        "ARENA_DATA_DIR": str(tmp_path),
    }
    return request.getfixturevalue("celery_worker_process")


def test_match_runs_on_a_worker_and_is_recorded(redis_url: str, worker: WorkerProcess) -> None:
    from bots.services import ensure_builtin_bots
    from catalog.services import sync_games
    from matches.models import MatchStatus
    from matches.services import create_match, dispatch_match
    from ratings.models import Rating

    games = {g.slug: g for g in sync_games()}
    game = games["tri-area"]
    versions = [b.latest_version() for b in ensure_builtin_bots(game)][:2]
    assert len(versions) == 2  # two different bots: a rated match
    match = create_match(game=game, versions=versions, seed=3)

    with celery_on(redis_url):
        dispatch_match(match)
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            match.refresh_from_db()
            if match.status in (MatchStatus.FINISHED, MatchStatus.ERROR):
                break
            time.sleep(0.3)
        else:
            raise AssertionError(f"match still {match.status}: {worker.stderr_tail()}")

    assert match.status == MatchStatus.FINISHED, match.error
    seats_done = list(match.seats.order_by("seat"))
    assert sorted(s.rank for s in seats_done)[0] == 1
    assert all(s.status == "ok" for s in seats_done)
    assert match.replay and match.replay["decisions"]
    assert (REPO / "platform").is_dir()
    assert Rating.objects.filter(game=game).count() == 2
