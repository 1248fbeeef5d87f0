"""A person at the table, by clicking: whole games against built-in bots played by a real Celery
worker process (Redis broker, the same PostgreSQL database), the finished match's replay checked
by `arena replay verify`; leaving the page forfeits; a second tab and another user are refused.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from matches.models import Match, MatchStatus

from tests.conftest import REPO, WorkerProcess, celery_on, missing_service

from .conftest import shoot

pytestmark = [pytest.mark.worker, pytest.mark.redis]
PASSWORD = "Tr1cky-meeple-pw"
LEAVE_S = 6


def _database_url() -> str:
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"] != "django.db.backends.postgresql":
        missing_service("this test needs DATABASE_URL to name a PostgreSQL server")
    return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST']}:{s['PORT']}/{s['NAME']}"


@pytest.fixture
def worker(
    request: pytest.FixtureRequest,
    transactional_db: None,
    settings: Any,
    tmp_path: Path,
    redis_url: str,
) -> Any:
    """A worker process on Redis and this test's database; both processes share the play
    cache (the file cache in the same DATA_DIR)."""
    from play import channel

    settings.DATA_DIR = tmp_path
    channel._file_cache.cache_clear()
    request.node.worker_env = {
        "DATABASE_URL": _database_url(),
        "ARENA_SANDBOX": "process",
        "ARENA_DATA_DIR": str(tmp_path),
        "ARENA_HUMAN_LEAVE_S": str(LEAVE_S),
    }
    settings.ARENA_HUMAN_LEAVE_S = LEAVE_S
    request.node.worker_args = ["-Q", settings.PEOPLE_QUEUE]  # people's matches' own queue
    for game in sync_games():
        ensure_builtin_bots(game)
    proc: WorkerProcess = request.getfixturevalue("celery_worker_process")
    with celery_on(redis_url):
        yield proc
    channel._file_cache.cache_clear()


def _log_in(page: Any, username: str) -> None:
    get_user_model().objects.create_user(username, password=PASSWORD)
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def _match_id(page: Any) -> tuple[int, int]:
    parts = page.url.rstrip("/").split("/")
    return int(parts[-2]), int(parts[-1])


def _click_to_the_end(
    page: Any, worker: WorkerProcess, pick: str = "first", until: Any = None
) -> int:
    """Click a legal action whenever one is offered, until the page says the game is over
    (or, with ``until``, until it returns true: the game must not end first)."""
    clicks = 0
    # A bound on a whole game, not a speed goal: generous for a loaded CI machine.
    deadline = time.monotonic() + 480
    status = page.locator("#play-status")
    while time.monotonic() < deadline:
        over = "The game is over" in status.inner_text()
        if until is not None:
            assert not over, "the game ended before the awaited decision"
            if until():
                return clicks
        elif over:
            return clicks
        buttons = page.locator("#play-actions button.play-action:enabled")
        if page.locator("#play-choices").is_visible() and buttons.count():
            target = buttons.first if pick == "first" else buttons.last
            try:
                target.click(timeout=2000)
                clicks += 1
            except Exception:  # the choices were replaced by the next poll: look again
                pass
        else:
            page.wait_for_timeout(100)
    # How far it got tells a slow game from a stuck one.
    row = Match.objects.filter(pk=_match_id(page)[0]).values("status", "error").first()
    raise AssertionError(
        f"the game did not end after {clicks} clicks; match {row}; the page says "
        f"{status.inner_text()!r}; the worker: {worker.stderr_tail()}"
    )


def _verify(match: Match, tmp_path: Path) -> None:
    file = tmp_path / f"match-{match.pk}.json"
    file.write_text(json.dumps(match.replay))
    done = subprocess.run(
        [sys.executable, "-m", "arena", "replay", "verify", str(file)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _finished(match_id: int, worker: WorkerProcess) -> Match:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if match.is_done:
            return match
        time.sleep(0.2)
    raise AssertionError(f"match {match_id} not recorded: {worker.stderr_tail()}")


def test_a_whole_solo_trishaw_frenzy_game_by_clicking(
    page: Any, worker: WorkerProcess, tmp_path: Path
) -> None:
    _log_in(page, "dora")
    page.goto("/games/trishaw-frenzy/")
    page.get_by_role("link", name="Play Trishaw Frenzy against bots").click()
    page.wait_for_url("**/play/new/?game=trishaw-frenzy")
    page.select_option("select[name=seat_1]", "")  # solo: you against the AI trishaw
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/0/")
    match_id, _ = _match_id(page)
    page.locator("#play-actions button.play-action").first.wait_for()
    assert page.locator("#play-board svg").count() == 1
    assert '"solo": true' in page.locator("#play-obs").text_content()
    shoot(page, "play-trishaw")
    assert not page.locator("#play-board-hint").is_visible()  # a roll: nothing on the board
    # Play by buttons until an event asks to rotate a tile, then click a tile on the board:
    # its three rotations stay as buttons, "show every choice" brings the others back.
    tiles = page.locator("#play-board [data-tile].play-target")
    clicks = _click_to_the_end(
        page, worker, until=lambda: page.locator("#play-choices").is_visible() and tiles.count()
    )
    every = page.locator("#play-actions button.play-action").count()
    # The hint is drawn with the choices, in the same update but not the same instant: wait.
    page.locator("#play-board-hint").wait_for(state="visible", timeout=15_000)
    # a label drawn over a tile (a number, a rider's mark) lets the click through to it
    events = "getComputedStyle(document.querySelector('#play-board svg text')).pointerEvents"
    assert page.evaluate(events) == "none"
    tiles.first.click()
    shoot(page, "play-trishaw-tile")
    shown = page.locator("#play-actions button.play-action:visible")
    assert shown.count() == 3 < every and "rotate" in shown.first.inner_text()
    page.locator("#play-actions button.play-all").click()
    assert shown.count() == every
    tiles.first.click()
    shown.first.click()
    clicks += 1
    clicks += _click_to_the_end(page, worker)
    assert "you finished 1st" in page.locator("#play-status").inner_text()
    match = _finished(match_id, worker)
    assert match.status == MatchStatus.FINISHED and not match.rated
    seat = match.seats.get(seat=0)
    assert seat.status == "ok"
    assert len([d for d in match.replay["decisions"] if d["seat"] == 0]) == clicks
    _verify(match, tmp_path)
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/matches/{match_id}/")


def test_a_whole_trnd_game_against_two_builtins_by_clicking(
    page: Any, worker: WorkerProcess, tmp_path: Path
) -> None:
    from bots.models import Bot

    _log_in(page, "emil")
    greedy = Bot.objects.get(game__slug="trnd", name="greedy", is_builtin=True)
    page.goto(f"/bots/{greedy.pk}/")
    page.get_by_role("link", name="Play against this bot").click()
    page.wait_for_url(f"**/play/new/?bot={greedy.pk}")
    # you, the greedy bot whose page this came from, and a random built-in
    random_v = Bot.objects.get(game__slug="trnd", name="random", is_builtin=True).latest_version()
    page.select_option("select[name=seat_2]", str(random_v.pk))
    # a short game (at most two rounds) through the game's own options on the same form
    page.get_by_text("Game options").click()  # a closed <details> until opened
    page.fill("#option_max_rounds", "2")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/0/")
    match_id, _ = _match_id(page)
    page.locator("#play-actions button.play-action").first.wait_for()
    assert page.locator("#play-actions button.play-action").first.inner_text() == "draw"
    # On the board: a market slot takes its card (a draw would end the turn)...
    assert page.locator('#play-board [data-zone="draw"].play-target').count() == 1
    page.locator("#play-board [data-slot].play-target").first.click()
    # ... and the discard that follows, on the board too: a card type of your hand; when it
    # can go as one or more cards, only those choices stay as buttons.
    hand = page.locator('#play-board [data-seat="0"] .play-target')
    hand.first.wait_for()
    every = page.locator("#play-actions button.play-action").count()
    hand.first.click()
    shown = page.locator("#play-actions button.play-action:visible")
    if "Choose one of these" in page.locator("#play-status").inner_text():
        assert 0 < shown.count() < every
        assert page.locator("#play-actions button.play-all").is_visible()
        shown.first.click()
    clicks = 2 + _click_to_the_end(page, worker, pick="last")
    match = _finished(match_id, worker)
    assert match.status == MatchStatus.FINISHED, match.error
    assert match.options["max_rounds"] == 2
    assert [s.bot_version.bot.name for s in match.seats.order_by("seat")] == [
        "human",
        "greedy",
        "random",
    ]
    assert match.seats.get(seat=0).status == "ok" and clicks > 5
    mine = [d["action"] for d in match.replay["decisions"] if d["seat"] == 0]
    assert mine[0]["type"] == "take" and mine[1]["type"] == "discard"
    _verify(match, tmp_path)
    page.goto("/play/")
    assert f"#{match_id}" in page.locator("main").inner_text()


def test_second_tab_other_user_and_leaving(
    browser: Any, page: Any, worker: WorkerProcess, live_server: Any, tmp_path: Path
) -> None:
    _log_in(page, "fay")
    page.goto("/play/new/?game=tri-area")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/0/")
    match_id, _ = _match_id(page)
    page.locator("#play-actions button.play-action").first.wait_for()

    # a second tab of the same user: refused, and it cannot act
    second = page.context.new_page()
    second.goto(page.url)
    refused = second.locator("#play-refused")
    refused.wait_for()
    assert "another tab" in refused.inner_text()
    assert second.locator("#play-actions button").count() == 0
    second.close()

    # another user: refused
    other = browser.new_context(base_url=live_server.url)
    stranger = other.new_page()
    _log_in(stranger, "gus")
    response = stranger.goto(f"/play/{match_id}/0/")
    assert response.status == 403 and "another player's" in stranger.inner_text("main")
    other.close()

    # the player leaves: after the leave timeout the seat forfeits, the match still finishes
    page.goto("/")
    match = _finished(match_id, worker)
    assert match.status == MatchStatus.FINISHED
    seat = match.seats.get(seat=0)
    assert seat.status == "timeout" and "left the page" in seat.faults[0]["detail"]
    _verify(match, tmp_path)
