"""The learning adapters against PettingZoo's and Gymnasium's own checkers, and against the
engine and the referee: the same seed and the same choices give the same match."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from arena.learning import LearningError, MeepleAECEnv, MeepleGymEnv, spec_for
from arena.learning.spec import encode, rewards
from arena.referee import run_match
from arena.replay import state_digest
from games import registry
from games.rng import Rng
from games.simulate import play

SLUGS = registry.slugs()
# A stronger built-in per game (the one that is not "random").
STRONG = {s: next(b for b in registry.bots(s) if b != "random") for s in SLUGS}


def _counts(slug: str) -> list[int]:
    g = registry.get_game(slug)
    return sorted({g.min_players, g.max_players})


@pytest.fixture(autouse=True)
def _quiet() -> None:
    # api_test warns (not fails) about Dict observation spaces, as for its own chess env
    warnings.simplefilter("ignore", UserWarning)


def test_every_registered_game_has_a_learning_spec() -> None:
    assert all(spec_for(slug).max_legal == registry.entry(slug).max_legal for slug in SLUGS)
    with pytest.raises(Exception, match="unknown game"):
        spec_for("no-such-game")


@pytest.mark.parametrize("slug", SLUGS)
def test_pettingzoo_api_test(slug: str) -> None:
    for players in _counts(slug):
        api_test(MeepleAECEnv(slug, players), num_cycles=400)


@pytest.mark.parametrize("slug", SLUGS)
def test_gymnasium_check_env(slug: str) -> None:
    for players in _counts(slug):
        others = [f"builtin:{STRONG[slug]}"] * (players - 1)
        check_env(MeepleGymEnv(slug, others, seat=players - 1), skip_render_check=True)


@pytest.mark.parametrize("slug", SLUGS)
def test_aec_rollout_equals_engine(slug: str) -> None:
    """Seeded random indices through the AEC adapter and straight into the engine."""
    players = _counts(slug)[-1]
    env = MeepleAECEnv(slug, players)
    env.reset(seed=11)
    rng = Rng(5)
    chosen: list[int] = []
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        assert not trunc
        if term:
            final[agent] = reward
            env.step(None)
            continue
        legal = info["legal_actions"]
        mask = obs["action_mask"]
        assert mask.sum() == len(legal) and mask[: len(legal)].all()
        assert info["observation_json"] == env.state_.observation(int(agent.split("_")[1]))
        i = rng.below(len(legal))
        chosen.append(i)
        env.step(i)
    engine = registry.get_game(slug).new_game(players, 11)
    for i in chosen:
        engine.apply_index(i)
    assert engine.is_over()
    assert env.result == engine.result().to_json()
    assert state_digest(engine) == state_digest(env.state_)
    # every agent got its final reward from the ranks, once, at the end
    assert [final[a] for a in env.possible_agents] == rewards(env.result, players)
    assert env.agents == []


@pytest.mark.parametrize("slug", SLUGS)
def test_gym_rollout_equals_referee(slug: str) -> None:
    """The learner plays the strong built-in's choices (read from info); the match equals the
    in-process simulation and the referee's match with the same seed, bots and seats."""
    players = max(2, registry.get_game(slug).min_players)
    names = [STRONG[slug], "random", *["random"] * (players - 2)]
    env = MeepleGymEnv(slug, [f"builtin:{n}" for n in names[1:]], seat=0)
    bot = registry.get_bot(slug, names[0])
    from games.rng import derive_seed

    me = bot(0, players, env.game_options, derive_seed(21, "bot", 0))
    _, info = env.reset(seed=21)
    terminated = False
    total = 0.0
    while not terminated:
        index = me.act(info["observation_json"], info["legal_actions"])
        _, reward, terminated, truncated, info = env.step(index)
        total += reward
        assert not truncated
    assert info["result"] == play(slug, names, seed=21).to_json()
    outcome = run_match(slug, [f"builtin:{n}" for n in names], seed=21)
    assert outcome.result["scores"] == info["result"]["scores"]
    assert outcome.result["ranks"] == info["result"]["ranks"]
    assert total == rewards(info["result"], players)[0]


def test_declared_action_spaces_hold_every_decision_seen() -> None:
    for slug in SLUGS:
        spec = spec_for(slug)
        for players in _counts(slug):
            for seed in range(3):
                state = registry.get_game(slug).new_game(players, seed)
                rng = Rng(seed)
                widest = 0
                while not state.is_over():
                    legal = state.legal_actions()
                    widest = max(widest, len(legal))
                    state.apply_index(rng.below(len(legal)))
                assert widest <= spec.max_legal, (slug, players, seed, widest)


def test_gym_illegal_index_modes() -> None:
    env = MeepleGymEnv("trnd", ["builtin:random", "builtin:random"])
    _, info = env.reset(seed=3)
    wide = len(info["legal_actions"])
    _, reward, terminated, _, info = env.step(wide)  # one past the end
    assert terminated and reward == -1.0 and info["illegal"] is True
    with pytest.raises(LearningError, match="reset"):
        env.step(0)
    env = MeepleGymEnv("trnd", ["builtin:random", "builtin:random"], illegal="raise")
    env.reset(seed=3)
    with pytest.raises(LearningError, match="not legal"):
        env.step(wide)
    wrapped = MeepleGymEnv("trnd", ["builtin:random", "builtin:random"], illegal="wrap")
    direct = MeepleGymEnv("trnd", ["builtin:random", "builtin:random"])
    wrapped.reset(seed=3)
    direct.reset(seed=3)
    a, *_ = wrapped.step(wide + 1)
    b, *_ = direct.step(1)
    assert np.array_equal(a["observation"], b["observation"])


def test_aec_refuses_an_illegal_index_and_bad_arguments() -> None:
    env = MeepleAECEnv("tri-area", 2)
    env.reset(seed=1)
    with pytest.raises(LearningError, match="action_mask"):
        env.step(spec_for("tri-area").max_legal - 1)
    with pytest.raises(Exception, match="played by"):
        MeepleAECEnv("trnd", 2)
    with pytest.raises(LearningError, match="reward mode"):
        MeepleAECEnv("trnd", 3, reward="elo")
    with pytest.raises(LearningError, match="builtin:NAME"):
        MeepleGymEnv("trnd", ["greedy", "builtin:random"])


def test_encoding_is_stable_and_separates_observations() -> None:
    state = registry.get_game("trnd").new_game(3, 4)
    a = encode(state.observation(0), 256)
    assert np.array_equal(a, encode(state.observation(0), 256))
    assert not np.array_equal(a, encode(state.observation(1), 256))
    assert a.dtype == np.float32 and np.abs(a).max() <= 16.0


def test_rank_rewards() -> None:
    assert rewards({"scores": [5, 9, 9], "ranks": [3, 1, 1]}, 3) == [-1.0, 1.0, 1.0]
    assert rewards({"scores": [14], "ranks": [1]}, 1) == [14.0]
    assert rewards({"scores": [3, 4], "ranks": [2, 1]}, 2, "score") == [3.0, 4.0]
