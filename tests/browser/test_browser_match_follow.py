"""A queued match's page, open while the match is played, follows it without a reload:
"Queued", then "Running" while a worker holds it, then the result and a working replay
viewer; under the site's Content-Security-Policy, with the scripts as served."""

from __future__ import annotations

from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from matches import playing
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match
from playwright.sync_api import expect

from arena.viewer import steps as replay_steps

from .conftest import shoot

STATE = '#replay [data-field="state"]'


@pytest.fixture
def queued(transactional_db: None) -> Match:
    game = next(g for g in sync_games() if g.slug == "tri-area")
    versions = [b.latest_version() for b in ensure_builtin_bots(game)]
    return create_match(game=game, versions=versions, seed=4)


def test_a_queued_match_page_shows_the_result_and_the_viewer_without_a_reload(
    csp_page: Any, queued: Match, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = csp_page
    page.goto(f"/matches/{queued.pk}/")
    live = page.locator("#match-live")
    badge = live.locator("h1 .badge").first
    expect(badge).to_have_text("Queued")
    expect(live).to_contain_text("This match is queued: its result and replay appear here")
    expect(page.locator("#replay")).to_have_count(0)
    # Any navigation would drop this marker: the page must update in place.
    page.evaluate("window.__notReloaded = true")

    # The worker (inline here) claims the match; while it holds it, the open page says so.
    claim = playing.claim_when_reachable
    looked: list[str] = []

    def claim_then_look(*args: Any, **kwargs: Any) -> Match | None:
        claimed = claim(*args, **kwargs)
        expect(badge).to_have_text("Running")
        looked.append(live.inner_text())
        return claimed

    monkeypatch.setattr(playing, "claim_when_reachable", claim_then_look)
    played = dispatch_match(queued)
    assert played.status == MatchStatus.FINISHED
    assert looked and "This match is running:" in looked[0]

    expect(badge).to_have_text("Finished")
    winner = played.seats.get(rank=1)
    expect(live.locator(f'table.seats tr[data-seat="{winner.seat}"]')).to_have_class("winner")
    expect(live).to_contain_text(played.result["reason"])
    # The viewer is there and works: step 0, then Next shows step 1.
    replay = played.replay
    expect(page.locator(STATE)).to_have_text(replay_steps.step(replay, 0)["state_text"])
    page.get_by_role("button", name="Next").click()
    expect(page.locator(STATE)).to_have_text(replay_steps.step(replay, 1)["state_text"])
    expect(page.locator('#replay [data-field="step"]')).to_have_text("1")
    assert page.evaluate("window.__notReloaded") is True
    shoot(page, "match-followed")
