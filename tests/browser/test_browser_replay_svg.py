"""The replay viewer's SVG picture in a real browser: it shows step 0's board, follows the
steps, and the text picture stays in the page (in a closed "as text" box)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match

from arena.viewer import steps as replay_steps

from .conftest import shoot

PICTURE = '#replay [data-field="svg"] svg'


@pytest.fixture
def match(transactional_db: None) -> Match:
    game = next(g for g in sync_games() if g.slug == "trishaw-frenzy")
    versions = [b.latest_version() for b in ensure_builtin_bots(game)]
    played = dispatch_match(create_match(game=game, versions=versions, seed=3))
    assert played.status == MatchStatus.FINISHED and len(played.replay["decisions"]) > 6
    return played


def picture_text(match: Match, n: int) -> str:
    """All the text of step ``n``'s SVG as the browser's ``textContent`` reads it."""
    svg = replay_steps.step(match.replay, n)["svg"]
    return "".join(ET.fromstring(svg).itertext())


def shows_picture(page: Any, match: Match, n: int) -> None:
    page.wait_for_function(
        "([sel, text]) => { const s = document.querySelector(sel); "
        "return !!s && s.textContent === text; }",
        arg=[PICTURE, picture_text(match, n)],
    )


def test_the_svg_picture_follows_the_steps(page: Any, match: Match) -> None:
    total = len(match.replay["decisions"])
    page.goto(f"/matches/{match.pk}/")
    shows_picture(page, match, 0)
    # Measured in one call inside the page: no element handle that a redraw could detach.
    width = page.eval_on_selector(PICTURE, "s => s.getBoundingClientRect().width")
    assert width > 500, "the picture fills the main column"
    # The text picture is still in the page, folded away.
    assert page.locator('#replay [data-field="state"]').count() == 1
    assert not page.locator('#replay [data-field="state"]').is_visible()

    page.get_by_role("button", name="Next").click()
    shows_picture(page, match, 1)
    page.keyboard.press("End")
    shows_picture(page, match, total)
    assert "Game over" in page.locator(PICTURE).text_content()
    shoot(page, "replay-svg")

    page.get_by_text("The position as text").click()
    assert page.locator('#replay [data-field="state"]').is_visible()
