"""The bot author's loop, end to end on the production path (docs/cli.md, "The author's loop").

The test process serves the site over HTTP (pytest-django's live server on PostgreSQL); a real
Celery worker and beat on Redis qualify uploads and run the ladder. Only the command line talks
to the site: log in, submit a bot, wait for a ladder match, fetch its replay (with the author's
own logs), look at one decision (``replay why``), view the replay as an offline HTML file in a
real browser with the network cut, re-run the bot's seat from that decision with a changed bot
(which plays differently from there on), and submit the fix.
"""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from arena.cli import EXIT_OK, main
from arena.replay import load_replay, verify_replay
from tests.conftest import WorkerProcess, celery_on
from tests.workers.test_ladder_worker import beat, site, wait_for, worker  # noqa: F401

from .conftest import TIMEOUT_MS

pytestmark = [pytest.mark.worker, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-ada-Zx81!"

#: Logs every decision on stderr, then takes the first legal action.
FIRST = b"""import json, sys
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready", "name": "loop"}), flush=True)
    elif msg["type"] == "act":
        n = len(msg["legal_actions"])
        print(f"turn {msg['turn']}: {n} choices, taking the first", file=sys.stderr, flush=True)
        print(json.dumps({"action_index": 0, "turn": msg["turn"]}), flush=True)
    else:
        break
"""
#: The fix: the last legal action instead of the first.
LAST = FIRST.replace(b"taking the first", b"taking the last").replace(
    b'"action_index": 0', b'"action_index": n - 1'
)


def arena(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_lose_find_reproduce_fix_submit(
    redis_url: str,
    worker: WorkerProcess,  # noqa: F811
    beat: subprocess.Popen,  # noqa: F811
    live_server: Any,
    browser: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    from bots.services import ensure_builtin_bots
    from catalog.models import Game

    ensure_builtin_bots(Game.objects.get(slug="trnd"))
    get_user_model().objects.create_user("ada", password=PASSWORD)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for key in ("ARENA_URL", "ARENA_TOKEN"):
        monkeypatch.delenv(key, raising=False)
    (tmp_path / "v1").mkdir()
    (tmp_path / "v1" / "main.py").write_bytes(FIRST)
    fix = tmp_path / "fix.py"
    fix.write_bytes(LAST)

    with celery_on(redis_url):
        # 1. log in and submit: the command waits for the worker's qualification
        monkeypatch.setattr("sys.stdin", io.StringIO(PASSWORD + "\n"))
        code, _, err = arena(capsys, "login", live_server.url, "-u", "ada", "--password-stdin")
        assert code == EXIT_OK, err
        code, out, err = arena(
            capsys, "submit", "loop", str(tmp_path / "v1"), "--game", "trnd", "--json"
        )
        assert code == EXIT_OK, err
        assert json.loads(out)["status"] == "active"

        # 2. the ladder plays it (beat and the worker, nothing by hand); list its matches
        def ladder_matches() -> list[dict[str, Any]]:
            code, out, _ = arena(capsys, "matches", "--bot", "loop", "--json")
            return json.loads(out) if code == EXIT_OK else []

        row = wait_for("a ladder match of the new bot", ladder_matches, worker)[0]
        assert row["kind"] == "ladder" and row["bot"] == "loop"

        # 3. fetch its replay: the author's own seat's logs, nobody else's
        saved = tmp_path / "match.json"
        code, _, err = arena(capsys, "replay", "fetch", str(row["match_id"]), "-o", str(saved))
        assert code == EXIT_OK, err
    doc = load_replay(saved)
    assert verify_replay(doc) == []
    seat = row["seat"]
    assert all(text == "" for i, text in enumerate(doc["logs"]) if i != seat)
    assert all(marks == [] for i, marks in enumerate(doc["log_marks"]) if i != seat)

    # 4. a decision of the bot's with a real choice, and what it was told and answered there
    def choices(turn: int) -> int:
        line = next(
            doc["logs"][seat][start:end] for t, start, end in doc["log_marks"][seat] if t == turn
        )
        return int(line.split(": ")[1].split()[0])

    step = next(t for t, _, _ in doc["log_marks"][seat] if choices(t) > 1)
    assert doc["decisions"][step]["seat"] == seat and doc["decisions"][step]["index"] == 0
    code, out, err = arena(
        capsys, "replay", "why", str(saved), "--at", str(step), "--seat", str(seat), "--json"
    )
    assert code == EXIT_OK, err
    why = json.loads(out)
    assert why["answer"]["index"] == 0
    assert why["logs"] == f"turn {step}: {choices(step)} choices, taking the first\n"

    # 5. the replay as one HTML file, in a browser with no network, at that decision
    page_file = tmp_path / "match.html"
    code, _, err = arena(capsys, "replay", "view", str(saved), "-o", str(page_file))
    assert code == EXIT_OK, err
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    asked: list[str] = []

    def refuse(route: Any) -> None:
        if route.request.is_navigation_request() and route.request.url.startswith("file:"):
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    context.route("**/*", refuse)
    try:
        tab = context.new_page()
        tab.goto(f"{page_file.resolve().as_uri()}#step={step + 1}")
        expect(tab.locator('#replay [data-field="step"]')).to_have_text(str(step + 1))
        expect(tab.locator('#replay [data-field="log-lines"]')).to_have_text(
            f"turn {step}: {choices(step)} choices, taking the first"
        )
    finally:
        context.close()
    assert asked == []

    # 6. the fix, re-run from that decision locally: the record up to it, a new choice at it
    rerun = tmp_path / "rerun.json"
    code, out, err = arena(
        capsys,
        "play",
        "--from-replay",
        str(saved),
        "--at",
        str(step),
        "--seat",
        str(seat),
        str(fix),
        "--sandbox",
        "process",
        "--replay",
        str(rerun),
    )
    assert code == EXIT_OK, err
    new = load_replay(rerun)
    assert new["decisions"][:step] == doc["decisions"][:step]
    assert new["decisions"][step]["seat"] == seat
    assert new["decisions"][step]["index"] == choices(step) - 1
    assert f"seat {seat} first chose differently at decision {step}" in out
    assert verify_replay(new) == []

    # 7. and submitted: the fixed version qualifies too
    with celery_on(redis_url):
        code, out, err = arena(capsys, "submit", "loop", str(fix), "--json")
        assert code == EXIT_OK, err
        assert json.loads(out)["number"] == 2
