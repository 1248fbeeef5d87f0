"""The conformance suite every registered game must pass (after PettingZoo's api_test).

Seeded random playouts to the end, determinism, JSON round-trip, legal actions never empty
while the game runs, illegal actions refused without damage, and no leak: a seat's
observation is the same whatever the hidden information of the others.
"""

from __future__ import annotations

import json

import pytest

from games import registry
from games.base import GameError, GameState, IllegalAction
from games.rng import Rng, derive_seed

SLUGS = registry.slugs()
PLAYOUTS = 12


def _player_counts(slug: str) -> list[int]:
    g = registry.get_game(slug)
    return list(range(g.min_players, g.max_players + 1))


def _playout(state: GameState, seed: int, check_every: int = 0) -> list[int]:
    """Random play to the end; returns the indices chosen."""
    rng = Rng(seed)
    chosen: list[int] = []
    steps = 0
    while not state.is_over():
        seat = state.current_seat()
        assert seat is not None and 0 <= seat < state.players
        legal = state.legal_actions()
        assert legal, "legal actions empty while the game runs"
        if check_every and steps % check_every == 0:
            _check_roundtrip(state)
            json.dumps(state.observation(seat))
            json.dumps(legal)
        i = rng.below(len(legal))
        chosen.append(i)
        events = state.apply(legal[i])
        assert isinstance(events, list)
        json.dumps(events)
        steps += 1
        assert steps < 200_000, "game did not end"
    assert state.current_seat() is None
    return chosen


def _check_roundtrip(state: GameState) -> None:
    data = state.to_json()
    text = json.dumps(data, sort_keys=True)
    again = type(state).from_json(json.loads(text))
    assert json.dumps(again.to_json(), sort_keys=True) == text
    assert again.legal_actions() == state.legal_actions()
    assert again.current_seat() == state.current_seat()


@pytest.mark.parametrize("slug", SLUGS)
def test_describe_and_registry(slug: str) -> None:
    game = registry.get_game(slug)
    assert game.slug == slug
    d = game.describe()
    json.dumps(d)
    assert 1 <= d["min_players"] <= d["max_players"]
    assert "random" in registry.bots(slug)
    assert len(registry.bots(slug)) >= 2, "a heuristic bot besides random"


@pytest.mark.parametrize("slug", SLUGS)
def test_random_playouts_end_with_valid_result(slug: str) -> None:
    game = registry.get_game(slug)
    for players in _player_counts(slug):
        for k in range(PLAYOUTS):
            seed = derive_seed(1234, slug, players, k)
            state = game.new_game(players, seed)
            _playout(state, seed, check_every=37)
            res = state.result()
            assert len(res.scores) == len(res.ranks) == players
            assert min(res.ranks) == 1
            # ranks are competition ranks consistent with themselves
            for i in range(players):
                assert res.ranks[i] == 1 + sum(1 for r in res.ranks if r < res.ranks[i])
            json.dumps(res.to_json())
            _check_roundtrip(state)


@pytest.mark.parametrize("slug", SLUGS)
def test_determinism(slug: str) -> None:
    game = registry.get_game(slug)
    players = game.max_players
    seed = derive_seed(99, slug)
    a = game.new_game(players, seed)
    choices = _playout(a, seed)
    b = game.new_game(players, seed)
    for i in choices:
        b.apply(b.legal_actions()[i])
    assert json.dumps(a.to_json(), sort_keys=True) == json.dumps(b.to_json(), sort_keys=True)
    assert a.result().to_json() == b.result().to_json()


@pytest.mark.parametrize("slug", SLUGS)
def test_different_seeds_differ(slug: str) -> None:
    game = registry.get_game(slug)
    players = game.max_players
    a = game.new_game(players, 1).to_json()
    b = game.new_game(players, 2).to_json()
    assert a != b


@pytest.mark.parametrize("slug", SLUGS)
def test_no_leak_in_observations(slug: str) -> None:
    """Redraw everything a seat may not know; its observation must not change."""
    game = registry.get_game(slug)
    for players in _player_counts(slug):
        seed = derive_seed(7, slug, players)
        state = game.new_game(players, seed)
        rng = Rng(seed)
        steps = 0
        while not state.is_over() and steps < 400:
            if steps % 11 == 0:
                for seat in range(players):
                    other = state.resample_hidden(seat, rng.next64())
                    assert other.observation(seat) == state.observation(seat), (
                        f"{slug}: seat {seat}'s observation depends on hidden information"
                    )
                    if state.current_seat() == seat:
                        assert other.legal_actions() == state.legal_actions()
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            steps += 1


@pytest.mark.parametrize("slug", SLUGS)
def test_illegal_action_refused_and_state_unchanged(slug: str) -> None:
    game = registry.get_game(slug)
    state = game.new_game(game.max_players, 5)
    before = json.dumps(state.to_json(), sort_keys=True)
    for bad in ({"type": "no-such-action"}, None, "x", 12345, [1, 2, 3]):
        with pytest.raises(IllegalAction):
            state.apply(bad)
    assert json.dumps(state.to_json(), sort_keys=True) == before


@pytest.mark.parametrize("slug", SLUGS)
def test_bad_setup_is_a_clear_error(slug: str) -> None:
    game = registry.get_game(slug)
    with pytest.raises(GameError, match="players"):
        game.new_game(game.max_players + 1, 1)
    with pytest.raises(GameError, match="unknown option"):
        game.new_game(game.max_players, 1, {"no_such_option": 1})
    with pytest.raises(GameError):
        game.new_game(game.min_players, 1).result()  # not over yet


@pytest.mark.parametrize("slug", SLUGS)
def test_builtin_bots_play_legal_moves(slug: str) -> None:
    from games.simulate import play

    game = registry.get_game(slug)
    names = list(registry.bots(slug))
    players = max(game.min_players, min(game.max_players, len(names)))
    for k in range(3):
        seats = [names[(k + s) % len(names)] for s in range(players)]
        res = play(slug, seats, seed=k)
        assert len(res.ranks) == players
