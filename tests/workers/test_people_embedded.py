"""People's matches in the embedded default (no service: SQLite, the filesystem broker): the
workers ``manage.py demo --serve`` and ``serve`` start (foundation/workers.py) play a bot match
while a person's game waits for its person, each on its own worker."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, platform_env

pytestmark = pytest.mark.slow


#: Run under the embedded default (no service: SQLite, the filesystem broker): the workers
#: ``manage.py demo --serve`` and ``serve`` start, a person's game waiting for its person, and a
#: bot match beside it.
EMBEDDED = """
import json, time
import django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from matches.models import Match
from matches.services import create_match, dispatch_match
from foundation.workers import background_workers
from play import channel
from play.services import start_match

game = {g.slug: g for g in sync_games()}["tri-area"]
bots = [b.latest_version() for b in ensure_builtin_bots(game)][:2]
user = get_user_model().objects.create_user("pat", password="pw-pat-123")

def wait(done, timeout):
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.2)
    return True

def status(pk):
    return Match.objects.values_list("status", "worker").get(pk=pk)

out = {}
with background_workers():
    person = start_match(user=user, game=game, seats=[None, bots[0]])
    asked = lambda: channel.play_cache().get(channel.key(person.pk, 0, "req")) is not None
    out["asked"] = wait(asked, 120)
    bot = dispatch_match(create_match(game=game, versions=bots, seed=5))
    out["played"] = wait(lambda: status(bot.pk)[0] in ("finished", "error"), 120)
    out["person"], out["bot"] = status(person.pk), status(bot.pk)
    channel.play_cache().set(channel.key(person.pk, 0, "resign"), True, 60)
    out["resigned"] = wait(lambda: status(person.pk)[0] == "finished", 60)
print("RESULT " + json.dumps(out))
"""


def test_the_embedded_default_plays_bots_while_a_person_thinks(tmp_path: Path) -> None:
    env = platform_env(
        DJANGO_SETTINGS_MODULE="meeple.settings",
        ARENA_DATA_DIR=str(tmp_path),
        ARENA_SANDBOX="process",
    )
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL"):
        env.pop(key, None)
    run = subprocess.run(
        [sys.executable, "-c", EMBEDDED],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=400,
    )
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, f"{run.stdout[-2000:]}{run.stderr[-3000:]}{_log(tmp_path)}"
    out = json.loads(lines[-1].removeprefix("RESULT "))
    assert out["asked"] and out["played"], (out, _log(tmp_path))
    assert out["person"][0] == "running" and out["person"][1].startswith("embedded-people-")
    assert out["bot"][0] == "finished" and out["bot"][1].startswith("embedded-")
    assert not out["bot"][1].startswith("embedded-people-")
    assert out["resigned"]  # the person's game goes on to its end on its own worker


def _log(data_dir: Path) -> str:
    log = data_dir / "worker.log"
    return log.read_text(errors="replace")[-3000:] if log.exists() else ""
