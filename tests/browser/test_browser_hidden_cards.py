"""Hidden cards are drawn as hidden, in every game that has them (Trishaw Frenzy has none).

On the play page: a person at a TRND table sees the other hands as face-down stacks with their
counts (and, face up, only the cards those seats publicly took from the market), its own hand
face up and marked "(you)", and the same picture on every poll of one decision (nothing
redrawn at random between polls); at Tri*Area and Manhattan TraffIQ tables the other (and the
built-in NPC) hands are counted backs too, and a Resign ends the game saying so. A real Celery
worker plays the bots (Redis, the same PostgreSQL database), as in ``test_browser_play.py``.

In the replay viewer: a step opened as one seat saw it (``#step=N&seat=K``) draws that seat's
hand and every other hand as counted backs, in each game; "everything" draws no back."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import pytest
from bots.services import ensure_builtin_bots
from catalog.services import sync_games
from matches.models import Match, MatchStatus
from matches.services import create_match, dispatch_match
from playwright.sync_api import expect

from arena.viewer import steps as replay_steps
from tests.conftest import WorkerProcess

from .conftest import shoot
from .test_browser_play import _log_in, worker  # noqa: F401 (a fixture, used by name)

#: The games with hidden information, and a table size each (TRND seats 3 to 5).
HIDDEN_GAMES = [("trnd", 3), ("tri-area", 2), ("manhattan-traffiq", 2)]
PICTURE = '#replay [data-field="svg"] svg'


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


def _hidden_counts(board: Any, seats: int) -> dict[int, int]:
    """Per seat group of the picture on screen: the cards it draws face down (their counts)."""
    counts = {}
    for seat in range(seats):
        backs = board.locator(f'[data-seat="{seat}"] [data-hidden]')
        counts[seat] = sum(
            int(backs.nth(i).get_attribute("data-count")) for i in range(backs.count())
        )
    return counts


def _unknown(observation: dict[str, Any], seat: int) -> int:
    """How many of ``seat``'s cards the observing seat cannot know."""
    known = observation.get("known_in_hands", {})
    public = sum(known[seat].values()) if known and known[seat] else 0
    return int(observation["hand_sizes"][seat]) - public


@pytest.mark.worker
@pytest.mark.redis
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


@pytest.mark.worker
@pytest.mark.redis
@pytest.mark.parametrize("slug", ["tri-area", "manhattan-traffiq"])
def test_every_games_play_page_hides_the_other_hands_and_a_resign_says_so(
    page: Any,
    worker: WorkerProcess,  # noqa: F811 (the fixture imported above)
    slug: str,
) -> None:
    _log_in(page, "iris")
    page.goto(f"/play/new/?game={slug}")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/play/*/0/")
    page.locator("#play-actions button.play-action").first.wait_for()
    observation = json.loads(page.locator("#play-obs").text_content())
    board = page.locator("#play-board")
    seats = len(observation["hand_sizes"])  # Tri*Area: the built-in NPC seats' hands too
    counts = _hidden_counts(board, seats)
    assert counts[0] == 0 and "Seat 0 (you)" in board.text_content()
    assert {s: counts[s] for s in range(1, seats)} == {
        s: _unknown(observation, s) for s in range(1, seats)
    }
    assert sum(counts.values()) > 0
    shoot(page, f"play-{slug}-hidden-cards")

    page.locator("#play-resign").click()
    status = page.locator("#play-status")
    expect(status).to_contain_text("The game is over")
    assert status.inner_text().endswith("(you resigned).")  # not the fault's kind, "timeout"
    assert board.locator(".play-target").count() == 0
    assert not page.locator("#play-resign").is_visible()


@pytest.fixture
def played(request: pytest.FixtureRequest, transactional_db: None) -> Match:
    slug, players = request.param
    game = next(g for g in sync_games() if g.slug == slug)
    builtins = [b.latest_version() for b in ensure_builtin_bots(game)]
    versions = [builtins[i % len(builtins)] for i in range(players)]
    options = {"max_rounds": 1} if slug == "trnd" else {}
    match = dispatch_match(create_match(game=game, versions=versions, seed=5, options=options))
    assert match.status == MatchStatus.FINISHED, match.error
    return match


@pytest.mark.parametrize("played", HIDDEN_GAMES, indirect=True, ids=[g for g, _ in HIDDEN_GAMES])
def test_the_replays_seat_view_draws_other_hands_as_counted_backs(page: Any, played: Match) -> None:
    replay, players = played.replay, len(played.replay["seats"])
    # a step in the first third, inside a round (not the picture that ends one)
    n = next(
        n
        for n in range(len(replay["decisions"]) // 3, len(replay["decisions"]))
        if replay_steps.step(replay, n)["round_end"] is None
    )
    board = page.locator(PICTURE)
    for seat in range(players):
        page.goto(f"/matches/{played.pk}/#step={n}&seat={seat}")
        shown = replay_steps.step(replay, n, seat)
        expect(page.locator('#replay [data-field="state"]')).to_have_text(shown["state_text"])
        observation = shown["seat_view"]["observation"]
        counts = _hidden_counts(board, len(observation["hand_sizes"]))
        others = [s for s in counts if s != seat]
        assert counts[seat] == 0, f"seat {seat}'s own hand drawn face down"
        # whose view it is, never "(you)": whoever looks at a replay is no seat of it
        drawn = board.text_content()
        assert f"eat {seat} (this view)" in drawn and "(you)" not in drawn
        assert {s: counts[s] for s in others} == {s: _unknown(observation, s) for s in others}
        assert sum(counts.values()) > 0
    shoot(page, f"replay-{played.game.slug}-seat-view")
    # "everything": the whole position, no card drawn face down
    page.select_option('#replay [data-field="seat-select"]', "")
    expect(page.locator('#replay [data-field="state"]')).to_have_text(
        replay_steps.step(replay, n)["state_text"]
    )
    assert board.locator("[data-hidden]").count() == 0
