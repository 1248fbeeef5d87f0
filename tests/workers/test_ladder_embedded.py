"""The embedded default, over HTTP: ``manage.py demo --serve`` on a free port with no service
configured (SQLite, the filesystem broker, the worker and beat the demo starts). A user signs
up and uploads a bot while it runs; with no other action the bot qualifies, plays its
placement matches and shows up rated on the ladder."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.conftest import REPO, descendants, free_port, platform_env

pytestmark = pytest.mark.slow

BOT = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""


@pytest.fixture
def demo_site(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    port = free_port()
    env = platform_env(
        ARENA_DATA_DIR=str(tmp_path),
        ARENA_SANDBOX="process",
        # The operator of this local site allows strangers' bots in the process sandbox.
        ARENA_ALLOW_UNSAFE_SANDBOX="true",
        ARENA_LADDER_TICK_SECONDS="1",
        ARENA_LADDER_PLACEMENT="2",
    )
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"):
        env.pop(key, None)
    log = tmp_path / "demo.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "demo",
                "--games",
                "trnd",
                "--matches",
                "2",
                "--no-program-bot",
                "--serve",
                f"127.0.0.1:{port}",
            ],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield f"http://127.0.0.1:{port}", log
    finally:
        family = descendants(proc.pid) | {proc.pid}
        proc.send_signal(signal.SIGINT)  # Ctrl-C: the demo stops its worker too
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        for pid in family - {proc.pid}:  # whatever did not stop with it
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def wait_for(what: str, check: Any, log: Path, limit: float) -> Any:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            value = check()
        except requests.RequestException:
            value = None
        if value:
            return value
        time.sleep(1)
    raise AssertionError(f"timed out waiting for {what}; demo log:\n{log.read_text()[-3000:]}")


def test_demo_serve_qualifies_and_places_an_upload(demo_site: tuple[str, Path]) -> None:
    base, log = demo_site
    wait_for("the site", lambda: requests.get(f"{base}/healthz", timeout=5).ok, log, 300)

    web = requests.Session()
    web.get(f"{base}/accounts/signup/", timeout=10)
    password = "pw-carol-Zx81!"
    resp = web.post(
        f"{base}/accounts/signup/",
        data={
            "username": "carol",
            "password1": password,
            "password2": password,
            "csrfmiddlewaretoken": web.cookies["csrftoken"],
        },
        headers={"Referer": f"{base}/accounts/signup/"},
        timeout=10,
    )
    assert resp.ok, resp.text[:500]
    token = requests.post(
        f"{base}/api/auth/token/", data={"username": "carol", "password": password}, timeout=10
    ).json()["token"]
    api = requests.Session()
    api.headers["Authorization"] = f"Token {token}"
    bot = api.post(f"{base}/api/bots/", data={"game": "trnd", "name": "carols"}, timeout=10)
    assert bot.status_code == 201, bot.text
    bot_id = bot.json()["id"]
    up = api.post(
        f"{base}/api/bots/{bot_id}/versions/", files={"code": ("main.py", BOT)}, timeout=30
    )
    assert up.status_code == 201, up.text

    def placed() -> Any:
        board = requests.get(f"{base}/api/games/trnd/ladder/", timeout=10).json()
        row = next((e for e in board["entries"] if e["bot"] == bot_id), None)
        return row if row and not row["in_placement"] and row["rating"] else None

    row = wait_for("qualification and placement", placed, log, 240)
    assert row["ladder_matches"] >= 2
    versions = api.get(f"{base}/api/bots/{bot_id}/versions/", timeout=10).json()
    assert versions[0]["status"] == "active"
    assert "carols" in requests.get(f"{base}/games/trnd/", timeout=10).text
    # Played by the worker the demo started (its Celery node name), none inside a request.
    with contextlib.closing(sqlite3.connect(log.parent / "arena.sqlite3")) as db:
        workers = {
            w for (w,) in db.execute("SELECT worker FROM matches_match WHERE status = 'finished'")
        }
    assert workers and all(w.startswith("embedded-") for w in workers), workers
