"""The offline viewer file (``arena replay view``) in a real browser with the network cut: every
request is refused and recorded (none may be made), the page runs under its own strict
Content-Security-Policy (no bypass: the waits are Playwright locators, not evaluated code), and
it steps, plays, draws the SVG pictures, shows a seat's view and the bot's log per decision."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from arena.cli import main
from arena.referee import run_match
from arena.replay import save_replay
from arena.viewer import steps
from tests.viewer_replays import FAULT_AT, SLOW_AT, decision_steps, log_lines, logged_replay

from .conftest import TIMEOUT_MS, shoot

CSP_WORDS = ("Content Security Policy", "Content-Security-Policy")


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return logged_replay(tmp_path_factory.mktemp("bot"))


def view_file(replay: dict[str, Any], folder: Path) -> str:
    """Write the replay and its page with the command line; the page's file:// URL."""
    source = folder / "match.json"
    save_replay(replay, source)
    assert main(["replay", "view", str(source), "-o", str(folder / "match.html")]) == 0
    return (folder / "match.html").resolve().as_uri()


@pytest.fixture(scope="module")
def url(replay: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> str:
    return view_file(replay, tmp_path_factory.mktemp("view"))


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    """A tab with no network: an offline context whose every request is aborted and recorded;
    CSP violations and JavaScript errors fail the test."""
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    asked: list[str] = []

    def the_file_itself(request: Any) -> bool:
        return request.is_navigation_request() and request.url.startswith("file:")

    def refuse(route: Any) -> None:
        if the_file_itself(route.request):  # opening the page: read from the disk
            route.continue_()
        else:
            asked.append(route.request.url)
            route.abort()

    context.route("**/*", refuse)
    page = context.new_page()
    page.on("request", lambda r: None if the_file_itself(r) else asked.append(r.url))
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.on(
        "console",
        lambda m: problems.append(m.text) if any(w in m.text for w in CSP_WORDS) else None,
    )
    try:
        yield page
    finally:
        context.close()
    assert asked == [], f"the offline page made requests: {asked}"
    assert problems == [], f"CSP violations or JavaScript errors: {problems}"


def field(page: Any, name: str) -> Any:
    return page.locator(f'#replay [data-field="{name}"]')


def shows_step(page: Any, replay: dict[str, Any], n: int) -> None:
    want = steps.step(replay, n)
    expect(field(page, "step")).to_have_text(str(n))
    expect(field(page, "state")).to_have_text(want["state_text"])
    assert page.locator("#replay input[type=range]").input_value() == str(n)
    events = want["decision"]["events"] if want["decision"] else []
    expect(page.locator('#replay [data-field="events"] li')).to_have_count(len(events))


def observation_layout(obs: dict[str, Any]) -> str:
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    lines = [f" {json.dumps(k, **compact)}: {json.dumps(v, **compact)}" for k, v in obs.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


def test_steps_pictures_seat_view_and_play_with_the_network_cut(
    tab: Any, url: str, replay: dict[str, Any]
) -> None:
    total = len(replay["decisions"])
    tab.goto(url)
    shows_step(tab, replay, 0)
    tab.get_by_role("button", name="Next").click()
    shows_step(tab, replay, 1)
    # the SVG picture of step 1, drawn from the embedded steps
    expect(field(tab, "svg").locator("svg")).to_be_visible()
    svg = steps.step(replay, 1)["svg"]
    texts = [html.unescape(t) for t in re.findall(r"<text[^>]*>(.*?)</text>", svg)]
    assert texts and field(tab, "svg").locator("svg text").all_text_contents() == texts
    tab.keyboard.press("ArrowRight")
    shows_step(tab, replay, 2)
    tab.locator("#replay input[type=range]").fill(str(total // 2))
    shows_step(tab, replay, total // 2)
    tab.keyboard.press("End")
    shows_step(tab, replay, total)
    expect(tab.get_by_role("button", name="Next")).to_be_disabled()

    # what seat 1 was told, at the step on screen and the next
    tab.keyboard.press("Home")
    shows_step(tab, replay, 0)
    field(tab, "seat-select").select_option("1")
    for n in (0, 1):
        if n:
            tab.get_by_role("button", name="Next").click()
        want = steps.step(replay, n, 1)["seat_view"]
        expect(field(tab, "observation")).to_have_text(observation_layout(want["observation"]))
        legal = len(want["legal_actions"]) if want["to_act"] else 0
        expect(tab.locator('#replay [data-field="legal-actions"] li')).to_have_count(legal)
    expect(field(tab, "seat-title")).to_have_text("Seat 1 · builtin:builder")
    shoot(tab, "offline-seat-view")
    field(tab, "seat-select").select_option("")
    expect(field(tab, "seat-view")).to_be_hidden()

    # the speed control: at 40 steps/s the whole match plays through to the end
    field(tab, "speed").select_option(label="40 steps/s")
    tab.get_by_role("button", name="Play").click()
    expect(field(tab, "step")).to_have_text(str(total), timeout=60_000)
    expect(tab.locator('#replay [data-go="play"]')).to_have_text("Play")
    shows_step(tab, replay, total)


def test_logs_panel_shows_the_deciding_seats_lines_time_and_fault(
    tab: Any, url: str, replay: dict[str, Any]
) -> None:
    mine = decision_steps(replay, 0)
    faulted = mine[FAULT_AT - 1]
    decision = replay["decisions"][faulted - 1]
    tab.goto(f"{url}#step={faulted}")  # a deep link
    shows_step(tab, replay, faulted)
    panel = field(tab, "logs")
    expect(panel).to_be_visible()
    expect(field(tab, "log-title")).to_have_text(f"Seat 0 · chatty, decision #{decision['turn']}")
    lines = log_lines(replay, 0, decision["turn"])
    assert lines and "🎲" in lines  # non-BMP text: offsets count code points, not UTF-16 units
    expect(field(tab, "log-lines")).to_have_text(lines)
    detail = replay["seats"][0]["faults"][0]["detail"]
    expect(field(tab, "log-fault")).to_have_text(f"illegal_action: {detail} (default played)")
    expect(field(tab, "log-ms")).to_have_text(re.compile(r"^[\d.]+ ms$"))
    shoot(tab, "offline-logs")

    # the built-in seat's decision: it has no log, and the panel says so
    theirs = decision_steps(replay, 1)[0]
    tab.locator("#replay input[type=range]").fill(str(theirs))
    shows_step(tab, replay, theirs)
    expect(field(tab, "log-lines")).to_have_text(re.compile("^No log of seat 1 here"))
    # the first decision's lines include what the bot wrote while starting
    tab.locator("#replay input[type=range]").fill(str(mine[0]))
    first_turn = replay["decisions"][mine[0] - 1]["turn"]
    expect(field(tab, "log-lines")).to_have_text(log_lines(replay, 0, first_turn) or "")
    assert "warming up" in field(tab, "log-lines").inner_text()


def test_deep_links_and_the_address_follow_the_viewer(
    tab: Any, url: str, replay: dict[str, Any]
) -> None:
    slow = decision_steps(replay, 0)[SLOW_AT - 1]
    tab.goto(f"{url}#step=5&seat=0")
    shows_step(tab, replay, 5)
    expect(field(tab, "seat-view")).to_be_visible()
    expect(field(tab, "seat-title")).to_have_text("Seat 0 · chatty")
    # a decision worth a look: a link to its step, followed in the viewer
    tab.locator(f'[data-notable-seat="0"] a[href="#step={slow}"]').first.click()
    shows_step(tab, replay, slow)
    expect(field(tab, "log-lines")).to_have_text(
        log_lines(replay, 0, replay["decisions"][slow - 1]["turn"]) or ""
    )
    # moving on writes the step into the address, so it can be copied
    tab.keyboard.press("ArrowRight")
    shows_step(tab, replay, slow + 1)
    expect(tab).to_have_url(re.compile(rf"#step={slow + 1}&seat=0$"))


def test_without_logs_there_is_no_panel(tab: Any, tmp_path: Path) -> None:
    replay = run_match("tri-area", ["builtin:builder", "builtin:random"], seed=3).replay
    tab.goto(view_file(replay, tmp_path))
    tab.get_by_role("button", name="Next").click()
    shows_step(tab, replay, 1)
    expect(field(tab, "logs")).to_be_hidden()
    assert tab.locator("[data-notable-seat]").count() == 0


def test_a_browser_without_decompression_streams_is_told_why(
    tab: Any, url: str, replay: dict[str, Any]
) -> None:
    tab.add_init_script("delete window.DecompressionStream")
    tab.goto(url)
    expect(field(tab, "problem")).to_have_text(re.compile("^This browser cannot unpack the steps"))
    # step 0, drawn into the page itself, is still there
    expect(field(tab, "state")).to_have_text(steps.step(replay, 0)["state_text"])
