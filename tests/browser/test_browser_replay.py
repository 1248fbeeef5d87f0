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
from arena.viewer.markup import SPEEDS

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


def shows_step(page: Any, match: Match, n: int, *, paused: bool = False) -> None:
    """Wait until the viewer shows step ``n``: counter, slider, state picture, decision.
    ``paused``: playing stopped at step ``n``, on either of its pictures (a step that ends a
    round is played as two frames: the round's end, then the next deal)."""
    want = replay_steps.step(match.replay, n)
    pictures = [want["state_text"]]
    if paused and want.get("round_end"):
        pictures.append(want["round_end"]["state_text"])
    page.wait_for_function(
        "([sel, texts]) => texts.includes(document.querySelector(sel).textContent)",
        arg=[STATE, pictures],
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
    # The slowest speed: on a busy machine this test may look late, and the viewer must not
    # have played to the end (and stopped by itself) before it is paused.
    page.locator('#replay [data-field="speed"]').select_option(str(max(SPEEDS)[0]))
    play = page.locator('#replay [data-go="play"]')
    play.click()
    assert play.inner_text() == "Pause"
    # It moves on by itself (at least two steps: not only the first tick).
    page.wait_for_function(
        "Number(document.querySelector('#replay [data-field=\"step\"]').textContent) >= 2"
    )
    play.click()
    assert play.inner_text() == "Play"
    stopped = int(field(page, "step"))
    assert 2 <= stopped < len(match.replay["decisions"])
    # Paused, at the fastest speed, for longer than many ticks: nothing moves.
    page.locator('#replay [data-field="speed"]').select_option(str(min(SPEEDS)[0]))
    page.wait_for_timeout(10 * min(SPEEDS)[0] + 500)
    assert int(field(page, "step")) == stopped
    shows_step(page, match, stopped, paused=True)


def test_fast_clicks_end_on_the_last_step_asked_for(page: Any, match: Match) -> None:
    # Answers may arrive out of order; the viewer must show the newest request's step.
    page.goto(f"/matches/{match.pk}/")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    shows_step(page, match, 5)
