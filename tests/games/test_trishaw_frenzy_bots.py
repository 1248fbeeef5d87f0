"""Trishaw Frenzy: built-in bots play legal moves and the heuristic beats random."""

from __future__ import annotations

import pytest

from games.registry import bots, get_game
from games.rng import Rng, derive_seed
from games.simulate import play, win_share
from games.trishaw_frenzy.bots import RacerBot, expected_round_vp, rebuild_state
from games.trishaw_frenzy.components import ROUTE_CELLS
from games.trishaw_frenzy.state import TrishawState

SLUG = "trishaw-frenzy"


def test_bot_registry() -> None:
    assert set(bots(SLUG)) == {"random", "racer"}


def test_racer_beats_random_head_to_head() -> None:
    share, low, _ = win_share(SLUG, "racer", "random", 2, 160, seed=7)
    assert low > 0.55, share  # measured about 0.8 over 1,000 matches


def test_racer_beats_random_at_four() -> None:
    share, low, _ = win_share(SLUG, "racer", "random", 4, 120, seed=7)
    assert low > 0.25, share  # a random rider wins 25%


def test_racer_wins_solo_more_often_than_random() -> None:
    def solo_wins(name: str) -> int:
        return sum(
            play(SLUG, [name], seed=derive_seed(3, i)).details["solo_outcome"] == "win"
            for i in range(150)
        )

    assert solo_wins("racer") > solo_wins("random")


def test_racer_takes_the_forward_move_that_wins_the_round() -> None:
    route = ROUTE_CELLS[0][0]
    obs = {
        "you": 0,
        "rotate_carries_trishaws": True,
        "map": {"tiles": [{"tile": f"T{p + 1}", "turns": 0} for p in range(9)]},
        "route": {"card": "R1", "view": 0},
        "trishaws": [
            {"cell": list(divmod(route[78], 9)), "view": 0},
            {"cell": list(divmod(route[79], 9)), "view": 2},
        ],
        "decks": {"events_left": 5, "route_discard": []},
    }
    legal = [
        {"type": "rotate", "tile": 0, "turns": 1},
        {"type": "bottom", "effect": "push_back_d4", "target": 0},
        {"type": "bottom", "effect": "forward_d4"},
        {"type": "bottom", "effect": "push_back_d4", "target": 1},
    ]
    # forward D4 from 78 reaches the last square (ending the round in first place) on 2+
    assert RacerBot(0, 2, {}, 1).act(obs, legal) == 2


def test_expected_vp_prefers_being_ahead() -> None:
    tiles = [[p, 0] for p in range(9)]
    route = ROUTE_CELLS[0][0]
    ahead = expected_round_vp(tiles, 0, 0, [route[50], route[20]], 0, False)
    behind = expected_round_vp(tiles, 0, 0, [route[20], route[50]], 0, False)
    assert ahead > behind
    assert expected_round_vp(tiles, 0, 0, [route[80], route[20]], 0, False) == 6


@pytest.mark.parametrize("players", [1, 2, 4])
def test_rebuild_state_matches_the_observation(players: int) -> None:
    """A state rebuilt from an observation shows the same observation and legal actions, holds
    the same unseen cards, and plays on to a legal end."""
    state = get_game(SLUG).new_game(players, seed=11, options={"rounds": 2})
    rng, checked = Rng(5), 0
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) > 1 or checked % 9 == 0:
            obs = state.observation(seat)
            rebuilt = TrishawState(rebuild_state(obs, Rng(checked)))
            assert rebuilt.observation(seat) == obs
            assert rebuilt.legal_actions() == legal
            for deck in ("event_deck", "route_deck"):
                assert sorted(rebuilt.s[deck]) == sorted(state.s[deck])
            rebuilt.apply(legal[-1])  # the engine accepts the rebuilt state
        checked += 1
        state.apply(legal[rng.below(len(legal))])
    assert checked > 30
