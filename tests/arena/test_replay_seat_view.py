"""The replay viewer's steps: a seat's view is exactly what that seat was told, round-end
frames are the positions before each new deal, event lines read as text."""

from __future__ import annotations

from typing import Any

import pytest

from arena.referee import run_match
from arena.viewer import steps as replay_steps
from games.registry import get_game, slugs

#: Short matches of every game (options that end them early where the game has some).
SHORT: dict[str, tuple[int, dict[str, Any]]] = {
    "trnd": (3, {"max_rounds": 2}),
    "tri-area": (2, {}),
    "trishaw-frenzy": (2, {"rounds": 2}),
    "manhattan-traffiq": (2, {}),
}


def _replay(slug: str, seed: int = 7) -> dict[str, Any]:
    players, options = SHORT[slug]
    outcome = run_match(slug, ["builtin:random"] * players, seed=seed, options=options)
    assert outcome.status == "finished"
    return outcome.replay


def test_every_game_is_covered() -> None:
    assert set(SHORT) == set(slugs())


@pytest.mark.parametrize("slug", sorted(SHORT))
def test_seat_view_of_every_step_is_that_seats_observation(slug: str) -> None:
    replay = _replay(slug)
    game = get_game(slug)
    state = game.new_game(len(replay["seats"]), replay["seed"], replay["options"])
    moves = replay["decisions"]
    assert len(moves) > 10
    for n in range(len(moves) + 1):
        if n:
            state.apply(moves[n - 1]["action"])
        for seat in range(state.players):
            view = replay_steps.step(replay, n, seat)["seat_view"]
            assert set(view) == {"seat", "to_act", "observation", "legal_actions"}
            assert view["observation"] == state.observation(seat), (n, seat)
            to_act = state.current_seat() == seat
            assert view["to_act"] is to_act
            assert view["legal_actions"] == (state.legal_actions() if to_act else None)
    # the acting seat's view at each decision offered the action it then played
    for n, d in enumerate(moves):
        view = replay_steps.step(replay, n, d["seat"])["seat_view"]
        assert view["to_act"] and d["action"] in view["legal_actions"]


def test_a_step_without_a_seat_has_no_seat_view_and_bad_seats_are_refused() -> None:
    replay = _replay("trishaw-frenzy")
    assert replay_steps.step(replay, 3)["seat_view"] is None
    with pytest.raises(replay_steps.ReplayUnavailable, match="Seat 5 is not a seat"):
        replay_steps.step(replay, 3, 5)


@pytest.mark.parametrize("slug", ["trnd", "tri-area", "trishaw-frenzy"])
def test_round_end_frames_show_the_position_before_each_deal(slug: str) -> None:
    replay = _replay(slug, seed=3)
    render = replay_steps.svg_renderer_for(slug)
    assert render is not None
    game = get_game(slug)
    state = game.new_game(len(replay["seats"]), replay["seed"], replay["options"])
    frames = 0
    for n, d in enumerate(replay["decisions"], start=1):
        _, before_deal = state.apply_keeping_round_end(d["action"])
        dealt = any(e.get("type") == "round_start" for e in d["events"])
        if not dealt:
            continue
        frames += 1
        step = replay_steps.step(replay, n)
        assert before_deal is not None and step["round_end"] is not None
        assert step["round_end"]["svg"] == render(before_deal)
        assert step["round_end"]["svg"] != step["svg"]  # the deal changed the picture
        assert step["round_end"]["round"] == state.to_json()["round"] - 1
    assert frames >= 1
    assert replay_steps.step(replay, 1)["round_end"] is None


def test_event_lines_read_as_text_with_seat_names() -> None:
    names = {0: "seat 0 (greedy)", 1: "seat 1 (mybot)"}
    line = replay_steps.describe_event(
        {"type": "clear_out", "seat": 1, "card": "TUBE", "count": 3, "points": [1, 2]}, names
    )
    assert line == "clear out · seat 1 (mybot) · card TUBE · count 3 · points [1, 2]"
    plain = replay_steps.describe_event({"type": "x", "ok": True, "v": None})
    assert plain == "x · ok yes · v none"
    replay = _replay("manhattan-traffiq")
    step = replay_steps.step(replay, 1)
    assert len(step["event_lines"]) == len(step["decision"]["events"])
    assert all("{'" not in line and '"' not in line for line in step["event_lines"])
