"""A person plays a whole short TRND game (one round, two built-ins) by clicking, with a real
worker process: seats counted from 0 with the person's own marked "(you)" in the header, the
seat list and the picture; at the end the last position is drawn (game over, the scores), nothing
glows or takes a click, Resign is gone, and the message stays right also after the seat's hold
lapsed (past the leave timeout that used to bring "Another tab holds this seat now"); the match
page names the person."""

from __future__ import annotations

from typing import Any

import pytest
from matches.models import MatchStatus

from tests.browser.test_browser_play import (
    LEAVE_S,
    _click_to_the_end,
    _finished,
    _log_in,
    _match_id,
    worker,
)
from tests.conftest import WorkerProcess

from .conftest import shoot

__all__ = ["worker"]
pytestmark = [pytest.mark.worker, pytest.mark.redis]


def _watch(page: Any) -> tuple[list[str], list[str]]:
    """The requests the page sends to the play endpoints, and each refusal (4xx, 5xx)."""
    sent: list[str] = []
    refused: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/play/" in r.url else None)

    def answered(r: Any) -> None:
        if "/play/" in r.url and r.status >= 400:
            refused.append(f"{r.status} {r.url}")

    page.on("response", answered)
    return sent, refused


def test_a_whole_trnd_game_to_its_end(page: Any, worker: WorkerProcess) -> None:
    _log_in(page, "hana")
    sent, refused = _watch(page)
    page.goto("/play/new/?game=trnd")
    assert page.locator("select[name=seat_0]").input_value() == "you"
    page.get_by_text("Game options").click()
    page.fill("#option_max_rounds", "1")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/0/")
    match_id, _ = _match_id(page)

    # one numbering: the header, the seat list and the picture say Seat 0 for this seat
    assert f"match {match_id} · Seat 0 (you)" in page.locator("h1").inner_text()
    table = page.locator("#play-table li")
    assert table.count() == 3
    assert table.nth(0).inner_text() == "Seat 0: hana (you)"
    assert table.nth(1).inner_text().startswith("Seat 1: ") and "(bot)" in table.nth(1).inner_text()
    page.locator("#play-actions button.play-action").first.wait_for()
    assert "Seat 0 (you)" in page.locator("#play-board svg").text_content()
    assert page.locator("#play-resign").is_visible()
    clicks = _click_to_the_end(page, worker, pick="last")

    # the end: drawn, nothing to click, no Resign, the result said
    status = page.locator("#play-status")
    assert status.inner_text().startswith("The game is over: you finished ")
    board = page.locator("#play-board svg")
    assert "game over" in board.text_content() and "Seat 0 (you)" in board.text_content()
    assert page.locator("#play-board .play-target").count() == 0
    assert not page.locator("#play-resign").is_visible()
    assert not page.locator("#play-choices").is_visible()
    assert not page.locator("#play-board-hint").is_visible()
    shoot(page, "play-trnd-end")
    match = _finished(match_id, worker)
    assert match.status == MatchStatus.FINISHED and match.seats.get(seat=0).status == "ok"
    assert len([d for d in match.replay["decisions"] if d["seat"] == 0]) == clicks

    # past the leave timeout the seat's hold has lapsed: the page has stopped polling, stays
    # as it was, and a click on what used to be choices (market slots, the draw pile, the
    # hand) sends nothing
    until_end = len(sent)
    page.wait_for_timeout((LEAVE_S + 2) * 1000)
    for part in ("[data-slot]", '[data-zone="draw"]', '[data-seat="0"] [data-card]'):
        if page.locator(f"#play-board {part}").count():
            page.locator(f"#play-board {part}").first.click(force=True)
    assert sent[until_end:] == []
    assert status.inner_text().startswith("The game is over: you finished ")
    assert not page.locator("#play-refused").is_visible()
    assert refused == []

    # the match page names the person, marked as the viewer
    page.get_by_role("link", name="Watch the replay").click()
    page.wait_for_url(f"**/matches/{match_id}/")
    first_row = page.locator("table.seats tbody tr[data-seat='0']")
    assert first_row.locator("td").nth(1).inner_text() == "hana (you)"
    assert "human" not in page.locator("table.seats").inner_text()
