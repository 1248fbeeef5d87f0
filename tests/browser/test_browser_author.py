"""What a bot author does in a real browser: read a game's rules page and download its starter
bot; study a replay at speed, as one seat saw it, with the round-end positions drawn."""

from __future__ import annotations

import io
import json
import zipfile
from collections import Counter
from pathlib import Path
from typing import Any

from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match

from arena.newbot import example_act_message, starter_zip
from arena.viewer import steps as replay_steps

from .conftest import shoot

STATE = '#replay [data-field="state"]'


def _match(slug: str, seed: int, options: dict[str, Any] | None = None) -> Match:
    game = next(g for g in sync_games() if g.slug == slug)
    versions = [b.latest_version() for b in ensure_builtin_bots(game)]
    if len(versions) < game.min_players:  # TRND needs 3 seats: a second random entry
        from bots.services import create_bot

        extra = create_bot(owner=versions[0].bot.owner, game=game, name="random-2")
        versions.append(extra.versions.create(number=1, builtin_name="random"))
    played = dispatch_match(create_match(game=game, versions=versions, seed=seed, options=options))
    assert played.status == MatchStatus.FINISHED
    return played


def _field(page: Any, name: str) -> str:
    return page.locator(f'#replay [data-field="{name}"]').inner_text()


def _shows_text(page: Any, text: str) -> None:
    page.wait_for_function(
        "([sel, text]) => document.querySelector(sel).textContent === text", arg=[STATE, text]
    )


