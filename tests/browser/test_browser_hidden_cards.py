"""Hidden cards on the play page are drawn as hidden: a person at a TRND table sees the other
hands as face-down stacks with their counts (and, face up, only the cards those seats publicly
took from the market), its own hand face up and marked "(you)", and the same picture on every
poll of one decision (nothing redrawn at random between polls). A real Celery worker plays the
bots (Redis, the same PostgreSQL database), as in ``test_browser_play.py``."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest

from tests.conftest import WorkerProcess

from .conftest import shoot
from .test_browser_play import _log_in, worker  # noqa: F401 (a fixture, used by name)

pytestmark = pytest.mark.redis


def _board_matches_the_observation(page: Any, observation: dict[str, Any]) -> None:
    """Seat 0 (the person) face up; every other hand: its known cards face up, the rest one
    face-down stack whose count is what the observation says is unknown."""
    board = page.locator("#play-board")
    me = board.locator('[data-seat="0"]')
    assert "(you)" in me.text_content()
    assert me.locator("[data-hidden]").count() == 0
    assert _cards(me) == set(observation["hand"])
    for seat in range(1, observation["players"]):
        if observation["cleared"][seat] is not None:
            continue
        known = observation["known_in_hands"][seat]
        hidden = observation["hand_sizes"][seat] - sum(known.values())
        panel = board.locator(f'[data-seat="{seat}"]')
        assert "(you)" not in panel.text_content()
        backs = panel.locator('[data-hidden="hand"]')
        if hidden:
            assert backs.count() == 1 and backs.get_attribute("data-count") == str(hidden)
            assert str(hidden) in backs.text_content()
        else:
            assert backs.count() == 0
        assert _cards(panel) == set(known)


def _cards(panel: Any) -> set[str]:
    """The card faces drawn in a seat's panel."""
    cards = panel.locator("[data-card]")
    return {cards.nth(i).get_attribute("data-card") for i in range(cards.count())}


def _polls_of(seen: list[dict[str, Any]], turn: int) -> list[str]:
    return [r["svg"] for r in seen if r and r["turn"] == turn]


def test_other_hands_are_counted_backs_and_the_picture_holds_across_polls(
    page: Any,
    worker: WorkerProcess,  # noqa: F811 (the fixture imported above)
) -> None:
    from bots.models import Bot

    seen: list[dict[str, Any]] = []

    def on_response(response: Any) -> None:
        if response.url.split("?")[0].endswith("/state.json"):
            # a poll cut short by the page's navigation has no picture
            with contextlib.suppress(Exception):
                seen.append(json.loads(response.text()).get("request"))

    page.on("response", on_response)
    _log_in(page, "hilde")
    greedy = Bot.objects.get(game__slug="trnd", name="greedy", is_builtin=True)
    random_v = Bot.objects.get(game__slug="trnd", name="random", is_builtin=True).latest_version()
    page.goto(f"/play/new/?bot={greedy.pk}")
    page.select_option("select[name=seat_2]", str(random_v.pk))
    page.get_by_text("Game options").click()
    page.fill("#option_max_rounds", "2")  # the person's next turn comes in any case
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/0/")
    page.locator("#play-actions button.play-action").first.wait_for()
    observation = json.loads(page.locator("#play-obs").text_content())
    _board_matches_the_observation(page, observation)
    shoot(page, "play-trnd-hidden-cards")
    assert "face down" in page.locator("#play-note").inner_text()

    # The page polls while the person thinks: every answer carries the very same picture.
    asked = next(r["turn"] for r in seen if r)
    deadline = time.monotonic() + 60
    while len(_polls_of(seen, asked)) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    polls = _polls_of(seen, asked)
    assert len(polls) >= 3 and len(set(polls)) == 1
    assert 'data-hidden="hand"' in polls[0]

    # Take a market card and discard (the board's own targets), then, at the next decision,
    # the bots' hands: what they took from the market is known, the rest still counted backs.
    page.locator("#play-board [data-slot].play-target").first.click()
    hand = page.locator('#play-board [data-seat="0"] .play-target')
    hand.first.wait_for()
    hand.first.click()
    if "Choose one of these" in page.locator("#play-status").inner_text():
        page.locator("#play-actions button.play-action:visible").first.click()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        shown = json.loads(page.locator("#play-obs").text_content() or "{}")
        if shown.get("turn") != observation["turn"] and shown.get("phase") == "choose_action":
            break
        page.wait_for_timeout(250)
    else:
        raise AssertionError(f"no next decision: {worker.stderr_tail()}")
    _board_matches_the_observation(page, shown)
    page.locator("#play-resign").click()
