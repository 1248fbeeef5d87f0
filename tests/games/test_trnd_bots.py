"""TRND built-in bots: legal play, determinism, and the heuristic's strength against random."""

from __future__ import annotations

import pytest

from games.simulate import play, win_share
from games.trnd import BOTS
from games.trnd.bots import GreedyBot
from games.trnd.positions import build


def test_bots_registered() -> None:
    assert set(BOTS) == {"random", "greedy"}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_greedy_clearly_beats_random(players: int) -> None:
    share, low, _high = win_share("trnd", "greedy", "random", players, 90, seed=2024)
    assert low > 0.8, f"greedy won only {share:.0%} of first places with {players} players"


def test_greedy_self_play_reaches_the_target_and_is_deterministic() -> None:
    for seed in range(5):
        first = play("trnd", ["greedy"] * 4, seed=seed)
        again = play("trnd", ["greedy"] * 4, seed=seed)
        assert first.to_json() == again.to_json()
        assert first.reason == "normal" and max(first.scores) >= 81


def _decide(state, seat: int = 0) -> dict:
    bot = GreedyBot(seat, state.players, {}, 1)
    legal = state.legal_actions()
    return legal[bot.act(state.observation(seat), legal)]


def test_greedy_takes_the_card_that_clears_out_big() -> None:
    # taking a black-ant and shedding the white-sling leaves nine black-ants: 81 points now
    state = build(
        [{"black-ant": 8, "white-sling": 1}, {"red-shell": 9}, {"white-shell": 9}],
        top="black-sling",
        market=[*["red-ant"] * 5, "black-ant", *["red-sling"] * 2],
    )
    assert _decide(state) == {"type": "take", "slot": 5}
    state.apply({"type": "take", "slot": 5})
    assert _decide(state) == {"type": "discard", "card": "white-sling", "count": 1}


def test_greedy_sheds_a_whole_junk_group() -> None:
    state = build(
        [{"black-ant": 5, "white-sling": 3, "red-shell": 2}, {"red-ant": 9}, {"white-shell": 9}],
        top="black-sling",
        market=["red-sling"] * 8,
    )
    state.apply({"type": "take", "slot": 0})
    assert _decide(state) == {"type": "discard", "card": "white-sling", "count": 3}