def _one_field_per_line(obs: dict[str, Any]) -> str:
    """The viewer's layout of an observation (valid JSON, one top-level field per line)."""
    compact = {"separators": (",", ":"), "ensure_ascii": False}
    lines = [f" {json.dumps(k, **compact)}: {json.dumps(v, **compact)}" for k, v in obs.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


def test_rules_page_and_starter_bot_download(page: Any, live_server: Any) -> None:
    sync_games()
    outside: list[str] = []
    page.on(
        "request",
        lambda r: (
            None
            if r.url.startswith(live_server.url) or r.url.startswith("data:")
            else outside.append(r.url)
        ),
    )
    page.goto("/games/tri-area/rules/")
    page.get_by_role("heading", name="Tri*Area: rules for bot authors").wait_for()
    rules = page.locator('[data-test="rules"]')
    # RULES.md's own headings and tables, rendered
    assert rules.get_by_role("heading", name="Round 3 preparation").is_visible()
    assert rules.locator("table").count() >= 3
    assert "[INTERP]" in rules.inner_text()
    example = page.locator('[data-test="example-act"]').inner_text()
    assert json.loads(example) == example_act_message("tri-area")
    assert page.get_by_role("cell", name="sold_blocks_penalised", exact=True).first.is_visible()
    assert "builtin:builder" in page.inner_text("main")
    with page.expect_download() as info:
        page.locator('[data-test="starter-zip"]').click()
    download = info.value
    assert download.suggested_filename == "tri-area-starter-bot.zip"
    data = Path(download.path()).read_bytes()
    assert data == starter_zip("tri-area")
    assert sorted(zipfile.ZipFile(io.BytesIO(data)).namelist()) == ["README.md", "main.py"]
    page.get_by_role("link", name="The bot protocol").click()
    page.get_by_role("heading", name="Bot protocol, version 1").wait_for()
    page.get_by_role("link", name="Use the API").first.click()
    page.get_by_role("heading", name="1. Get a token").wait_for()
    assert outside == []  # everything served by the site itself: works offline
    shoot(page, "rules")


def test_speed_control_to_the_end_and_one_request_per_step(page: Any) -> None:
    match = _match("trnd", 5, {"max_rounds": 2})
    total = len(match.replay["decisions"])
    # at the default 2 steps/s this would take longer than the wait below allows
    assert total / 2 > 35
    asked: list[str] = []
    # Answered steps: a request that failed (a loaded test server) is rightly asked again.
    page.on("response", lambda r: asked.append(r.url) if "/steps/" in r.url and r.ok else None)
    page.goto(f"/matches/{match.pk}/")
    _shows_text(page, replay_steps.step(match.replay, 0)["state_text"])
    page.locator('#replay [data-field="speed"]').select_option(label="40 steps/s")
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(
        "t => document.querySelector('#replay [data-field=\"step\"]').textContent === String(t)"
        " && document.querySelector('#replay [data-go=\"play\"]').textContent === 'Play'",
        arg=total,
        timeout=35_000,
    )
    _shows_text(page, replay_steps.step(match.replay, total)["state_text"])
    counts = Counter(asked)
    assert max(counts.values()) == 1, counts.most_common(3)
    assert len(counts) == total + 1  # every step once, each from the prefetch or the player

    page.keyboard.press("Home")
    _shows_text(page, replay_steps.step(match.replay, 0)["state_text"])
    page.get_by_role("button", name="To the end").click()
    _shows_text(page, replay_steps.step(match.replay, total)["state_text"])
    assert _field(page, "step") == str(total)
    assert page.get_by_role("button", name="Next").is_disabled()
    with page.expect_download() as info:
        page.get_by_role("link", name="Download the replay (JSON)").click()
    assert json.loads(Path(info.value.path()).read_text()) == match.replay


def test_seat_view_shows_what_that_seat_was_told(page: Any) -> None:
    match = _match("tri-area", 4)
    page.goto(f"/matches/{match.pk}/")
    panel = page.locator('#replay [data-field="seat-view"]')
    assert panel.is_hidden()
    page.locator('#replay [data-field="seat-select"]').select_option("1")
    panel.wait_for(state="visible")
    for n in (0, 1, 2):
        if n:
            page.get_by_role("button", name="Next").click()
        want = replay_steps.step(match.replay, n, 1)["seat_view"]
        page.wait_for_function(
            "([n]) => document.querySelector('#replay [data-field=\"step\"]').textContent"
            " === String(n)",
            arg=[n],
        )
        page.wait_for_function(
            "text => document.querySelector('#replay [data-field=\"observation\"]')"
            ".textContent === text",
            arg=_one_field_per_line(want["observation"]),
        )
        shown = json.loads(page.locator('#replay [data-field="observation"]').inner_text())
        assert shown == want["observation"]
        assert shown["hand"] and shown["seat"] == 1
        assert page.locator('#replay [data-field="legal-actions"] li').count() == (
            len(want["legal_actions"]) if want["to_act"] else 0
        )
    title = page.locator('#replay [data-field="seat-title"]').text_content()
    assert title == "Seat 1 · builder"
    # the full picture stays beside it
    assert page.locator('#replay [data-field="svg"] svg').is_visible()
    shoot(page, "seat-view")
    page.locator('#replay [data-field="seat-select"]').select_option("")
    panel.wait_for(state="hidden")


def test_round_end_frame_comes_before_the_next_deal(page: Any) -> None:
    match = _match("tri-area", 4)
    moves = match.replay["decisions"]
    n = next(
        i + 1
        for i, d in enumerate(moves)
        if any(e.get("type") == "round_start" for e in d["events"])
    )
    step = replay_steps.step(match.replay, n)
    assert step["round_end"] is not None
    before = replay_steps.step(match.replay, n - 1)
    page.goto(f"/matches/{match.pk}/")
    page.locator("#replay input[type=range]").fill(str(n - 1))
    _shows_text(page, before["state_text"])
    banner = page.locator('#replay [data-field="frame"]')
    assert banner.is_hidden()

    page.get_by_role("button", name="Next").click()  # the round ends: its last position
    _shows_text(page, step["round_end"]["state_text"])
    banner.wait_for(state="visible")
    assert banner.inner_text() == "End of round 1: the position before the next deal."
    assert _field(page, "step") == str(n)
    shoot(page, "round-end")

    page.get_by_role("button", name="Next").click()  # then the deal
    _shows_text(page, step["state_text"])
    banner.wait_for(state="hidden")
    assert step["state_text"] != step["round_end"]["state_text"]

    page.get_by_role("button", name="Prev").click()  # and back again
    _shows_text(page, step["round_end"]["state_text"])
    page.get_by_role("button", name="Prev").click()
    _shows_text(page, before["state_text"])
