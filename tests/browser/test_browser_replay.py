"""The replay viewer's JavaScript: Next/Prev, first/last, the slider and the arrow keys move
through the decisions, and the state picture and the decision panel follow."""

from __future__ import annotations

from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match

from arena.viewer import steps as replay_steps

from .conftest import shoot

STATE = '#replay [data-field="state"]'


@pytest.fixture
def match(transactional_db: None) -> Match:
    game = next(g for g in sync_games() if g.slug == "tri-area")
    versions = [b.latest_version() for b in ensure_builtin_bots(game)]
    played = dispatch_match(create_match(game=game, versions=versions, seed=4))
    assert played.status == MatchStatus.FINISHED and len(played.replay["decisions"]) > 6
    return played


def field(page: Any, name: str) -> str:
    return page.locator(f'#replay [data-field="{name}"]').inner_text()


def shows_step(page: Any, match: Match, n: int) -> None:
    """Wait until the viewer shows step ``n``: counter, slider, state picture, decision."""
    want = replay_steps.step(match.replay, n)
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).textContent === text",
        arg=[STATE, want["state_text"]],
    )
    assert field(page, "step") == str(n)
    assert page.locator("#replay input[type=range]").input_value() == str(n)
    decision = want["decision"]
    if decision is None:
        assert field(page, "turn") == "before the first decision"
        assert page.locator('#replay [data-field="events"] li').count() == 0
        return
    assert field(page, "turn") == f"#{decision['turn']}"
    seat = match.seats.get(seat=decision["seat"])
    assert seat.bot_version.bot.name in field(page, "seat")
    assert page.locator('#replay [data-field="events"] li').count() == len(decision["events"])


def test_buttons_slider_and_arrow_keys_step_through_the_replay(page: Any, match: Match) -> None:
    total = len(match.replay["decisions"])
    page.goto(f"/matches/{match.pk}/")
    shows_step(page, match, 0)
    first_picture = page.locator(STATE).text_content()

    page.get_by_role("button", name="Next").click()
    shows_step(page, match, 1)
    page.get_by_role("button", name="Next").click()
    shows_step(page, match, 2)
    assert page.locator(STATE).text_content() != first_picture
    page.get_by_role("button", name="Prev").click()
    shows_step(page, match, 1)

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shows_step(page, match, 3)
    page.keyboard.press("ArrowLeft")
    shows_step(page, match, 2)

    slider = page.locator("#replay input[type=range]")
    slider.fill(str(total // 2))
    shows_step(page, match, total // 2)
    # Arrow keys keep working while the slider has the focus, one step per press.
    slider.focus()
    page.keyboard.press("ArrowRight")
    shows_step(page, match, total // 2 + 1)
    shoot(page, "replay")

    # The ends: the buttons that cannot move are disabled, the keys stop there.
    page.locator('#replay [data-go="last"]').click()
    shows_step(page, match, total)
    assert page.get_by_role("button", name="Next").is_disabled()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(200)
    shows_step(page, match, total)
    page.keyboard.press("Home")
    shows_step(page, match, 0)
    assert page.get_by_role("button", name="Prev").is_disabled()
    page.keyboard.press("ArrowLeft")
    page.wait_for_timeout(200)
    shows_step(page, match, 0)
    page.keyboard.press("End")
    shows_step(page, match, total)
    page.locator('#replay [data-go="first"]').click()
    shows_step(page, match, 0)


def test_play_steps_on_its_own_until_paused(page: Any, match: Match) -> None:
    page.goto(f"/matches/{match.pk}/")
    play = page.locator('#replay [data-go="play"]')
    play.click()
    assert play.inner_text() == "Pause"
    page.wait_for_function(
        "document.querySelector('#replay [data-field=\"step\"]').textContent === '2'"
    )
    play.click()
    assert play.inner_text() == "Play"
    stopped = int(field(page, "step"))
    page.wait_for_timeout(700)  # longer than one autoplay tick
    assert int(field(page, "step")) == stopped
    shows_step(page, match, stopped)


def test_fast_clicks_end_on_the_last_step_asked_for(page: Any, match: Match) -> None:
    # Answers may arrive out of order; the viewer must show the newest request's step.
    page.goto(f"/matches/{match.pk}/")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    shows_step(page, match, 5)
