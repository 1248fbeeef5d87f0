"""The site's replay viewer and a bot's log (issue 21, items 1 and 5): its owner, signed in,
sees its lines for the step on screen (fetched once from ``logs.json``), with the decision's
time and fault; the decisions worth a look link to their steps; ``#step=N&seat=K`` opens the
viewer there. Another user and anonymous visitors get no logs panel and no request for one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from catalog.services import sync_games
from django.contrib.auth import get_user_model
from matches.models import Match, MatchSeat
from playwright.sync_api import expect

from arena.viewer import steps
from tests.viewer_replays import FAULT_AT, SLOW_AT, decision_steps, played_on_site

from .conftest import shoot

PASSWORD = "pw-for-the-viewer-123"


@pytest.fixture
def match(transactional_db: None, settings: Any) -> Match:
    settings.ARENA_SANDBOX = "process"
    settings.ARENA_ALLOW_UNSAFE_SANDBOX = True
    make = get_user_model().objects.create_user
    alice = make("alice", password=PASSWORD)
    make("bob", password=PASSWORD)
    game = next(g for g in sync_games() if g.slug == "tri-area")
    return played_on_site(alice, game)


def log_in(page: Any, username: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def field(page: Any, name: str) -> Any:
    return page.locator(f'#replay [data-field="{name}"]')


def shows_step(page: Any, match: Match, n: int, seat: int | None = None) -> None:
    """Step ``n`` on screen, its picture drawn for ``seat`` when the viewer shows one."""
    expect(field(page, "step")).to_have_text(str(n))
    expect(field(page, "state")).to_have_text(steps.step(match.replay, n, seat)["state_text"])


def stored_lines(match: Match, turn: int) -> str:
    seat = MatchSeat.objects.get(match=match, seat=0)
    found = [seat.stderr[a:b] for t, a, b in seat.stderr_marks if t == turn]
    assert found, f"no stored mark for turn {turn}"
    return found[0]


def test_the_owner_sees_its_bots_lines_per_step(page: Any, match: Match) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/logs.json") else None)
    log_in(page, "alice")
    faulted = decision_steps(match.replay, 0)[FAULT_AT - 1]
    turn = match.replay["decisions"][faulted - 1]["turn"]
    page.goto(f"/matches/{match.pk}/#step={faulted}")  # a deep link
    shows_step(page, match, faulted)
    expect(field(page, "logs")).to_be_visible()
    expect(field(page, "log-title")).to_have_text(f"Seat 0 · chatty, decision #{turn}")
    expect(field(page, "log-lines")).to_have_text(stored_lines(match, turn))
    detail = match.seats.get(seat=0).faults[0]["detail"]
    expect(field(page, "log-fault")).to_have_text(f"illegal_action: {detail} (default played)")
    expect(field(page, "log-ms")).to_have_text(re.compile(r"^[\d.]+ ms$"))
    shoot(page, "site-logs")

    # a decision worth a look: the slowest, linked to its step
    slow = decision_steps(match.replay, 0)[SLOW_AT - 1]
    page.locator(f'[data-notable-seat="0"] a[href="#step={slow}"]').first.click()
    shows_step(page, match, slow)
    slow_turn = match.replay["decisions"][slow - 1]["turn"]
    expect(field(page, "log-lines")).to_have_text(stored_lines(match, slow_turn))
    # the built-in seat's decision: no log of it
    page.get_by_role("button", name="Next").click()
    expect(field(page, "log-lines")).to_have_text(re.compile("^No log of seat 1 here"))
    assert len(asked) == 1  # fetched once, whatever the steps shown


def test_a_deep_link_opens_the_step_as_a_seat_saw_it(page: Any, match: Match) -> None:
    page.goto(f"/matches/{match.pk}/#step=6&seat=1")
    shows_step(page, match, 6, seat=1)  # the board as seat 1 knew it: others' hands hidden
    view = steps.step(match.replay, 6, 1)["seat_view"]
    expect(field(page, "seat-view")).to_be_visible()
    expect(field(page, "seat-title")).to_have_text("Seat 1 · builder")
    expect(page.locator('#replay [data-field="legal-actions"] li')).to_have_count(
        len(view["legal_actions"]) if view["to_act"] else 0
    )
    assert field(page, "seat-select").input_value() == "1"
    # moving on keeps the address in step, so it can be shared
    page.keyboard.press("ArrowRight")
    shows_step(page, match, 7, seat=1)
    expect(page).to_have_url(re.compile(r"#step=7&seat=1$"))
    # and a changed address moves the viewer (the seat chosen stays)
    page.evaluate("location.hash = '#step=2'")
    shows_step(page, match, 2, seat=1)


@pytest.mark.parametrize("who", [None, "bob"])
def test_no_logs_panel_for_anyone_else(page: Any, match: Match, who: str | None) -> None:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "logs.json" in r.url else None)
    if who:
        log_in(page, who)
    faulted = decision_steps(match.replay, 0)[FAULT_AT - 1]
    page.goto(f"/matches/{match.pk}/#step={faulted}")
    shows_step(page, match, faulted)
    expect(field(page, "logs")).to_be_hidden()
    assert page.locator("[data-notable-seat]").count() == 0
    assert "thinking" not in page.content()  # the bot's lines are nowhere on the page
    assert asked == []
