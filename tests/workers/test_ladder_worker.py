"""The living ladder on the production path: PostgreSQL, Redis, a real Celery worker and a real
Celery beat (the DatabaseScheduler running ``ladder.tick``). A user signs up and uploads bots
through the API; nothing else is done by hand: qualification, placement, rating, failure,
suspension and its lifting all happen on their own."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.test import Client

from tests.conftest import WorkerProcess, beat_process, celery_on, missing_service

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

GOOD = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""
CRASH = b"""import sys
sys.stderr.write("secret-trace: boom on line one\\n")
raise SystemExit(3)
"""


def flaky() -> bytes:
    """GOOD in 3-seat TRND matches (its qualification is one: as few seats as the game
    allows), a crash at start in 4- and 5-seat ones (two thirds of its ladder matches)."""
    return b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        if msg["players"] > 3:
            raise SystemExit(1)
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""


LADDER_ENV = {
    "ARENA_SANDBOX": "process",
    # The process sandbox is no boundary: the operator of this test site allows strangers' bots.
    "ARENA_ALLOW_UNSAFE_SANDBOX": "true",
    "ARENA_LADDER_BUDGET": "2",
    "ARENA_LADDER_PLACEMENT": "2",
    "ARENA_LADDER_SUSPEND_AFTER": "2",
}


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def site(settings: Any, tmp_path: Any) -> dict[str, str]:
    """The test process is the web site; the worker and beat share its database and storage."""
    settings.MEDIA_ROOT = tmp_path / "media"
    for key, value in LADDER_ENV.items():
        setattr(settings, key, value == "true" if value in ("true", "false") else value)
    for key in ("ARENA_LADDER_BUDGET", "ARENA_LADDER_PLACEMENT", "ARENA_LADDER_SUSPEND_AFTER"):
        setattr(settings, key, int(LADDER_ENV[key]))
    settings.ARENA_CHALLENGES_PER_DAY = 1
    settings.CELERY_TASK_ALWAYS_EAGER = False
    return {"DATABASE_URL": _database_url(), "ARENA_DATA_DIR": str(tmp_path), **LADDER_ENV}


@pytest.fixture
def worker(request: pytest.FixtureRequest, site: dict[str, str]) -> WorkerProcess:
    request.node.worker_env = site
    return request.getfixturevalue("celery_worker_process")


@pytest.fixture
def beat(redis_url: str, site: dict[str, str], tmp_path: Any) -> Iterator[subprocess.Popen]:
    """``celery -A meeple beat`` with the database scheduler, ticking the ladder every second."""
    from catalog.services import sync_games
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    games = sync_games()
    # One game on the ladder keeps the test short; the others wait.
    for g in games:
        g.is_active = g.slug == "trnd"
        g.save(update_fields=["is_active"])
    every, _ = IntervalSchedule.objects.get_or_create(every=1, period="seconds")
    PeriodicTask.objects.update_or_create(
        name="ladder: matchmaker tick", defaults={"task": "ladder.tick", "interval": every}
    )
    with beat_process(redis_url, site) as proc:
        yield proc


def wait_for(what: str, check: Callable[[], Any], worker: WorkerProcess, limit: float = 150) -> Any:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}: {worker.stderr_tail()}")


def signed_up(client: Client, name: str) -> Client:
    password = f"pw-{name}-Zx81!"
    resp = client.post(
        "/accounts/signup/", {"username": name, "password1": password, "password2": password}
    )
    assert resp.status_code == 302, resp.content[:500]
    token = client.post("/api/auth/token/", {"username": name, "password": password}).json()
    api = Client(HTTP_AUTHORIZATION=f"Token {token['token']}")
    return api


def upload(api: Client, bot_id: int, data: bytes, name: str = "main.py") -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    resp = api.post(f"/api/bots/{bot_id}/versions/", {"code": SimpleUploadedFile(name, data)})
    assert resp.status_code == 201, resp.content
    return resp.json()


def test_an_upload_qualifies_places_and_is_rated_on_its_own(
    redis_url: str, worker: WorkerProcess, beat: subprocess.Popen
) -> None:
    from bots.services import ensure_builtin_bots
    from catalog.models import Game
    from matches.models import Match

    trnd = Game.objects.get(slug="trnd")
    ensure_builtin_bots(trnd)
    with celery_on(redis_url):
        alice = signed_up(Client(), "alice")
        bob = signed_up(Client(), "bob")
        bot = alice.post("/api/bots/", {"game": "trnd", "name": "steady"}).json()
        upload(alice, bot["id"], GOOD)

        # No other action: the qualification task, then the matchmaker under beat.
        def placed() -> Any:
            board = Client().get("/api/games/trnd/ladder/").json()
            row = next((e for e in board["entries"] if e["bot"] == bot["id"]), None)
            return row if row and not row["in_placement"] and row["rating"] else None

        row = wait_for("placement", placed, worker)
        assert row["ladder_matches"] >= 2 and not row["suspended"]
        versions = alice.get(f"/api/bots/{bot['id']}/versions/").json()
        assert versions[0]["status"] == "active"
        leaderboard = Client().get("/api/games/trnd/leaderboard/").json()["results"]
        mine = next(r for r in leaderboard if r["bot_id"] == bot["id"])
        assert mine["matches_played"] >= 2
        page = Client().get("/games/trnd/").content.decode()
        assert "steady" in page.split("<h2>Leaderboard</h2>")[1].split("</table>")[0]
        assert len(Client().get(f"/api/bots/{bot['id']}/rating-history/").json()) >= 2

        # A bot that crashes on its first line fails qualification; its stderr is its owner's.
        crasher = alice.post("/api/bots/", {"game": "trnd", "name": "crasher"}).json()
        upload(alice, crasher["id"], CRASH)
        url = f"/api/bots/{crasher['id']}/versions/"
        failed = wait_for(
            "a failed qualification",
            lambda: (v := alice.get(url).json()[0])["status"] == "failed" and v,
            worker,
        )
        assert "secret-trace: boom" in failed["failure_stderr"]
        seen_by_bob = bob.get(url).json()[0]
        assert seen_by_bob["status"] == "failed" and "failure_stderr" not in seen_by_bob
        assert "secret-trace" not in Client().get(f"/bots/{crasher['id']}/").content.decode()

        # K faults in a row suspend; a new version that qualifies lifts the suspension.
        shaky = alice.post("/api/bots/", {"game": "trnd", "name": "shaky"}).json()
        upload(alice, shaky["id"], flaky())
        ladder_url = f"/api/bots/{shaky['id']}/ladder/"

        def suspended() -> Any:
            resp = alice.get(ladder_url)
            return resp.status_code == 200 and resp.json()["suspended"] and resp.json()

        entry = wait_for("a suspension", suspended, worker, limit=240)
        assert "in a row" in entry["suspended_reason"]
        assert "suspended_reason" not in bob.get(ladder_url).json()
        upload(alice, shaky["id"], GOOD, "v2.py")
        wait_for(
            "the suspension lifted",
            lambda: not alice.get(ladder_url).json()["suspended"],
            worker,
        )

        # The challenge limit holds (counted in the database).
        first = bob.post(
            "/api/challenges/",
            {"bot": bot["id"], "opponents": [crasher["id"], shaky["id"]]},
            content_type="application/json",
        )
        assert first.status_code == 400  # not bob's bot
        bobs = bob.post("/api/bots/", {"game": "trnd", "name": "bobby"}).json()
        upload(bob, bobs["id"], GOOD + b"# bob\n")
        wait_for(
            "bob's bot active",
            lambda: bob.get(f"/api/bots/{bobs['id']}/versions/").json()[0]["status"] == "active",
            worker,
        )
        body = {"bot": bobs["id"], "opponents": [bot["id"], shaky["id"]]}
        ok = bob.post("/api/challenges/", body, content_type="application/json")
        assert ok.status_code == 201, ok.content
        again = bob.post("/api/challenges/", body, content_type="application/json")
        assert again.status_code == 400 and "challenges" in again.content.decode()
        challenge = ok.json()["match"]
        wait_for(
            "the challenge played",
            lambda: Match.objects.get(pk=challenge).status == "finished",
            worker,
        )
        assert not Match.objects.get(pk=challenge).rating_changes.exists()
